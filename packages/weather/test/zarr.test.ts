import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zarr from 'zarrita';
import { GridRequestError } from '../src/grid/grid-source.js';
import { FileStore, GridStoreWriter, ZarrSource } from '../src/stores.js';
import { serveDirectory } from './serve-directory.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2020, 0, 1);
let tmp: string;

/** A value that differs in every (t, i, j) and is exact in float32. */
const value = (t: number, i: number, j: number) => 10 + t * 0.5 + i * 0.25 + j * 0.125;

async function dailyStore(dir: string, opts: { nt?: number; attributes?: Record<string, unknown>; nan?: [number, number, number] } = {}) {
  const nt = opts.nt ?? 20;
  const lats = [40, 40.5, 41, 41.5, 42, 42.5, 43, 43.5, 44, 44.5]; // 10 rows: two chunks of 8
  const lons = [-100, -99.5, -99, -98.5, -98, -97.5, -97, -96.5, -96]; // 9 columns
  const w = await GridStoreWriter.create(dir, {
    lats,
    lons,
    attributes: opts.attributes ?? { title: 'test store', product: 'analysis-a' },
  });
  await w.addTimeAxis({ name: 'time', startMs: T0, stepMs: DAY, length: nt });
  await w.addVariable({
    name: 'air_temperature_daily_max',
    time: 'time',
    attributes: { standard_name: 'air_temperature', units: 'degC', cell_methods: 'time: maximum' },
  });
  const data = new Float32Array(nt * lats.length * lons.length);
  for (let t = 0; t < nt; t++)
    for (let i = 0; i < lats.length; i++)
      for (let j = 0; j < lons.length; j++) data[(t * lats.length + i) * lons.length + j] = value(t, i, j);
  if (opts.nan) data[(opts.nan[0] * lats.length + opts.nan[1]) * lons.length + opts.nan[2]] = NaN;
  await w.write('air_temperature_daily_max', data);
  await w.close();
}

/**
 * The same 4000 days (two time chunks of 3650) on the dailyStore grid, stored uncompressed
 * (ranged reads) and with zstd (zarrita decodes whole chunks): [plain dir, zstd dir].
 */
