import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Style } from '@fieldcast/schemas';
import {
  createCatalog,
  ET_INPUT_VARIABLES,
  type FrameIndex,
  forecastFrameId,
  SyncedProducts,
  TILE_SIZE,
  tileAndPixelOf,
  ZarrSource,
} from '@fieldcast/weather';
import { PACIFIC, writeSyncedRun } from '../../../packages/weather/test/synced-store.js';
import { evapotranspirationReader } from '../src/domain/evapotranspiration.js';
import { tileCache } from '../src/domain/sample-cache.js';
import { TileProducts } from '../src/domain/products.js';
import { pixelCentres } from '../src/domain/sampling.js';
import { DefaultStyles } from '../src/domain/styles.js';
import { TileRenderer } from '../src/domain/tiles.js';
import { decodePng, pixelAt } from './png-decode.js';

/*
 * A synced run over the Pacific, its longitudes 150 to 230 (1°) kept in 0..360 across the
 * antimeridian (docs/decisions/0444-tiles-wrap-longitudes-into-the-grid.md), latitudes 0 to 30.
 * Its cells reach from 149.5 east over the antimeridian to -129.5, and its point reads give
 * values all the way (lonInGrid). Every pixel of its tiles at zooms 0 to 4 is what a point read
 * at the pixel centre gives (linear) or at its nearest grid point (discrete), on both sides of
 * the antimeridian, and transparent where the point read has nothing. A point read per pixel would
 * take minutes: the pixels are checked against what the reads give (the linear field, its edge
 * value within half a cell past the outermost points, nothing beyond), itself checked against the
 * store's point reads at every seventh pixel.
 */
const HOUR_MS = 3_600_000;
const RUN = Date.UTC(2026, 11, 5, 0);
const NOW = RUN + HOUR_MS / 2;
const SOURCE = 'gfs-0p25';
/** °C in the store's longitudes: linear, so a point read between grid points gives it too (bilinear). */
const celsius = (lat: number, lon: number) => 5 + lat / 2 + (lon - 150) / 4;

/** The ET inputs besides the temperature: name, units, value at a grid point. */
const ET_INPUTS: [string, string, (lat: number, lon: number) => number][] = [
  [ET_INPUT_VARIABLES.dewpoint, 'degC', (lat) => 5 + lat / 10],
  [ET_INPUT_VARIABLES.shortwave, 'W m-2', (lat, lon) => 300 + lat + lon / 2],
  [ET_INPUT_VARIABLES.windSpeed, 'm s-1', (_lat, lon) => 2 + (lon - 150) / 40],
  [ET_INPUT_VARIABLES.pressure, 'kPa', () => 100],
];

/** Red 5 a degree from 0 °C: the red channel names the value drawn. */
const styleOf = (mode: 'linear' | 'discrete'): Style => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: `red-${mode}`,
  description: '',
  layerName: 'air_temperature',
  isDefault: false,
  productId: '00000000-0000-4000-8000-000000000002',
  colorizers: [
    {
      defaultColor: 'rgba(0, 0, 0, 0)',
      defaultMode: mode,
      stops:
        mode === 'linear'
          ? [
              { value: 0, color: 'rgba(0, 0, 0, 1)' },
              { value: 51, color: 'rgba(255, 0, 0, 1)' },
            ]
          : Array.from({ length: 51 }, (_, k) => ({ value: k, color: `rgba(${5 * k}, 0, 0, 1)` })),
    },
  ],
});

let dir: string;
let products: SyncedProducts;
let store: ZarrSource;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldcast-antimeridian-run-'));
  const path = await writeSyncedRun(dir, SOURCE, {
    runMs: RUN,
    ...PACIFIC,
    fields: [
      { name: 'air_temperature', units: 'degC', value: celsius },
      // The other inputs of reference ET, and the ground.
      ...ET_INPUTS.map(([name, units, value]) => ({ name, units, value })),
      { name: 'surface_altitude', units: 'm', value: (lat: number, lon: number) => 100 + lat + lon / 10, axis: 'none' as const },
    ],
  });
  products = new SyncedProducts(dir, createCatalog().products());
  store = await ZarrSource.open(path);
});

