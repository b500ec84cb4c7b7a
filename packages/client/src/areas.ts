import { AREA_PORTS, AREAS, type Area } from '@fieldcast/ids/areas';

export { AREAS, type Area };

/** One base URL per area, as text or a URL object. */
export type BaseUrls = Partial<Record<Area, string | URL>>;

/**
 * The base URLs of an embedded fleet (`pnpm start`): each area at PORT_BASE plus its port offset
 * (docs/architecture.md §2; 8080 by default, so the model area is http://127.0.0.1:8085).
 */
export function embeddedBaseUrls(portBase = 8080, host = '127.0.0.1'): Record<Area, string> {
  const highest = Math.max(...Object.values(AREA_PORTS));
  if (!Number.isInteger(portBase) || portBase < 1 || portBase + highest > 65_535) {
    throw new RangeError(`portBase must be an integer from 1 to ${65_535 - highest}, got ${portBase}`);
  }
  return Object.fromEntries(AREAS.map((area) => [area, `http://${host}:${portBase + AREA_PORTS[area]}`])) as Record<Area, string>;
}
