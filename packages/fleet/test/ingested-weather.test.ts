import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, FleetEnv, parseEnv } from '@fieldcast/runtime';
import { SyntheticSource, type TimeRange } from '@fieldcast/weather';
import { databaseTemplate, reservePortBase } from '@fieldcast/runtime/testing';
import { writeNetcdf4 } from '../../weather/test/ingest-fixtures.js';
import { ingestCommand } from '../src/ingest.js';
import { startFleet, type StartedFleet } from '../src/start.js';

/*
 * Ingested data reaches a user (docs/architecture.md §2): a NetCDF-4 file of daily Tmax/Tmin is
 * ingested into the data dir, `fieldcast start` serves it, and degree days come from it.
 *
 * Grid: lat 40, 40.5, 41 and lon -90, -89.5, -89 (0.5 degree cells), days 2024-05-01..04, degC.
 * Centre cell C (40.5 N, 89.5 W): Tmax 20, 25, 8, 30; Tmin 10, 11, 2, 14.
 * Every other cell: Tmax 30, Tmin 20 on every day.
 *
 * Average method, base 10 degC:
 *   at C: (20+10)/2-10 = 5, (25+11)/2-10 = 8, (8+2)/2-10 < 0 -> 0, (30+14)/2-10 = 12. Total 25.
 *   at (40.75 N, 89.5 W), halfway between C and the cell north of it (bilinear: the mean):
 *     Tmax 25, 27.5, 19, 30; Tmin 15, 15.5, 11, 17
 *     -> 10, 11.5, 5, 13.5. Total 40.
 * A 0.1 degree square field centred on (40.6 N, 89.4 W) lies inside C's cell (40.25..40.75 N,
 * 89.75..89.25 W) but away from its centre:
 *   centroid, bilinear: 0.2 of the way to the next row and to the next column, so C weighs
 *     0.8 * 0.8 = 0.64 and the other three cells 0.36 together:
 *     Tmax 0.64*20+0.36*30 = 23.6, 26.8, 15.92, 30; Tmin 0.64*10+0.36*20 = 13.6, 14.24, 8.48, 16.16
 *     -> 8.6, 10.52, 2.2, 13.08. Total 34.4.
 *   C is the only cell it covers, so mean, maximum and minimum are 25. (Found only when the
 *   field's bbox is grown by the store's cells, not the synthetic grid's 0.01 degree ones.)
 */
const C_TMAX = [20, 25, 8, 30];
const C_TMIN = [10, 11, 2, 14];
const DAY_MS = 86_400_000;
const MAY_1 = Date.UTC(2024, 4, 1);
const DAYS = 'start=2024-05-01&end=2024-05-04';

function grid(centre: number[], other: number): number[] {
  const data: number[] = [];
  for (let t = 0; t < 4; t++) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) data.push(i === 1 && j === 1 ? centre[t]! : other);
  return data;
}

/** Degree days of the synthetic world at a point, average method, base 10 degC, rounded as the API does. */
function syntheticDegreeDays(lon: number, lat: number, days: TimeRange): number {
  const source = new SyntheticSource();
  const tmax = source.pointSeriesSync('air_temperature_daily_max', lon, lat, days),
    tmin = source.pointSeriesSync('air_temperature_daily_min', lon, lat, days);
  let total = 0;
  for (let d = 0; d < tmax.values.length; d++) total += Math.max(0, (tmax.values[d]! + tmin.values[d]!) / 2 - 10);
  return Math.round(total * 10) / 10;
}

