import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SYNTHETIC_ANALYSIS_PRODUCT } from '../src/catalog/sources.js';
import { answeringSource, CompositeSource, pointGridSource } from '../src/sources/composite-source.js';
import { GridRequestError, type GridSource, type VariableId } from '../src/grid/grid-source.js';
import { registerIngestedStore } from '../src/ingest/store-catalog.js';
import { describeWeatherSource, loadWeatherSource, openStores, storesOf, WeatherStoreError } from '../src/sources/load-weather-source.js';
import { SyntheticSource } from '../src/synthetic/synthetic-source.js';
import { GridStoreWriter, ZarrSource } from '../src/stores.js';
import { serveDirectory } from './serve-directory.js';

const DAY = 86_400_000;
const TMAX: VariableId = 'air_temperature_daily_max';
const TMIN: VariableId = 'air_temperature_daily_min';
const MAY_1 = Date.UTC(2024, 4, 1);
const NOW = Date.UTC(2024, 5, 1);
let tmp: string;

/** Exact in float32 and different in every (variable, t, i, j). */
const value = (offset: number, t: number, i: number, j: number) => offset + t + i * 0.25 + j * 0.125;

/** A daily store with the given variables (Tmax offset 20, Tmin offset 5, plus `shift`) on a regular grid. */
async function dailyStore(
  dir: string,
  o: { lats: number[]; lons: number[]; startMs: number; nt: number; product: string; variables: VariableId[]; shift?: number },
) {
  const w = await GridStoreWriter.create(dir, {
    lats: o.lats,
    lons: o.lons,
    attributes: { title: path.basename(dir, '.zarr'), product: o.product },
  });
  await w.addTimeAxis({ name: 'time', startMs: o.startMs, stepMs: DAY, length: o.nt });
  for (const v of o.variables) {
    const offset = (v === TMAX ? 20 : 5) + (o.shift ?? 0);
    await w.addVariable({
      name: v,
      time: 'time',
      attributes: { standard_name: 'air_temperature', units: 'degC', cell_methods: v === TMAX ? 'time: maximum' : 'time: minimum' },
    });
    const data = new Float32Array(o.nt * o.lats.length * o.lons.length);
    for (let t = 0; t < o.nt; t++)
      for (let i = 0; i < o.lats.length; i++)
        for (let j = 0; j < o.lons.length; j++) data[(t * o.lats.length + i) * o.lons.length + j] = value(offset, t, i, j);
    await w.write(v, data);
  }
  await w.close();
}

/*
 * "corn": Tmax and Tmin, lat 40..41 and lon -90..-89 by 0.5 (cell edges 39.75..41.25,
 *   -90.25..-88.75), days 2024-05-01..04.
 * "wide": Tmax only, lat 30..50 and lon -100..-80 by 1, days 2024-04-01..2024-06-29.
 * Then the synthetic world, its clock at 2024-06-01.
 */
