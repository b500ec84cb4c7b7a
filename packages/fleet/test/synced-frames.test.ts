import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { databaseTemplate, reservePortBase } from '@fieldcast/runtime/testing';
import { decodePng, pixelAt } from '../../../services/tiles/test/png-decode.js';
import { readNetcdf4 } from '../../../services/transfer/test/netcdf-reader.js';
import { readTiff } from '../../../services/transfer/test/tiff-reader.js';
import { type ArchiveServer, serveArchive } from '../../sync/test/archive-server.js';
import { analytic, GFS_GRID, writeGfsStep } from '../../sync/test/runs.js';
import { startFleet, type StartedFleet } from '../src/start.js';
import { syncCommand } from '../src/sync.js';
import { forecastFrameId, frameId, productId, productRunId, readSourceRegistry, ZarrSource } from '@fieldcast/weather';

/*
 * The synced sources' products (docs/decisions/0315-synced-sources-as-products.md): once a run is
 * synced, `gfs-0p25.air-temperature` lists the frames that exist (the analysis hours, then the
 * run's steps), its datapoints and tiles read the run's store, and a newer run's frames are drawn
 * from the newer run, whatever the tiles area kept of the older one. Expected values are the
 * analytic fields of packages/sync/test/runs.ts (linear in latitude, longitude and time, so
 * bilinear interpolation is exact).
 */
const HOUR = 3_600_000;
const DAY = 86_400_000;
const RUN1 = Math.floor(Date.now() / DAY) * DAY - 2 * DAY + 6 * HOUR;
const RUN2 = RUN1 + 6 * HOUR;
const RUN3 = RUN2 + 6 * HOUR;
const STEPS = 12;
const PRODUCT = 'gfs-0p25.air-temperature';
const PORT_BASE = reservePortBase();
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const run = (ms: number) => `${new Date(ms).toISOString().slice(0, 13)}Z`;
/** °C of the analytic temperature `h` hours into the run that starts at `runMs`, at `validMs`. */
const celsius = (lat: number, lon: number, runMs: number, validMs: number) =>
  analytic.temperatureK(lat, lon, (validMs - runMs) / HOUR) - 273.15;

/** A download of the synced grid's cells, hour by hour. */
const CATALOG = `
transferProducts:
  - name: gfs-box-temperature
    description: Hourly 2 m air temperature over the test grid
    format: GeoTIFF
    variable: air_temperature
    cadenceMinutes: 60
    bbox: [9.875, 44.875, 11.875, 46.125]
    resolution: 0.25
`;

let archive: string;
let dataDir: string;
let server: ArchiveServer;
let started: StartedFleet;
let auth: string;
const url = (area: string) => started.fleet.services.find((s) => s.area === area)!.url;
const get = async <T = Record<string, unknown>>(area: string, path: string) => {
  const res = await fetch(`${url(area)}${path}`, { headers: { Authorization: auth } });
  return { status: res.status, body: (await res.json()) as T };
};

