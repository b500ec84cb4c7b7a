/**
 * The transfer area's files as the tools people use read them (docs/interface.md §9;
 * docs/decisions/0161-geotiff-and-netcdf-writers.md): gdalinfo reads a GeoTIFF straight from its
 * signed link through /vsicurl/ (no credentials) with the right size, geotransform, CRS, nodata and
 * band descriptions, GDAL's own validator calls it cloud-optimized, gdallocationinfo finds the
 * weather's values in it; curl downloads a NetCDF file by its link and ncdump -h shows its CF
 * coordinates and units in a NetCDF-4 file, chunked and compressed, with the cells' bounds and the
 * 2 m height (CF 1.11 §7.1, §6.1.1); xarray opens it through netCDF-C (the netcdf4 engine) with
 * decoded times and the same values. A file of hourly means
 * carries their time cells as CF time bounds, which both read (CF 1.11 §7.1,
 * docs/decisions/0370-daily-netcdf-time-bounds.md); a file of instants has none.
 *
 * gdal-bin and netcdf-bin (and curl) are needed: `apt-get install -y gdal-bin netcdf-bin curl`;
 * xarray from python3-xarray with python3-netcdf4 (Debian), or $FIELDCAST_PYTHON. Under CI (CI=true)
 * or FIELDCAST_REQUIRE_GDAL=1 a missing tool fails the suite, naming it; elsewhere the tests that
 * need it are skipped with the reason printed.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { SyntheticSource } from '@fieldcast/weather';
import { IOWA, PRODUCT, testCatalog, testTransferService } from '../../services/transfer/test/helpers.js';

/** The tools run beside the service in this process, so they run asynchronously: a synchronous run would stop the server answering them. */
const run = async (cmd: string, args: string[], env?: NodeJS.ProcessEnv) =>
  (await promisify(execFile)(cmd, args, { encoding: 'utf8', maxBuffer: 16 << 20, ...(env ? { env } : {}) })).stdout;

const REQUIRED = process.env.CI === 'true' || process.env.FIELDCAST_REQUIRE_GDAL === '1';

