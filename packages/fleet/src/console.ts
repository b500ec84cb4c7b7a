import { AreaUrlError, areasFromEnv, startConsole } from '@fieldcast/console';
import { createLogger } from '@fieldcast/kit';
import { CONSOLE, ConfigError, listenHost, portOf, stopOnSignals, type FleetEnv } from '@fieldcast/runtime';
import { serviceNamed, SERVICES } from './services.js';

/**
 * `fieldcast serve console`: the web console alone, in distributed mode (docs/architecture.md §2).
 * It holds no data and needs no database: the page calls the areas at FIELDCAST_<AREA>_URL, or
 * http://<area>:<port> as the generated deploy files name them (decision 0190).
 */
export async function serveConsole(env: FleetEnv, processEnv: NodeJS.ProcessEnv = process.env): Promise<void> {
  let areas: Record<string, string>;
  try {
    areas = areasFromEnv(
      SERVICES.map((s) => s.area),
      processEnv,
      (area) => portOf(serviceNamed(area), env.PORT_BASE),
    );
  } catch (err) {
    // the operator's setting, told as every refused variable is (exit 2)
    throw err instanceof AreaUrlError ? new ConfigError(err.message) : err;
  }
  const running = await startConsole({
    port: env.PORT ?? portOf(CONSOLE, env.PORT_BASE),
    host: listenHost('distributed', env.HOST),
    config: { areas, demo: null, archive: null },
  });
  process.stdout.write(`Fieldcast console at ${running.url}\n`);
  stopOnSignals({ services: [], stop: running.stop }, createLogger({ level: env.LOG_LEVEL }));
}
