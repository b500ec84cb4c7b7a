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
import type { RowTimeCell } from '../src/formats/raster.js';

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
  const timeCells: RowTimeCell[][] = [];
  for await (const row of gridRows(from, variables, grid, { startMs: DAY, endMs }, steps, options)) {
    rows.push(row.values);
    timeCells.push(row.timeCells);
  }
  return { grid, rows, timeCells };
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

  describe('the time cell of each row, as its reads state it (docs/decisions/0379-time-cells-of-mean-rates.md)', () => {
    const HOUR = 3_600_000;
    const variables: VariableId[] = ['surface_downwelling_shortwave_flux_in_air', 'air_temperature'];
    const endMs = DAY + 3 * HOUR;

    it.each([
      ['sub-grid reads', source, {}],
      ['strips', windowsOnly, { cellReads: false }],
      ['a window per cell', windowsOnly, { cellReads: true }],
    ] as const)(
      "gives the synthetic world's: its shortwave the hour centred on the stamp, its temperature the instant, by %s",
      async (_how, from, options) => {
        const { timeCells } = await collect(from, variables, 4, endMs, options);
        expect(timeCells).toHaveLength(6);
        for (const cells of timeCells)
          expect(cells).toEqual([
            [-HOUR / 2, HOUR / 2],
            [0, 0],
          ]);
      },
    );

    it("gives 'mixed' where the reads of one row state different cells, and each strip's own", async () => {
      // A source whose reads west of 11 E state the hour ending at the stamp, as two sources in front of each other would.
      const split = new Proxy(windowsOnly, {
        get: (target, key) => {
          const value = Reflect.get(target, key, target) as unknown;
          if (key !== 'window') return value;
          return async (...args: Parameters<GridSource['window']>) => {
            const w = await target.window(...args);
            return args[1][2] < 11 ? { ...w, timeCell: [-HOUR, 0] } : w;
          };
        },
      });
      const byCell = await collect(split, variables, 4, endMs, { cellReads: true });
      for (const cells of byCell.timeCells) expect(cells[0]).toBe('mixed');
      const strips = await collect(split, variables, 4, endMs, { cellReads: false });
      for (const cells of strips.timeCells) expect(cells[0]).toEqual([-HOUR / 2, HOUR / 2]);
    });
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

describe('datasetGrid', () => {
  it("states a synced store's cell edges without the binary noise of its spacing (the record's bounds, the GeoTIFF's extent)", () => {
    // A global store of tenths: centres -89.95..89.95 and -179.95..179.95, its outer edges as the
    // synced products compute them from the first centre and the spacing.
    const d = 0.1;
    const bounds: [number, number, number, number] = [-179.95 - d / 2, -89.95 - d / 2, -179.95 + 3599.5 * d, -89.95 + 1799.5 * d];
    expect(bounds[3]).not.toBe(90); // what the arithmetic gives
    const grid = datasetGrid(bounds, d);
    expect(grid.bounds).toEqual([-180, -90, 180, 90]);
    expect([grid.lats.length, grid.lons.length]).toEqual([1800, 3600]);
    expect([grid.lats[0], grid.lons[0]]).toEqual([89.95, -179.95]);
  });

  it('states the extent of cells centred on the poles and on 180 W within the globe, and keeps the regular grid (docs/decisions/0467-cells-centred-on-a-pole.md)', () => {
    // A global GFS store at 0.25 degrees: rows -90 to 90, columns -180 to 179.75, its edges half a cell beyond.
    const grid = datasetGrid([-180.125, -90.125, 179.875, 90.125], 0.25);
    expect([grid.lats.length, grid.lons.length]).toEqual([721, 1440]);
    expect([grid.lats[0], grid.lats[720], grid.lons[0]]).toEqual([90, -90, -180]);
    // What a GeoTIFF's geotransform states: the regular grid's edges.
    expect(grid.bounds).toEqual([-180.125, -90.125, 179.875, 90.125]);
    // What the record states (RFC 7946 §5): the pole rows end at the poles, and the columns go all the way round.
    expect(grid.extent).toEqual([-180, -90, 180, 90]);
    // The rows' cell edges (CF 1.11 §7.1), the pole rows' ending at the poles.
    expect([...grid.latEdges.slice(0, 3)]).toEqual([90, 89.875, 89.625]);
    expect([...grid.latEdges.slice(-2)]).toEqual([-89.875, -90]);
    expect([grid.lonEdges[0], grid.lonEdges[1440]]).toEqual([-180.125, 179.875]);
  });

  it('states cells across the antimeridian as RFC 7946 §5.2 does, west past east, and keeps the regular grid in 0..360 (docs/decisions/0468-dataset-bounds-across-the-antimeridian.md)', () => {
    // A regional store kept in 0..360, columns 150 to 230 (docs/decisions/0444-tiles-wrap-longitudes-into-the-grid.md).
    const grid = datasetGrid([149.5, -0.5, 230.5, 30.5], 1);
    expect([grid.lons[0], grid.lons[80]]).toEqual([150, 230]);
    // What a file's georeferencing states: the regular grid's edges, past 180.
    expect(grid.bounds).toEqual([149.5, -0.5, 230.5, 30.5]);
    expect([grid.lonEdges[0], grid.lonEdges[81]]).toEqual([149.5, 230.5]);
    // What the record states: 149.5 east over the antimeridian to 129.5 W.
    expect(grid.extent).toEqual([149.5, -0.5, -129.5, 30.5]);
    // A regional grid whose first column is centred on 180 W crosses it by half a cell.
    expect(datasetGrid([-180.125, 40, -170.125, 50], 0.25).extent).toEqual([179.875, 40, -170.125, 50]);
    // A global grid kept in 0..360 that repeats its seam column goes all the way round.
    expect(datasetGrid([-0.125, -90.125, 360.125, 90.125], 0.25).extent).toEqual([-180, -90, 180, 90]);
    // A grid that does not cross it keeps its edges.
    expect(datasetGrid([10, 44, 12, 45.5], 0.25).extent).toEqual([10, 44, 12, 45.5]);
  });

  it("rounds the binary noise of a store's spacing out of its resolution, as out of its edges", () => {
    // A global store of tenths, its spacing as the synced products compute it from its longitudes.
    const spacing = (179.95 - -179.95) / 3599;
    expect(spacing).not.toBe(0.1); // what the coordinates give
    const grid = datasetGrid([-179.95 - spacing / 2, -89.95 - spacing / 2, -179.95 + 3599.5 * spacing, -89.95 + 1799.5 * spacing], spacing);
    expect(grid.resolution).toBe(0.1);
    expect(grid.bounds).toEqual([-180, -90, 180, 90]);
    expect(grid.extent).toEqual([-180, -90, 180, 90]);
  });
});