let cornDir: string;
let wideDir: string;
let corn: ZarrSource;
let wide: ZarrSource;
let synthetic: SyntheticSource;
let composite: CompositeSource;
const days = (first: number, last: number) => ({ startMs: MAY_1 + first * DAY, endMs: MAY_1 + last * DAY });
/** What storesOf names for stores in front of the synthetic world. */
const on = (locations: string[]) => ({ locations, synthetic: true });

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-composite-'));
  cornDir = path.join(tmp, 'corn.zarr');
  wideDir = path.join(tmp, 'wide.zarr');
  await dailyStore(cornDir, {
    lats: [40, 40.5, 41],
    lons: [-90, -89.5, -89],
    startMs: MAY_1,
    nt: 4,
    product: 'corn-analysis',
    variables: [TMAX, TMIN],
  });
  const lats = Array.from({ length: 21 }, (_, k) => 30 + k);
  const lons = Array.from({ length: 21 }, (_, k) => -100 + k);
  await dailyStore(wideDir, { lats, lons, startMs: Date.UTC(2024, 3, 1), nt: 90, product: 'wide-reanalysis', variables: [TMAX] });
  corn = await ZarrSource.open(cornDir);
  wide = await ZarrSource.open(wideDir);
  synthetic = new SyntheticSource({ now: () => NOW });
  composite = new CompositeSource([corn, wide, synthetic]);
});
afterAll(async () => {
  await composite.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('CompositeSource routing', () => {
  it('answers from the first store that covers variable, days and point, with its product', async () => {
    const s = await composite.pointSeries(TMAX, -89.5, 40.5, days(0, 3));
    // Grid node (i 1, j 1): the stored values exactly.
    expect(Array.from(s.values)).toEqual([0, 1, 2, 3].map((t) => value(20, t, 1, 1)));
    expect(s.productOf(0)).toBe('corn-analysis');
    expect(composite.sourceFor(TMIN, { lon: -89.5, lat: 40.5 }, days(0, 3))).toBe(corn);
    // A point within the outer half cell of the store still belongs to it.
    expect(composite.sourceFor(TMAX, { lon: -88.8, lat: 41.2 }, days(1, 2))).toBe(corn);
  });

  it('a variable the store lacks goes to the next source that has it', async () => {
    expect(composite.sourceFor('air_temperature', { lon: -89.5, lat: 40.5 }, days(0, 0))).toBe(synthetic);
    const s = await composite.pointSeries('air_temperature', -89.5, 40.5, { startMs: MAY_1, endMs: MAY_1 + 3 * 3_600_000 });
    const direct = await synthetic.pointSeries('air_temperature', -89.5, 40.5, { startMs: MAY_1, endMs: MAY_1 + 3 * 3_600_000 });
    expect(Array.from(s.values)).toEqual(Array.from(direct.values));
    expect(s.productOf(0)).toBe(SYNTHETIC_ANALYSIS_PRODUCT);
  });

  it('a range the store covers only in part is not stitched: the next covering source answers all of it', async () => {
    // corn ends 2024-05-04; 05-03..05-06 is wide's for Tmax, and synthetic's for Tmin (wide has none).
    const tmax = await composite.pointSeries(TMAX, -89.5, 40.5, days(2, 5));
    expect(tmax.values.length).toBe(4);
    // wide: lat 40.5 is halfway between rows 10 and 11, lon -89.5 between columns 10 and 11;
    // days from 2024-04-01, so 2024-05-03 is t = 32.
    expect(tmax.values[0]).toBeCloseTo(
      (value(20, 32, 10, 10) + value(20, 32, 10, 11) + value(20, 32, 11, 10) + value(20, 32, 11, 11)) / 4,
      5,
    );
    expect(tmax.productOf(3)).toBe('wide-reanalysis');
    const tmin = await composite.pointSeries(TMIN, -89.5, 40.5, days(2, 5));
    expect(Array.from(tmin.values)).toEqual(Array.from((await synthetic.pointSeries(TMIN, -89.5, 40.5, days(2, 5))).values));
    expect(tmin.productOf(0)).toBe(SYNTHETIC_ANALYSIS_PRODUCT);
    // A range starting before the store does not go to it either.
    expect(composite.sourceFor(TMIN, { lon: -89.5, lat: 40.5 }, { startMs: MAY_1 - DAY, endMs: MAY_1 + DAY })).toBe(synthetic);
  });

  it('a point outside a store goes on; outside every store, to the synthetic world', async () => {
    expect(composite.sourceFor(TMAX, { lon: -88.7, lat: 40.5 }, days(0, 1))).toBe(wide);
    expect(composite.sourceFor(TMIN, { lon: -88.7, lat: 40.5 }, days(0, 1))).toBe(synthetic);
    const far = await composite.pointSeries(TMAX, 10.5, 48.1, days(0, 1));
    expect(Array.from(far.values)).toEqual(Array.from((await synthetic.pointSeries(TMAX, 10.5, 48.1, days(0, 1))).values));
    expect(far.productOf(1)).toBe(SYNTHETIC_ANALYSIS_PRODUCT);
  });

  it('windows: a bbox inside a store (or up to one cell past its edges) comes on its grid', async () => {
    const w = await composite.window(TMAX, [-89.6, 40.4, -89.4, 40.6], days(0, 1));
    expect(Array.from(w.lats)).toEqual([40.5]);
    expect(Array.from(w.lons)).toEqual([-89.5]);
    expect(w.dLat).toBe(0.5);
    expect(Array.from(w.values)).toEqual([value(20, 0, 1, 1), value(20, 1, 1, 1)]);
    expect(w.productOf(0)).toBe('corn-analysis');
    // An area grown by a cell beyond the store's edges stays with it (agriculture's field bbox).
    expect(composite.sourceFor(TMAX, { bbox: [-90.7, 39.3, -88.3, 41.7] }, days(0, 1))).toBe(corn);
    // Further out: the next store, then the synthetic world on its own grid.
    expect(composite.sourceFor(TMAX, { bbox: [-91, 39, -88, 42] }, days(0, 1))).toBe(wide);
    const s = await composite.window(TMIN, [-91, 39, -90.98, 39.02], days(0, 1));
    expect(s.dLat).toBe(0.01);
    expect(s.productOf(0)).toBe(SYNTHETIC_ANALYSIS_PRODUCT);
  });

  it('slices: the step at or before the time must be in the store', async () => {
    const bbox: [number, number, number, number] = [-90, 40, -89, 41];
    const inside = await composite.slice(TMAX, bbox, MAY_1 + 3 * DAY + 12 * 3_600_000);
    expect(inside.values[0]).toBe(value(20, 3, 0, 0));
    expect(composite.sourceFor(TMAX, { bbox }, { atMs: MAY_1 + 4 * DAY })).toBe(wide);
    expect(composite.sourceFor(TMIN, { bbox }, { atMs: MAY_1 + 4 * DAY })).toBe(synthetic);
  });

  it('requests no source covers are refused by the last one, with its GridRequestError', async () => {
    await expect(composite.pointSeries(TMAX, -89.5, 95, days(0, 0))).rejects.toMatchObject({ code: 'invalid_location' });
    await expect(composite.window(TMAX, [-89, 40, -90, 41], days(0, 0))).rejects.toBeInstanceOf(GridRequestError);
    await expect(composite.pointSeries(TMAX, 10, 48, { startMs: Date.UTC(2010, 0, 1), endMs: Date.UTC(2010, 0, 2) })).rejects.toMatchObject(
      { code: 'out_of_coverage' },
    );
  });

  it('describes itself: labels of all sources, the fallback grid, every variable, the union of coverage', () => {
    expect(composite.label).toBe('corn + wide + synthetic');
    expect(composite.id).toBe('corn+wide+synthetic');
    expect(composite.grid).toEqual(synthetic.grid);
    expect(
      composite
        .variables()
        .map((v) => v.id)
        .sort(),
    ).toEqual(
      synthetic
        .variables()
        .map((v) => v.id)
        .sort(),
    );
    expect(composite.variables().find((v) => v.id === TMAX)?.description).toBe(corn.variables().find((v) => v.id === TMAX)?.description);
    // From the synthetic start (2015) to wide's last day (2024-06-29, after the synthetic horizon of 06-17).
    expect(composite.coverage()).toEqual({ startMs: synthetic.coverage().startMs, endMs: Date.UTC(2024, 5, 29) });
    expect(() => new CompositeSource([])).toThrow(/at least one/);
  });

  it('answeringSource: the routed source for a composite, the source itself otherwise', () => {
    expect(answeringSource(composite, TMIN, { lon: -89, lat: 41 }, days(0, 3))).toBe(corn);
    expect(answeringSource(synthetic as GridSource, TMIN, { lon: -89, lat: 41 }, days(0, 3))).toBe(synthetic);
  });
});

describe('time stitching: stores on one grid answer together what none holds alone (0295)', () => {
  // A source's analysis (days 0-3 from May 1) and its newer run (days 2-8, values 100 higher),
  // the run preferred, as the synced stores are ordered; then the synthetic world.
  const lats = [40, 40.5, 41];
  const lons = [-90, -89.5, -89];
  let analysis: ZarrSource;
  let run: ZarrSource;
  let gappy: ZarrSource;
  let stitched: CompositeSource;
  beforeAll(async () => {
    const both = [TMAX, TMIN];
    await dailyStore(path.join(tmp, 'analysis.zarr'), { lats, lons, startMs: MAY_1, nt: 4, product: 'src-analysis', variables: both });
    await dailyStore(path.join(tmp, 'run.zarr'), {
      lats,
      lons,
      startMs: MAY_1 + 2 * DAY,
      nt: 7,
      product: 'src-forecast',
      variables: both,
      shift: 100,
    });
    await dailyStore(path.join(tmp, 'gappy.zarr'), { lats, lons, startMs: MAY_1 + 5 * DAY, nt: 4, product: 'gappy', variables: both });
    analysis = await ZarrSource.open(path.join(tmp, 'analysis.zarr'));
    run = await ZarrSource.open(path.join(tmp, 'run.zarr'));
    gappy = await ZarrSource.open(path.join(tmp, 'gappy.zarr'));
    stitched = new CompositeSource([run, analysis, synthetic]);
  });
  afterAll(async () => {
    await Promise.all([analysis.close(), run.close(), gappy.close()]);
  });

  it('a point series: each day from the first store that holds it, each value naming its product', async () => {
    const s = await stitched.pointSeries(TMAX, -89.5, 40.5, days(0, 6));
    expect(s.startMs).toBe(MAY_1);
    expect(s.stepMs).toBe(DAY);
    // Days 0-1 only the analysis holds; days 2-6 the run (t counted from its own start).
    expect(Array.from(s.values)).toEqual([value(20, 0, 1, 1), value(20, 1, 1, 1), ...[0, 1, 2, 3, 4].map((t) => value(120, t, 1, 1))]);
    expect([0, 1, 2, 6].map((i) => s.productOf(i))).toEqual(['src-analysis', 'src-analysis', 'src-forecast', 'src-forecast']);
  });

  it('windows come stitched on the one grid; both extremes route to one source and read alike', async () => {
    const w = await stitched.window(TMIN, [-90.1, 39.9, -88.9, 41.1], days(1, 3));
    expect(w.nt).toBe(3);
    expect(Array.from(w.lats)).toEqual(lats);
    expect(w.values[0]).toBe(value(5, 1, 0, 0));
    expect(w.values[9 + 4]).toBe(value(105, 0, 1, 1));
    expect(w.productOf(0)).toBe('src-analysis');
    expect(w.productOf(2)).toBe('src-forecast');
    const place = { lon: -89.5, lat: 40.5 };
    expect(stitched.sourceFor(TMAX, place, days(0, 6))).toBe(stitched.sourceFor(TMIN, place, days(0, 6)));
    const { tmax, tmin } = await stitched.dailyExtremesAt(-89.5, 40.5, days(0, 6));
    expect(Array.from(tmax.values)).toEqual(Array.from((await stitched.pointSeries(TMAX, -89.5, 40.5, days(0, 6))).values));
    expect(tmin.values[6]).toBe(value(105, 4, 1, 1));
  });

  it('points the stores hold together go to the stitched stores, as each point read does', () => {
    const bbox: [number, number, number, number] = [-89.9, 40.1, -89.1, 40.9];
    const stitchedSource = stitched.sourceFor(TMAX, { lon: -89.5, lat: 40.5 }, days(0, 6));
    expect(stitchedSource).not.toBe(synthetic);
    expect(stitched.sourceForPointsIn(TMAX, bbox, days(0, 6))).toBe(stitchedSource);
    expect(stitched.sourceForPointsIn(TMAX, bbox, days(2, 8))).toBe(run);
  });

  it('what one store holds stays that store’s; an instant is always one store’s', () => {
    const place = { lon: -89.5, lat: 40.5 };
    expect(stitched.sourceFor(TMAX, place, days(2, 8))).toBe(run);
    expect(stitched.sourceFor(TMAX, place, days(0, 1))).toBe(analysis);
    expect(stitched.sourceFor(TMAX, place, { atMs: MAY_1 + DAY })).toBe(analysis);
  });

  it('a day no store holds, a point off the grid, or stores on another grid: not stitched', async () => {
    const apart = new CompositeSource([gappy, analysis, synthetic]);
    // gappy starts on day 5, the analysis ends on day 3: day 4 is held by neither.
    expect(apart.sourceFor(TMAX, { lon: -89.5, lat: 40.5 }, days(0, 6))).toBe(synthetic);
    expect(apart.sourceFor(TMAX, { lon: -89.5, lat: 40.5 }, days(5, 8))).toBe(gappy);
    expect(stitched.sourceFor(TMAX, { lon: -80, lat: 40.5 }, days(0, 6))).toBe(synthetic);
    // corn (0.5°) and wide (1°) hold 2024-05-01..04 and 04-01..06-29: never stitched across grids.
    expect(composite.sourceFor(TMIN, { lon: -89.5, lat: 40.5 }, days(0, 6))).toBe(synthetic);
  });
});

describe('pointGridSource: many points at one instant read as one point grid', () => {
  const at = MAY_1 + 2 * DAY;
  it('is the source every point of the bbox goes to, when it reads point grids', () => {
    // far from both stores: the synthetic world, which reads point grids
    expect(pointGridSource(composite, [TMAX, TMIN], [10, 10, 11, 11], at)).toBe(synthetic);
    expect(pointGridSource(synthetic, [TMAX], [10, 10, 11, 11], at)).toBe(synthetic);
    // Tmin over "wide" (no Tmin there) goes on to the synthetic world as every point read would
    expect(pointGridSource(composite, [TMIN], [-85, 45, -84, 46], at)).toBe(synthetic);
  });

  it('is null where the points route apart, or to a store that reads point by point', () => {
    // half over "wide" (Tmax, cell edges -100.5..-79.5): some points go to the store, some on
    expect(composite.sourceForPointsIn(TMAX, [-81, 45, -78, 46], { startMs: at, endMs: at })).toBeNull();
    expect(pointGridSource(composite, [TMAX], [-81, 45, -78, 46], at)).toBeNull();
    // every point inside "wide": the store answers them all, by its own point reads
    expect(composite.sourceForPointsIn(TMAX, [-85, 45, -84, 46], { startMs: at, endMs: at })).toBe(wide);
    expect(pointGridSource(composite, [TMAX], [-85, 45, -84, 46], at)).toBeNull();
    // Tmax from "wide", Tmin from the synthetic world: not one source
    expect(pointGridSource(composite, [TMAX, TMIN], [-85, 45, -84, 46], at)).toBeNull();
  });
});

describe('loadWeatherSource', () => {
  it('no stores: the bare synthetic world (also when stores.yaml does not exist)', async () => {
    const s = await loadWeatherSource({ storesCatalogPath: path.join(tmp, 'missing.yaml'), now: () => NOW });
    expect(s).toBeInstanceOf(SyntheticSource);
    expect(s.coverage().endMs).toBe(synthetic.coverage().endMs);
    expect(describeWeatherSource(s)).toEqual(['synthetic world only (synthetic)']);
  });

  it('store URLs first, then the catalog in file order, each once, synthetic last', async () => {
    const catalog = path.join(tmp, 'stores.yaml');
    const entry = (id: string, dir: string) => ({
      id,
      path: dir,
      source: `${id}.nc`,
      format: 'netcdf4' as const,
      ingestedAt: new Date(NOW).toISOString(),
      variables: [],
      grid: { lat0: 0, lon0: 0, dLat: 1, dLon: 1, nLat: 1, nLon: 1 },
      time: null,
    });
    await registerIngestedStore(catalog, entry('corn', cornDir));
    await registerIngestedStore(catalog, entry('wide', wideDir));
    const s = await loadWeatherSource({ storesCatalogPath: catalog, storeUrls: [wideDir], now: () => NOW });
    try {
      expect(s).toBeInstanceOf(CompositeSource);
      const sources = (s as CompositeSource).sources;
      expect(sources.map((x) => x.id)).toEqual(['wide', 'corn', 'synthetic']);
      expect(sources[2]!.coverage().endMs).toBe(synthetic.coverage().endMs);
      const lines = describeWeatherSource(s);
      expect(lines[0]).toBe(
        `wide  ${wideDir}  [air_temperature_daily_max]  2024-04-01T00:00Z..2024-06-29T00:00Z  lat 30..50, lon -100..-80`,
      );
      expect(lines[1]).toContain('[air_temperature_daily_max, air_temperature_daily_min]');
    } finally {
      await (s as CompositeSource).close();
    }
  });

  it('opens stores over HTTP', async () => {
    const server = await serveDirectory(cornDir);
    try {
      const s = await loadWeatherSource({ storeUrls: [server.url], now: () => NOW });
      const p = await s.pointSeries(TMIN, -89, 40, days(1, 2));
      expect(Array.from(p.values)).toEqual([value(5, 1, 0, 2), value(5, 2, 0, 2)]);
      expect(p.productOf(0)).toBe('corn-analysis');
    } finally {
      await server.close();
    }
  });

  it('a thread opens the same weather again from storesOf, once per set of stores; other sources it cannot', async () => {
    expect(storesOf(synthetic)).toEqual({ locations: [], synthetic: true });
    expect(storesOf(composite)).toEqual({ locations: [cornDir, wideDir], synthetic: true });
    const again = await openStores(on([cornDir, wideDir]));
    expect(await openStores(on([cornDir, wideDir]))).toBe(again);
    expect(storesOf(again)).toEqual(on([cornDir, wideDir]));
    expect((await again.pointSeries(TMIN, -89, 40, days(1, 2))).values).toEqual(
      (await composite.pointSeries(TMIN, -89, 40, days(1, 2))).values,
    );
    await (again as CompositeSource).close();
    // a hand-made source, stores with neither world behind them, a composite in front of it
    expect(storesOf({ ...synthetic } as GridSource)).toBeUndefined();
    expect(storesOf(new CompositeSource([corn, wide]))).toBeUndefined();
    expect(storesOf(new CompositeSource([composite, synthetic]))).toBeUndefined();
  });

  it("with the synthetic world off, the weather has the synthetic world's grid, so frames get the same zoom levels in both modes", async () => {
    for (const storeUrls of [[], [cornDir]]) {
      const off = await loadWeatherSource({ storeUrls, synthetic: false });
      expect(off.grid).toEqual(synthetic.grid);
      await (off as CompositeSource).close();
    }
  });

  it('with the synthetic world off, storesOf names the stores and that nothing is behind them, and a thread opens them so', async () => {
    const off = await loadWeatherSource({ storeUrls: [cornDir], synthetic: false });
    expect(storesOf(off)).toEqual({ locations: [cornDir], synthetic: false });
    const thread = await openStores({ locations: [cornDir], synthetic: false });
    expect(storesOf(thread)).toEqual({ locations: [cornDir], synthetic: false });
    // far from the store: refused, as the process refuses it, not the synthetic world's value
    for (const s of [thread, off])
      await expect(Promise.resolve().then(() => s.pointSeries(TMIN, 10, 50, days(1, 2)))).rejects.toMatchObject({ code: 'not_synced' });
    expect((await thread.pointSeries(TMIN, -89, 40, days(1, 2))).values).toEqual((await off.pointSeries(TMIN, -89, 40, days(1, 2))).values);
    for (const s of [off, thread]) await (s as CompositeSource).close();
  });

  it('a thread opens a store replaced under the same location again, and closes the sets it no longer serves', async () => {
    // The analysis grows in place (docs/decisions/0250-synced-runs-staged-then-published.md): a
    // thread kept the hours its store declared when first opened, and every set of stores it was
    // ever sent open, each with its chunk cache.
    const dir = path.join(tmp, 'grows.zarr');
    const grown = path.join(tmp, 'grows-next.zarr');
    const store = { lats: [40, 41], lons: [-90, -89], startMs: MAY_1, product: 'grows', variables: [TMAX] };
    await dailyStore(dir, { ...store, nt: 2 });
    const storeEnd = (s: GridSource) => (s as CompositeSource).sources[0]!.coverage().endMs;
    const before = await openStores(on([dir]));
    expect(storeEnd(before)).toBe(MAY_1 + DAY);
    await dailyStore(grown, { ...store, nt: 4 });
    await fs.rm(dir, { recursive: true });
    await fs.rename(grown, dir);
    const after = await openStores(on([dir]));
    expect(storeEnd(after)).toBe(MAY_1 + 3 * DAY);
    expect(await openStores(on([dir]))).toBe(after);

    const closed: GridSource[] = [];
    for (const s of [before, after]) {
      const close = (s as CompositeSource).close.bind(s);
      (s as CompositeSource).close = () => (closed.push(s), close());
    }
    await openStores(on([cornDir]));
    expect(closed).toEqual([before]);
    await openStores(on([wideDir]));
    expect(closed).toEqual([before, after]);
    for (const stores of [[cornDir], [wideDir]]) await ((await openStores(on(stores))) as CompositeSource).close();
  });

  it('with the synthetic world off, a read no store covers is refused naming what the stores hold (0498)', async () => {
    const refusal = (read: () => Promise<unknown>) =>
      Promise.resolve()
        .then(read)
        .then(
          () => {
            throw new Error('answered');
          },
          (err: unknown) => err as GridRequestError,
        );
    const none = await loadWeatherSource({ synthetic: false });
    const nothing = await refusal(() => none.pointSeries(TMAX, -89.5, 40.5, days(0, 1)));
    expect(nothing).toMatchObject({ code: 'not_synced' });
    expect(nothing.message).toBe(
      'No synced or ingested store holds air_temperature_daily_max at 40.5, -89.5 for 2024-05-01T00:00:00.000Z..2024-05-02T00:00:00.000Z, ' +
        'and the synthetic world is off (FIELDCAST_SYNTHETIC=off); no store is synced or ingested',
    );
    const s = await loadWeatherSource({ storeUrls: [cornDir, wideDir], synthetic: false });
    try {
      const held = '; the stores hold corn (lat 40..41, lon -90..-89, 2024-05-01T00:00Z..2024-05-04T00:00Z)';
      const wideHeld = ', wide (lat 30..50, lon -100..-80, 2024-04-01T00:00Z..2024-06-29T00:00Z)';
      // A place outside both grids: each store that has the variable is named with its box and days.
      const outside = await refusal(() => s.pointSeries(TMAX, 0, 0, days(0, 1)));
      expect(outside.message).toMatch(
        /^No synced or ingested store holds air_temperature_daily_max at 0, 0 for .*\(FIELDCAST_SYNTHETIC=off\)/,
      );
      expect(outside.message.endsWith(`${held}${wideHeld}`)).toBe(true);
      // Hours after both: the same; a variable only corn has names corn alone.
      const later = await refusal(() => s.pointSeries(TMIN, -89.5, 40.5, days(10, 11)));
      expect(later.message.endsWith(held)).toBe(true);
      const extremes = await refusal(() => s.dailyExtremesAt(0, 0, days(0, 1)));
      expect(extremes.message.endsWith(held)).toBe(true);
    } finally {
      await (s as CompositeSource).close();
    }
  });

  it('a store that cannot be opened stops the load, naming it', async () => {
    const missing = path.join(tmp, 'gone.zarr');
    await expect(loadWeatherSource({ storeUrls: [missing] })).rejects.toThrow(WeatherStoreError);
    await expect(loadWeatherSource({ storeUrls: [missing] })).rejects.toThrow(missing);
    const bad = path.join(tmp, 'bad.yaml');
    await fs.writeFile(bad, 'stores: [{ id: 1 }]\n');
    await expect(loadWeatherSource({ storesCatalogPath: bad })).rejects.toThrow(/catalog of stores/);
  });
});
