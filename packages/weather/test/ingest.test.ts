import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { ingestFile, IngestError, readIngestedStores, ZarrSource } from '../src/stores.js';
import { type NcSpec, writeCdf1, writeGeotiffFile, writeNetcdf4 } from './ingest-fixtures.js';

const DAY = 86_400_000;
let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-ingest-'));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
}

/**
 * A CF file as climate archives write them: latitude north to south, longitude 0..360,
 * daily maximum temperature in kelvin with a fill value, precipitation packed in int16.
 * Grid: lat 11, 10.5, 10 (descending); lon 0, 120, 240 (global, 0..360).
 */
const tasmax = [
  // t = 0: rows lat 11, 10.5, 10; columns lon 0, 120, 240
  281.25, 282.5, 283.75, 284.125, -999, 286.5, 287.0625, 288.5, 289.75,
  // t = 1
  290.25, 291.5, 292.75, 293.125, 294.5, 295.5, 296.0625, 297.5, 298.75,
];
const prPacked = [1, 2, 3, 4, 5, -32767, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];

function cfSpec(withRecord: boolean): NcSpec {
  return {
    dims: [
      { name: 'time', size: 2, record: withRecord },
      { name: 'lat', size: 3 },
      { name: 'lon', size: 3 },
      { name: 'height', size: 1 },
    ],
    attrs: { title: 'CF test file', Conventions: 'CF-1.8', history: 'made by the test' },
    vars: [
      {
        name: 'time',
        dims: ['time'],
        type: 'double',
        attrs: { units: 'days since 2000-01-01 00:00:00', calendar: 'standard', standard_name: 'time' },
        data: [10, 11],
      },
      { name: 'lat', dims: ['lat'], type: 'float', attrs: { units: 'degrees_north', standard_name: 'latitude' }, data: [11, 10.5, 10] },
      { name: 'lon', dims: ['lon'], type: 'float', attrs: { units: 'degrees_east', standard_name: 'longitude' }, data: [0, 120, 240] },
      { name: 'height', dims: ['height'], type: 'double', attrs: { units: 'm', standard_name: 'height' }, data: [2] },
      {
        name: 'tasmax',
        dims: ['time', 'height', 'lat', 'lon'],
        type: 'float',
        attrs: {
          units: 'K',
          standard_name: 'air_temperature',
          cell_methods: 'time: maximum',
          long_name: 'Daily Maximum Near-Surface Air Temperature',
          _FillValue: { type: 'float', values: [-999] },
        },
        data: tasmax,
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
        data: prPacked,
      },
      { name: 'crs', dims: [], type: 'int', attrs: { grid_mapping_name: 'latitude_longitude' }, data: [0] },
    ],
  };
}

/** Source value at (t, source row r, source column c). */
const src = (t: number, r: number, c: number) => tasmax[t * 9 + r * 3 + c]!;
/** Store orientation: row i = lat 10 + 0.5 i (source row 2 - i); column j = lon -120, 0, 120 (source 2, 0, 1). */
const SRC_COL = [2, 0, 1];

