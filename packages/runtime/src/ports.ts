import { AREAS, type Area } from '@fieldcast/ids';

/**
 * The port of an area (docs/architecture.md §2): the console on PORT_BASE, then the areas in
 * their order, agriculture on PORT_BASE + 1 ... archive on PORT_BASE + 9.
 */
export function portOf(area: string, base: number): number {
  if (area === 'console') return base;
  const index = AREAS.indexOf(area as Area);
  if (index < 0) throw new Error(`unknown area ${area}`);
  return base + 1 + index;
}