function runs(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

function findPython(): string | undefined {
  const explicit = process.env.FIELDCAST_PYTHON;
  return (explicit ? [explicit] : ['python3', '/usr/bin/python3']).find((p) => runs(p, ['-c', 'import xarray, netCDF4']));
}

const tools = {
  gdal: runs('gdalinfo', ['--version']) && runs('gdallocationinfo', ['--version']),
  netcdf: runs('ncdump', []) || existsSync('/usr/bin/ncdump'),
  curl: runs('curl', ['--version']),
};
const python = findPython();
const COG_VALIDATOR = '/usr/share/doc/python3-gdal/examples/validate_cloud_optimized_geotiff.py';

const why = {
  gdal: 'gdalinfo and gdallocationinfo are not installed (apt-get install -y gdal-bin)',
  netcdf: 'ncdump is not installed (apt-get install -y netcdf-bin)',
  curl: 'curl is not installed (apt-get install -y curl)',
  xarray: 'xarray with netCDF4 is not importable (apt-get install -y python3-xarray python3-netcdf4, or set FIELDCAST_PYTHON)',
};

/** A test that needs a tool: run, or failed naming the tool under CI, or skipped saying why. */
function needing(present: boolean, reason: string) {
  if (present) return it;
  if (REQUIRED)
    return (name: string) =>
      it(name, () => {
        throw new Error(`transfer-files.int.test.ts: ${reason}`);
      });
  console.warn(`transfer-files.int.test.ts: skipping a test: ${reason}`);
  return it.skip;
}

const DAY = Date.UTC(2024, 5, 1);
const weather = new SyntheticSource();
let fleet: TestFleet;
let server: Server;
let base: string;
let account: TestAccount;
let dir: string;

beforeAll(async () => {
  fleet = await startTestFleet([testTransferService()], { weather, catalog: testCatalog() });
  account = await fleet.account('tools');
  server = fleet.app('transfer').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'transfer-files-'));
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await fleet?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function linkOf(product: string): Promise<string> {
  const res = await fetch(`${base}/products/${product}/datasets?date=2024-06-01`, { headers: { Authorization: account.auth } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { downloadUrl: string }[])[0]!.downloadUrl;
}

/** The weather's value at a cell centre of the Iowa test grid (column x, row y from the north-west). */
async function sourceValue(
  variable: 'air_temperature_daily_max' | 'air_temperature_daily_min' | 'air_temperature',
  x: number,
  y: number,
  hour = 0,
) {
  const lon = IOWA[0] + (x + 0.5) * 0.25;
  const lat = IOWA[3] - (y + 0.5) * 0.25;
  const t = DAY + hour * 3_600_000;
  const w = await weather.window(variable, [lon, lat, lon, lat], { startMs: t, endMs: t });
  return w.values[0]!;
}

// GDAL would also list the link's directory, which is not a resource; it does not need to.
const GDAL_ENV = { ...process.env, GDAL_DISABLE_READDIR_ON_OPEN: 'EMPTY_DIR' };

describe('GeoTIFF', () => {
  needing(tools.gdal, why.gdal)(
    'gdalinfo reads it through /vsicurl/ from its signed link: size, geotransform, CRS, nodata, bands',
    async () => {
      const url = await linkOf(PRODUCT.extremesTiff);
      const info = JSON.parse(await run('gdalinfo', ['-json', `/vsicurl/${url}`], GDAL_ENV)) as {
        size: number[];
        geoTransform: number[];
        coordinateSystem: { wkt: string };
        metadata: Record<string, Record<string, string>>;
        bands: { type: string; description: string; noDataValue: number; unit?: string }[];
      };
      expect(info.size).toEqual([26, 12]);
      expect(info.geoTransform).toEqual([IOWA[0], 0.25, 0, IOWA[3], 0, -0.25]);
      expect(info.coordinateSystem.wkt).toMatch(/ID\["EPSG",4326\]\]$/);
      expect(info.metadata['']!.AREA_OR_POINT).toBe('Area');
      expect(info.metadata.IMAGE_STRUCTURE).toMatchObject({ COMPRESSION: 'DEFLATE', PREDICTOR: '3' });
      expect(info.bands.map((b) => [b.type, b.description, b.noDataValue, b.unit])).toEqual([
        ['Float32', 'air_temperature_daily_max', -9999, 'degC'],
        ['Float32', 'air_temperature_daily_min', -9999, 'degC'],
      ]);
    },
  );

  needing(tools.gdal, why.gdal)('gdallocationinfo finds the weather values at sampled cells', async () => {
    const url = await linkOf(PRODUCT.extremesTiff);
    for (const [x, y] of [
      [0, 0],
      [25, 11],
      [13, 6],
    ] as const) {
      for (const [band, variable] of [
        [1, 'air_temperature_daily_max'],
        [2, 'air_temperature_daily_min'],
      ] as const) {
        const out = await run('gdallocationinfo', ['-valonly', '-b', String(band), `/vsicurl/${url}`, String(x), String(y)], GDAL_ENV);
        expect(Number(out.trim())).toBeCloseTo(await sourceValue(variable, x, y), 4);
      }
    }
  });

  needing(tools.gdal && tools.curl && existsSync(COG_VALIDATOR), `${why.gdal}, or curl or GDAL's ${COG_VALIDATOR} is missing`)(
    "GDAL's validator calls it a cloud-optimized GeoTIFF",
    async () => {
      const file = join(dir, 'extremes.tif');
      await run('curl', ['-sSf', '-o', file, await linkOf(PRODUCT.extremesTiff)]);
      const out = execFileSync('/usr/bin/python3', [COG_VALIDATOR, file], { encoding: 'utf8' });
      expect(out).toContain('is a valid cloud optimized GeoTIFF');
    },
  );
});

describe('NetCDF', () => {
  let file: string;
  const download = async () => {
    file ??= join(dir, 'hourly.nc');
    if (!existsSync(file)) await run('curl', ['-sSf', '-o', file, await linkOf(PRODUCT.hourly)]);
    return file;
  };

  needing(tools.netcdf && tools.curl, `${why.netcdf}, or ${why.curl}`)(
    'curl downloads it from its link and ncdump -hs shows a NetCDF-4 file with CF coordinates and units, chunked and compressed',
    async () => {
      const header = execFileSync('ncdump', ['-hs', await download()], { encoding: 'utf8' });
      expect(header).toMatch(/^netcdf hourly \{/);
      for (const line of [
        'time = 24 ;',
        'lat = 12 ;',
        'lon = 26 ;',
        'double time(time) ;',
        'time:units = "hours since 1970-01-01 00:00:00" ;',
        'time:standard_name = "time" ;',
        'lat:units = "degrees_north" ;',
        'lon:units = "degrees_east" ;',
        'float air_temperature(time, lat, lon) ;',
        'air_temperature:standard_name = "air_temperature" ;',
        'air_temperature:units = "degC" ;',
        'air_temperature:_FillValue = -9999.f ;',
        'air_temperature:grid_mapping = "crs" ;',
        'crs:grid_mapping_name = "latitude_longitude" ;',
        // CF 1.11 §7.1 cell bounds, and §6.1.1 the 2 m height of the air temperature.
        'nv = 2 ;',
        'lat:bounds = "lat_bnds" ;',
        'lon:bounds = "lon_bnds" ;',
        'double lat_bnds(lat, nv) ;',
        'double lon_bnds(lon, nv) ;',
        'double height ;',
        'height:standard_name = "height" ;',
        'height:units = "m" ;',
        'height:positive = "up" ;',
        'air_temperature:coordinates = "height" ;',
        ':Conventions = "CF-1.8" ;',
        'air_temperature:_Storage = "chunked" ;',
        'air_temperature:_ChunkSizes = 1, 12, 26 ;',
        'air_temperature:_DeflateLevel = 4 ;',
        ':_Format = "netCDF-4" ;',
      ])
        expect(header).toContain(line);
      expect(header).not.toContain('time_bnds');
      const data = execFileSync('ncdump', ['-v', 'lat_bnds,height', file], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      expect(data).toContain(`lat_bnds = ${IOWA[3]}, 43.125, 43.125, 42.875,`);
      expect(data).toContain('height = 2 ;');
      expect(header).toMatch(/:title = ".+" ;/);
      expect(header).toMatch(/:source = ".+" ;/);
      expect(header).toMatch(/:history = ".+" ;/);
      expect(execFileSync('ncdump', ['-k', file], { encoding: 'utf8' }).trim()).toBe('netCDF-4');
    },
  );

  needing(tools.gdal && tools.curl, `${why.gdal}, or ${why.curl}`)(
    'GDAL reads its variables as WGS 84 (EPSG:4326), from the CF grid mapping',
    async () => {
      const srs = execFileSync('gdalsrsinfo', ['-o', 'epsg', `NETCDF:"${await download()}":air_temperature`], { encoding: 'utf8' });
      expect(srs.trim()).toBe('EPSG:4326');
    },
  );

  needing(python !== undefined && tools.curl, `${why.xarray}, or ${why.curl}`)(
    'xarray opens it with decoded times, coordinates, units and the weather values',
    async () => {
      const script = [
        'import json, sys, xarray',
        'ds = xarray.open_dataset(sys.argv[1], engine="netcdf4")',
        'v = ds["air_temperature"]',
        'print(json.dumps({',
        '  "dims": dict(ds.sizes), "time0": str(ds.time.values[0]), "time23": str(ds.time.values[23]),',
        '  "lat0": float(ds.lat[0]), "lon0": float(ds.lon[0]), "units": v.attrs["units"], "lat_units": ds.lat.attrs["units"],',
        '  "conventions": ds.attrs["Conventions"], "lat_bounds": ds.lat.attrs.get("bounds"), "lat_bnds0": [float(b) for b in ds.lat_bnds[0]],',
        '  "height": float(v.coords["height"]), "height_attrs": {k: str(ds.height.attrs[k]) for k in ("standard_name", "units", "positive")},',
        '  "cells": [float(v.isel(time=t, lat=y, lon=x)) for (t, y, x) in [(0, 0, 0), (9, 6, 13), (23, 11, 25)]]}))',
      ].join('\n');
      const out = JSON.parse(execFileSync(python!, ['-c', script, await download()], { encoding: 'utf8' })) as {
        dims: Record<string, number>;
        time0: string;
        time23: string;
        lat0: number;
        lon0: number;
        units: string;
        lat_units: string;
        conventions: string;
        lat_bounds: string;
        lat_bnds0: number[];
        height: number;
        height_attrs: Record<string, string>;
        cells: number[];
      };
      expect(out.dims).toEqual({ time: 24, lat: 12, lon: 26, nv: 2 });
      expect(out.time0).toMatch(/^2024-06-01T00:00:00/);
      expect(out.time23).toMatch(/^2024-06-01T23:00:00/);
      expect([out.lat0, out.lon0]).toEqual([43.25, -96.5]);
      expect([out.units, out.lat_units, out.conventions]).toEqual(['degC', 'degrees_north', 'CF-1.8']);
      // The cell bounds and the scalar height, which xarray takes as a coordinate of the variable.
      expect([out.lat_bounds, out.lat_bnds0]).toEqual(['lat_bnds', [IOWA[3], 43.125]]);
      expect(out.height).toBe(2);
      expect(out.height_attrs).toEqual({ standard_name: 'height', units: 'm', positive: 'up' });
      const expected = [
        await sourceValue('air_temperature', 0, 0, 0),
        await sourceValue('air_temperature', 13, 6, 9),
        await sourceValue('air_temperature', 25, 11, 23),
      ];
      out.cells.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 4));
    },
  );
});

describe('NetCDF of hourly means', () => {
  let file: string;
  const download = async () => {
    file ??= join(dir, 'shortwave.nc');
    if (!existsSync(file)) await run('curl', ['-sSf', '-o', file, await linkOf(PRODUCT.shortwave)]);
    return file;
  };

  needing(tools.netcdf && tools.curl, `${why.netcdf}, or ${why.curl}`)(
    "ncdump -h shows time bounds, the synthetic world's hour centred on each stamp",
    async () => {
      const path = await download();
      const header = execFileSync('ncdump', ['-h', path], { encoding: 'utf8' });
      for (const line of [
        'nv = 2 ;',
        'double time_bnds(time, nv) ;',
        'time:bounds = "time_bnds" ;',
        'surface_downwelling_shortwave_flux_in_air:cell_methods = "time: mean" ;',
      ])
        expect(header).toContain(line);
      const data = execFileSync('ncdump', ['-v', 'time_bnds', path], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      const first = DAY / 3_600_000;
      expect(data).toContain(`time_bnds = ${first - 0.5}, ${first + 0.5}, ${first + 0.5}, ${first + 1.5},`);
    },
  );

  needing(python !== undefined && tools.curl, `${why.xarray}, or ${why.curl}`)(
    'xarray decodes the time bounds to the hours each mean covers',
    async () => {
      const script = [
        'import json, sys, xarray',
        'ds = xarray.open_dataset(sys.argv[1], engine="netcdf4", decode_times=True)',
        'print(json.dumps({"bounds": ds.time.attrs.get("bounds", ds.time.encoding.get("bounds")),',
        '  "first": [str(v) for v in ds.time_bnds.values[0]], "last": [str(v) for v in ds.time_bnds.values[-1]]}))',
      ].join('\n');
      const out = JSON.parse(execFileSync(python!, ['-c', script, await download()], { encoding: 'utf8' })) as {
        bounds: string;
        first: string[];
        last: string[];
      };
      expect(out.bounds).toBe('time_bnds');
      expect(out.first).toEqual(['2024-05-31T23:30:00.000000000', '2024-06-01T00:30:00.000000000']);
      expect(out.last).toEqual(['2024-06-01T22:30:00.000000000', '2024-06-01T23:30:00.000000000']);
    },
  );
});