async function twinStores(name: string): Promise<[string, string]> {
  const nt = 4000;
  const lats = [40, 40.5, 41, 41.5, 42, 42.5, 43, 43.5, 44, 44.5];
  const lons = [-100, -99.5, -99, -98.5, -98, -97.5, -97, -96.5, -96];
  const data = new Float32Array(nt * lats.length * lons.length);
  for (let t = 0; t < nt; t++)
    for (let i = 0; i < lats.length; i++)
      for (let j = 0; j < lons.length; j++) data[(t * lats.length + i) * lons.length + j] = value(t, i, j);
  const dirs: [string, string] = [path.join(tmp, `${name}-plain.zarr`), path.join(tmp, `${name}-zstd.zarr`)];
  for (const [dir, compressor] of [
    [dirs[0], 'none'],
    [dirs[1], 'zstd'],
  ] as const) {
    const w = await GridStoreWriter.create(dir, { lats, lons, compressor });
    await w.addTimeAxis({ name: 'time', startMs: T0, stepMs: DAY, length: nt });
    await w.addVariable({
      name: 'air_temperature_daily_max',
      time: 'time',
      attributes: { standard_name: 'air_temperature', units: 'degC', cell_methods: 'time: maximum' },
    });
    await w.write('air_temperature_daily_max', data);
    await w.close();
  }
  return dirs;
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-zarr-'));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('GridStoreWriter', () => {
  it('writes Zarr v2 with xarray and CF metadata and point-series chunks', async () => {
    const dir = path.join(tmp, 'meta.zarr');
    await dailyStore(dir, { nt: 4000 });
    const zarray = JSON.parse(await fs.readFile(path.join(dir, 'air_temperature_daily_max/.zarray'), 'utf8'));
    expect(zarray).toMatchObject({
      zarr_format: 2,
      shape: [4000, 10, 9],
      chunks: [3650, 8, 8],
      dtype: '<f4',
      fill_value: 'NaN',
      compressor: null,
      order: 'F',
    });
    const time = JSON.parse(await fs.readFile(path.join(dir, 'time/.zattrs'), 'utf8'));
    expect(time).toEqual({
      _ARRAY_DIMENSIONS: ['time'],
      standard_name: 'time',
      long_name: 'time',
      axis: 'T',
      units: 'hours since 1970-01-01 00:00:00',
      calendar: 'proleptic_gregorian',
    });
    const lat = JSON.parse(await fs.readFile(path.join(dir, 'lat/.zattrs'), 'utf8'));
    expect(lat).toMatchObject({ _ARRAY_DIMENSIONS: ['lat'], standard_name: 'latitude', units: 'degrees_north' });
    const consolidated = JSON.parse(await fs.readFile(path.join(dir, '.zmetadata'), 'utf8'));
    expect(consolidated.zarr_consolidated_format).toBe(1);
    expect(Object.keys(consolidated.metadata)).toEqual(
      expect.arrayContaining(['.zgroup', '.zattrs', 'time/.zarray', 'lat/.zattrs', 'air_temperature_daily_max/.zattrs']),
    );
    // zarrita reads the time coordinate back as hours since 1970.
    const t = await zarr.open.v2(zarr.root(new FileStore(dir)).resolve('time'), { kind: 'array' });
    const hours = (await zarr.get(t, [zarr.slice(0, 2)])).data as Float64Array;
    expect(Array.from(hours)).toEqual([T0 / HOUR, T0 / HOUR + 24]);
    // Two time chunks x two lat chunks x two lon chunks.
    const chunkFiles = (await fs.readdir(path.join(dir, 'air_temperature_daily_max'))).filter((f) => /^\d/.test(f));
    expect(chunkFiles.sort()).toEqual(['0.0.0', '0.0.1', '0.1.0', '0.1.1', '1.0.0', '1.0.1', '1.1.0', '1.1.1']);
  });

  it('refuses to overwrite a store unless asked', async () => {
    const dir = path.join(tmp, 'twice.zarr');
    await dailyStore(dir);
    await expect(GridStoreWriter.create(dir, { lats: [0], lons: [0] })).rejects.toThrow(/exists/);
    const w = await GridStoreWriter.create(dir, { lats: [0], lons: [0], overwrite: true });
    await w.close();
  });
});

