/**
 * The areas of Fieldcast, each at a base address of its own, in port order (docs/architecture.md
 * §2): in the embedded fleet the console listens on PORT_BASE and each area on PORT_BASE plus its
 * position in this list.
 */
export const AREAS = ['agriculture', 'tiles', 'insight', 'platform', 'model', 'observations', 'transfer', 'events', 'archive'] as const;

export type Area = (typeof AREAS)[number];

/** One base URL per area. */
export type BaseUrls = Partial<Record<Area, string>>;

/**
 * The base URLs of an embedded fleet (`pnpm start`): area i of AREAS at PORT_BASE + i + 1
 * (docs/architecture.md §2; 8080 by default, so the model area is http://127.0.0.1:8085).
 */
export function embeddedBaseUrls(portBase = 8080, host = '127.0.0.1'): Record<Area, string> {
  if (!Number.isInteger(portBase) || portBase < 1 || portBase + AREAS.length > 65_535) {
    throw new RangeError(`portBase must be an integer from 1 to ${65_535 - AREAS.length}, got ${portBase}`);
  }
  return Object.fromEntries(AREAS.map((area, i) => [area, `http://${host}:${portBase + i + 1}`])) as Record<Area, string>;
}
