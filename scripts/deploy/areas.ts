// The registry of areas as the deployment files see it: each area's name and the topics it
// publishes to, whether it keeps files, in the registry's (port) order, and the port offsets.
import { SERVICES } from '@fieldcast/fleet';
import { portOf, topicsOf } from '@fieldcast/runtime';
import type { DeployedArea } from './render.js';

export const DEPLOYED_AREAS: readonly DeployedArea[] = SERVICES.map((service) => ({
  area: service.area,
  topics: topicsOf(service),
  files: service.needs.files === true,
}));

export { portOf };