async function checkCfStore(storePath: string): Promise<void> {
  // Coordinates: latitude flipped to ascending, longitude moved to -180..180 and rotated.
  const lat = await ZarrSource.open(storePath);
  expect(lat.grid).toEqual({ lat0: 10, lon0: -120, dLat: 0.5, dLon: 120, nLat: 3, nLon: 3 });
  const cov = lat.coverage();
  expect(new Date(cov.startMs).toISOString()).toBe('2000-01-11T00:00:00.000Z');
  expect(new Date(cov.endMs).toISOString()).toBe('2000-01-12T00:00:00.000Z');

  // Raw stored values are the file's values exactly (float32, kelvin), reoriented.
  const raw = await ZarrSource.open(storePath, { cacheBytes: 0 });
  const win = await raw.window('air_temperature_daily_max', [-180, -90, 180, 90], { startMs: cov.startMs, endMs: cov.endMs });
  expect(Array.from(win.lats)).toEqual([10, 10.5, 11]);
  expect(Array.from(win.lons)).toEqual([-120, 0, 120]);
  expect(win.nt).toBe(2);
  for (let t = 0; t < 2; t++) {
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const s = src(t, 2 - i, SRC_COL[j]!);
        const got = win.values[(t * 3 + i) * 3 + j]!;
        // Read through the contract: kelvin to degC, in float32.
        if (s === -999) expect(got).toBeNaN();
        else expect(got).toBe(Math.fround(Math.fround(s) - 273.15));
      }
    }
  }
  const zattrs = await readJson(path.join(storePath, 'air_temperature_daily_max', '.zattrs'));
  expect(zattrs).toMatchObject({
    _ARRAY_DIMENSIONS: ['time', 'lat', 'lon'],
    standard_name: 'air_temperature',
    units: 'K',
    cell_methods: 'time: maximum',
    original_name: 'tasmax',
    long_name: 'Daily Maximum Near-Surface Air Temperature',
  });
  expect(zattrs._FillValue).toBeUndefined();
  expect(zattrs.scale_factor).toBeUndefined();

  // Packed int16: unpacked = packed * 0.5 + 1 (CF 8.1), fill to NaN, kg m-2 s-1 to mm h-1.
  const pr = await raw.window('precipitation_rate', [-180, -90, 180, 90], { startMs: cov.startMs, endMs: cov.startMs });
  const prAt = (i: number, j: number) => prPacked[(2 - i) * 3 + SRC_COL[j]!]!;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const p = prAt(i, j);
      const got = pr.values[i * 3 + j]!;
      if (p === -32767) expect(got).toBeNaN();
      else expect(got).toBe(Math.fround(Math.fround(p * 0.5 + 1) * 3600));
    }
  }

  const tattrs = await readJson(path.join(storePath, 'time', '.zattrs'));
  expect(tattrs).toMatchObject({ units: 'hours since 1970-01-01 00:00:00', calendar: 'proleptic_gregorian', standard_name: 'time' });
  const root = await readJson(path.join(storePath, '.zattrs'));
  expect(root.title).toBe('CF test file');
  expect(String(root.history)).toMatch(/^made by the test\n.*fieldcast ingest/);
}

