/**
 * The archive's analytic fields on a global grid, as the benches sync it (bench/sync.bench.ts,
 * bench/synced-tiles.bench.ts): the tests' `analytic` fields are linear in latitude and longitude
 * around 46 N 10 E and leave what weather reaches far from it, so a step of them on the globe is
 * refused (PHYSICAL_BOUNDS, docs/decisions/0250-synced-runs-staged-then-published.md); `globalWeather`
 * stays within it everywhere and converts to its own values.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunConverter, SOURCES, SourceHttp, StepDataError, readStep } from '../src/index.js';
import { type ArchiveServer, serveArchive } from './archive-server.js';
import { analytic, globalWeather, writeGfsStep } from './runs.js';

const RUN = Date.UTC(2026, 11, 3, 6);
const GLOBE = { ni: 360, nj: 181, lat1: 90, lon1: 0, dLat: 1, dLon: 1 };
const fast = { retries: 0, backoffMs: 5, timeoutMs: 5000 };

let analyticRoot: string;
let globalRoot: string;
let analyticArchive: ArchiveServer;
let globalArchive: ArchiveServer;

beforeAll(async () => {
  analyticRoot = mkdtempSync(join(tmpdir(), 'sync-global-analytic-'));
  globalRoot = mkdtempSync(join(tmpdir(), 'sync-global-weather-'));
  writeGfsStep(analyticRoot, RUN, 0, GLOBE);
  for (const s of [0, 1]) writeGfsStep(globalRoot, RUN, s, GLOBE, globalWeather);
  [analyticArchive, globalArchive] = await Promise.all([serveArchive(analyticRoot), serveArchive(globalRoot)]);
});
afterAll(async () => {
  await Promise.all([analyticArchive.close(), globalArchive.close()]);
  rmSync(analyticRoot, { recursive: true, force: true });
  rmSync(globalRoot, { recursive: true, force: true });
});

const read = (server: ArchiveServer, step: number) =>
  readStep(new SourceHttp({ baseUrl: server.baseUrl, ...fast }), SOURCES['gfs-0p25'], server.baseUrl, RUN, step);

it("refuses the tests' analytic fields on the globe: they leave what weather reaches", async () => {
  const decoded = await read(analyticArchive, 0);
  expect(() => new RunConverter().convert(decoded)).toThrow(StepDataError);
});

it('converts globalWeather on the globe to its own values, every variable of a step after the first', async () => {
  const converter = new RunConverter();
  converter.convert(await read(globalArchive, 0));
  const out = new Map(converter.convert(await read(globalArchive, 1)).map((f) => [f.variable, f]));
  expect([...out.keys()].sort()).toEqual([
    'air_temperature',
    'air_temperature_daily_max',
    'air_temperature_daily_min',
    'dew_point_temperature',
    'precipitation_rate',
    'precipitation_type',
    'surface_air_pressure',
    'surface_downwelling_shortwave_flux_in_air',
    'wind_speed',
  ]);
  const t = out.get('air_temperature')!;
  for (const [lat, lon] of [
    [90, 0],
    [-90, 359],
    [42, 266],
    [0, 180],
  ] as const) {
    const k = (90 - lat) * GLOBE.ni + lon;
    expect(t.values[k]).toBeCloseTo(globalWeather.temperatureK(lat, lon, 1) - 273.15, 1);
  }
  // The tests' fields at the same place and hour, for contrast: far outside at the pole.
  expect(analytic.temperatureK(90, 359, 1) - 273.15).toBeGreaterThan(65);
});
