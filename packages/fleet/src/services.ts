import { agricultureService } from '@fieldcast/agriculture';
import { alertsService } from '@fieldcast/alerts';
import { archiveService } from '@fieldcast/archive';
import { eventsService } from '@fieldcast/events';
import { insightService } from '@fieldcast/insight';
import { modelService } from '@fieldcast/model';
import { observationsService } from '@fieldcast/observations';
import { platformService } from '@fieldcast/platform';
import { tilesService } from '@fieldcast/tiles';
import { transferService } from '@fieldcast/transfer';
import type { Service } from '@fieldcast/runtime';
import { UsageError } from './usage-error.js';

/**
 * The registry of areas (docs/adding-an-area.md): every service that exists. Everything that
 * lists areas follows from it: `fieldcast start` runs them all, `fieldcast serve <area>` one of
 * them, `pnpm build` bundles their workers, and `pnpm generate` writes the deployment files and
 * the list of areas the lower packages read (packages/ids/src/areas.ts). Each definition holds
 * its own port offset; the list is kept in port order.
 */
export const SERVICES: readonly Service[] = checkedRegistry([
  agricultureService,
  tilesService,
  insightService,
  platformService,
  modelService,
  observationsService,
  transferService,
  eventsService,
  archiveService,
  alertsService,
]);

/**
 * A registry where two areas share a name or a port, or a port is not after the console's, would
 * start a fleet that fails to listen or answers at the wrong address: it stops at load instead.
 */
export function checkedRegistry(services: readonly Service[]): readonly Service[] {
  services.forEach((service, i) => {
    if (!Number.isInteger(service.port) || service.port < 1)
      throw new Error(`area ${service.area}: port offset must be a positive integer`);
    // it names a schema, a host name and the variable FIELDCAST_<AREA>_URL
    if (!/^[a-z][a-z0-9]*$/.test(service.area)) throw new Error(`area ${service.area}: a name is lower-case letters and digits`);
    const earlier = services.slice(0, i);
    const clash = earlier.find((s) => s.area === service.area || s.port === service.port);
    if (clash) throw new Error(`areas ${clash.area} and ${service.area} share a name or the port offset ${service.port}`);
    if (earlier.some((s) => s.port > service.port)) throw new Error(`area ${service.area}: the registry is kept in port order`);
    for (const worker of service.workers ?? []) {
      if (worker.area !== service.area) throw new Error(`area ${service.area}: worker ${worker.name} is declared for ${worker.area}`);
    }
  });
  return services;
}

export function serviceNamed(area: string): Service {
  const found = SERVICES.find((s) => s.area === area);
  if (!found) throw new UsageError(`unknown area "${area}"; one of: ${SERVICES.map((s) => s.area).join(', ')}`);
  return found;
}
