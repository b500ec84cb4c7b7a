import { SyntheticSource, type VariableId } from '@fieldcast/weather';
import { datasetGrid, gridRows } from '../src/domain/grid-rows.js';

const source = new SyntheticSource({ now: () => Date.UTC(2026, 5, 10) });
const DAY = Date.UTC(2024, 0, 15);

async function collect(variables: VariableId[], steps: number, cellReads: boolean, endMs: number) {
  const grid = datasetGrid([10.125, 44.125, 12.125, 45.125], 0.25);
  const rows: Float32Array[][] = [];
  for await (const row of gridRows(source, variables, grid, { startMs: DAY, endMs }, steps, cellReads)) rows.push(row);
  return { grid, rows };
}

describe('reading a dataset grid from the weather', () => {
  it.each([
    ['hourly, two variables', ['air_temperature', 'precipitation_rate'] as VariableId[], 24, DAY + 23 * 3_600_000],
    ['both daily extremes', ['air_temperature_daily_max', 'air_temperature_daily_min'] as VariableId[], 1, DAY],
  ])('gives the same values by strips and by cells: %s', async (_what, variables, steps, endMs) => {
    const strips = await collect(variables, steps, false, endMs);
    const cells = await collect(variables, steps, true, endMs);
    expect(strips.rows).toHaveLength(4);
    expect(cells.rows).toEqual(strips.rows);
    // Each value is the source's at the cell's centre, which lies on the source's grid here.
    const [lon, lat] = [strips.grid.lons[3]!, strips.grid.lats[2]!];
    const w = await source.window(variables[1]!, [lon, lat, lon, lat], { startMs: DAY, endMs });
    for (let t = 0; t < steps; t++) expect(strips.rows[2]![1]![t * 8 + 3]).toBe(w.values[t]);
    expect(strips.rows.flat().every((r) => r.every((v) => Number.isFinite(v)))).toBe(true);
  });
});