describe('ZarrSource', () => {
  let dir: string;
  beforeAll(async () => {
    dir = path.join(tmp, 'daily.zarr');
    await dailyStore(dir, { nan: [3, 2, 2] });
  });

  it('describes grid, coverage and variables', async () => {
    const s = await ZarrSource.open(dir);
    expect(s.id).toBe('daily');
    expect(s.label).toBe('test store');
    expect(s.grid).toEqual({ lat0: 40, lon0: -100, dLat: 0.5, dLon: 0.5, nLat: 10, nLon: 9 });
    expect(s.coverage()).toEqual({ startMs: T0, endMs: T0 + 19 * DAY });
    expect(s.variables()).toEqual([
      {
        id: 'air_temperature_daily_max',
        standardName: 'air_temperature',
        cellMethods: 'time: maximum',
        units: 'degC',
        description: 'daily maximum 2 m air temperature',
        stepMs: DAY,
      },
    ]);
  });

  it('reads a point on a grid node exactly', async () => {
    const s = await ZarrSource.open(dir);
    const p = await s.pointSeries('air_temperature_daily_max', -99, 41, { startMs: T0 + 2 * DAY, endMs: T0 + 5 * DAY });
    expect(p.startMs).toBe(T0 + 2 * DAY);
    expect(p.stepMs).toBe(DAY);
    expect(p.units).toBe('degC');
    expect(Array.from(p.values)).toEqual([2, 3, 4, 5].map((t) => value(t, 2, 2)).map((v, k) => (k === 1 ? NaN : v)));
    expect(p.productOf(0)).toBe('analysis-a');
  });

  it('interpolates bilinearly, also across a chunk border', async () => {
    const s = await ZarrSource.open(dir, { cacheBytes: 0 });
    // lat 43.6 lies between rows 7 and 8 (chunk border at 8), lon -96.3 between columns 7 and 8.
    const p = await s.pointSeries('air_temperature_daily_max', -96.3, 43.6, { startMs: T0, endMs: T0 + DAY });
    const wi = (43.6 - 43.5) / 0.5;
    const wj = (-96.3 - -96.5) / 0.5;
    for (let t = 0; t < 2; t++) {
      const expected =
        (1 - wi) * (1 - wj) * value(t, 7, 7) + (1 - wi) * wj * value(t, 7, 8) + wi * (1 - wj) * value(t, 8, 7) + wi * wj * value(t, 8, 8);
      expect(p.values[t]).toBeCloseTo(expected, 5);
    }
  });

  it('leaves a missing neighbour out and renormalises the weights', async () => {
    const s = await ZarrSource.open(dir);
    // Midway between (2,2) [NaN at t=3], (2,3), (3,2), (3,3).
    const p = await s.pointSeries('air_temperature_daily_max', -98.75, 41.25, { startMs: T0 + 3 * DAY, endMs: T0 + 3 * DAY });
    expect(p.values[0]).toBeCloseTo((value(3, 2, 3) + value(3, 3, 2) + value(3, 3, 3)) / 3, 5);
    // Steps before and after the missing one keep all four neighbours.
    const around = await s.pointSeries('air_temperature_daily_max', -98.75, 41.25, { startMs: T0 + DAY, endMs: T0 + 6 * DAY });
    const all4 = (t: number) => (value(t, 2, 2) + value(t, 2, 3) + value(t, 3, 2) + value(t, 3, 3)) / 4;
    expect(Array.from(around.values).map((v) => Math.round(v * 1e4) / 1e4)).toEqual(
      [1, 2, 3, 4, 5, 6].map((t) => Math.round((t === 3 ? (value(3, 2, 3) + value(3, 3, 2) + value(3, 3, 3)) / 3 : all4(t)) * 1e4) / 1e4),
    );
  });

  it('reads a window and a slice of the cells whose centres lie in the bbox', async () => {
    const s = await ZarrSource.open(dir);
    const w = await s.window('air_temperature_daily_max', [-99.2, 40.4, -98.5, 41], { startMs: T0 + DAY, endMs: T0 + 2 * DAY });
    expect(Array.from(w.lats)).toEqual([40.5, 41]);
    expect(Array.from(w.lons)).toEqual([-99, -98.5]);
    expect(w.nt).toBe(2);
    expect(w.startMs).toBe(T0 + DAY);
    const expected: number[] = [];
    for (let t = 1; t <= 2; t++) for (let i = 1; i <= 2; i++) for (let j = 2; j <= 3; j++) expected.push(value(t, i, j));
    expect(Array.from(w.values)).toEqual(expected);
    // The step at or before the time.
    const sl = await s.slice('air_temperature_daily_max', [-99.2, 40.4, -98.5, 41], T0 + 4 * DAY + 13 * HOUR);
    expect(sl.nt).toBe(1);
    expect(sl.startMs).toBe(T0 + 4 * DAY);
    expect(Array.from(sl.values)).toEqual([value(4, 1, 2), value(4, 1, 3), value(4, 2, 2), value(4, 2, 3)]);
  });

  it('clamps a range to the time axis and refuses what lies outside the store', async () => {
    const s = await ZarrSource.open(dir);
    const p = await s.pointSeries('air_temperature_daily_max', -100, 40, { startMs: T0 - 10 * DAY, endMs: T0 + 1.5 * DAY });
    expect(p.startMs).toBe(T0);
    expect(Array.from(p.values)).toEqual([value(0, 0, 0), value(1, 0, 0)]);
    await expect(
      s.pointSeries('air_temperature_daily_max', -100, 40, { startMs: T0 + 30 * DAY, endMs: T0 + 40 * DAY }),
    ).rejects.toMatchObject({ name: 'GridRequestError', code: 'out_of_coverage' });
    // The refusal names the grid's box, so the caller learns where to ask instead.
    await expect(s.pointSeries('air_temperature_daily_max', -120, 40, { startMs: T0, endMs: T0 })).rejects.toThrow(
      `point (-120, 40) is outside the grid of store ${s.id} (lat 40..44.5, lon -100..-96)`,
    );
    await expect(s.pointSeries('air_temperature', -100, 40, { startMs: T0, endMs: T0 })).rejects.toThrow(/no variable air_temperature/);
    await expect(s.window('air_temperature_daily_max', [10, 0, 0, 1], { startMs: T0, endMs: T0 })).rejects.toBeInstanceOf(GridRequestError);
    // Within half a cell of the edge centre: the edge cell's value.
    const edge = await s.pointSeries('air_temperature_daily_max', -100.2, 39.8, { startMs: T0, endMs: T0 });
    expect(edge.values[0]).toBe(value(0, 0, 0));
  });

  it('names the forecast product after the forecast start', async () => {
    const fdir = path.join(tmp, 'forecast.zarr');
    await dailyStore(fdir, {
      attributes: { product: 'analysis-a', forecast_product: 'forecast-b', forecast_start: new Date(T0 + 10 * DAY).toISOString() },
    });
    const s = await ZarrSource.open(fdir);
    const p = await s.pointSeries('air_temperature_daily_max', -100, 40, { startMs: T0 + 8 * DAY, endMs: T0 + 11 * DAY });
    expect([0, 1, 2, 3].map((k) => p.productOf(k))).toEqual(['analysis-a', 'analysis-a', 'forecast-b', 'forecast-b']);
    const w = await s.window('air_temperature_daily_max', [-100, 40, -100, 40], { startMs: T0 + 9 * DAY, endMs: T0 + 10 * DAY });
    expect([w.productOf(0), w.productOf(1)]).toEqual(['analysis-a', 'forecast-b']);
  });

  it('reads the same values over HTTP', async () => {
    const server = await serveDirectory(dir);
    try {
      const s = await ZarrSource.open(server.url, { id: 'remote' });
      expect(s.grid.nLat).toBe(10);
      const p = await s.pointSeries('air_temperature_daily_max', -98, 42, { startMs: T0, endMs: T0 + 2 * DAY });
      expect(Array.from(p.values)).toEqual([0, 1, 2].map((t) => value(t, 4, 4)));
    } finally {
      await server.close();
    }
  });

  it('reads point series as byte ranges of uncompressed chunks, equal to the decoded-chunk path', async () => {
    // Same data uncompressed (ranged reads) and with zstd (zarrita decodes whole chunks); nt
    // spans two time chunks, and a missing chunk reads as the fill value.
    const [plainDir, zstdDir] = await twinStores('ranges');
    const plain = await ZarrSource.open(plainDir, { cacheBytes: 0 });
    const zstd = await ZarrSource.open(zstdDir, { cacheBytes: 0 });
    const range = { startMs: T0 + 3600 * DAY, endMs: T0 + 3700 * DAY };
    for (const [lon, lat] of [
      [-98, 42],
      [-97.8, 43.6],
      [-96.3, 40.2],
    ] as const) {
      const a = await plain.pointSeries('air_temperature_daily_max', lon, lat, range);
      const b = await zstd.pointSeries('air_temperature_daily_max', lon, lat, range);
      expect(a.values.length).toBe(101);
      expect(Array.from(a.values)).toEqual(Array.from(b.values));
    }
    expect(Array.from((await plain.pointSeries('air_temperature_daily_max', -98, 42, range)).values.subarray(0, 3))).toEqual(
      [3600, 3601, 3602].map((t) => value(t, 4, 4)),
    );
    await fs.rm(path.join(plainDir, 'air_temperature_daily_max', '1.0.0'));
    plain.clearCache();
    const gap = await plain.pointSeries('air_temperature_daily_max', -98, 42, range);
    expect(gap.values[0]).toBe(value(3600, 4, 4));
    expect(gap.values[100]).toBeNaN(); // step 3700 lies in the removed second time chunk
    await Promise.all([plain.close(), zstd.close()]);
  });

  it('reads both cells of a stencil column in one ranged read, equal to the decoded-chunk path, also under concurrency', async () => {
    // Time chunks of 3650 days; a range inside the first, so a column's two cells (rows i and
    // i + 1 inside one chunk) lie in one byte range of its file.
    const [plainDir, zstdDir] = await twinStores('pairs');
    const plain = await ZarrSource.open(plainDir, { cacheBytes: 0 });
    const zstd = await ZarrSource.open(zstdDir, { cacheBytes: 0 });
    const range = { startMs: T0 + 100 * DAY, endMs: T0 + 400 * DAY };
    // Count the ranged reads the store is asked for.
    const readInto = FileStore.prototype.readInto;
    let reads = 0;
    FileStore.prototype.readInto = function (this: FileStore, ...args: Parameters<FileStore['readInto']>) {
      reads += 1;
      return readInto.apply(this, args);
    };
    try {
      const p = await plain.pointSeries('air_temperature_daily_max', -96.3, 40.2, range);
      expect(reads).toBe(2); // rows 0-1 of columns 7 and 8: one read each
      const wi = 0.2 / 0.5,
        wj = 0.2 / 0.5;
      for (const t of [0, 150, 300]) {
        const d = 100 + t;
        const expected =
          (1 - wi) * (1 - wj) * value(d, 0, 7) + (1 - wi) * wj * value(d, 0, 8) + wi * (1 - wj) * value(d, 1, 7) + wi * wj * value(d, 1, 8);
        expect(p.values[t]).toBeCloseTo(expected, 4);
      }
      // Rows 7 and 8 straddle a chunk border: four reads.
      reads = 0;
      await plain.pointSeries('air_temperature_daily_max', -97.8, 43.6, range);
      expect(reads).toBe(4);
    } finally {
      FileStore.prototype.readInto = readInto;
    }
    // Many reads at once share the pool of read buffers; each must get its own values.
    const points = Array.from({ length: 40 }, (_, k) => [-99.9 + (k % 8) * 0.47, 40.1 + (k % 9) * 0.49] as const);
    const [fast, decoded] = await Promise.all([
      Promise.all(points.map(([lon, lat]) => plain.pointSeries('air_temperature_daily_max', lon, lat, range))),
      Promise.all(points.map(([lon, lat]) => zstd.pointSeries('air_temperature_daily_max', lon, lat, range))),
    ]);
    for (let k = 0; k < points.length; k++) expect(Array.from(fast[k]!.values)).toEqual(Array.from(decoded[k]!.values));
    await Promise.all([plain.close(), zstd.close()]);
  });

  it('reads a foreign Zarr v3 store: packed int16, fill value, kelvin, 0..360 and wrap-around', async () => {
    // What xarray writes for an encoded variable: int16 with scale_factor/add_offset (CF 8.1).
    const vdir = path.join(tmp, 'v3.zarr');
    const store = new FileStore(vdir);
    const root = zarr.root(store);
    await zarr.create(root, { attributes: { title: 'v3' } });
    const lons = [0, 90, 180, 270];
    const mk = async (
      name: string,
      data: Float64Array | Int16Array,
      dtype: 'float64' | 'int16',
      dims: string[],
      attributes: Record<string, unknown>,
      fillValue?: number,
    ) => {
      const arr = await zarr.create(root.resolve(name), {
        shape: dims.map((d) => ({ time: 2, lat: 2, lon: 4 })[d]!),
        chunkShape: dims.map((d) => ({ time: 2, lat: 2, lon: 4 })[d]!),
        dtype,
        dimensionNames: dims,
        attributes,
        ...(fillValue !== undefined ? { fillValue } : {}),
      });
      await zarr.set(arr as never, null, {
        data,
        shape: arr.shape,
        stride: arr.shape.map((_, k) => arr.shape.slice(k + 1).reduce((a, b) => a * b, 1)),
      } as never);
    };
    await mk('time', Float64Array.of(0, 6), 'float64', ['time'], {
      units: 'hours since 2021-07-01',
      calendar: 'gregorian',
      standard_name: 'time',
    });
    await mk('lat', Float64Array.of(-10, 10), 'float64', ['lat'], { units: 'degrees_north' });
    await mk('lon', Float64Array.from(lons), 'float64', ['lon'], { units: 'degrees_east' });
    const packed = Int16Array.from({ length: 16 }, (_, k) => k * 10);
    packed[9] = -32768; // t=1, lat -10, lon 90
    await mk(
      't2m',
      packed,
      'int16',
      ['time', 'lat', 'lon'],
      { standard_name: 'air_temperature', units: 'K', scale_factor: 0.01, add_offset: 280 },
      -32768,
    );
    const s = await ZarrSource.open(vdir);
    expect(s.variables().map((v) => [v.id, v.units, v.stepMs])).toEqual([['air_temperature', 'degC', 6 * HOUR]]);
    expect(s.coverage().startMs).toBe(Date.UTC(2021, 6, 1));
    const unpacked = (k: number) => packed[k]! * 0.01 + 280 - 273.15;
    // Node (lat -10, lon 90) = index 1; same node asked as lon -270.
    const p = await s.pointSeries('air_temperature', -270, -10, { startMs: 0, endMs: Date.UTC(2030, 0, 1) });
    expect(p.values[0]).toBe(Math.fround(unpacked(1)));
    expect(p.values[1]).toBeNaN(); // the fill value
    // Between lon 270 and 0 (= 360): the grid is global, so the stencil wraps.
    const wrap = await s.pointSeries('air_temperature', -45, -10, { startMs: Date.UTC(2021, 6, 1), endMs: Date.UTC(2021, 6, 1) });
    expect(wrap.values[0]).toBeCloseTo((unpacked(3) + unpacked(0)) / 2, 4);
  });
});

