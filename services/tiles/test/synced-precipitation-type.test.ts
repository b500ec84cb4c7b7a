import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { type GridSource, loadWeatherSource, tileAndPixelOf } from '@fieldcast/weather';
import { syncRun } from '@fieldcast/sync';
import { type ArchiveServer, serveArchive } from '../../../packages/sync/test/archive-server.js';
import {
  ECMWF_GRID,
  ECMWF_PTYPE_COLUMNS,
  GFS_CATEGORY_COLUMNS,
  GFS_GRID,
  writeEcmwfStep,
  writeGfsStep,
} from '../../../packages/sync/test/runs.js';
import { tilesService } from '../src/definition.js';
import { decodePng, pixelAt } from './png-decode.js';

/*
 * A synced run's precipitation type (docs/decisions/0502-precipitation-type-synced-from-the-sources.md):
 * the stores of a GFS run and of an ECMWF run hold precipitation_type, so their precipitation
 * products keep the catalog's default style whole (docs/decisions/0506-synced-products-style-what-their-stores-hold.md),
 * each colorizer masked by a type, and a tile draws a snow pixel in the snow colours and a rain
 * pixel in the rain colours. The archive's types are by grid column (packages/sync/test/runs.ts).
 */
const H = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
const ZOOM = 8;

let archive: string;
let data: string;
let server: ArchiveServer;
let weather: GridSource;
const options: TestFleetOptions = { now: () => new Date(RUN + 8 * H) };

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'tiles-ptype-archive-'));
  data = mkdtempSync(join(tmpdir(), 'tiles-ptype-'));
  for (let s = 0; s <= 3; s++) writeGfsStep(archive, RUN, s);
  for (const s of [0, 3, 6]) writeEcmwfStep(archive, RUN, s);
  server = await serveArchive(archive);
  const syncDir = join(data, 'sync');
  for (const [source, steps] of [
    ['gfs-0p25', '0-3'],
    ['ecmwf-ifs-0p25', '0-6'],
  ] as const) {
    const done = await syncRun({
      source,
      baseUrl: server.baseUrl,
      syncDir,
      runMs: RUN,
      steps,
      keepDays: 400,
      now: () => RUN + 8 * H,
      http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
      stepRetries: 0,
    });
    expect(done.state).toBe('published');
  }
  weather = await loadWeatherSource({ syncDir, reloadMs: H, now: () => RUN + 8 * H });
  options.weather = weather;
}, 60_000);
afterAll(async () => {
  await (weather as { close?: () => Promise<void> } | undefined)?.close?.();
  await server?.close();
  for (const dir of [archive, data]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const t = useTestFleet([tilesService], options);
const app = () => t.fleet.app('tiles');

interface Colorizer {
  mask?: { layerName: string; attributes: string[] };
  stops: Array<{ color: string }>;
}

/** The colour the product's default style gives the pixel at (lon, lat) of a frame of the run after its start. */
async function drawn(product: string, lon: number, lat: number): Promise<string> {
  const frames = await request(app()).get(`/v2/products/${product}/frames.json?limit=1000`).set('Authorization', t.alice.auth);
  expect(frames.status).toBe(200);
  const frame = (frames.body as Array<{ id: string; validTime: string }>).find((f) => Date.parse(f.validTime) > RUN)!;
  const { tile, pixel } = tileAndPixelOf(lon, lat, ZOOM);
  const png = await request(app()).get(`/v2/frames/${frame.id}/tile/${tile.z}/${tile.x}/${tile.y}.png`).set('Authorization', t.alice.auth);
  expect([png.status, png.status === 200 ? '' : JSON.stringify(png.body)]).toEqual([200, '']);
  const [r, g, b, a] = pixelAt(decodePng(png.body as Buffer), pixel.row, pixel.column);
  expect(a).toBe(255);
  return `#${[r, g, b].map((v) => v!.toString(16).padStart(2, '0')).join('')}`;
}

describe.each([
  { source: 'gfs-0p25', grid: GFS_GRID, snow: GFS_CATEGORY_COLUMNS.findIndex((c) => c.yes.join() === 'CSNOW') },
  { source: 'ecmwf-ifs-0p25', grid: ECMWF_GRID, snow: ECMWF_PTYPE_COLUMNS.findIndex((c) => c.ptype === 5) },
])('a synced $source run', ({ source, grid, snow }) => {
  const product = `${source}.precipitation-rate`;
  const lonOf = (column: number) => grid.lon1 + column * grid.dLon;

  it('draws its precipitation with the catalog’s style whole: each type in its own colours, snow in the snow colours', async () => {
    const styles = await request(app()).get(`/v2/products/${product}/styles.json`).set('Authorization', t.alice.auth);
    expect(styles.status).toBe(200);
    const style = (styles.body as Array<{ name: string; colorizers: Colorizer[] }>)[0]!;
    expect(style.name).toBe(`${source}.precipitation-rate-default`);
    expect(style.colorizers.map((c) => c.mask?.attributes)).toEqual([['rain'], ['snow'], ['freezing_rain'], ['sleet']]);
    const colours = (type: string) => style.colorizers.find((c) => c.mask?.attributes[0] === type)!.stops.map((s) => s.color);
    // Between two grid rows, beside the snow column's point: the column's type, never a neighbour's.
    expect(colours('snow')).toContain(await drawn(product, lonOf(snow) + 0.05, 45.4));
    expect(colours('rain')).toContain(await drawn(product, lonOf(1), 45.4));
  });
});
