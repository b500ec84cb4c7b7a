/** Port offsets from PORT_BASE (DESIGN.md section 2): console 8080, agriculture 8081, ... archive 8089. */
export const AREA_PORT_OFFSETS: Record<string, number> = {
  console: 0,
  agriculture: 1,
  tiles: 2,
  insight: 3,
  platform: 4,
  model: 5,
  observations: 6,
  transfer: 7,
  events: 8,
  archive: 9,
};

export function portOf(area: string, base: number): number {
  const offset = AREA_PORT_OFFSETS[area];
  if (offset === undefined) throw new Error(`unknown area ${area}`);
  return base + offset;
}
