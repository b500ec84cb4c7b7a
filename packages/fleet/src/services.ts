import { agricultureService } from '@fieldcast/agriculture';
import { archiveService } from '@fieldcast/archive';
import { eventsService } from '@fieldcast/events';
import { insightService } from '@fieldcast/insight';
import { modelService } from '@fieldcast/model';
import { observationsService } from '@fieldcast/observations';
import { platformService } from '@fieldcast/platform';
import { tilesService } from '@fieldcast/tiles';
import { transferService } from '@fieldcast/transfer';
import type { Service } from '@fieldcast/runtime';

/** The registry of areas: every service that exists, in port order; `fieldcast start` runs them all. */
export const SERVICES: Service[] = [
  agricultureService,
  tilesService,
  insightService,
  platformService,
  modelService,
  observationsService,
  transferService,
  eventsService,
  archiveService,
];

export function serviceNamed(area: string): Service {
  const found = SERVICES.find((s) => s.area === area);
  if (!found) throw new UsageError(`unknown area "${area}"; one of: ${SERVICES.map((s) => s.area).join(', ')}`);
  return found;
}

export class UsageError extends Error {}
