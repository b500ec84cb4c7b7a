import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGeoTiff, floatingPointPredict, TILE } from '../src/formats/geotiff.js';
import { CHUNK_CELLS, fileTimeCells, TIME_UNITS, writeNetcdf } from '../src/formats/netcdf.js';
import { NODATA, type RasterLayout, type RasterRow, type RowTimeCell } from '../src/formats/raster.js';
import { MemorySink } from './memory-sink.js';
import { readNetcdf4 } from './netcdf-reader.js';
import { geoKeys, readTiff } from './tiff-reader.js';

/** A grid larger than one tile each way, so edge tiles are partly padding. */
const WIDTH = TILE + 44;
const HEIGHT = TILE + 4;
const RES = 0.5;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function layout(
  times: number[],
  names = ['air_temperature_daily_max', 'air_temperature_daily_min'],
  stepMs = times.length > 0 ? HOUR : 0,
): RasterLayout {
  return {
    lats: Float64Array.from({ length: HEIGHT }, (_, i) => 70 - (i + 0.5) * RES),
    lons: Float64Array.from({ length: WIDTH }, (_, j) => -30 + (j + 0.5) * RES),
    resolution: RES,
    bounds: [-30, 70 - HEIGHT * RES, -30 + WIDTH * RES, 70],
    latEdges: Float64Array.from({ length: HEIGHT + 1 }, (_, i) => 70 - i * RES),
    lonEdges: Float64Array.from({ length: WIDTH + 1 }, (_, j) => -30 + j * RES),
    times,
    stepMs,
    variables: names.map((name, b) => ({
      name,
      standardName: 'air_temperature',
      units: 'degC',
      longName: `band ${b}`,
      cellMethods: b === 0 ? 'time: maximum' : 'time: minimum',
    })),
    title: 'Test <grid> & "title"',
    source: 'a test',
    history: 'written by a test',
  };
}

/** Value of band b, step t at row y, column x: every cell different, a few missing. */
const valueAt = (b: number, t: number, y: number, x: number) => ((y * 7 + x * 13 + t * 101 + b * 1000) % 997) / 8 - 40;
const missing = (y: number, x: number) => (y === 3 && x === 5) || (y === HEIGHT - 1 && x === WIDTH - 1);

/** The rows of the layout's variables, each with the time cells its reads would state (`cellsOfRow`, none unless given). */
async function* rows(
  l: RasterLayout,
  cellsOfRow: (y: number) => RowTimeCell[] = () => l.variables.map(() => undefined),
): AsyncGenerator<RasterRow> {
  const nt = Math.max(1, l.times.length);
  for (let y = 0; y < HEIGHT; y++) {
    const values = l.variables.map((_, b) => {
      const row = new Float32Array(nt * WIDTH);
      for (let t = 0; t < nt; t++) for (let x = 0; x < WIDTH; x++) row[t * WIDTH + x] = missing(y, x) ? Number.NaN : valueAt(b, t, y, x);
      return row;
    });
    yield { values, timeCells: cellsOfRow(y) };
  }
}

