import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Style } from '@fieldcast/schemas';
import {
  createCatalog,
  type FrameIndex,
  forecastFrameId,
  GridStoreWriter,
  type GridWindow,
  SyncedProducts,
  SYNTHETIC_GRID,
  TILE_SIZE,
  tileAndPixelOf,
  writeSourceRegistry,
  ZarrSource,
} from '@fieldcast/weather';
import { NO_DATA } from '../src/domain/colorize.js';
import { zoomLevelsOf } from '../src/domain/frames.js';
import { tileCache } from '../src/domain/sample-cache.js';
import { TileProducts } from '../src/domain/products.js';
import { pixelCentres, sampleWindow } from '../src/domain/sampling.js';
import { DefaultStyles } from '../src/domain/styles.js';
import { TileRenderer } from '../src/domain/tiles.js';
import { decodePng, pixelAt } from './png-decode.js';

/*
 * A synced run over a region (Iowa in GFS's 0.25°, 42.5 down to 41.5 and -94.5 to -92.75): the
 * pixel a datapoint names at an outermost grid point is drawn with the grid point's value, in a
 * linear and in a discrete style. The point reads take a point within half a cell of the outermost
 * grid points as the edge cell's (docs/decisions/0015-zarr-reading-rules.md); the tiles' pixel
 * centres, a fraction of a pixel off the grid point, do too, where the box of grid points left
 * them out as often as not.
 */
const HOUR_MS = 3_600_000;
const RUN = Date.UTC(2026, 11, 5, 0);
const NOW = RUN + HOUR_MS / 2;
const SOURCE = 'gfs-0p25';
const LATS = [41.5, 41.75, 42, 42.25, 42.5];
const LONS = Array.from({ length: 8 }, (_, j) => -94.5 + 0.25 * j);
/** °C at a grid point: whole numbers, so a discrete style's class of 1 °C names it. */
const celsius = (lat: number, lon: number) => 10 + 16 * (lat - 41.5) + 4 * (lon + 94.5);
const CORNERS = [
  [42.5, -94.5],
  [42.5, -92.75],
  [41.5, -94.5],
  [41.5, -92.75],
] as const;

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

/** A synced run of `values(lat, lon)` on the grid lats x lons, in a sync directory of its own. */
async function syncedRun(lats: number[], lons: number[], values: (lat: number, lon: number) => number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldcast-regional-'));
  const sourceDir = join(dir, SOURCE);
  const w = await GridStoreWriter.create(join(sourceDir, 'runs', '2026120500.zarr'), {
    lats,
    lons,
    attributes: { title: 'iowa', product: 'gfs-0p25' },
  });
  await w.addTimeAxis({ name: 'time', startMs: RUN, stepMs: HOUR_MS, length: 2 });
  await w.addVariable({ name: 'air_temperature', time: 'time', attributes: { standard_name: 'air_temperature', units: 'degC' } });
  const data = new Float32Array(2 * lats.length * lons.length);
  for (let t = 0; t < 2; t++)
    lats.forEach((lat, i) => lons.forEach((lon, j) => (data[(t * lats.length + i) * lons.length + j] = values(lat, lon))));
  await w.write('air_temperature', data);
  await w.close();
  const iso = new Date(RUN).toISOString();
  await writeSourceRegistry(sourceDir, {
    source: SOURCE,
    runs: [{ run: iso, path: 'runs/2026120500.zarr', steps: [0, 1], syncedAt: iso }],
    analysis: null,
    retired: [],
    expired: [],
  });
  return dir;
}

