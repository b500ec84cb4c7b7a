/**
 * Metadata and coordinate arrays must be ones xarray understands (docs/decisions/0017-xarray-compatibility-tested.md). Stores written by
 * GridStoreWriter and by `fieldcast ingest` are opened with xarray (open_zarr and
 * open_dataset(engine="zarr"), with and without the consolidated metadata) and checked for
 * dims, coordinate values, CF time decoding, units/standard_name and exact data values; an
 * ingested NetCDF file is opened with xarray too and must hold the same values as its store. A
 * synced run's store and its analysis state the hour each mean rate covers as time bounds that
 * xarray decodes (CF 1.11 §7.1, docs/decisions/0379-time-cells-of-mean-rates.md).
 * GDAL's multidimensional Zarr driver is checked as well when `gdalmdiminfo` is installed.
 *
 * Python: $FIELDCAST_PYTHON if set (only it), else `python3`, else /usr/bin/python3 (Debian's
 * python3-xarray and python3-zarr live there when another python3 comes first on PATH). Under CI (CI=true, or
 * FIELDCAST_REQUIRE_XARRAY=1 as .ci/run sets) a missing xarray fails the suite; elsewhere the
 * tests are skipped with the reason printed.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GridStoreWriter, ingestFile, readSourceRegistry } from '@fieldcast/weather';
import { syncRun } from '../../packages/sync/src/index.js';
import { serveArchive } from '../../packages/sync/test/archive-server.js';
import { writeGfsStep } from '../../packages/sync/test/runs.js';
import { type NcSpec, writeCdf1, writeNetcdf4 } from '../../packages/weather/test/ingest-fixtures.js';
import { findPython } from './python.js';

const CHECK = path.join(process.cwd(), 'tests/integration/zarr_xarray_check.py');
const REQUIRED = process.env.CI === 'true' || process.env.FIELDCAST_REQUIRE_XARRAY === '1';

function hasCommand(cmd: string): boolean {
  try {
    execFileSync(cmd, ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

const { python, tried } = findPython('xarray, zarr, numpy', ['python3', '/usr/bin/python3']);
const missing = `xarray and zarr are not importable (${tried.join('; ')}); install them with "apt-get install -y python3-xarray python3-zarr" (Debian) or set FIELDCAST_PYTHON`;
if (!python && !REQUIRED) console.warn(`zarr-xarray.int.test.ts skipped: ${missing}`);

interface XVar {
  dims: string[];
  dtype: string;
  attrs: Record<string, unknown>;
  encoding: Record<string, unknown>;
  values: Array<number | string | null>;
}
interface XDataset {
  dims: Record<string, number>;
  attrs: Record<string, unknown>;
  coords: Record<string, XVar>;
  vars: Record<string, XVar>;
}
type Described = Record<'open_zarr' | 'open_dataset' | 'unconsolidated', XDataset> & { xarray: string };

function runCheck<T>(...args: string[]): T {
  const out = execFileSync(python!, [CHECK, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  return JSON.parse(out) as T;
}

/** float32 values as xarray reports them (NaN spelled "NaN" in the JSON). */
const asJson = (values: ArrayLike<number>) => Array.from(values, (v) => (Number.isNaN(v) ? 'NaN' : v));

const T0 = Date.UTC(2020, 0, 1);
const DAY = 86_400_000;
const HOUR = 3_600_000;
const LATS = [40, 40.5, 41];
const LONS = [-100, -99.5, -99, -98.5];
const NT = 5;
const tmax = (t: number, i: number, j: number) => 10 + t * 0.5 + i * 0.25 + j * 0.125;

