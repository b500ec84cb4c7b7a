import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { polygonFaults, type PolygonCoordinates } from '@fieldcast/geo';
import { createCatalog, FrameIndex, forecastFrameId, frameZoomLevels, SyncedProducts, NoSyntheticSource } from '@fieldcast/weather';
import { PACIFIC, writeSyncedRun } from '../../../packages/weather/test/synced-store.js';
import { Platform } from '../src/domain/platform.js';

/*
 * A synced run over the Pacific, its longitudes 150 to 230 (1°) kept in 0..360 across the
 * antimeridian (docs/decisions/0444-tiles-wrap-longitudes-into-the-grid.md), latitudes 0 to 30:
 * its cells reach from 149.5 east over the antimeridian to -129.5 (230.5), and its point reads give
 * values all the way. Its product's coverage is those cells, cut at the antimeridian as RFC 7946
 * §3.1.9 has it, so the datapoint and the coverage filter agree with the reads west of it too.
 */
const HOUR_MS = 3_600_000;
const RUN = Date.UTC(2026, 11, 5, 0);
const NOW = RUN + HOUR_MS / 2;
const SOURCE = 'gfs-0p25';
const NAME = `${SOURCE}.air-temperature`;
const NONE = new Set<string>();

let dir: string;
let synced: SyncedProducts;
let frames: FrameIndex;
let platform: Platform;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldcast-antimeridian-coverage-'));
  await writeSyncedRun(dir, SOURCE, {
    runMs: RUN,
    ...PACIFIC,
    fields: [{ name: 'air_temperature', units: 'degC', value: (lat, lon) => lat + lon / 100 }],
  });
  const catalog = createCatalog();
  synced = new SyncedProducts(dir, catalog.products());
  frames = new FrameIndex(catalog.products());
  const weather = new NoSyntheticSource();
  platform = new Platform(catalog, frames, weather, frameZoomLevels(weather.grid.dLon), synced);
});

afterAll(async () => {
  await frames?.stop();
  await synced?.close();
  rmSync(dir, { recursive: true, force: true });
});

const square = (w: number, s: number, e: number, n: number): PolygonCoordinates => [
  [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ],
];
const within = async (polygons: PolygonCoordinates[]) =>
  (await platform.list(NONE, { coverage: { points: [], lines: [], polygons } }, NOW)).map((p) => p.name);

it('covers the cells on both sides of the antimeridian, as a valid MultiPolygon cut there', async () => {
  const record = await platform.product(NAME, NONE, NOW);
  const polygons = record.coverage.geometry.coordinates as PolygonCoordinates[];
  expect(polygons.map((p) => polygonFaults(p))).toEqual(polygons.map(() => []));
  const boxes = polygons.map(([ring]) => {
    const lons = ring!.map(([lon]) => lon!);
    const lats = ring!.map(([, lat]) => lat!);
    return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
  });
  expect(boxes).toEqual(
    expect.arrayContaining([
      [149.5, -0.5, 180, 30.5],
      [-180, -0.5, -129.5, 30.5],
    ]),
  );
  expect(boxes).toHaveLength(2);
});

it('gives a datapoint west of the antimeridian a value, and none past the cells', async () => {
  const id = forecastFrameId({ name: NAME }, RUN, RUN + HOUR_MS);
  const west = await platform.datapoint(id, 15, -140, NONE, NOW);
  expect(west.value).toBeCloseTo(15 + 220 / 100, 3);
  expect((await platform.datapoint(id, 15, 170, NONE, NOW)).value).toBeCloseTo(15 + 170 / 100, 3);
  expect((await platform.datapoint(id, 15, -129, NONE, NOW)).value).toBeNull();
});

it('finds the product by a coverage filter west of the antimeridian, and over it in two parts', async () => {
  expect(await within([square(-150, 5, -140, 10)])).toContain(NAME);
  expect(await within([square(170, 5, 180, 10), square(-180, 5, -170, 10)])).toContain(NAME);
  expect(await within([square(-130, 5, -120, 10)])).not.toContain(NAME);
});