/** A renderer of a sync directory's products, drawing from the run's store. */
function rendererOf(store: ZarrSource, products: SyncedProducts): TileRenderer {
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

let syncDir: string;
let synced: SyncedProducts;

beforeAll(async () => {
  syncDir = await syncedRun(LATS, LONS, celsius);
  synced = new SyncedProducts(syncDir, createCatalog().products());
});

afterAll(async () => {
  await synced.close();
  rmSync(syncDir, { recursive: true, force: true });
});

it.each(['linear', 'discrete'] as const)(
  'draws, in a %s style, each corner grid point’s value at the pixel its datapoint names, at the native zoom and below it down to 3',
  async (mode) => {
    const store = await ZarrSource.open(join(syncDir, SOURCE, 'runs', '2026120500.zarr'));
    const renderer = rendererOf(store, synced);
    const frame = await synced.find(forecastFrameId({ name: `${SOURCE}.air-temperature` }, RUN, RUN + HOUR_MS), NOW);
    expect(frame).toBeDefined();
    // A datapoint names the pixel at the served weather's native zoom (the synthetic world's 0.01°:
    // 7); down to zoom 3 a pixel's centre lies within half a 0.25° cell of the point it holds.
    const { native } = zoomLevelsOf(SYNTHETIC_GRID.dLat);
    const wrong: unknown[] = [];
    try {
      for (const z of [native, native - 2, native - 4]) {
        for (const [lat, lon] of CORNERS) {
          // What a datapoint reads there (the run's store, bilinear) and the tile and pixel it names.
          const value = (await store.pointSeries('air_temperature', lon, lat, { startMs: frame!.validMs, endMs: frame!.validMs }))
            .values[0]!;
          expect(value).toBe(celsius(lat, lon));
          const { tile, pixel } = tileAndPixelOf(lon, lat, z);
          const png = await renderer.draw({ frame: frame!, style: styleOf(mode), tile, etag: '', cacheControl: '' });
          const [red, , , alpha] = pixelAt(decodePng(png), pixel.row, pixel.column);
          if (alpha !== 255 || Math.abs(red! - 5 * value) > 1) wrong.push({ z, lat, lon, red, alpha, expected: 5 * value });
        }
      }
    } finally {
      await store.close();
    }
    expect(wrong).toEqual([]);
  },
);

it.each(['linear', 'discrete'] as const)(
  'samples, in %s mode, the edge value up to half a cell past the outermost grid points, boundary included, and nothing beyond',
  (mode) => {
    // Two by two points at 0 and 1 (cells of 1°): 1 at the north-east point, 0 elsewhere.
    const w = {
      variable: 'air_temperature',
      units: 'degC',
      lats: Float64Array.of(0, 1),
      lons: Float64Array.of(0, 1),
      dLat: 1,
      dLon: 1,
      startMs: 0,
      stepMs: 0,
      nt: 1,
      values: Float32Array.of(0, 0, 0, 1),
      productOf: () => 'test',
    } satisfies GridWindow;
    expect([sampleWindow(w, 1.5, 1.5, mode), sampleWindow(w, 1.25, 1.5, mode), sampleWindow(w, -0.5, -0.5, mode)]).toEqual([1, 1, 0]);
    expect([sampleWindow(w, 1.5001, 1, mode), sampleWindow(w, 1, -0.5001, mode)]).toEqual([NO_DATA, NO_DATA]);
  },
);

describe.each([
  // The run above: its bands are read as windows at every zoom.
  { grid: '0.25°, 5 x 8 points', lats: LATS, lons: LONS },
  // 0.01° over six degrees square: at the lowest zooms a band over it holds more cells per pixel
  // than a window read takes, and is read pixel by pixel.
  {
    grid: '0.01°, 601 x 601 points',
    lats: Array.from({ length: 601 }, (_, i) => 40 + i / 100),
    lons: Array.from({ length: 601 }, (_, j) => -97 + j / 100),
  },
])('a regional run on a grid of $grid, in tiles far larger than it', ({ lats, lons }) => {
  let dir: string;
  let products: SyncedProducts;
  let store: ZarrSource;
  // Within the red style's stops wherever the grid lies, so every pixel in the grid's cells is drawn.
  const value = (lat: number, lon: number) => 20 + (lat - lats[0]!) + (lon - lons[0]!);

  beforeAll(async () => {
    dir = await syncedRun(lats, lons, value);
    products = new SyncedProducts(dir, createCatalog().products());
    store = await ZarrSource.open(join(dir, SOURCE, 'runs', '2026120500.zarr'));
  });

  afterAll(async () => {
    await store.close();
    await products.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['linear', 'discrete'] as const)(
    'draws, in a %s style, zooms 0 to 4 with the pixels outside its cells transparent and those inside drawn',
    async (mode) => {
      const renderer = rendererOf(store, products);
      const frame = (await products.find(forecastFrameId({ name: `${SOURCE}.air-temperature` }, RUN, RUN + HOUR_MS), NOW))!;
      // The grid's cells, half a cell past the outermost points (docs/decisions/0441-regional-grids-cover-their-cells.md).
      const [west, south, east, north] = [
        lons[0]! - 0.5 * (lons[1]! - lons[0]!),
        lats[0]! - 0.5 * (lats[1]! - lats[0]!),
        lons.at(-1)! + 0.5 * (lons[1]! - lons[0]!),
        lats.at(-1)! + 0.5 * (lats[1]! - lats[0]!),
      ];
      const wrong: unknown[] = [];
      for (let z = 0; z <= 4; z++) {
        const { tile } = tileAndPixelOf((west + east) / 2, (south + north) / 2, z);
        let png: Buffer;
        try {
          png = await renderer.draw({ frame, style: styleOf(mode), tile, etag: '', cacheControl: '' });
        } catch (e) {
          wrong.push({ z, error: String(e) });
          continue;
        }
        const image = decodePng(png);
        const { lons: centreLons, lats: centreLats } = pixelCentres(tile);
        let inside = 0;
        for (let r = 0; r < TILE_SIZE; r++) {
          for (let c = 0; c < TILE_SIZE; c++) {
            const lon = centreLons[c]!;
            const lat = centreLats[r]!;
            const alpha = pixelAt(image, r, c)[3];
            const within = lon >= west && lon <= east && lat >= south && lat <= north;
            if (within) inside++;
            if (within !== (alpha === 255)) wrong.push({ z, r, c, lon, lat, alpha });
          }
        }
        if (inside === 0) wrong.push({ z, inside });
      }
      expect(wrong.slice(0, 5)).toEqual([]);
    },
  );
});
