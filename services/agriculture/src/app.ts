import { createServiceApp, type ServiceDeps } from '@fieldcast/kit';
import { agricultureService } from './definition.js';

/** The agriculture app; no I/O here (DESIGN.md section 1). */
export function createApp(deps: ServiceDeps) {
  return createServiceApp(agricultureService, deps);
}
