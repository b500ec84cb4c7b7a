import {
  CompositeSource,
  type GridSource,
  type GridSpec,
  NoSyntheticSource,
  readsSubgrids,
  SyntheticSource,
  type VariableId,
} from '@fieldcast/weather';
import { datasetGrid, gridRows } from '../src/domain/grid-rows.js';

const source = new SyntheticSource({ now: () => Date.UTC(2026, 5, 10) });
const DAY = Date.UTC(2024, 0, 15);

/** The same world without its sub-grid read, as a source that only reads windows is. */
const windowsOnly = new Proxy(source, {
  get: (target, key) => (key === 'subgrid' ? undefined : (Reflect.get(target, key, target) as unknown)),
  has: (target, key) => key !== 'subgrid' && Reflect.has(target, key),
}) as GridSource;

async function collect(from: GridSource, variables: VariableId[], steps: number, endMs: number, options: Parameters<typeof gridRows>[5]) {
  // Cell centres half way between two of the source's (10.125 on a 0.01 degree grid): the nearest cell is a tie to break alike.
  const grid = datasetGrid([10, 44, 12, 45.5], 0.25);
  const rows: Float32Array[][] = [];
  for await (const row of gridRows(from, variables, grid, { startMs: DAY, endMs }, steps, options)) rows.push(row);
  return { grid, rows };
}

const CASES = [
  ['hourly, two variables', ['air_temperature', 'precipitation_rate'] as VariableId[], 24, DAY + 23 * 3_600_000],
  ['both daily extremes', ['air_temperature_daily_max', 'air_temperature_daily_min'] as VariableId[], 1, DAY],
] as const;

describe('reading a dataset grid from the weather', () => {
  it.each(CASES)('gives the same values by strips and by cells: %s', async (_what, variables, steps, endMs) => {
    const strips = await collect(windowsOnly, [...variables], steps, endMs, { cellReads: false });
    const cells = await collect(windowsOnly, [...variables], steps, endMs, { cellReads: true });
    expect(strips.rows).toHaveLength(6);
    expect(cells.rows).toEqual(strips.rows);
    expect(strips.rows.flat().every((r) => r.every((v) => Number.isFinite(v)))).toBe(true);
  });

  it.each(CASES)(
    'gives the same values by sub-grid reads, in bands of rows, as by a window per cell: %s',
    async (_what, variables, steps, endMs) => {
      expect(readsSubgrids(windowsOnly)).toBe(false);
      const cells = await collect(windowsOnly, [...variables], steps, endMs, { cellReads: true });
      // Bands of 2 rows of 8 cells: three bands, each one sub-grid read.
      const bands = await collect(source, [...variables], steps, endMs, { bandCells: 16 });
      const whole = await collect(source, [...variables], steps, endMs, {});
      // A window per kept cell is the per-point read: every cell of every band equals it.
      expect(bands.rows).toHaveLength(6);
      expect(bands.rows).toEqual(cells.rows);
      expect(whole.rows).toEqual(cells.rows);
    },
  );

  it('reads windows on the grid of the store answering, not of the source behind it', async () => {
    // A store whose cell centres are the dataset's, in front of a source with no cells (FIELDCAST_SYNTHETIC=off, a synced source's own products).
    const grid: GridSpec = { lat0: 44.125, lon0: 10.125, dLat: 0.25, dLon: 0.25, nLat: 6, nLon: 8 };
    const store = new Proxy(windowsOnly, {
      get: (target, key) => (key === 'grid' ? grid : key === 'id' ? 'store' : (Reflect.get(target, key, target) as unknown)),
    });
    const endMs = DAY + 23 * 3_600_000;
    const alone = await collect(store, ['air_temperature'], 24, endMs, {});
    const fronted = await collect(new CompositeSource([store, new NoSyntheticSource()]), ['air_temperature'], 24, endMs, {});
    expect(fronted.rows).toHaveLength(6);
    expect(fronted.rows).toEqual(alone.rows);
    expect(alone.rows.flat().every((r) => r.every((v) => Number.isFinite(v)))).toBe(true);
  });

  it('reads a source that reads sub-grids a band at a time, never by windows', async () => {
    const calls = { subgrid: 0, window: 0 };
    const counted = new Proxy(source, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (key === 'subgrid' || key === 'window' || key === 'dailyExtremesIn') calls[key === 'subgrid' ? 'subgrid' : 'window']++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    await collect(counted, ['air_temperature_daily_max'], 1, DAY, { bandCells: 16 });
    expect(calls).toEqual({ subgrid: 3, window: 0 });
  });
});