describe('GeoTIFF writer', () => {
  const day = Date.UTC(2024, 5, 1);

  it('writes a tiled, DEFLATE-compressed float32 GeoTIFF whose bands read back exactly, nodata where values are missing', async () => {
    const l = layout([day]);
    const sink = new MemorySink();
    const size = await writeGeoTiff(l, rows(l), sink);
    const bytes = sink.bytes();
    expect(size).toBe(bytes.length);
    const image = readTiff(bytes);
    expect([image.width, image.height, image.bands]).toEqual([WIDTH, HEIGHT, 2]);
    expect(image.tags.get(259)).toEqual([8]); // DEFLATE
    expect(image.tags.get(317)).toEqual([3]); // floating-point predictor
    expect(image.tags.get(339)).toEqual([3, 3]); // IEEE float
    expect(image.tags.get(258)).toEqual([32, 32]);
    expect(image.tags.get(284)).toEqual([2]); // one plane per band
    expect(image.tags.get(322)).toEqual([TILE]);
    for (let b = 0; b < 2; b++) {
      const band = image.band(b);
      const wrong: string[] = [];
      for (let y = 0; y < HEIGHT; y++) {
        for (let x = 0; x < WIDTH; x++) {
          const expected = missing(y, x) ? NODATA : Math.fround(valueAt(b, 0, y, x));
          if (band[y * WIDTH + x] !== expected) wrong.push(`band ${b} (${x}, ${y}): ${band[y * WIDTH + x]} for ${expected}`);
        }
      }
      expect(wrong.slice(0, 5)).toEqual([]);
    }
    // Compression does something: the file is smaller than its raw samples.
    expect(bytes.length).toBeLessThan(WIDTH * HEIGHT * 2 * 4);
  });

  it('georeferences in EPSG:4326 with pixel-is-area, the grid geotransform and GDAL nodata and band descriptions', async () => {
    const l = layout([day]);
    const sink = new MemorySink();
    await writeGeoTiff(l, rows(l), sink);
    const image = readTiff(sink.bytes());
    const { version, keys } = geoKeys(image);
    expect(version).toEqual([1, 1, 1]); // GeoTIFF 1.1
    expect(keys.get(1024)).toBe(2); // geographic
    expect(keys.get(1025)).toBe(1); // pixel is area
    expect(keys.get(2048)).toBe(4326);
    expect(image.tags.get(33550)).toEqual([RES, RES, 0]);
    // The north-west corner of the first pixel: its centre is half a cell inside.
    expect(image.tags.get(33922)).toEqual([0, 0, 0, -30, 70, 0]);
    expect(image.tags.get(42113)).toBe('-9999');
    const metadata = image.tags.get(42112) as string;
    expect(metadata).toContain('<Item name="DESCRIPTION" sample="0" role="description">air_temperature_daily_max</Item>');
    expect(metadata).toContain('<Item name="DESCRIPTION" sample="1" role="description">air_temperature_daily_min</Item>');
    expect(metadata).toContain('<Item name="UNITTYPE" sample="1" role="unittype">degC</Item>');
    // The valid time as the dataset record's validTime writes it (RFC 3339, to the second when whole).
    expect(metadata).toContain('<Item name="TIME">2024-06-01T00:00:00Z</Item>');
    // No TIFF DateTime (306): TIFF 6.0 makes it the image's creation time, not its valid time,
    // and a clock time would make a replica's bytes differ.
    expect(image.tags.has(306)).toBe(false);
    expect(metadata).toContain('Test &lt;grid&gt; &amp; &quot;title&quot;');
  });

  it('puts the directory before the tiles (cloud-optimized order) and the tiles in the file', async () => {
    const l = layout([day], ['surface_altitude']);
    const sink = new MemorySink();
    await writeGeoTiff(l, rows(l), sink);
    const bytes = sink.bytes();
    const image = readTiff(bytes);
    const offsets = image.tags.get(324) as number[];
    const counts = image.tags.get(325) as number[];
    expect(image.tags.get(284)).toEqual([1]);
    expect(offsets).toHaveLength(4);
    expect(Math.min(...offsets)).toBeGreaterThan(bytes.readUInt32LE(4));
    offsets.forEach((o, i) => expect(o + counts[i]!).toBeLessThanOrEqual(bytes.length));
  });

  it('refuses more than one time step', async () => {
    const l = layout([day, day + 3_600_000]);
    await expect(writeGeoTiff(l, rows(l), new MemorySink())).rejects.toThrow(/one time step/);
  });

  it('predicts floats as TIFF Technical Note 3 does: byte planes, most significant first, then differences', () => {
    const out = new Uint8Array(8);
    // 1.0 = 3f800000, 2.0 = 40000000: planes [3f 40][80 00][00 00][00 00], then each byte minus the previous.
    floatingPointPredict(Float32Array.of(1, 2), out);
    expect([...out]).toEqual([0x3f, 0x01, 0x40, 0x80, 0x00, 0x00, 0x00, 0x00]);
  });
});

const hours = (ms: number) => ms / HOUR;