interface Frame {
  id: string;
  validTime: string;
  runTime: string;
  forecast: string | null;
}

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'fieldcast-archive-'));
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-frames-'));
  for (const r of [RUN1, RUN2, RUN3]) for (let s = 0; s <= STEPS; s++) writeGfsStep(archive, r, s);
  server = await serveArchive(archive);
  writeFileSync(join(archive, 'catalog.yaml'), CATALOG);
  const env = parseEnv(FleetEnv, {
    FIELDCAST_CATALOG: join(archive, 'catalog.yaml'),
    FIELDCAST_DATA_DIR: dataDir,
    PORT_BASE: String(PORT_BASE),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    FIELDCAST_SYNC_RELOAD_MS: '200',
  });
  started = await startFleet(env, { databaseSeed: await databaseTemplate(), print: () => undefined });
  auth = `Basic ${Buffer.from(`${started.demo!.applicationId}:${started.demo!.applicationKey}`).toString('base64')}`;
}, 120_000);
afterAll(async () => {
  await started?.fleet.stop();
  await server?.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

async function sync(runMs: number, keepRuns = 8): Promise<void> {
  const lines: string[] = [];
  const env = parseEnv(FleetEnv, {
    FIELDCAST_DATA_DIR: dataDir,
    FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
    FIELDCAST_SYNC_KEEP_RUNS: String(keepRuns),
  });
  await syncCommand(['gfs-0p25', '--once', '--run', run(runMs), '--steps', `0-${STEPS}`], env, (l) => lines.push(l));
  expect(lines.at(-1)).toMatch(new RegExp(`${STEPS + 1} steps`));
}

const frames = () => get<Frame[]>('platform', `/products/${PRODUCT}/frames?sort=asc&limit=1000`);

/** The red channel of a style whose only colorizer runs from black at 0 °C to red at 25.5 °C, as °C (0.1 °C a level). */
const STYLE = {
  name: 'gfs-temperature-red',
  description: 'Red from 0 to 25.5 °C',
  layerName: 'air_temperature',
  colorizers: [
    {
      defaultColor: 'rgba(0, 0, 0, 0)',
      defaultMode: 'linear',
      stops: [
        { value: 0, color: 'rgba(0, 0, 0, 1)' },
        { value: 25.5, color: 'rgba(255, 0, 0, 1)' },
      ],
    },
  ],
};

/** The value a tile shows at a point: the datapoint names the tile and pixel, the style's red channel the value. */
async function tileValue(frame: string, lat: number, lon: number): Promise<number> {
  const point = await get<{ tile: { z: number; x: number; y: number }; pixel: { row: number; column: number } }>(
    'platform',
    `/frames/${frame}/datapoint/${lat}/${lon}`,
  );
  expect(point.status).toBe(200);
  const { z, x, y } = point.body.tile;
  const res = await fetch(`${url('tiles')}/v2/frames/${frame}/tile/${z}/${x}/${y}.png?style=${STYLE.name}`, {
    headers: { Authorization: auth, Accept: 'image/png' },
  });
  expect(res.status).toBe(200);
  const [red, , , alpha] = pixelAt(decodePng(Buffer.from(await res.arrayBuffer())), point.body.pixel.row, point.body.pixel.column);
  expect(alpha).toBe(255);
  return (red * 25.5) / 255;
}

/** A dataset record of the transfer area, as the tests read it. */
interface DatasetRecord {
  name: string;
  validTime?: string | null;
  validTimes?: string[];
  bounds: number[];
  resolution: number;
  width: number;
  height: number;
  variables: Array<{ name: string; description: string }>;
  downloadUrl: string;
}

/** The synced source's own transfer product of hourly temperature, one NetCDF file a day (docs/decisions/0340-synced-transfer-products.md). */
const NETCDF = 'gfs-0p25.air-temperature-hourly-netcdf';
/** ... and of the catalog override's hourly GeoTIFF, on the source's grid rather than the override's box. */
const GEOTIFF = 'gfs-0p25.gfs-box-temperature';
const BOX_BOUNDS = [
  GFS_GRID.lon1 - 0.125,
  GFS_GRID.lat1 - (GFS_GRID.nj - 0.5) * 0.25,
  GFS_GRID.lon1 + (GFS_GRID.ni - 0.5) * 0.25,
  GFS_GRID.lat1 + 0.125,
];

const datasetsOf = (product: string, ms: number) =>
  get<DatasetRecord[]>('transfer', `/products/${product}/datasets?date=${iso(ms).slice(0, 10)}`);

/** The file behind a dataset's link, once made (503 while it is being made). */
async function download(d: DatasetRecord): Promise<Buffer> {
  let res = await fetch(d.downloadUrl);
  for (let k = 0; res.status === 503 && k < 100; k++) {
    await new Promise((r) => setTimeout(r, 200));
    res = await fetch(d.downloadUrl);
  }
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The synced stores of gfs-0p25 as the registry names them: its newest run's and its analysis. */
async function syncedStores(): Promise<{ run: ZarrSource; analysis: ZarrSource }> {
  const dir = join(dataDir, 'sync', 'gfs-0p25');
  const registry = await readSourceRegistry(dir, 'gfs-0p25');
  return { run: await ZarrSource.open(join(dir, registry.runs[0]!.path)), analysis: await ZarrSource.open(join(dir, registry.analysis!)) };
}

/** The store's value of air temperature at a grid point and hour. */
async function storeValue(store: ZarrSource, lat: number, lon: number, ms: number): Promise<number> {
  return (await store.pointSeries('air_temperature', lon, lat, { startMs: ms, endMs: ms })).values[0]!;
}

/** The NetCDF file's hours and its air temperature [time][lat][lon], on the synced grid. */
async function readDay(d: DatasetRecord) {
  const nc = await readNetcdf4(await download(d));
  expect(nc.dims).toEqual([
    { name: 'time', length: d.validTimes!.length },
    { name: 'lat', length: GFS_GRID.nj },
    { name: 'lon', length: GFS_GRID.ni },
    // the cells' bounds (CF §7.1, docs/decisions/0467-cells-centred-on-a-pole.md)
    { name: 'nv', length: 2 },
  ]);
  expect([...nc.read('lat')]).toEqual(Array.from({ length: GFS_GRID.nj }, (_, y) => GFS_GRID.lat1 - 0.25 * y));
  expect([...nc.read('lon')]).toEqual(Array.from({ length: GFS_GRID.ni }, (_, x) => GFS_GRID.lon1 + 0.25 * x));
  expect([...nc.read('time')]).toEqual(d.validTimes!.map((t) => Date.parse(t) / HOUR));
  const values = nc.read('air_temperature');
  return { at: (t: number, y: number, x: number) => values[(t * GFS_GRID.nj + y) * GFS_GRID.ni + x]! };
}

describe('a synced source as products', () => {
  it('is no product before a run is synced', async () => {
    const list = await get<Array<{ name: string }>>('platform', '/products?source=gfs-0p25');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    expect((await get('platform', `/products/${PRODUCT}`)).status).toBe(404);
  });

  it('lists, once a run is synced, the analysis hours and then the run’s steps as frames, on the source’s grid', async () => {
    await sync(RUN1);
    const list = await get<Array<Record<string, unknown>>>('platform', '/products?source=gfs-0p25');
    // One product per hourly forecast product of the catalog whose variable the run holds; the
    // dewpoint product is restricted as its catalog product is, and not granted to this account.
    expect(list.body.map((p) => p.name)).toEqual([
      'gfs-0p25.air-temperature',
      'gfs-0p25.precipitation-rate',
      'gfs-0p25.shortwave-radiation',
    ]);
    expect((await get('platform', '/products/gfs-0p25.dew-point-temperature')).status).toBe(404);
    const product = (await get<Record<string, unknown>>('platform', `/products/${PRODUCT}`)).body;
    // The grid's cells: half a cell beyond the outermost grid points (decision 0441).
    const west = GFS_GRID.lon1 - GFS_GRID.dLon / 2;
    const east = GFS_GRID.lon1 + (GFS_GRID.ni - 0.5) * GFS_GRID.dLon;
    const north = GFS_GRID.lat1 + GFS_GRID.dLat / 2;
    const south = GFS_GRID.lat1 - (GFS_GRID.nj - 0.5) * GFS_GRID.dLat;
    expect(product.description).toMatch(/^Hourly 2 m air temperature from the gfs-0p25 runs/);
    expect(product).toMatchObject({
      id: productId(PRODUCT),
      source: 'gfs-0p25',
      startTime: iso(RUN1),
      endTime: iso(RUN1 + STEPS * HOUR),
      frames: `/products/${product.id}/frames`,
      forecasts: `/products/${product.id}/forecasts`,
      aggregationPeriodInMinutes: 0,
      coverage: {
        type: 'Feature',
        geometry: {
          type: 'MultiPolygon',
          coordinates: [
            [
              [
                [west, south],
                [east, south],
                [east, north],
                [west, north],
                [west, south],
              ],
            ],
          ],
        },
      },
    });

    const forecasts = await get<Array<{ id: string; initTime: string; frames: string }>>('platform', `/products/${PRODUCT}/forecasts`);
    expect(forecasts.body).toHaveLength(1);
    expect(forecasts.body[0]!.initTime).toBe(iso(RUN1));
    const runId = forecasts.body[0]!.id;
    expect(runId).toBe(productRunId({ name: PRODUCT }, RUN1));

    const list1 = (await frames()).body;
    // GFS runs every 6 hours: the analysis holds the run's first 6, the run's steps come after.
    expect(list1.map((f) => f.validTime)).toEqual(Array.from({ length: STEPS + 1 }, (_, h) => iso(RUN1 + h * HOUR)));
    list1.forEach((f, h) => {
      const valid = iso(RUN1 + h * HOUR);
      if (h < 6) {
        expect(f).toMatchObject({ id: frameId({ name: PRODUCT }, RUN1 + h * HOUR), runTime: valid, forecast: null });
      } else {
        expect(f).toMatchObject({
          id: forecastFrameId({ name: PRODUCT }, RUN1, RUN1 + h * HOUR),
          runTime: iso(RUN1),
          forecast: `/forecasts/${runId}`,
        });
      }
    });
    // A window and a page: newest first by default.
    const window = await get<Frame[]>(
      'platform',
      `/products/${PRODUCT}/frames?start=${iso(RUN1 + 4 * HOUR)}&end=${iso(RUN1 + 8 * HOUR)}&limit=3`,
    );
    expect(window.body.map((f) => f.validTime)).toEqual([8, 7, 6].map((h) => iso(RUN1 + h * HOUR)));
    const runFrames = await get<Frame[]>('platform', `/forecasts/${runId}/frames?sort=asc`);
    expect(runFrames.body.map((f) => f.validTime)).toEqual(Array.from({ length: STEPS + 1 }, (_, h) => iso(RUN1 + h * HOUR)));
    // Found by id, and in the tiles area's list.
    expect((await get<Frame>('platform', `/frames/${list1[9]!.id}`)).body).toEqual(list1[9]);
    const recent = await get<Frame[]>('tiles', `/v2/products/${PRODUCT}/frames.json?limit=2`);
    expect(recent.body.map((f) => f.id)).toEqual([list1[12]!.id, list1[11]!.id]);
  }, 60_000);

  it('gives datapoints of the analytic field, from the analysis and from the run', async () => {
    const list = (await frames()).body;
    for (const h of [2, 9]) {
      const point = await get<{ value: number; unit: { label: string } }>('platform', `/frames/${list[h]!.id}/datapoint/45.6/10.3`);
      expect(point.status).toBe(200);
      expect(point.body.value).toBeCloseTo(celsius(45.6, 10.3, RUN1, RUN1 + h * HOUR), 2);
      expect(point.body.unit.label).toBe('°C');
    }
  });

  it('lists the synced variables in the datasets of a synced day, and downloads the run’s values', async () => {
    const datasets = async (ms: number) =>
      get<Array<{ name: string; variables: Array<{ name: string; description: string }>; downloadUrl: string }>>(
        'transfer',
        `/products/gfs-box-temperature/datasets?date=${iso(ms).slice(0, 10)}`,
      );
    const valid = RUN1 + 9 * HOUR;
    const stamp = iso(valid).replace(/[-:]/g, '').slice(0, 13);
    const named = async () => (await datasets(valid)).body.find((d) => d.name === `gfs-box-temperature_${stamp}Z.tif`)!;
    // The transfer area reads the weather served, which takes the new run within the reload period.
    let synced = await named();
    for (let k = 0; synced.variables[0]!.description !== '2 m air temperature' && k < 50; k++) {
      await new Promise((r) => setTimeout(r, 100));
      synced = await named();
    }
    // The run store's CF long name, where the synthetic world says "Air temperature at 2 m".
    expect(synced.variables).toEqual([expect.objectContaining({ name: 'air_temperature', description: '2 m air temperature' })]);
    const before = (await datasets(RUN1 - DAY)).body[0]!;
    expect(before.variables).toEqual([expect.objectContaining({ name: 'air_temperature', description: 'Air temperature at 2 m' })]);

    let res = await fetch(synced.downloadUrl);
    for (let k = 0; res.status === 503 && k < 100; k++) {
      await new Promise((r) => setTimeout(r, 200));
      res = await fetch(synced.downloadUrl);
    }
    expect(res.status).toBe(200);
    const image = readTiff(Buffer.from(await res.arrayBuffer()));
    expect([image.width, image.height]).toEqual([GFS_GRID.ni, GFS_GRID.nj]);
    const band = image.band(0);
    for (let y = 0; y < GFS_GRID.nj; y++) {
      for (let x = 0; x < GFS_GRID.ni; x++) {
        const expected = celsius(GFS_GRID.lat1 - 0.25 * y, GFS_GRID.lon1 + 0.25 * x, RUN1, valid);
        // Within the GRIB2 packing's precision (temperature packed to 0.01 K).
        expect(Math.abs(band[y * GFS_GRID.ni + x]! - expected)).toBeLessThanOrEqual(0.006);
      }
    }
  }, 60_000);

  it('has transfer products of its own on the source’s grid, listed after the catalog’s, whose files hold the synced store’s values', async () => {
    const products = await get<Array<{ name: string; format: string; datasets: string }>>('transfer', '/products');
    const names = products.body.map((p) => p.name);
    const synced = names.filter((n) => n.startsWith('gfs-0p25.'));
    // One per dated catalog transfer product whose variables the run holds: the hourly ones (12 hours cover no local day's extremes; no terrain).
    expect(synced).toEqual([
      'gfs-0p25.air-temperature-hourly-netcdf',
      'gfs-0p25.precipitation-rate-hourly-netcdf',
      'gfs-0p25.shortwave-radiation-hourly-netcdf',
      GEOTIFF,
    ]);
    expect(names.slice(-synced.length)).toEqual(synced);
    expect(products.body.find((p) => p.name === NETCDF)).toEqual({
      name: NETCDF,
      format: 'NetCDF',
      datasets: `/products/${NETCDF}/datasets`,
    });

    // The day of RUN1 holds the hours synced of it (06Z to 18Z): one file, listed as it is.
    const day = await datasetsOf(NETCDF, RUN1);
    expect(day.status).toBe(200);
    const stamp = iso(RUN1).slice(0, 10).replace(/-/g, '');
    expect(day.body).toHaveLength(1);
    const d = day.body[0]!;
    expect(d).toMatchObject({
      name: `${NETCDF}_${stamp}.nc`,
      validTimes: Array.from({ length: STEPS + 1 }, (_, h) => iso(RUN1 + h * HOUR)),
      bounds: BOX_BOUNDS,
      resolution: 0.25,
      width: GFS_GRID.ni,
      height: GFS_GRID.nj,
      variables: [expect.objectContaining({ name: 'air_temperature', description: '2 m air temperature' })],
    });
    // Days the source holds nothing of have no file; the synthetic world never fills them.
    expect((await datasetsOf(NETCDF, RUN1 - DAY)).body).toEqual([]);

    const file = await readDay(d);
    const { run, analysis } = await syncedStores();
    try {
      for (let y = 0; y < GFS_GRID.nj; y++) {
        for (let x = 0; x < GFS_GRID.ni; x++) {
          const [lat, lon] = [GFS_GRID.lat1 - 0.25 * y, GFS_GRID.lon1 + 0.25 * x];
          for (const h of [0, 5, 9, STEPS]) {
            expect(file.at(h, y, x)).toBeCloseTo(await storeValue(run, lat, lon, RUN1 + h * HOUR), 5);
            expect(Math.abs(file.at(h, y, x) - celsius(lat, lon, RUN1, RUN1 + h * HOUR))).toBeLessThanOrEqual(0.006);
          }
          // The analysis holds the run's first six hours, the same values.
          expect(file.at(2, y, x)).toBeCloseTo(await storeValue(analysis, lat, lon, RUN1 + 2 * HOUR), 5);
        }
      }
    } finally {
      await Promise.all([run.close(), analysis.close()]);
    }

    // The hourly GeoTIFF: one file per synced hour, the source's grid cell for cell.
    const hours = await datasetsOf(GEOTIFF, RUN1);
    expect(hours.body.map((h) => h.validTime)).toEqual(Array.from({ length: STEPS + 1 }, (_, h) => iso(RUN1 + h * HOUR)));
    const hour = hours.body[9]!;
    expect(hour).toMatchObject({ bounds: BOX_BOUNDS, width: GFS_GRID.ni, height: GFS_GRID.nj });
    const image = readTiff(await download(hour));
    expect([image.width, image.height]).toEqual([GFS_GRID.ni, GFS_GRID.nj]);
    const band = image.band(0);
    for (let y = 0; y < GFS_GRID.nj; y++) {
      for (let x = 0; x < GFS_GRID.ni; x++) {
        expect(band[y * GFS_GRID.ni + x]).toBe(file.at(9, y, x));
      }
    }
  }, 60_000);

  it('draws tiles from the run’s store, and a newer run’s frame from the newer run whatever was drawn before', async () => {
    const created = await fetch(`${url('tiles')}/v2/products/${PRODUCT}/styles`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(STYLE),
    });
    expect(created.status).toBe(201);
    const defaults = await get<Array<{ name: string; isDefault: boolean }>>('tiles', `/v2/products/${PRODUCT}/styles.json`);
    expect(defaults.body[0]).toMatchObject({ name: 'gfs-0p25.air-temperature-default', isDefault: true });

    const valid = RUN1 + STEPS * HOUR;
    const old = (await frames()).body.find((f) => f.validTime === iso(valid))!;
    const before = await tileValue(old.id, 45.6, 10.3);
    expect(before).toBeCloseTo(celsius(45.6, 10.3, RUN1, valid), 0);

    await sync(RUN2);
    const now = (await frames()).body;
    // The analysis now holds both runs' first six hours; the newer run's steps follow.
    expect(now.map((f) => f.validTime)).toEqual(Array.from({ length: 19 }, (_, h) => iso(RUN1 + h * HOUR)));
    expect(now.map((f) => (f.forecast === null ? 'analysis' : f.runTime))).toEqual(
      Array.from({ length: 19 }, (_, h) => (h < 12 ? 'analysis' : iso(RUN2))),
    );
    const replaced = now.find((f) => f.validTime === iso(valid))!;
    expect(replaced.runTime).toBe(iso(RUN2));
    expect(replaced.id).not.toBe(old.id);
    const after = await tileValue(replaced.id, 45.6, 10.3);
    // Six hours younger: 1.5 °C colder (15 levels of red) than the older run's frame at the same hour.
    expect(after).toBeCloseTo(celsius(45.6, 10.3, RUN2, valid), 0);
    expect(Math.abs(after - before)).toBeGreaterThan(1);
    const point = await get<{ value: number }>('platform', `/frames/${replaced.id}/datapoint/45.6/10.3`);
    expect(point.body.value).toBeCloseTo(celsius(45.6, 10.3, RUN2, valid), 2);
    // The older run is still served, and its frame still shows it.
    expect(await tileValue(old.id, 45.6, 10.3)).toBeCloseTo(before, 5);
    const forecasts = await get<Array<{ initTime: string }>>('platform', `/products/${PRODUCT}/forecasts`);
    expect(forecasts.body.map((f) => f.initTime)).toEqual([iso(RUN2), iso(RUN1)]);
  }, 60_000);

  it('draws the precipitation product with the catalog’s default style whole: its stores hold the precipitation type (0506, 0502)', async () => {
    const precipitation = 'gfs-0p25.precipitation-rate';
    const record = await get<{ styleableLayers: Array<{ name: string }> }>('platform', `/products/${precipitation}`);
    expect(record.body.styleableLayers.map((l) => l.name)).toEqual(['precipitation_rate', 'precipitation_type']);
    type Colorizer = { mask?: { layerName: string; attributes: string[] }; stops: Array<{ color: string }> };
    const styles = await get<Array<{ name: string; description: string; colorizers: Colorizer[] }>>(
      'tiles',
      `/v2/products/${precipitation}/styles.json`,
    );
    const style = styles.body[0]!;
    expect(style.name).toBe('gfs-0p25.precipitation-rate-default');
    expect(style.colorizers.map((c) => c.mask)).toEqual(
      ['rain', 'snow', 'freezing_rain', 'sleet'].map((a) => ({ layerName: 'precipitation_type', attributes: [a] })),
    );
    expect(style.description).not.toMatch(/hold no precipitation_type/);
    // A step's frame; the analytic archive's snow column (CSNOW alone) is the third, 10.5 E (sync/test/runs.ts).
    const frame = (await get<Frame[]>('tiles', `/v2/products/${precipitation}/frames.json?limit=1000`)).body.find(
      (f) => f.forecast !== null && Date.parse(f.validTime) > Date.parse(f.runTime),
    )!;
    const point = await get<{ tile: { z: number; x: number; y: number }; pixel: { row: number; column: number } }>(
      'platform',
      `/frames/${frame.id}/datapoint/45.5/10.5`,
    );
    const { z, x, y } = point.body.tile;
    const tile = await fetch(`${url('tiles')}/v2/frames/${frame.id}/tile/${z}/${x}/${y}.png`, {
      headers: { Authorization: auth, Accept: 'image/png' },
    });
    expect(tile.status).toBe(200);
    const [r, g, b, a] = pixelAt(decodePng(Buffer.from(await tile.arrayBuffer())), point.body.pixel.row, point.body.pixel.column);
    const hex = `#${[r, g, b].map((v) => v!.toString(16).padStart(2, '0')).join('')}`;
    expect(a).toBe(255);
    expect(style.colorizers[1]!.stops.map((s) => s.color)).toContain(hex);
  }, 60_000);
});

describe('a synced day after a newer run', () => {
  it('is made again: the analysis up to the newer run, then the newer run’s steps', async () => {
    // After the tiles test synced RUN2 (12Z): the day runs 06Z to 23Z, RUN2's steps from 12Z.
    const last = RUN1 - 6 * HOUR + DAY - HOUR;
    // The transfer area reads the weather served, which takes the new run within the reload period.
    let d = (await datasetsOf(NETCDF, RUN1)).body[0]!;
    for (let k = 0; d.validTimes!.at(-1) !== iso(last) && k < 50; k++) {
      await new Promise((r) => setTimeout(r, 100));
      d = (await datasetsOf(NETCDF, RUN1)).body[0]!;
    }
    expect(d.validTimes).toEqual(Array.from({ length: (last - RUN1) / HOUR + 1 }, (_, h) => iso(RUN1 + h * HOUR)));
    const file = await readDay(d);
    for (const [y, x] of [
      [0, 0],
      [2, 3],
      [4, 7],
    ] as const) {
      const [lat, lon] = [GFS_GRID.lat1 - 0.25 * y, GFS_GRID.lon1 + 0.25 * x];
      d.validTimes!.forEach((t, k) => {
        const valid = Date.parse(t);
        const from = valid < RUN2 ? RUN1 : RUN2;
        expect(Math.abs(file.at(k, y, x) - celsius(lat, lon, from, valid))).toBeLessThanOrEqual(0.006);
      });
    }
  }, 60_000);
});

describe('a registry that cannot be read', () => {
  it('leaves what was served before: the products, their frames and the model’s runs', async () => {
    const file = join(dataDir, 'sync', 'gfs-0p25', 'registry.json');
    const text = readFileSync(file, 'utf8');
    const served = async () => [
      await get('platform', '/products?source=gfs-0p25'),
      await frames(),
      await get('tiles', `/v2/products/${PRODUCT}/frames.json?limit=2`),
      await get('model', '/models/gfs-0p25/forecasts'),
    ];
    const before = await served();
    expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // Cut short, as a full disk or a hand edit leaves it.
    writeFileSync(file, text.slice(0, text.length / 2));
    try {
      // Past the weather's reload period, so every reader has met it.
      await new Promise((r) => setTimeout(r, 600));
      expect(await served()).toEqual(before);
    } finally {
      writeFileSync(file, text);
    }
  }, 60_000);
});

describe('a run retention removes', () => {
  it('is no forecast of the product, and its frames are 404 in the platform and tiles areas', async () => {
    const forecasts = await get<Array<{ id: string }>>('platform', `/products/${PRODUCT}/forecasts`);
    const oldRun = forecasts.body.find((f) => f.id === productRunId({ name: PRODUCT }, RUN1))!;
    const oldFrames = (await get<Frame[]>('platform', `/forecasts/${oldRun.id}/frames`)).body;
    await sync(RUN3, 2);
    const kept = await get<Array<{ initTime: string }>>('platform', `/products/${PRODUCT}/forecasts`);
    expect(kept.body.map((f) => f.initTime)).toEqual([iso(RUN3), iso(RUN2)]);
    expect((await get('platform', `/forecasts/${oldRun.id}`)).status).toBe(404);
    const frame = oldFrames.find((f) => f.validTime === iso(RUN1 + STEPS * HOUR))!;
    expect((await get('platform', `/frames/${frame.id}`)).status).toBe(404);
    const tile = await fetch(`${url('tiles')}/v2/frames/${frame.id}/tile/8/135/91.png`, {
      headers: { Authorization: auth, Accept: 'image/png' },
    });
    expect(tile.status).toBe(404);
    expect(((await tile.json()) as { id: string }).id).toBe('frame_does_not_exist');
    // Its analysis hours stay frames.
    expect((await get('platform', `/frames/${frameId({ name: PRODUCT }, RUN1 + HOUR)}`)).status).toBe(200);
  }, 60_000);
});

describe('FIELDCAST_SYNTHETIC=off', () => {
  it('lists only the synced products: the catalog’s are 404, in the platform and tiles areas', async () => {
    const offDir = mkdtempSync(join(tmpdir(), 'fieldcast-frames-off-'));
    const env = parseEnv(FleetEnv, {
      FIELDCAST_DATA_DIR: offDir,
      PORT_BASE: String(reservePortBase()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      FIELDCAST_SYNTHETIC: 'off',
      FIELDCAST_SYNC_RELOAD_MS: '200',
    });
    const off = await startFleet(env, { databaseSeed: await databaseTemplate(), print: () => undefined });
    try {
      const offAuth = `Basic ${Buffer.from(`${off.demo!.applicationId}:${off.demo!.applicationKey}`).toString('base64')}`;
      const at = (area: string, path: string) =>
        fetch(`${off.fleet.services.find((s) => s.area === area)!.url}${path}`, { headers: { Authorization: offAuth } });
      expect(await (await at('platform', '/products')).json()).toEqual([]);
      const lines: string[] = [];
      await syncCommand(
        ['gfs-0p25', '--once', '--run', run(RUN1), '--steps', `0-${STEPS}`],
        parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: offDir, FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl }),
        (l) => lines.push(l),
      );
      const names = ((await (await at('platform', '/products')).json()) as Array<{ name: string }>).map((p) => p.name);
      expect(names).toEqual(['gfs-0p25.air-temperature', 'gfs-0p25.precipitation-rate', 'gfs-0p25.shortwave-radiation']);
      expect((await at('platform', '/products/air-temperature')).status).toBe(404);
      expect((await at('platform', '/products/air-temperature/frames')).status).toBe(404);
      expect((await at('tiles', '/v2/products/air-temperature/frames.json')).status).toBe(404);
      const frames = (await (await at('tiles', `/v2/products/${PRODUCT}/frames.json?limit=1`)).json()) as Frame[];
      expect(frames.map((f) => f.validTime)).toEqual([iso(RUN1 + STEPS * HOUR)]);
    } finally {
      await off.fleet.stop();
      rmSync(offDir, { recursive: true, force: true });
    }
  }, 120_000);
});
