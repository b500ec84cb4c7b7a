import { agricultureService } from '@fieldcast/agriculture';
import { eventsService } from '@fieldcast/events';
import type { ServiceDefinition } from '@fieldcast/kit';

/** Every service that exists, in port order; `fieldcast start` runs them all. */
export const SERVICES: ServiceDefinition[] = [agricultureService, eventsService];

export function serviceNamed(area: string): ServiceDefinition {
  const found = SERVICES.find((s) => s.area === area);
  if (!found) throw new UsageError(`unknown area "${area}"; one of: ${SERVICES.map((s) => s.area).join(', ')}`);
  return found;
}

export class UsageError extends Error {}