const PORT_BASE = reservePortBase();
let dataDir: string;
let started: StartedFleet;
let agriculture: string;
let auth: string;
const lines: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-ingested-'));
  const file = join(dataDir, 'corn-belt.nc');
  await writeNetcdf4(file, {
    dims: [
      { name: 'time', size: 4 },
      { name: 'lat', size: 3 },
      { name: 'lon', size: 3 },
    ],
    attrs: { Conventions: 'CF-1.8', title: 'hand-made corn belt' },
    vars: [
      {
        name: 'time',
        dims: ['time'],
        type: 'double',
        attrs: { units: 'days since 2024-05-01', calendar: 'standard', standard_name: 'time' },
        data: [0, 1, 2, 3],
      },
      { name: 'lat', dims: ['lat'], type: 'double', attrs: { units: 'degrees_north', standard_name: 'latitude' }, data: [40, 40.5, 41] },
      { name: 'lon', dims: ['lon'], type: 'double', attrs: { units: 'degrees_east', standard_name: 'longitude' }, data: [-90, -89.5, -89] },
      {
        name: 'tmax',
        dims: ['time', 'lat', 'lon'],
        type: 'float',
        attrs: { units: 'degC', standard_name: 'air_temperature', cell_methods: 'time: maximum' },
        data: grid(C_TMAX, 30),
      },
      {
        name: 'tmin',
        dims: ['time', 'lat', 'lon'],
        type: 'float',
        attrs: { units: 'degC', standard_name: 'air_temperature', cell_methods: 'time: minimum' },
        data: grid(C_TMIN, 20),
      },
    ],
  });
  await ingestCommand([file, '--id', 'corn-belt', '--product', 'corn-belt-analysis'], { FIELDCAST_DATA_DIR: dataDir }, () => undefined);
  const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir, PORT_BASE: String(PORT_BASE), HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  started = await startFleet(env, { databaseSeed: await databaseTemplate(), print: (l) => lines.push(l) });
  agriculture = started.fleet.services.find((s) => s.area === 'agriculture')!.url;
  auth = `Basic ${Buffer.from(`${started.demo!.applicationId}:${started.demo!.applicationKey}`).toString('base64')}`;
}, 120_000);
afterAll(async () => {
  await started?.fleet.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = async (path: string) => {
  const res = await fetch(`${agriculture}${path}`, { headers: { Authorization: auth } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('fieldcast start serves ingested stores', () => {
  it('prints the store it serves', () => {
    const out = lines.join('\n');
    expect(out).toContain(
      `corn-belt  ${join(dataDir, 'stores', 'corn-belt.zarr')}  [air_temperature_daily_max, air_temperature_daily_min]  2024-05-01T00:00Z..2024-05-04T00:00Z`,
    );
    expect(out).toContain('synthetic world wherever no store covers a request');
  });

  it('degree days at a location inside the store come from the ingested values', async () => {
    expect(await get(`/growing-degree-days/40.5/-89.5?${DAYS}`)).toEqual({
      status: 200,
      body: {
        latitude: 40.5,
        longitude: -89.5,
        startDate: '2024-05-01',
        endDate: '2024-05-04',
        baseTemperature: 10,
        scale: 'Celsius',
        degreeDays: 25,
      },
    });
    expect((await get(`/growing-degree-days/40.75/-89.5?${DAYS}`)).body.degreeDays).toBe(40);
  });

  it('a field inside the store: centroid and cell statistics on the store grid', async () => {
    const ring = [
      [-89.45, 40.55],
      [-89.35, 40.55],
      [-89.35, 40.65],
      [-89.45, 40.65],
      [-89.45, 40.55],
    ];
    const created = await fetch(`${agriculture}/fields`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        description: 'inside the store',
        type: 'GeometryCollection',
        geometries: [{ type: 'Polygon', coordinates: [ring] }],
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const res = await get(`/growing-degree-days/${id}?${DAYS}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ degreeDays: 34.4, fieldMean: 25, fieldMaximum: 25, fieldMinimum: 25 });
  });

  it('outside the store, in space or in time, the synthetic world answers', async () => {
    const days = { startMs: MAY_1, endMs: MAY_1 + 3 * DAY_MS };
    const far = await get(`/growing-degree-days/35.2/-97.4?${DAYS}`);
    expect(far.body.degreeDays).toBe(syntheticDegreeDays(-97.4, 35.2, days));
    // The store's place, but April: the store does not hold those days.
    const april = { startMs: Date.UTC(2024, 3, 1), endMs: Date.UTC(2024, 3, 30) };
    const before = await get('/growing-degree-days/40.5/-89.5?start=2024-04-01&end=2024-04-30');
    expect(before.body.degreeDays).toBe(syntheticDegreeDays(-89.5, 40.5, april));
  });
});

describe('FIELDCAST_WEATHER_STORES', () => {
  it('is a validated comma-separated list of store paths and http(s) URLs', () => {
    expect(
      parseEnv(FleetEnv, { FIELDCAST_WEATHER_STORES: ' /mnt/a.zarr , https://data.example/b.zarr ' }).FIELDCAST_WEATHER_STORES,
    ).toEqual(['/mnt/a.zarr', 'https://data.example/b.zarr']);
    expect(parseEnv(FleetEnv, { FIELDCAST_WEATHER_STORES: '' }).FIELDCAST_WEATHER_STORES).toBeUndefined();
    expect(() => parseEnv(FleetEnv, { FIELDCAST_WEATHER_STORES: 's3://bucket/a.zarr' })).toThrow(/FIELDCAST_WEATHER_STORES: must be/);
  });

  it('serves the stores it names, without a stores.yaml; a store that cannot be opened stops start-up', async () => {
    const other = mkdtempSync(join(tmpdir(), 'fieldcast-stores-env-'));
    try {
      const env = (stores: string) =>
        parseEnv(FleetEnv, {
          FIELDCAST_DATA_DIR: other,
          FIELDCAST_WEATHER_STORES: stores,
          PORT_BASE: String(PORT_BASE + 20),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
        });
      await expect(
        startFleet(env(join(other, 'missing.zarr')), { databaseSeed: await databaseTemplate(), print: () => undefined }),
      ).rejects.toThrow(ConfigError);
      const second = await startFleet(env(join(dataDir, 'stores', 'corn-belt.zarr')), {
        databaseSeed: await databaseTemplate(),
        print: () => undefined,
      });
      try {
        const url = second.fleet.services.find((s) => s.area === 'agriculture')!.url;
        const res = await fetch(`${url}/growing-degree-days/40.5/-89.5?${DAYS}`, {
          headers: {
            Authorization: `Basic ${Buffer.from(`${second.demo!.applicationId}:${second.demo!.applicationKey}`).toString('base64')}`,
          },
        });
        expect(((await res.json()) as { degreeDays: number }).degreeDays).toBe(25);
      } finally {
        await second.fleet.stop();
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 120_000);
});
