import { createServiceApp, type ServiceDeps } from '@fieldcast/kit';
import { eventsService } from './definition.js';

export function createApp(deps: ServiceDeps) {
  return createServiceApp(eventsService, deps);
}
