// The registry of areas as the generated files see it: each area's name, port offset and the
// topics it publishes to, whether it keeps files and reads weather, in the registry's (port) order.
import { SERVICES } from '@fieldcast/fleet';
import { CONSOLE, portOf as portAt, topicsOf } from '@fieldcast/runtime';
import type { DeployedArea } from './render.js';

export const DEPLOYED_AREAS: readonly DeployedArea[] = SERVICES.map((service) => ({
  area: service.area,
  port: service.port,
  topics: topicsOf(service),
  files: service.needs.files === true,
  weather: service.needs.weather === true,
}));

/** The port of the console or a registered area on a fleet based at `base`. */
export function portOf(area: string, base: number): number {
  const found = area === CONSOLE.area ? CONSOLE : DEPLOYED_AREAS.find((a) => a.area === area);
  if (!found) throw new Error(`unknown area ${area}`);
  return portAt(found, base);
}