describe('ingestFile', () => {
  it('ingests NetCDF-4 (HDF5) and reads every value back exactly', async () => {
    const file = path.join(tmp, 'cf4.nc');
    await writeNetcdf4(file, cfSpec(false));
    const res = await ingestFile(file, { outDir: path.join(tmp, 'out') });
    expect(res.format).toBe('netcdf4');
    expect(res.id).toBe('cf4');
    expect(res.skipped.map((s) => s.name)).toEqual(['crs']);
    await checkCfStore(res.storePath);
  });

  it('ingests NetCDF classic (CDF-1, record dimension) the same way', async () => {
    const file = path.join(tmp, 'cf3.nc');
    await writeCdf1(file, cfSpec(true));
    const res = await ingestFile(file, { outDir: path.join(tmp, 'out') });
    expect(res.format).toBe('netcdf-classic');
    await checkCfStore(res.storePath);
  });

  it('interpolates bilinearly between ingested grid points', async () => {
    const file = path.join(tmp, 'bilinear.nc');
    await writeNetcdf4(file, cfSpec(false));
    const res = await ingestFile(file, { outDir: path.join(tmp, 'out') });
    const zs = await ZarrSource.open(res.storePath);
    // lat 10.25 is halfway between rows 0 and 1; lon 60 halfway between 0 and 120.
    const s = await zs.pointSeries('air_temperature_daily_max', 60, 10.25, {
      startMs: Date.UTC(2000, 0, 12),
      endMs: Date.UTC(2000, 0, 12),
    });
    const corners = [src(1, 2, 0), src(1, 2, 1), src(1, 1, 0), src(1, 1, 1)].map((k) => Math.fround(k) - 273.15);
    expect(s.values.length).toBe(1);
    expect(s.startMs).toBe(Date.UTC(2000, 0, 12));
    expect(s.stepMs).toBe(DAY);
    expect(s.values[0]).toBeCloseTo(corners.reduce((a, b) => a + b) / 4, 4);
    expect(s.productOf(0)).toBe('bilinear');
  });

  it('ingests a multiband float32 GeoTIFF as time steps with exact values', async () => {
    const file = path.join(tmp, 'tmax.tif');
    const b1 = [1.5, 2.25, 3.125, 4, 5.0625, 6.5];
    const b2 = [7.75, 8, -9999, 10.5, 11.25, 12];
    await writeGeotiffFile(file, { width: 3, height: 2, bands: [b1, b2], west: 10, north: 50, dx: 0.5, dy: 0.25, noData: -9999 });
    const catalogPath = path.join(tmp, 'catalog.yaml');
    await fs.writeFile(catalogPath, '# products stay untouched\nproducts:\n  - name: kept\n');
    const res = await ingestFile(file, {
      outDir: path.join(tmp, 'out'),
      catalogPath,
      geotiff: {
        startMs: Date.UTC(2021, 5, 1),
        stepMs: DAY,
        variable: 'tmax',
        attributes: { standard_name: 'air_temperature', cell_methods: 'time: maximum', units: 'degC' },
      },
    });
    expect(res.format).toBe('geotiff');
    const zs = await ZarrSource.open(res.storePath);
    // PixelIsArea: centres half a pixel in from the tiepoint corner; rows flipped to ascending.
    expect(zs.grid).toEqual({ lat0: 49.625, lon0: 10.25, dLat: 0.25, dLon: 0.5, nLat: 2, nLon: 3 });
    const w = await zs.window('air_temperature_daily_max', [10, 49, 12, 50], {
      startMs: Date.UTC(2021, 5, 1),
      endMs: Date.UTC(2021, 5, 2),
    });
    expect(Array.from(w.lats)).toEqual([49.625, 49.875]);
    expect(Array.from(w.lons)).toEqual([10.25, 10.75, 11.25]);
    const expected = [b1, b2].flatMap((b) => [...b.slice(3, 6), ...b.slice(0, 3)]).map((v) => (v === -9999 ? NaN : v));
    expect(Array.from(w.values)).toEqual(expected);
    expect(w.startMs).toBe(Date.UTC(2021, 5, 1));
    expect(w.stepMs).toBe(DAY);
    expect(zs.variables().map((v) => [v.id, v.units, v.stepMs])).toEqual([['air_temperature_daily_max', 'degC', DAY]]);

    const catalog = parse(await fs.readFile(catalogPath, 'utf8')) as { products: unknown; stores: unknown[] };
    expect(catalog.products).toEqual([{ name: 'kept' }]);
    const stores = await readIngestedStores(catalogPath);
    expect(stores).toHaveLength(1);
    expect(stores[0]).toMatchObject({
      id: 'tmax',
      path: res.storePath,
      format: 'geotiff',
      grid: { lat0: 49.625, lon0: 10.25, dLat: 0.25, dLon: 0.5, nLat: 2, nLon: 3 },
      time: { start: '2021-06-01T00:00:00.000Z', end: '2021-06-02T00:00:00.000Z', stepMs: DAY },
      variables: [
        {
          name: 'air_temperature_daily_max',
          variable: 'air_temperature_daily_max',
          units: 'degC',
          standardName: 'air_temperature',
          cellMethods: 'time: maximum',
        },
      ],
    });
    expect(await fs.readFile(catalogPath, 'utf8')).toMatch(/^# products stay untouched/);

    // Re-ingesting the same id needs overwrite and replaces the catalog entry.
    await expect(ingestFile(file, { outDir: path.join(tmp, 'out'), catalogPath, geotiff: { startMs: 0, stepMs: DAY } })).rejects.toThrow(
      /exists/,
    );
    await ingestFile(file, {
      outDir: path.join(tmp, 'out'),
      catalogPath,
      overwrite: true,
      geotiff: { startMs: Date.UTC(2022, 0, 1), stepMs: DAY },
    });
    const again = await readIngestedStores(catalogPath);
    expect(again).toHaveLength(1);
    expect(again[0]!.time!.start).toBe('2022-01-01T00:00:00.000Z');
    expect(again[0]!.variables[0]!.name).toBe('tmax');
  });

  it('unscales a GeoTIFF band by the scale and offset GDAL stores for it (raw x scale + offset), no-data compared raw', async () => {
    // int-like raw counts of 0.02 K from -273.15: 14500 is 16.85 degC (GDAL raster data model, "scale and offset")
    const file = path.join(tmp, 'scaled.tif');
    await writeGeotiffFile(file, {
      width: 2,
      height: 1,
      bands: [[14500, -9999]],
      west: 0,
      north: 1,
      dx: 1,
      dy: 1,
      noData: -9999,
      scaleOffset: [{ scale: 0.02, offset: -273.15 }],
    });
    const res = await ingestFile(file, {
      outDir: path.join(tmp, 'out'),
      geotiff: { variable: 't', attributes: { standard_name: 'air_temperature', units: 'degC' } },
    });
    const zs = await ZarrSource.open(res.storePath);
    const v = zs.variables()[0]!.id;
    const w = await zs.window(v, [0, 0, 2, 1], { startMs: 0, endMs: 0 });
    expect(w.values[0]).toBeCloseTo(14500 * 0.02 - 273.15, 4);
    expect(w.values[1]).toBeNaN();
  });

  it("takes a GeoTIFF's time from its DateTime tag, and refuses a tag that is no calendar time rather than roll it onto another", async () => {
    const tagged = (dateTime: string) => {
      const file = path.join(tmp, `tagged-${dateTime.replace(/\W/g, '')}.tif`);
      return writeGeotiffFile(file, { width: 2, height: 1, bands: [[1, 2]], west: 0, north: 1, dx: 1, dy: 1, dateTime }).then(() => file);
    };
    const attributes = { standard_name: 'air_temperature', units: 'degC' };
    const ok = await ingestFile(await tagged('2024:02:29 06:00:00'), {
      outDir: path.join(tmp, 'ok'),
      geotiff: { variable: 't', attributes },
    });
    expect((await ZarrSource.open(ok.storePath)).coverage().startMs).toBe(Date.UTC(2024, 1, 29, 6));
    for (const [dateTime, field] of [
      ['2023:02:29 06:00:00', 'day'],
      ['2024:13:01 00:00:00', 'month'],
      ['2024:06:01 24:00:00', 'hour'],
    ]) {
      await expect(
        ingestFile(await tagged(dateTime!), { outDir: path.join(tmp, 'bad'), geotiff: { variable: 't', attributes } }),
      ).rejects.toThrow(`the DateTime tag "${dateTime}" is not a calendar date and time (its ${field})`);
    }
  });

  it('refuses a projected GeoTIFF with a clear message', async () => {
    const file = path.join(tmp, 'utm.tif');
    await writeGeotiffFile(file, {
      width: 2,
      height: 2,
      bands: [[1, 2, 3, 4]],
      west: 500000,
      north: 4000000,
      dx: 1000,
      dy: 1000,
      geoKeys: { GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 32633 },
    });
    await expect(ingestFile(file, { outDir: path.join(tmp, 'out'), geotiff: { startMs: 0 } })).rejects.toThrow(
      /projected coordinate system \(EPSG 32633\).*EPSG:4326/,
    );
  });

  it('asks for a time when a multiband GeoTIFF has none', async () => {
    const file = path.join(tmp, 'notime.tif');
    await writeGeotiffFile(file, {
      width: 2,
      height: 1,
      bands: [
        [1, 2],
        [3, 4],
      ],
      west: 0,
      north: 1,
      dx: 1,
      dy: 1,
    });
    await expect(ingestFile(file, { outDir: path.join(tmp, 'out') })).rejects.toThrow(/2 bands are time steps.*pass the time/);
  });

  it('refuses a file that is neither NetCDF nor GeoTIFF', async () => {
    const file = path.join(tmp, 'data.nc');
    await fs.writeFile(file, 'lat,lon,value\n1,2,3\n');
    const err = await ingestFile(file, { outDir: path.join(tmp, 'out') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IngestError);
    expect((err as Error).message).toMatch(/not a NetCDF \(classic or NetCDF-4\/HDF5\) or GeoTIFF file/);
  });

  it('refuses CDF-5 and non-real calendars by name', async () => {
    const cdf5 = path.join(tmp, 'big.nc');
    await fs.writeFile(cdf5, Buffer.from('CDF\x05\0\0\0\0', 'latin1'));
    await expect(ingestFile(cdf5, { outDir: path.join(tmp, 'out') })).rejects.toThrow(/CDF-5/);
    const noleap = cfSpec(false);
    noleap.vars[0]!.attrs = { units: 'days since 2000-01-01', calendar: 'noleap' };
    const file = path.join(tmp, 'noleap.nc');
    await writeNetcdf4(file, noleap);
    await expect(ingestFile(file, { outDir: path.join(tmp, 'out') })).rejects.toThrow(/calendar "noleap" is not supported/);
  });

  it('leaves no store behind when a file fails part way, and keeps the old store when an overwrite fails', async () => {
    // A NetCDF classic file cut short inside its last variable's data: the header and tasmax
    // read, pr does not (NetCDF classic format specification: non-record data in variable order).
    const good = path.join(tmp, 'cut-good.nc');
    await writeCdf1(good, cfSpec(false));
    const bytes = await fs.readFile(good);
    const cut = path.join(tmp, 'cut.nc');
    await fs.writeFile(cut, bytes.subarray(0, bytes.length - 24));
    const outDir = path.join(tmp, 'out-cut');
    const err = await ingestFile(cut, { outDir, id: 'cut' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IngestError);
    expect((err as Error).message).toContain(cut);
    // Nothing a Zarr reader could open, and nothing that blocks a second attempt.
    expect(await fs.readdir(outDir).catch(() => [])).toEqual([]);

    await ingestFile(good, { outDir, id: 'cut' });
    await expect(ingestFile(cut, { outDir, id: 'cut', overwrite: true })).rejects.toBeInstanceOf(IngestError);
    expect(await fs.readdir(outDir)).toEqual(['cut.zarr']);
    await checkCfStore(path.join(outDir, 'cut.zarr'));
  });

  it('refuses a time axis with a gap or a duplicate, naming the file and the step', async () => {
    const spec = (times: number[]): NcSpec => ({
      dims: [
        { name: 'time', size: times.length },
        { name: 'lat', size: 1 },
        { name: 'lon', size: 2 },
      ],
      vars: [
        { name: 'time', dims: ['time'], type: 'double', attrs: { units: 'days since 2021-01-01', standard_name: 'time' }, data: times },
        { name: 'lat', dims: ['lat'], type: 'double', attrs: { units: 'degrees_north' }, data: [10] },
        { name: 'lon', dims: ['lon'], type: 'double', attrs: { units: 'degrees_east' }, data: [20, 21] },
        { name: 'tas', dims: ['time', 'lat', 'lon'], type: 'float', attrs: { units: 'K' }, data: times.flatMap(() => [280, 281]) },
      ],
    });
    const gap = path.join(tmp, 'gap.nc');
    await writeNetcdf4(gap, spec([0, 1, 3]));
    await expect(ingestFile(gap, { outDir: path.join(tmp, 'out') })).rejects.toThrow(
      `${gap}: time axis is not regular: 2021-01-04T00:00:00.000Z follows 2021-01-02T00:00:00.000Z, not 24 h after it`,
    );
    const duplicate = path.join(tmp, 'duplicate.nc');
    await writeNetcdf4(duplicate, spec([0, 1, 1, 2]));
    await expect(ingestFile(duplicate, { outDir: path.join(tmp, 'out') })).rejects.toThrow(
      `${duplicate}: time axis is not regular: 2021-01-02T00:00:00.000Z follows 2021-01-02T00:00:00.000Z, not 24 h after it`,
    );
  });

  it('masks a missing_value held in a wider type than the data, and knows degree_Celsius', async () => {
    // CF 2.5.1 asks for missing_value in the data's type, yet CDL written without the "f" suffix
    // (`tas:missing_value = 1.e+20 ;`) makes it a double. netCDF4-python and xarray compare it in
    // the data's type (float32) and mask it; so must ingest. "degree_Celsius" is UDUNITS-2's
    // own name of the unit (udunits2-derived.xml), the spelling CF 3.1 examples use.
    const file = path.join(tmp, 'wide-missing.nc');
    await writeCdf1(file, {
      dims: [
        { name: 'time', size: 1 },
        { name: 'lat', size: 1 },
        { name: 'lon', size: 2 },
      ],
      vars: [
        { name: 'time', dims: ['time'], type: 'double', attrs: { units: 'hours since 2021-01-01' }, data: [0] },
        { name: 'lat', dims: ['lat'], type: 'double', attrs: { units: 'degrees_north' }, data: [10] },
        { name: 'lon', dims: ['lon'], type: 'double', attrs: { units: 'degrees_east' }, data: [20, 21] },
        {
          name: 'tas',
          dims: ['time', 'lat', 'lon'],
          type: 'float',
          attrs: { units: 'degree_Celsius', standard_name: 'air_temperature', missing_value: 1e20 },
          data: [1e20, 12.5],
        },
      ],
    });
    const res = await ingestFile(file, { outDir: path.join(tmp, 'out'), stepMs: 3_600_000 });
    expect(res.entry.variables.map((v) => [v.name, v.variable])).toEqual([['air_temperature', 'air_temperature']]);
    const zs = await ZarrSource.open(res.storePath);
    try {
      const w = await zs.window('air_temperature', [19, 9, 22, 11], { startMs: Date.UTC(2021, 0, 1), endMs: Date.UTC(2021, 0, 1) });
      expect(Array.from(w.values)).toEqual([NaN, 12.5]);
    } finally {
      await zs.close();
    }
  });

  describe('temperature units as UDUNITS spells them (CF 1.11 section 3.1)', () => {
    /** One cell, one hour of 2 m air temperature in `units`. */
    const temperatureFile = async (name: string, units: string, value = 12.5) => {
      const file = path.join(tmp, `${name}.nc`);
      await writeCdf1(file, {
        dims: [
          { name: 'time', size: 1 },
          { name: 'lat', size: 1 },
          { name: 'lon', size: 2 },
        ],
        vars: [
          { name: 'time', dims: ['time'], type: 'double', attrs: { units: 'hours since 2021-01-01' }, data: [0] },
          { name: 'lat', dims: ['lat'], type: 'double', attrs: { units: 'degrees_north' }, data: [10] },
          { name: 'lon', dims: ['lon'], type: 'double', attrs: { units: 'degrees_east' }, data: [20, 21] },
          {
            name: 't2m',
            dims: ['time', 'lat', 'lon'],
            type: 'float',
            attrs: { units, standard_name: 'air_temperature' },
            data: [value, value],
          },
        ],
      });
      return file;
    };
    const out = () => path.join(tmp, 'units-out');

    it('refuses a bare "C", the coulomb in UDUNITS, naming the variable and the unit', async () => {
      const file = await temperatureFile('coulomb', 'C');
      await expect(ingestFile(file, { outDir: out(), stepMs: 3_600_000 })).rejects.toThrow(
        `${file}: variable "t2m" (air_temperature): units "C" cannot be read as degC (in UDUNITS "C" is the coulomb, a unit of electric charge); degrees Celsius are "degC" or "degree_Celsius", kelvin "K" (CF 1.11 section 3.1)`,
      );
      await expect(fs.stat(path.join(out(), 'coulomb.zarr'))).rejects.toThrow();
    });

    it('refuses a lower-case "k", which is no unit; "K" is the kelvin', async () => {
      await expect(ingestFile(await temperatureFile('small-k', 'k', 285.65), { outDir: out(), stepMs: 3_600_000 })).rejects.toThrow(
        /variable "t2m" \(air_temperature\): units "k" cannot be read as degC \(in UDUNITS "k" is no unit/,
      );
      const res = await ingestFile(await temperatureFile('kelvin', 'K', 285.65), { outDir: out(), stepMs: 3_600_000 });
      const zs = await ZarrSource.open(res.storePath);
      try {
        const w = await zs.window('air_temperature', [19, 9, 22, 11], { startMs: Date.UTC(2021, 0, 1), endMs: Date.UTC(2021, 0, 1) });
        expect(Array.from(w.values).map((v) => Number(v.toFixed(4)))).toEqual([12.5, 12.5]);
      } finally {
        await zs.close();
      }
    });

    it.each(['degC', 'degree_Celsius', 'Celsius', 'celsius', 'deg_C'].map((units, k) => [units, k]))(
      'reads "%s" as degrees Celsius',
      async (units, k) => {
        const res = await ingestFile(await temperatureFile(`celsius-${k}`, units), {
          outDir: out(),
          stepMs: 3_600_000,
        });
        expect(res.entry.variables.map((v) => [v.name, v.variable])).toEqual([['air_temperature', 'air_temperature']]);
      },
    );

    // Symbols keep their case in UDUNITS-2 (prefix "M" is mega, "m" milli: udunits2-prefixes.xml),
    // so "Mm h-1" is megametres an hour, no precipitation rate, and "mm h-1" one.
    it.each([
      ['refuses', 'Mm h-1'],
      ['reads', 'mm h-1'],
    ])('%s precipitation in "%s"', async (verdict, units) => {
      const file = path.join(tmp, `pr-${verdict}.nc`);
      await writeCdf1(file, {
        dims: [
          { name: 'time', size: 1 },
          { name: 'lat', size: 1 },
          { name: 'lon', size: 2 },
        ],
        vars: [
          { name: 'time', dims: ['time'], type: 'double', attrs: { units: 'hours since 2021-01-01' }, data: [0] },
          { name: 'lat', dims: ['lat'], type: 'double', attrs: { units: 'degrees_north' }, data: [10] },
          { name: 'lon', dims: ['lon'], type: 'double', attrs: { units: 'degrees_east' }, data: [20, 21] },
          {
            name: 'pr',
            dims: ['time', 'lat', 'lon'],
            type: 'float',
            attrs: { units, standard_name: 'lwe_precipitation_rate' },
            data: [2.5, 2.5],
          },
        ],
      });
      const ingested = ingestFile(file, { outDir: out(), stepMs: 3_600_000 });
      if (verdict === 'refuses')
        await expect(ingested).rejects.toThrow(
          `${file}: variable "pr" (precipitation_rate): units "Mm h-1" cannot be read as mm h-1 (CF 1.11 section 3.1)`,
        );
      else
        expect((await ingested).entry.variables.map((v) => [v.name, v.variable])).toEqual([['precipitation_rate', 'precipitation_rate']]);
    });
  });

  it('refuses a file without a latitude/longitude grid', async () => {
    const file = path.join(tmp, 'station.nc');
    await writeCdf1(file, {
      dims: [{ name: 'station', size: 2 }],
      vars: [{ name: 'tas', dims: ['station'], type: 'float', attrs: { units: 'K' }, data: [280, 281] }],
    });
    await expect(ingestFile(file, { outDir: path.join(tmp, 'out') })).rejects.toThrow(`${file}: no latitude coordinate variable`);
  });
});