let tmp: string;
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-xarray-'));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** A store as the writer makes them: daily [time, lat, lon] (F order), a one-step axis, a static field. */
async function writerStore(dir: string, compressor: 'none' | 'zstd'): Promise<{ tmax: Float32Array; elevation: Float32Array }> {
  const w = await GridStoreWriter.create(dir, {
    lats: LATS,
    lons: LONS,
    compressor,
    attributes: { title: 'xarray check', product: 'analysis-x' },
  });
  await w.addTimeAxis({ name: 'time', startMs: T0, stepMs: DAY, length: NT });
  await w.addTimeAxis({ name: 'time_1', startMs: T0 + 6 * HOUR, stepMs: HOUR, length: 1 });
  await w.addVariable({
    name: 'air_temperature_daily_max',
    time: 'time',
    attributes: { standard_name: 'air_temperature', units: 'degC', cell_methods: 'time: maximum', long_name: 'daily maximum temperature' },
  });
  await w.addVariable({ name: 'relative_humidity', time: 'time_1', attributes: { standard_name: 'relative_humidity', units: '%' } });
  await w.addVariable({ name: 'elevation', attributes: { standard_name: 'surface_altitude', units: 'm' } });
  const data = new Float32Array(NT * LATS.length * LONS.length);
  for (let t = 0; t < NT; t++)
    for (let i = 0; i < LATS.length; i++)
      for (let j = 0; j < LONS.length; j++) data[(t * LATS.length + i) * LONS.length + j] = tmax(t, i, j);
  data[(2 * LATS.length + 1) * LONS.length + 3] = NaN; // a missing value: the array's fill value
  await w.write('air_temperature_daily_max', data);
  await w.write(
    'relative_humidity',
    Float32Array.from({ length: LATS.length * LONS.length }, (_, k) => 50 + k),
  );
  const elevation = Float32Array.from({ length: LATS.length * LONS.length }, (_, k) => 1000 + k * 12.5);
  await w.write('elevation', elevation);
  await w.close();
  return { tmax: data, elevation };
}

const describeIf = python ? describe : describe.skip;

if (!python && REQUIRED) {
  it('has xarray to check the Zarr stores against (required under CI)', () => {
    throw new Error(missing);
  });
}