describe('ZarrSource, a variable of codes', () => {
  it('reads precipitation_type at the nearest grid point, never a blend of its neighbours’ codes (0502)', async () => {
    const dir = path.join(tmp, 'ptype');
    const lats = [45, 45.25];
    const lons = [10, 10.25, 10.5];
    const w = await GridStoreWriter.create(dir, { lats, lons });
    await w.addTimeAxis({ name: 'time', startMs: T0, stepMs: HOUR, length: 2 });
    await w.addVariable({ name: 'precipitation_type', time: 'time', attributes: { units: '1' } });
    // Rows south to north: rain, snow, ice pellets / freezing rain, none, snow; the second hour all snow.
    await w.write('precipitation_type', Float32Array.of(1, 2, 4, 3, 0, 2, 2, 2, 2, 2, 2, 2));
    await w.close();
    const s = await ZarrSource.open(dir);
    const at = async (lon: number, lat: number) =>
      Array.from((await s.pointSeries('precipitation_type', lon, lat, { startMs: T0, endMs: T0 + HOUR })).values);
    // A point between rain (1) and snow (2) nearer the rain: rain, where a blend would give 1.4.
    expect(await at(10.1, 45)).toEqual([1, 2]);
    expect(await at(10.2, 45.05)).toEqual([2, 2]);
    // Half-way between four points: the one up on each axis, as a tile's nearest grid point is.
    expect(await at(10.125, 45.125)).toEqual([0, 2]);
    expect(await at(10.45, 45.2)).toEqual([2, 2]);
  });
});
