import { agricultureService } from '@fieldcast/agriculture';
import { eventsService } from '@fieldcast/events';
import type { Service } from '@fieldcast/runtime';

/** The registry of areas: every service that exists, in port order; `fieldcast start` runs them all. */
export const SERVICES: Service[] = [agricultureService, eventsService];

export function serviceNamed(area: string): Service {
  const found = SERVICES.find((s) => s.area === area);
  if (!found) throw new UsageError(`unknown area "${area}"; one of: ${SERVICES.map((s) => s.area).join(', ')}`);
  return found;
}

export class UsageError extends Error {}