const ncdump = existsSync('/usr/bin/ncdump') ? '/usr/bin/ncdump' : undefined;
const python = ['/usr/bin/python3', 'python3'].find((p) => {
  try {
    execFileSync(p, ['-c', 'import xarray, netCDF4'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
});
if (!python)
  console.warn(
    'formats.test.ts: skipping the xarray checks: xarray with netCDF4 is not importable (apt-get install -y python3-xarray python3-netcdf4)',
  );

/** The file's time bounds as xarray decodes them (decode_times, the default), each end an ISO date and time. */
function xarrayTimeBounds(path: string): { bounds: string; cells: string[][] } {
  const script = [
    'import json, sys, xarray',
    'ds = xarray.open_dataset(sys.argv[1], engine="netcdf4", decode_times=True)',
    'print(json.dumps({"bounds": ds.time.attrs.get("bounds", ds.time.encoding.get("bounds")), "cells": [[str(v) for v in row] for row in ds.time_bnds.values]}))',
  ].join('\n');
  return JSON.parse(execFileSync(python!, ['-c', script, path], { encoding: 'utf8' })) as { bounds: string; cells: string[][] };
}

describe('NetCDF writer', () => {
  const day = Date.UTC(2024, 5, 1);
  const times = [day, day + 3_600_000, day + 2 * 3_600_000];
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'transfer-netcdf-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the layout's file, its rows' reads stating `cellsOfRow`, and reads it back with h5wasm. */
  async function written(l: RasterLayout, name = 'file.nc', cellsOfRow?: (y: number) => RowTimeCell[]) {
    const path = join(dir, name);
    const size = await writeNetcdf(l, rows(l, cellsOfRow), path);
    const bytes = readFileSync(path);
    return { size, bytes, nc: await readNetcdf4(bytes) };
  }

  it('writes a NetCDF-4 (HDF5) file with CF-1.8 coordinates as dimension scales and their attributes', async () => {
    const l = layout(times);
    const { size, bytes, nc } = await written(l);
    expect(size).toBe(bytes.length);
    // The HDF5 signature (HDF5 File Format Specification, superblock): a NetCDF-4 file, not a classic one.
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(nc.dims).toEqual([
      { name: 'time', length: 3 },
      { name: 'lat', length: HEIGHT },
      { name: 'lon', length: WIDTH },
      { name: 'nv', length: 2 },
    ]);
    expect(nc.attributes).toEqual({
      Conventions: 'CF-1.8',
      title: l.title,
      institution: 'Fieldcast',
      source: 'a test',
      history: 'written by a test',
    });
    expect(nc.variables.time!.attributes).toEqual({
      standard_name: 'time',
      long_name: 'time',
      units: TIME_UNITS,
      calendar: 'standard',
      axis: 'T',
    });
    expect(nc.variables.lat!.attributes).toMatchObject({ standard_name: 'latitude', units: 'degrees_north', axis: 'Y' });
    expect(nc.variables.lon!.attributes).toMatchObject({ standard_name: 'longitude', units: 'degrees_east', axis: 'X' });
    for (const c of ['time', 'lat', 'lon']) expect(nc.variables[c]!.dtype).toBe('<d');
    const tmax = nc.variables.air_temperature_daily_max!;
    expect(tmax.dims).toEqual(['time', 'lat', 'lon']);
    expect(tmax.dtype).toBe('<f');
    expect(tmax.attributes).toEqual({
      standard_name: 'air_temperature',
      long_name: 'band 0',
      units: 'degC',
      cell_methods: 'time: maximum',
      grid_mapping: 'crs',
      _FillValue: [NODATA],
    });
    // CF 1.8 section 5.6 and Appendix F: the grid's datum, WGS 84, as the GeoTIFFs name it (EPSG:4326)
    expect(nc.variables.crs!.attributes).toMatchObject({
      grid_mapping_name: 'latitude_longitude',
      semi_major_axis: [6378137],
      inverse_flattening: [298.257223563],
      crs_wkt: expect.stringContaining('ID["EPSG",4326]'),
    });
    expect([...nc.read('time')]).toEqual(times.map((t) => t / 3_600_000));
    expect([...nc.read('lat')]).toEqual([...l.lats]);
    expect([...nc.read('lon')]).toEqual([...l.lons]);
    // CF 1.11 §7.1: each cell's edges, in its coordinate's order, neighbours sharing theirs.
    expect(nc.variables.lat!.attributes.bounds).toBe('lat_bnds');
    expect(nc.variables.lon!.attributes.bounds).toBe('lon_bnds');
    for (const [name, length] of [
      ['lat', HEIGHT],
      ['lon', WIDTH],
    ] as const) {
      expect(nc.variables[`${name}_bnds`]!.dims).toEqual([name, 'nv']);
      expect(nc.variables[`${name}_bnds`]!.shape).toEqual([length, 2]);
      expect(nc.variables[`${name}_bnds`]!.attributes).toEqual({});
    }
    expect([...nc.read('lat_bnds').slice(0, 4)]).toEqual([70, 69.5, 69.5, 69]);
    expect([...nc.read('lon_bnds').slice(0, 4)]).toEqual([-30, -29.5, -29.5, -29]);
    // No variable of this layout is at a height above the ground.
    expect(nc.variables.height).toBeUndefined();
  });

  it('gives the variables at a height above the ground a scalar height coordinate (CF 1.11 §6.1.1)', async () => {
    const l = layout(times, ['air_temperature', 'surface_downwelling_shortwave_flux_in_air']);
    l.variables[0]!.heightM = 2;
    const { nc } = await written(l, 'height.nc');
    expect(nc.variables.height!.dims).toEqual([]);
    expect(nc.variables.height!.dtype).toBe('<d');
    expect(Number(nc.read('height') as unknown)).toBe(2);
    expect(nc.variables.height!.attributes).toEqual({
      standard_name: 'height',
      long_name: 'height above the ground',
      units: 'm',
      positive: 'up',
      axis: 'Z',
    });
    expect(nc.variables.air_temperature!.attributes.coordinates).toBe('height');
    expect(nc.variables.surface_downwelling_shortwave_flux_in_air!.attributes.coordinates).toBeUndefined();
  });

  it('chunks each data variable by bands of rows of one time step, DEFLATE-compressed', async () => {
    const { nc } = await written(layout(times));
    const rowsPerChunk = Math.floor(CHUNK_CELLS / WIDTH);
    expect(rowsPerChunk).toBeLessThan(HEIGHT); // so the last band is a partial one
    for (const name of ['air_temperature_daily_max', 'air_temperature_daily_min']) {
      expect(nc.variables[name]!.shape).toEqual([3, HEIGHT, WIDTH]);
      expect(nc.variables[name]!.chunks).toEqual([1, rowsPerChunk, WIDTH]);
      expect(nc.variables[name]!.filters).toEqual([1]); // H5Z_FILTER_DEFLATE
    }
  });

  it('stores every variable [time][lat][lon] with the fill value where values are missing', async () => {
    const { nc } = await written(layout(times));
    ['air_temperature_daily_max', 'air_temperature_daily_min'].forEach((name, b) => {
      const values = nc.read(name);
      const wrong: string[] = [];
      for (let t = 0; t < times.length; t++)
        for (let y = 0; y < HEIGHT; y++)
          for (let x = 0; x < WIDTH; x++) {
            const expected = missing(y, x) ? NODATA : Math.fround(valueAt(b, t, y, x));
            if (values[(t * HEIGHT + y) * WIDTH + x] !== expected) wrong.push(`${name} (${t}, ${y}, ${x})`);
          }
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(values[(2 * HEIGHT + HEIGHT - 1) * WIDTH + WIDTH - 1]).toBe(NODATA);
    });
  });

  it('writes a static field without a time dimension', async () => {
    const { nc } = await written(layout([], ['surface_altitude']));
    expect(nc.dims.map((d) => d.name)).toEqual(['lat', 'lon', 'nv']);
    expect(nc.variables.surface_altitude!.dims).toEqual(['lat', 'lon']);
    expect(nc.variables.time).toBeUndefined();
    expect(nc.read('surface_altitude')[3 * WIDTH + 4]).toBe(Math.fround(valueAt(0, 0, 3, 4)));
  });

  describe('daily statistics carry their time cells (CF 1.11 §7.1 and §7.3)', () => {
    const days = [day, day + DAY];

    it('gives time a bounds attribute and time_bnds (time, nv) holding each date, 00:00Z to 00:00Z', async () => {
      const { nc } = await written(layout(days, undefined, DAY), 'daily.nc');
      expect(nc.dims).toEqual([
        { name: 'time', length: 2 },
        { name: 'lat', length: HEIGHT },
        { name: 'lon', length: WIDTH },
        { name: 'nv', length: 2 },
      ]);
      expect(nc.variables.time!.attributes).toMatchObject({ units: TIME_UNITS, bounds: 'time_bnds' });
      const bounds = nc.variables.time_bnds!;
      expect(bounds.dims).toEqual(['time', 'nv']);
      expect(bounds.dtype).toBe('<d');
      // CF 7.1: a boundary variable takes the units and calendar of its coordinate, and has none of its own.
      expect(bounds.attributes).toEqual({});
      expect([...nc.read('time_bnds')]).toEqual([hours(day), hours(day + DAY), hours(day + DAY), hours(day + 2 * DAY)]);
      expect(nc.variables.air_temperature_daily_max!.attributes.cell_methods).toBe('time: maximum');
    });

    it('gives none to instantaneous values, to hourly ones whose reads state no cell, nor to a static field', () => {
      const none = [undefined, undefined];
      const instantaneous = layout([day], ['surface_air_pressure'], DAY);
      instantaneous.variables[0]!.cellMethods = '';
      expect(fileTimeCells(instantaneous, none)).toBeNull();
      instantaneous.variables[0]!.cellMethods = 'time: point';
      expect(fileTimeCells(instantaneous, none)).toBeNull();
      expect(fileTimeCells(layout([day, day + HOUR]), none)).toBeNull();
      expect(fileTimeCells(layout([], ['surface_altitude']), none)).toBeNull();
      expect(fileTimeCells(layout([day], undefined, DAY), none)).toEqual([[day, day + DAY]]);
    });

    (ncdump ? it : it.skip)('reads as CF time bounds with ncdump (netCDF-C)', async () => {
      await written(layout(days, undefined, DAY), 'daily-ncdump.nc');
      const path = join(dir, 'daily-ncdump.nc');
      const header = execFileSync(ncdump!, ['-h', path], { encoding: 'utf8' });
      expect(header).toMatch(/\n\ttime = 2 ;\n\tlat = \d+ ;\n\tlon = \d+ ;\n\tnv = 2 ;/);
      expect(header).toContain('\tdouble time_bnds(time, nv) ;');
      expect(header).toContain('\t\ttime:bounds = "time_bnds" ;');
      expect(header).toContain('\t\tair_temperature_daily_max:cell_methods = "time: maximum" ;');
      const data = execFileSync(ncdump!, ['-v', 'time_bnds', path], { encoding: 'utf8' });
      expect(data.replace(/\s+/g, ' ')).toContain(
        `time_bnds = ${hours(day)}, ${hours(day + DAY)}, ${hours(day + DAY)}, ${hours(day + 2 * DAY)} ;`,
      );
    });

    (python ? it : it.skip)('reads as CF time bounds with xarray, decoded to the dates', async () => {
      await written(layout(days, undefined, DAY), 'daily-xarray.nc');
      expect(xarrayTimeBounds(join(dir, 'daily-xarray.nc'))).toEqual({
        bounds: 'time_bnds',
        cells: [
          ['2024-06-01T00:00:00.000000000', '2024-06-02T00:00:00.000000000'],
          ['2024-06-02T00:00:00.000000000', '2024-06-03T00:00:00.000000000'],
        ],
      });
    });
  });

  describe('hourly means carry the time cell their reads state (CF 1.11 §7.1, docs/decisions/0379-time-cells-of-mean-rates.md)', () => {
    const ENDING: RowTimeCell = [-HOUR, 0];
    const CENTRED: RowTimeCell = [-HOUR / 2, HOUR / 2];
    const SHORTWAVE = 'surface_downwelling_shortwave_flux_in_air';
    /** Hourly shortwave, a mean, then the variables named with their cell methods. */
    function hourly(...others: [name: string, cellMethods: string][]): RasterLayout {
      const l = layout(times, [SHORTWAVE, ...others.map(([name]) => name)], HOUR);
      l.variables.forEach((v, i) => (v.cellMethods = i === 0 ? 'time: mean' : others[i - 1]![1]));
      return l;
    }
    const boundsOf = (nc: Awaited<ReturnType<typeof written>>['nc']) => (nc.variables.time_bnds ? [...nc.read('time_bnds')] : null);

    it('gives a mean whose reads state the hour ending at each stamp that hour as time_bnds (time, nv)', async () => {
      const { nc } = await written(hourly(), 'ending.nc', () => [ENDING]);
      expect(nc.dims.map((d) => d.name)).toEqual(['time', 'lat', 'lon', 'nv']);
      expect(nc.variables.time!.attributes).toMatchObject({ units: TIME_UNITS, bounds: 'time_bnds' });
      expect(nc.variables.time_bnds!.dims).toEqual(['time', 'nv']);
      expect(nc.variables.time_bnds!.attributes).toEqual({});
      expect(boundsOf(nc)).toEqual(times.flatMap((t) => [hours(t - HOUR), hours(t)]));
      // The bounds state the hour; the cell methods stay the source's (docs/decisions/0370-daily-netcdf-time-bounds.md).
      expect(nc.variables[SHORTWAVE]!.attributes.cell_methods).toBe('time: mean');
    });

    it('gives a mean whose reads state the hour centred on each stamp that hour', async () => {
      const { nc } = await written(hourly(), 'centred.nc', () => [CENTRED]);
      expect(boundsOf(nc)).toEqual(times.flatMap((t) => [hours(t - HOUR / 2), hours(t + HOUR / 2)]));
    });

    it('gives instants none, whether their reads state the instant or nothing', async () => {
      for (const cell of [[0, 0] as RowTimeCell, undefined]) {
        const l = layout(times, ['air_temperature'], HOUR);
        l.variables[0]!.cellMethods = '';
        const { nc } = await written(l, 'instants.nc', () => [cell]);
        expect(nc.dims.map((d) => d.name)).toEqual(['time', 'lat', 'lon', 'nv']);
        expect(nc.variables.time!.attributes.bounds).toBeUndefined();
        expect(boundsOf(nc)).toBeNull();
      }
    });

    it("bounds a mean's time axis by its cell when instants share the file", async () => {
      const { nc } = await written(hourly(['air_temperature', '']), 'mean-and-instant.nc', () => [ENDING, [0, 0]]);
      expect(boundsOf(nc)).toEqual(times.flatMap((t) => [hours(t - HOUR), hours(t)]));
      expect(nc.variables.air_temperature!.attributes.cell_methods).toBeUndefined();
    });

    it('gives none where means of one file stand for different cells: one time axis has one bounds variable', async () => {
      const { nc } = await written(hourly(['precipitation_rate', 'time: mean']), 'two-cells.nc', () => [CENTRED, ENDING]);
      expect(boundsOf(nc)).toBeNull();
      expect(nc.dims.map((d) => d.name)).toEqual(['time', 'lat', 'lon', 'nv']);
    });

    it("gives none where a mean's rows were read from sources stating different cells", async () => {
      const rowsApart = await written(hourly(), 'rows-apart.nc', (y) => [y < HEIGHT / 2 ? ENDING : CENTRED]);
      expect(boundsOf(rowsApart.nc)).toBeNull();
      const withinRows = await written(hourly(), 'within-rows.nc', () => ['mixed']);
      expect(boundsOf(withinRows.nc)).toBeNull();
    });

    it('gives none to a mean whose reads state no interval', () => {
      expect(fileTimeCells(hourly(), [undefined])).toBeNull();
      expect(fileTimeCells(hourly(), [[0, 0]])).toBeNull();
    });

    (ncdump ? it : it.skip)('reads as CF time bounds with ncdump (netCDF-C)', async () => {
      const path = join(dir, 'ending-ncdump.nc');
      await written(hourly(), 'ending-ncdump.nc', () => [ENDING]);
      const header = execFileSync(ncdump!, ['-h', path], { encoding: 'utf8' });
      expect(header).toMatch(/\n\ttime = 3 ;\n\tlat = \d+ ;\n\tlon = \d+ ;\n\tnv = 2 ;/);
      expect(header).toContain('\tdouble time_bnds(time, nv) ;');
      expect(header).toContain('\t\ttime:bounds = "time_bnds" ;');
      expect(header).toContain(`\t\t${SHORTWAVE}:cell_methods = "time: mean" ;`);
      const data = execFileSync(ncdump!, ['-v', 'time_bnds', path], { encoding: 'utf8' });
      expect(data.replace(/\s+/g, ' ')).toContain(`time_bnds = ${times.map((t) => `${hours(t - HOUR)}, ${hours(t)}`).join(', ')} ;`);
    });

    (python ? it : it.skip)('reads as CF time bounds with xarray, decoded to the hours each mean covers', async () => {
      await written(hourly(), 'ending-xarray.nc', () => [ENDING]);
      expect(xarrayTimeBounds(join(dir, 'ending-xarray.nc'))).toEqual({
        bounds: 'time_bnds',
        cells: [
          ['2024-05-31T23:00:00.000000000', '2024-06-01T00:00:00.000000000'],
          ['2024-06-01T00:00:00.000000000', '2024-06-01T01:00:00.000000000'],
          ['2024-06-01T01:00:00.000000000', '2024-06-01T02:00:00.000000000'],
        ],
      });
    });
  });

  it('writes the same bytes whatever the clock says (HDF5 would stamp its objects with the time)', async () => {
    const l = layout(times);
    const first = await written(l, 'first.nc');
    const now = Date.now;
    Date.now = () => Date.UTC(2031, 0, 1);
    try {
      const second = await written(l, 'second.nc');
      expect(second.bytes.equals(first.bytes)).toBe(true);
    } finally {
      Date.now = now;
    }
  });
});
