import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readIngestedStores, ZarrSource } from '@fieldcast/weather';
import { writeGeotiffFile, writeNetcdf4 } from '../../weather/test/ingest-fixtures.js';
import { ingestCommand } from '../src/ingest.js';
import { UsageError } from '../src/usage-error.js';

const HOUR = 3_600_000;
let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-cli-ingest-'));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('fieldcast ingest', () => {
  it('ingests a GeoTIFF into <data dir>/stores, registers it in <data dir>/stores.yaml, and reads back exactly', async () => {
    const file = path.join(tmp, 'Tmax Field.tif');
    const b1 = [1.5, 2.25, 3.125, 4, 5.0625, 6.5];
    const b2 = [-1.5, 0, 7.75, 8.5, 9.25, 10.125];
    await writeGeotiffFile(file, { width: 3, height: 2, bands: [b1, b2], west: 10, north: 50, dx: 0.5, dy: 0.25 });
    const dataDir = path.join(tmp, 'data');
    const lines: string[] = [];
    await ingestCommand(
      [
        file,
        '--id',
        'tmax',
        '--start',
        '2024-05-01T00:00:00Z',
        '--step-hours',
        '24',
        '--variable',
        'tmax',
        '--units',
        'degC',
        '--standard-name',
        'air_temperature',
      ],
      { FIELDCAST_DATA_DIR: dataDir },
      (l) => lines.push(l),
    );
    const storePath = path.join(dataDir, 'stores', 'tmax.zarr');
    expect(lines.join('\n')).toContain(storePath);
    const [entry] = await readIngestedStores(path.join(dataDir, 'stores.yaml'));
    expect(entry).toMatchObject({
      id: 'tmax',
      path: storePath,
      format: 'geotiff',
      time: { start: '2024-05-01T00:00:00.000Z', stepMs: 24 * HOUR },
    });
    // standard_name air_temperature in degC: a contract variable, renamed to its id.
    expect(entry?.variables.map((v) => [v.name, v.variable, v.units])).toEqual([['air_temperature', 'air_temperature', 'degC']]);

    const zs = await ZarrSource.open(storePath);
    try {
      // Pixel centres: rows at 49.875 and 49.625 (north first in the file), columns 10.25, 10.75, 11.25.
      const range = { startMs: Date.UTC(2024, 4, 1), endMs: Date.UTC(2024, 4, 2) };
      for (let row = 0; row < 2; row++) {
        for (let col = 0; col < 3; col++) {
          const s = await zs.pointSeries('air_temperature', 10.25 + 0.5 * col, 49.875 - 0.25 * row, range);
          expect(Array.from(s.values)).toEqual([b1[row * 3 + col], b2[row * 3 + col]]);
        }
      }
    } finally {
      await zs.close();
    }
  });

  it('takes --out and --catalog, and ingests NetCDF-4', async () => {
    const file = path.join(tmp, 'small.nc');
    const tmax = [280.5, 281.25, 282, 283.5, 284.75, 285, 286.125, 287, 288.5, 289, 290.25, 291.5];
    await writeNetcdf4(file, {
      dims: [
        { name: 'time', size: 2 },
        { name: 'lat', size: 2 },
        { name: 'lon', size: 3 },
      ],
      attrs: { Conventions: 'CF-1.8' },
      vars: [
        {
          name: 'time',
          dims: ['time'],
          type: 'double',
          attrs: { units: 'days since 2020-01-01', calendar: 'standard', standard_name: 'time' },
          data: [0, 1],
        },
        { name: 'lat', dims: ['lat'], type: 'double', attrs: { units: 'degrees_north', standard_name: 'latitude' }, data: [40, 41] },
        {
          name: 'lon',
          dims: ['lon'],
          type: 'double',
          attrs: { units: 'degrees_east', standard_name: 'longitude' },
          data: [-100, -99, -98],
        },
        {
          name: 'tasmax',
          dims: ['time', 'lat', 'lon'],
          type: 'float',
          attrs: { units: 'K', standard_name: 'air_temperature', cell_methods: 'time: maximum' },
          data: tmax,
        },
      ],
    });
    const out = path.join(tmp, 'elsewhere');
    const catalog = path.join(tmp, 'cat', 'stores.yaml');
    await ingestCommand([file, '--out', out, '--catalog', catalog], { FIELDCAST_DATA_DIR: path.join(tmp, 'unused') }, () => undefined);
    const [entry] = await readIngestedStores(catalog);
    expect(entry?.path).toBe(path.join(out, 'small.zarr'));
    const zs = await ZarrSource.open(entry!.path);
    try {
      const s = await zs.pointSeries('air_temperature_daily_max', -99, 41, { startMs: Date.UTC(2020, 0, 1), endMs: Date.UTC(2020, 0, 2) });
      // Stored in K as the file holds it; ZarrSource converts to degC on read.
      expect(Array.from(s.values)).toEqual([tmax[4]!, tmax[10]!].map((k) => Math.fround(Math.fround(k) - 273.15)));
    } finally {
      await zs.close();
    }
    await expect(fs.access(path.join(tmp, 'unused'))).rejects.toThrow();
  });

  it('takes the step of a NetCDF file with one time from --step-hours', async () => {
    const file = path.join(tmp, 'one-day.nc');
    await writeNetcdf4(file, {
      dims: [
        { name: 'time', size: 1 },
        { name: 'lat', size: 2 },
        { name: 'lon', size: 2 },
      ],
      attrs: { Conventions: 'CF-1.8' },
      vars: [
        { name: 'time', dims: ['time'], type: 'double', attrs: { units: 'days since 2020-01-01', standard_name: 'time' }, data: [3] },
        { name: 'lat', dims: ['lat'], type: 'double', attrs: { units: 'degrees_north', standard_name: 'latitude' }, data: [40, 41] },
        { name: 'lon', dims: ['lon'], type: 'double', attrs: { units: 'degrees_east', standard_name: 'longitude' }, data: [-100, -99] },
        {
          name: 'tasmax',
          dims: ['time', 'lat', 'lon'],
          type: 'float',
          attrs: { units: 'K', standard_name: 'air_temperature', cell_methods: 'time: maximum' },
          data: [280, 281, 282, 283],
        },
      ],
    });
    const printed: string[] = [];
    await ingestCommand([file, '--step-hours', '24'], { FIELDCAST_DATA_DIR: path.join(tmp, 'one-day') }, (l) => printed.push(l));
    expect(printed).toContainEqual('  time     2020-01-04T00:00:00.000Z .. 2020-01-04T00:00:00.000Z, step 24 h');
  });

  it('answers usage errors for a missing file argument and for a file it cannot ingest', async () => {
    await expect(ingestCommand([], { FIELDCAST_DATA_DIR: tmp }, () => undefined)).rejects.toBeInstanceOf(UsageError);
    const junk = path.join(tmp, 'junk.txt');
    await fs.writeFile(junk, 'not a grid');
    await expect(ingestCommand([junk], { FIELDCAST_DATA_DIR: tmp }, () => undefined)).rejects.toBeInstanceOf(UsageError);
  });
});