afterAll(async () => {
  await store?.close();
  await products?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A renderer of the sync directory's products, drawing from the run's store. */
function renderer(): TileRenderer {
  const catalog = createCatalog();
  const defaults = new DefaultStyles(catalog);
  return new TileRenderer({
    defaults,
    weather: store,
    frames: {} as FrameIndex,
    styles: { get: async () => null, byName: async () => null },
    grants: { isGranted: async () => false },
    cache: tileCache<Float32Array>(16 << 20),
    now: () => new Date(NOW),
    products: new TileProducts(catalog, defaults, products, () => new Date(NOW)),
  });
}

/** What the store's point read gives at (lon, lat), or null where it refuses the point (beyond its cells). */
async function pointRead(lon: number, lat: number): Promise<number | null> {
  try {
    const series = await store.pointSeries('air_temperature', lon, lat, { startMs: RUN + HOUR_MS, endMs: RUN + HOUR_MS });
    return series.values.length > 0 ? series.values[0]! : null;
  } catch {
    return null;
  }
}

/**
 * What a point read gives at (lon, lat) (linear) or at its nearest grid point (discrete): in the
 * store's longitudes, the edge value up to half a cell past the outermost points, null beyond.
 */
function expectedAt(lon: number, lat: number, mode: 'linear' | 'discrete'): number | null {
  const east = lon < 0 ? lon + 360 : lon;
  if (lat < -0.5 || lat > 30.5 || east < 149.5 || east > 230.5) return null;
  const [y, x] = [Math.min(30, Math.max(0, lat)), Math.min(230, Math.max(150, east))];
  return mode === 'linear' ? celsius(y, x) : celsius(Math.round(y), Math.round(x));
}

/** The tiles at zoom z that meet the store's cells, west and east of the antimeridian. */
function tilesOver(z: number): { z: number; x: number; y: number }[] {
  const ys = [tileAndPixelOf(0, 30.5, z).tile.y, tileAndPixelOf(0, -0.5, z).tile.y];
  const xs = new Set([
    ...Array.from(
      { length: tileAndPixelOf(179.99, 0, z).tile.x - tileAndPixelOf(149.5, 0, z).tile.x + 1 },
      (_, k) => tileAndPixelOf(149.5, 0, z).tile.x + k,
    ),
    ...Array.from({ length: tileAndPixelOf(-129.5, 0, z).tile.x + 1 }, (_, k) => k),
  ]);
  return [...xs].flatMap((x) => Array.from({ length: ys[1]! - ys[0]! + 1 }, (_, k) => ({ z, x, y: ys[0]! + k })));
}

it.each(['linear', 'discrete'] as const)(
  'draws, in a %s style, every pixel of zooms 0 to 4 over a run across the antimeridian as its point read gives it',
  async (mode) => {
    const draw = renderer();
    const frame = (await products.find(forecastFrameId({ name: `${SOURCE}.air-temperature` }, RUN, RUN + HOUR_MS), NOW))!;
    expect(frame).toBeDefined();
    const wrong: unknown[] = [];
    const models: unknown[] = [];
    let drawn = 0;
    for (let z = 0; z <= 4; z++) {
      for (const tile of tilesOver(z)) {
        const image = decodePng(await draw.draw({ frame, style: styleOf(mode), tile, etag: '', cacheControl: '' }));
        const { lons, lats } = pixelCentres(tile);
        for (let r = 0; r < TILE_SIZE; r++) {
          for (let c = 0; c < TILE_SIZE; c++) {
            const [lon, lat] = [lons[c]!, lats[r]!];
            const expected = expectedAt(lon, lat, mode);
            if (r % 7 === 0 && c % 7 === 0) {
              const read = await pointRead(lon, lat);
              const model = expectedAt(lon, lat, 'linear');
              if (read === null ? model !== null : model === null || Math.abs(read - model) > 1e-4) models.push({ lon, lat, read, model });
            }
            // linear: 5 red a degree; discrete: the class of 1 °C the value falls in.
            const red5 = expected === null ? 0 : mode === 'linear' ? 5 * expected : 5 * Math.floor(expected);
            const [red, , , alpha] = pixelAt(image, r, c);
            if (expected === null ? alpha !== 0 : alpha !== 255 || Math.abs(red! - red5) > 1) {
              wrong.push({ ...tile, r, c, lon, lat, red, alpha, expected });
            }
            if (alpha === 255) drawn++;
          }
        }
      }
    }
    expect(models).toEqual([]);
    expect({ wrong: wrong.length, first: wrong.slice(0, 3) }).toEqual({ wrong: 0, first: [] });
    expect(drawn).toBeGreaterThan(0);
  },
  60_000,
);

it('takes, in discrete mode, an ET pixel west of the antimeridian at its nearest grid point', async () => {
  const reader = evapotranspirationReader(store, RUN, 'discrete');
  // A band's box comes in the store's longitudes (sampleTileWith); the pixel in -180..180.
  const band = await reader.window([218.5, 13.5, 221.5, 16.5]);
  const [nearest, other] = [await reader.point(-140, 15), await reader.point(-142, 15)];
  expect(Math.abs(nearest - other)).toBeGreaterThan(1e-4);
  expect(band!(-140.3, 15.2)).toBeCloseTo(nearest, 5);
});