describeIf('Zarr stores as xarray reads them', () => {
  it.each(['none', 'zstd'] as const)('writer store (compressor %s): dims, coordinates, CF time, attributes, values', async (compressor) => {
    const dir = path.join(tmp, `writer-${compressor}.zarr`);
    const written = await writerStore(dir, compressor);
    const views = runCheck<Described>('describe', dir);
    const ds = views.open_zarr;
    // The same dataset whichever way xarray opens it.
    expect(views.open_dataset).toEqual(ds);
    expect(views.unconsolidated).toEqual(ds);

    expect(ds.dims).toEqual({ time: NT, lat: 3, lon: 4, time_1: 1 });
    expect(ds.attrs).toMatchObject({ Conventions: 'CF-1.11', title: 'xarray check', product: 'analysis-x' });

    // Coordinates: exact values, CF attributes (CF 4.1, 4.2), float64.
    expect(ds.coords.lat).toMatchObject({
      dims: ['lat'],
      dtype: 'float64',
      values: LATS,
      attrs: { standard_name: 'latitude', units: 'degrees_north', axis: 'Y' },
    });
    expect(ds.coords.lon).toMatchObject({
      dims: ['lon'],
      dtype: 'float64',
      values: LONS,
      attrs: { standard_name: 'longitude', units: 'degrees_east', axis: 'X' },
    });
    // CF time (CF 4.4): decoded to datetimes; units and calendar move to the encoding.
    const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '');
    expect(ds.coords.time!.dtype).toBe('datetime64[ns]');
    expect(ds.coords.time!.values).toEqual(Array.from({ length: NT }, (_, t) => iso(T0 + t * DAY)));
    expect(ds.coords.time!.encoding).toMatchObject({ units: 'hours since 1970-01-01 00:00:00', calendar: 'proleptic_gregorian' });
    expect(ds.coords.time!.attrs).toEqual({ standard_name: 'time', long_name: 'time', axis: 'T' });
    expect(ds.coords.time_1!.values).toEqual([iso(T0 + 6 * HOUR)]);
    expect(ds.coords.time_1!.attrs).toMatchObject({ standard_name: 'time', step_ms: HOUR });

    // Data: dims from _ARRAY_DIMENSIONS (which xarray consumes), CF attributes, NaN fill, values.
    const t = ds.vars.air_temperature_daily_max!;
    expect(t.dims).toEqual(['time', 'lat', 'lon']);
    expect(t.dtype).toBe('float32');
    expect(t.attrs).toEqual({
      standard_name: 'air_temperature',
      units: 'degC',
      cell_methods: 'time: maximum',
      long_name: 'daily maximum temperature',
    });
    expect(t.encoding).toMatchObject({ _FillValue: 'NaN', dtype: 'float32' });
    expect(t.values).toEqual(asJson(written.tmax));
    expect(ds.vars.relative_humidity).toMatchObject({
      dims: ['time_1', 'lat', 'lon'],
      attrs: { standard_name: 'relative_humidity', units: '%' },
    });
    expect(ds.vars.relative_humidity!.values).toEqual(Array.from({ length: 12 }, (_, k) => 50 + k));
    expect(ds.vars.elevation).toMatchObject({
      dims: ['lat', 'lon'],
      dtype: 'float32',
      attrs: { standard_name: 'surface_altitude', units: 'm' },
    });
    expect(ds.vars.elevation!.values).toEqual(asJson(written.elevation));
  });

  /**
   * A CF file as archives write them (latitude north to south, longitude 0..360, kelvin with a
   * fill value, int16 packed precipitation, a length-1 height axis): xarray reads the source
   * and the ingested store to the same float32 values once the source is put in the store's
   * orientation, and the same times.
   */
  function cfSpec(record: boolean): NcSpec {
    const tas: number[] = [];
    const pr: number[] = [];
    for (let t = 0; t < 3; t++) {
      for (let r = 0; r < 4; r++) {
        for (let c = 0; c < 6; c++) {
          tas.push((t + r + c) % 7 === 3 ? -999 : 270 + t * 1.5 + r * 0.25 + c * 0.125);
          pr.push((t * 5 + r * 3 + c) % 11 === 0 ? -32767 : t * 100 + r * 10 + c);
        }
      }
    }
    return {
      dims: [
        { name: 'time', size: 3, record },
        { name: 'lat', size: 4 },
        { name: 'lon', size: 6 },
        { name: 'height', size: 1 },
      ],
      attrs: { title: 'CF source', Conventions: 'CF-1.8' },
      vars: [
        {
          name: 'time',
          dims: ['time'],
          type: 'double',
          attrs: { units: 'days since 2001-03-01 12:00:00', calendar: 'standard', standard_name: 'time' },
          data: [0, 1, 2],
        },
        {
          name: 'lat',
          dims: ['lat'],
          type: 'float',
          attrs: { units: 'degrees_north', standard_name: 'latitude' },
          data: [31.5, 31, 30.5, 30],
        },
        {
          name: 'lon',
          dims: ['lon'],
          type: 'float',
          attrs: { units: 'degrees_east', standard_name: 'longitude' },
          data: [0, 60, 120, 180, 240, 300],
        },
        { name: 'height', dims: ['height'], type: 'double', attrs: { units: 'm', standard_name: 'height' }, data: [2] },
        {
          name: 'tasmax',
          dims: ['time', 'height', 'lat', 'lon'],
          type: 'float',
          attrs: {
            units: 'K',
            standard_name: 'air_temperature',
            cell_methods: 'time: maximum',
            _FillValue: { type: 'float', values: [-999] },
          },
          data: tas,
        },
        {
          name: 'pr',
          dims: ['time', 'lat', 'lon'],
          type: 'short',
          attrs: {
            units: 'kg m-2 s-1',
            standard_name: 'precipitation_flux',
            scale_factor: 0.5,
            add_offset: 1,
            _FillValue: { type: 'short', values: [-32767] },
          },
          data: pr,
        },
      ],
    };
  }

  it.each([
    ['NetCDF classic', 'cf3', true],
    ['NetCDF-4', 'cf4', false],
  ] as const)('ingested %s: xarray reads the source and the store to the same values', async (_label, name, record) => {
    const file = path.join(tmp, `${name}.nc`);
    if (record) await writeCdf1(file, cfSpec(true));
    else await writeNetcdf4(file, cfSpec(false));
    const res = await ingestFile(file, { outDir: tmp, slabBytes: 1 });
    const views = runCheck<Described>('describe', res.storePath);
    const ds = views.open_zarr;
    expect(views.unconsolidated).toEqual(ds);
    expect(ds.dims).toEqual({ time: 3, lat: 4, lon: 6 });
    expect(ds.coords.lat!.values).toEqual([30, 30.5, 31, 31.5]);
    expect(ds.coords.lon!.values).toEqual([-120, -60, 0, 60, 120, 180]);
    expect(ds.coords.time!.values).toEqual(['2001-03-01T12:00:00.000', '2001-03-02T12:00:00.000', '2001-03-03T12:00:00.000']);
    expect(ds.vars.air_temperature_daily_max!.attrs).toMatchObject({
      standard_name: 'air_temperature',
      units: 'K',
      cell_methods: 'time: maximum',
      original_name: 'tasmax',
    });
    expect(ds.vars.precipitation_rate!.attrs).toMatchObject({
      standard_name: 'precipitation_flux',
      units: 'kg m-2 s-1',
      original_name: 'pr',
    });
    // Unpacked on ingest: no CF packing attributes left for xarray to apply twice.
    expect(ds.vars.precipitation_rate!.attrs.scale_factor).toBeUndefined();
    expect(ds.vars.precipitation_rate!.encoding.dtype).toBe('float32');

    const cmp = runCheck<{
      times_equal: boolean;
      lat_equal: boolean;
      lon_equal: boolean;
      vars: Record<string, { equal: boolean; nan: number; original: string }>;
    }>('compare', file, res.storePath);
    expect(cmp).toMatchObject({ times_equal: true, lat_equal: true, lon_equal: true });
    expect(cmp.vars).toEqual({
      air_temperature_daily_max: expect.objectContaining({ original: 'tasmax', equal: true }),
      precipitation_rate: expect.objectContaining({ original: 'pr', equal: true }),
    });
    expect(cmp.vars.air_temperature_daily_max!.nan).toBeGreaterThan(0);
    expect(cmp.vars.precipitation_rate!.nan).toBeGreaterThan(0);
  });

  it("a synced run's store and its analysis: xarray decodes the mean rates' time bounds, the hour ending at each stamp", async () => {
    const run = Date.UTC(2026, 11, 2, 18);
    const archive = path.join(tmp, 'gfs-archive');
    for (let s = 0; s <= 3; s++) writeGfsStep(archive, run, s);
    const server = await serveArchive(archive);
    const syncDir = path.join(tmp, 'sync');
    try {
      const synced = await syncRun({
        source: 'gfs-0p25',
        baseUrl: server.baseUrl,
        syncDir,
        runMs: run,
        steps: '0-3',
        now: () => run + 4 * HOUR,
        http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
        stepRetries: 0,
      });
      expect(synced.state).toBe('published');
    } finally {
      await server.close();
    }
    const sourceDir = path.join(syncDir, 'gfs-0p25');
    const registry = await readSourceRegistry(sourceDir, 'gfs-0p25');
    const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '');
    // The run's rates are stamped 1 h to 3 h; the analysis took the same hours.
    for (const store of [registry.runs[0]!.path, registry.analysis!]) {
      const views = runCheck<Described>('describe', path.join(sourceDir, store));
      const ds = views.open_zarr;
      expect(views.open_dataset).toEqual(ds);
      expect(views.unconsolidated).toEqual(ds);
      const stamps = [1, 2, 3].map((h) => run + h * HOUR);
      expect(ds.coords.time_mean_1h!.values).toEqual(stamps.map(iso));
      expect(ds.vars.time_mean_1h_bnds).toMatchObject({
        dims: ['time_mean_1h', 'nv'],
        dtype: 'datetime64[ns]',
        values: stamps.flatMap((t) => [iso(t - HOUR), iso(t)]),
      });
      expect(ds.vars.precipitation_rate).toMatchObject({ dims: ['time_mean_1h', 'lat', 'lon'], attrs: { cell_methods: 'time: mean' } });
    }
  });

  const gdal = hasCommand('gdalmdiminfo');
  (gdal ? it : it.skip)('GDAL reads the store (Zarr driver, gdalmdiminfo)', async () => {
    const dir = path.join(tmp, 'gdal.zarr');
    await writerStore(dir, 'none');
    const info = JSON.parse(execFileSync('gdalmdiminfo', ['-detailed', dir], { encoding: 'utf8' })) as {
      driver: string;
      dimensions: Array<{ name: string; size: number }>;
      arrays: Record<string, { dimensions: string[]; unit?: string; values?: number[]; attributes?: Record<string, unknown> }>;
    };
    expect(info.driver).toBe('Zarr');
    const sizes = Object.fromEntries(info.dimensions.map((d) => [d.name.replace(/^\//, ''), d.size]));
    expect(sizes).toMatchObject({ time: NT, lat: 3, lon: 4 });
    const t = info.arrays.air_temperature_daily_max!;
    expect(t.dimensions.map((d) => d.replace(/^\//, ''))).toEqual(['time', 'lat', 'lon']);
    expect(t.unit).toBe('degC');
    expect(info.arrays.lat!.values).toEqual(LATS);
  });
});
