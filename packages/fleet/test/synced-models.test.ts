import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { insightService } from '@fieldcast/insight';
import { modelService } from '@fieldcast/model';
import { eventually, publishProductGrant, type TestFleet, type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { syncRun } from '@fieldcast/sync';
import { createCatalog, type GridSource, loadWeatherSource, modelId, readSourceRegistry } from '@fieldcast/weather';
import { type ArchiveServer, serveArchive } from '../../sync/test/archive-server.js';
import { analytic, writeEcmwfStep, writeGfsStep } from '../../sync/test/runs.js';

/*
 * Synced sources as models (docs/decisions/0255-synced-runs-as-models.md) and
 * FIELDCAST_SYNTHETIC=off (docs/decisions/0256-synthetic-off.md), over HTTP: a local GFS archive
 * publishes a run's steps one by one; after each sync the model area lists the run with the status
 * the stored steps give, a newer run pushes the older out (FIELDCAST_SYNC_KEEP_RUNS=1: EXPIRED),
 * and the latest forecast's series is the analytic field of sync/test/runs.ts (linear in latitude,
 * longitude and time, so bilinear interpolation is exact).
 */
const HOUR = 3_600_000;
const DAY = 86_400_000;
// A 00Z or 12Z run (ECMWF's hours, RUN_A + DAY below) 30 to 42 hours old: RUN_B, synced step by
// step, stays among the 8 newest runs a sync waits for a missing step of (48 hours,
// docs/decisions/0364-a-poll-waits-for-a-step-while-its-run-is-recent.md) at any hour of the day.
const RUN_A = Math.floor((Date.now() - 30 * HOUR) / (12 * HOUR)) * 12 * HOUR;
const RUN_B = RUN_A + 6 * HOUR;
const LAT = 45.6;
const LON = 10.3;
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';
const iso = (ms: number) => new Date(ms).toISOString();
/** The model area's background task that writes forecast life-cycle events. */
const FORECAST_EVENTS = 'forecast-events';

let archive: string;
let data: string;
let server: ArchiveServer;
const weathers: GridSource[] = [];
const withSynthetic: TestFleetOptions = {};
const withoutSynthetic: TestFleetOptions = {};

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'synced-models-archive-'));
  data = mkdtempSync(join(tmpdir(), 'synced-models-data-'));
  for (let s = 0; s <= 2; s++) writeGfsStep(archive, RUN_A, s);
  server = await serveArchive(archive);
  const syncDir = join(data, 'sync');
  await sync(RUN_A);
  for (const [options, synthetic] of [
    [withSynthetic, true],
    [withoutSynthetic, false],
  ] as const) {
    options.weather = await loadWeatherSource({ syncDir, synthetic, reloadMs: 100 });
    weathers.push(options.weather);
  }
});
afterAll(async () => {
  for (const w of weathers) await (w as { close?: () => Promise<void> }).close?.();
  await server?.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

/** One pass of the poller over a run: stages the steps published so far, publishes it when all are in. */
const syncOptions = (runMs: number) => ({
  source: 'gfs-0p25' as const,
  baseUrl: server.baseUrl,
  syncDir: join(data, 'sync'),
  runMs,
  steps: '0-2',
  partial: true,
  keepRuns: 1,
  http: { retries: 1, backoffMs: 5, timeoutMs: 2000 },
  stepRetries: 0,
});
const sync = (runMs: number) => syncRun(syncOptions(runMs));

/**
 * The models whose forecast events the model area's pass walked: each gets a row of its clock on
 * its first pass (services/model store.ts), which writes no event yet.
 */
async function eventClocks(fleet: TestFleet): Promise<string[]> {
  const ids = (await fleet.db.knex.withSchema('model').table('forecast_event_clock').select('model_id')) as Array<{ model_id: string }>;
  const names = new Map(['synthetic-global', 'synthetic-rapid'].map((n) => [modelId(n), n]));
  return ids.map((r) => names.get(r.model_id) ?? r.model_id).sort();
}

const get = (app: Parameters<typeof request>[0], auth: string, path: string) =>
  request(app).get(path).set('Authorization', auth).set('Accept', JSON_V1);

describe('synced sources as models, the synthetic ones beside them', () => {
  const t = useTestFleet([modelService], withSynthetic);
  const model = (path: string) => get(t.fleet.app('model'), t.alice.auth, path);
  const statuses = async () =>
    ((await model('/models/gfs-0p25/forecasts')).body as Array<{ initTime: string; status: string }>).map((r) => [r.initTime, r.status]);

  it('lists the source with its variables; its runs move INITIALIZING, INCOMPLETE, COMPLETE as steps are stored, and EXPIRED once pushed out', async () => {
    const models = await model('/models');
    expect(models.status).toBe(200);
    expect((models.body as Array<{ name: string }>).map((m) => m.name)).toEqual(['synthetic-global', 'synthetic-rapid', 'gfs-0p25']);
    const variables = await model('/models/gfs-0p25/variables');
    expect(variables.body).toContainEqual({
      name: 'temperature',
      description: 'Air temperature at 2 m',
      unit: { description: 'degrees Celsius', label: '°C' },
    });
    // Six variables; dewPoint, over the restricted dew-point-temperature's variable, only to an
    // account granted that product (docs/decisions/0429-model-variables-follow-product-grants.md).
    const names = (body: unknown) => (body as Array<{ name: string }>).map((v) => v.name);
    expect(names(variables.body)).toHaveLength(5);
    expect(names(variables.body)).not.toContain('dewPoint');
    const dewPointProduct = createCatalog()
      .products()
      .find((p) => p.name === 'dew-point-temperature')!;
    await publishProductGrant(t.fleet, t.alice.id, dewPointProduct.id, true);
    await eventually(async () => expect(names((await model('/models/gfs-0p25/variables')).body)).toHaveLength(6));
    expect(names((await model('/models/gfs-0p25/variables')).body)).toContain('dewPoint');
    // By name, by id and by its id in upper case, as catalog models.
    for (const ref of ['gfs-0p25', modelId('gfs-0p25'), modelId('gfs-0p25').toUpperCase()])
      expect((await model(`/models/${ref}`)).body).toEqual({
        id: modelId('gfs-0p25'),
        name: 'gfs-0p25',
        description: expect.stringContaining('gfs-0p25'),
        forecasts: `/models/${modelId('gfs-0p25')}/forecasts`,
      });

    const a = (await model('/models/gfs-0p25/forecasts')).body as Array<Record<string, string>>;
    expect(a).toHaveLength(1);
    expect(a[0]).toMatchObject({ initTime: iso(RUN_A), status: 'COMPLETE', expirationTime: iso(RUN_A + 400 * DAY) });
    const created = Date.parse(a[0]!.creationTime!);
    expect(created).toBeGreaterThan(RUN_A);
    expect(created).toBeLessThanOrEqual(Date.now());

    writeGfsStep(archive, RUN_B, 0);
    expect(await sync(RUN_B)).toMatchObject({ state: 'pending', staged: 1 });
    expect(await statuses()).toEqual([
      [iso(RUN_B), 'INITIALIZING'],
      [iso(RUN_A), 'COMPLETE'],
    ]);
    const staged = (await model('/models/gfs-0p25/forecasts')).body as Array<Record<string, string>>;
    // Not served before it is COMPLETE: latest-forecast stays on A, and B's values are a 404 naming its status.
    expect((await model('/models/gfs-0p25/latest-forecast')).body.initTime).toBe(iso(RUN_A));
    const early = await model(`/forecasts/${staged[0]!.id}/variables/temperature/timeseries/${LAT}/${LON}`);
    expect(early.status).toBe(404);
    expect(early.body).toMatchObject({ id: 'forecast_values_does_not_exist', message: expect.stringContaining('INITIALIZING') });

    writeGfsStep(archive, RUN_B, 1);
    expect(await sync(RUN_B)).toMatchObject({ state: 'pending', staged: 2 });
    expect((await statuses())[0]).toEqual([iso(RUN_B), 'INCOMPLETE']);
    const variablesB = (await model(`/forecasts/${staged[0]!.id}/variables`)).body as Array<{ name: string; validTimes: string[] }>;
    expect(variablesB.find((v) => v.name === 'temperature')!.validTimes).toEqual([iso(RUN_B), iso(RUN_B + HOUR)]);

    writeGfsStep(archive, RUN_B, 2);
    expect(await sync(RUN_B)).toMatchObject({ state: 'published' });
    expect(await statuses()).toEqual([
      [iso(RUN_B), 'COMPLETE'],
      [iso(RUN_A), 'EXPIRED'],
    ]);
    const registry = await readSourceRegistry(join(data, 'sync', 'gfs-0p25'), 'gfs-0p25');
    const expired = ((await model('/models/gfs-0p25/forecasts')).body as Array<Record<string, string>>)[1]!;
    expect(expired.expirationTime).toBe(registry.expired[0]!.at);
    expect(expired.creationTime).toBe(a[0]!.creationTime);
    // The record is the one forecast record, read by its id too.
    expect((await model(`/forecasts/${expired.id}`)).body).toEqual(expired);
    const gone = await model(`/forecasts/${expired.id}/variables/temperature/timeseries/${LAT}/${LON}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toContain('EXPIRED');
  });

  it('lists a source from its first staged step, before any run of it is published', async () => {
    // a run of the last day: an older one's missing steps are no longer waited for (decision 0364)
    const run = RUN_A + DAY;
    writeEcmwfStep(archive, run, 0);
    const pending = await syncRun({ ...syncOptions(run), source: 'ecmwf-ifs-0p25', steps: '0-6' });
    expect(pending).toMatchObject({ state: 'pending', staged: 1 });
    expect(((await model('/models')).body as Array<{ name: string }>).map((m) => m.name)).toEqual([
      'synthetic-global',
      'synthetic-rapid',
      'ecmwf-ifs-0p25',
      'gfs-0p25',
    ]);
    const runs = (await model('/models/ecmwf-ifs-0p25/forecasts')).body as Array<{ initTime: string; status: string }>;
    expect(runs.map((r) => [r.initTime, r.status])).toEqual([[iso(run), 'INITIALIZING']]);
    expect((await model('/models/ecmwf-ifs-0p25/latest-forecast')).status).toBe(404);
  });

  it("keeps the synthetic models' life-cycle events", async () => {
    await t.fleet.runBackground('model', FORECAST_EVENTS);
    expect(await eventClocks(t.fleet)).toEqual(['synthetic-global', 'synthetic-rapid']);
  });

  it("serves the latest complete run's series from its own store: the analytic field", async () => {
    const latest = await model('/models/gfs-0p25/latest-forecast');
    expect(latest.body).toMatchObject({ initTime: iso(RUN_B), status: 'COMPLETE' });
    const res = await model(`/models/gfs-0p25/latest-forecast/timeseries/${LAT}/${LON}`);
    expect(res.status).toBe(200);
    expect(res.body.forecast).toBe(`/forecasts/${latest.body.id}`);
    const temperature = res.body.variables.temperature as { series: Array<{ validTime: string; value: number }> };
    expect(temperature.series.map((p) => p.validTime)).toEqual([0, 1, 2].map((h) => iso(RUN_B + h * HOUR)));
    temperature.series.forEach((p, h) => expect(p.value).toBeCloseTo(analytic.temperatureK(LAT, LON, h) - 273.15, 1));
    const pressure = res.body.variables.surfacePressure as { series: Array<{ value: number }> };
    pressure.series.forEach((p, h) => expect(p.value).toBeCloseTo(analytic.pressurePa(LAT, LON, h) / 1000, 2));
  });

  it("answers a mean rate's hour before its first (the run's start) as a missing value, not a 400", async () => {
    const latest = await model('/models/gfs-0p25/latest-forecast');
    const first = await model(`/models/gfs-0p25/latest-forecast/timeseries/${LAT}/${LON}?limit=1`);
    expect(first.status).toBe(200);
    expect(first.body.variables.precipitationRate.series).toEqual([{ validTime: iso(RUN_B), value: null }]);
    expect(first.body.variables.precipitationRate.mean).toBeNull();
    const one = await model(`/forecasts/${latest.body.id}/variables/shortwaveRadiation/timeseries/${LAT}/${LON}?end=${iso(RUN_B + HOUR)}`);
    expect(one.status).toBe(200);
    expect(one.body.series.map((p: { value: number | null }) => p.value === null)).toEqual([true, false]);
  });

  it("refuses a point outside the run's grid with a 400 that says so", async () => {
    // The test runs' grid spans a degree or two near 46 N 10 E (sync/test/runs.ts).
    const res = await model(`/models/gfs-0p25/latest-forecast/timeseries/${LAT}/${LON + 30}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ id: 'out_of_coverage', message: expect.stringMatching(/outside the grid/) });
  });
});

describe('FIELDCAST_SYNTHETIC=off', () => {
  const t = useTestFleet([modelService, insightService], withoutSynthetic);
  const area = (name: string, path: string) => get(t.fleet.app(name), t.alice.auth, path);

  it('lists only the synced models; a synthetic one is 404 and its runs make no events', async () => {
    expect(((await area('model', '/models')).body as Array<{ name: string }>).map((m) => m.name)).not.toContain('synthetic-global');
    expect(((await area('model', '/models')).body as Array<{ name: string }>).map((m) => m.name)).toContain('gfs-0p25');
    expect((await area('model', '/models/synthetic-global')).status).toBe(404);
    await t.fleet.runBackground('model', FORECAST_EVENTS);
    expect(await eventClocks(t.fleet)).toEqual([]);
  });

  it('answers a point series inside the synced data, and a clear 404 outside it, never a synthetic value', async () => {
    // The first run's hours, which the source's analysis holds whatever the tests before did.
    const hours = `start=${iso(RUN_A).slice(0, 19)}Z&end=${iso(RUN_A + HOUR).slice(0, 19)}Z`;
    const inside = await area('insight', `/hourly-relative-humidity/${LAT}/${LON}?${hours}`);
    expect(inside.status).toBe(200);
    for (const entry of inside.body.series as Array<{ products: string[] }>) expect(entry.products).toEqual(['gfs-0p25']);
    for (const [lat, lon] of [
      [40, 0],
      [LAT, LON],
    ]) {
      // Outside the grid at the synced hours; inside it a day before any run.
      const when = lat === 40 ? hours : `start=${iso(RUN_A - DAY).slice(0, 19)}Z&end=${iso(RUN_A - DAY + HOUR).slice(0, 19)}Z`;
      const outside = await area('insight', `/hourly-relative-humidity/${lat}/${lon}?${when}`);
      expect(outside.status).toBe(404);
      expect(outside.body).toMatchObject({
        id: 'synced_weather_does_not_exist',
        message: expect.stringContaining('FIELDCAST_SYNTHETIC=off'),
      });
    }
  });
});
