import { areasFromEnv, startConsole } from '@fieldcast/console';
import { createLogger } from '@fieldcast/kit';
import { CONSOLE, ConfigError, listenHost, portOf, stopOnSignals, type FleetEnv } from '@fieldcast/runtime';
import { serviceNamed, SERVICES } from './services.js';

/**
 * Each area's FIELDCAST_<AREA>_URL that is set, trimmed; blank is unset, as parseEnv reads every
 * variable. A value that is not an http(s) URL stops start-up naming it (docs/operations.md
 * "Environment"), rather than be handed to every browser as an address it cannot call.
 */
function areaUrlsFromEnv(processEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const urls: NodeJS.ProcessEnv = {};
  const bad: string[] = [];
  for (const { area } of SERVICES) {
    const name = `FIELDCAST_${area.toUpperCase()}_URL`;
    const value = processEnv[name]?.trim();
    if (!value) continue;
    if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
      bad.push(`  ${name}: must be an http(s) URL such as https://${area}.example.com`);
    urls[name] = value;
  }
  if (bad.length > 0) throw new ConfigError(`Invalid environment:\n${bad.join('\n')}`);
  return urls;
}

/**
 * `fieldcast serve console`: the web console alone, in distributed mode (docs/architecture.md §2).
 * It holds no data and needs no database: the page calls the areas at FIELDCAST_<AREA>_URL, or
 * http://<area>:<port> as the generated deploy files name them (decision 0190).
 */
export async function serveConsole(env: FleetEnv, processEnv: NodeJS.ProcessEnv = process.env): Promise<void> {
  const areas = areasFromEnv(
    SERVICES.map((s) => s.area),
    areaUrlsFromEnv(processEnv),
    (area) => portOf(serviceNamed(area), env.PORT_BASE),
  );
  const running = await startConsole({
    port: env.PORT ?? portOf(CONSOLE, env.PORT_BASE),
    host: listenHost('distributed', env.HOST),
    config: { areas, demo: null, archive: null },
  });
  process.stdout.write(`Fieldcast console at ${running.url}\n`);
  stopOnSignals({ services: [], stop: running.stop }, createLogger({ level: env.LOG_LEVEL }));
}
