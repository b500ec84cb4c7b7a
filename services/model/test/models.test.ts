import { useTestFleet } from '@fieldcast/runtime/testing';
import { fieldcastId } from '@fieldcast/ids';
import { modelService } from '../src/definition.js';
import { get, grantRestricted, HOUR, MINUTE, TestClock } from './helpers.js';

/*
 * Models, runs and their life cycle (docs/interface.md §7; docs/decisions/0140-forecast-runs-and-their-life-cycle.md)
 * on the catalog's default models: synthetic-global runs every 6 h to 384 h, published after
 * 210 min, kept 168 h; synthetic-rapid every hour to 48 h, published after 45 min, kept 24 h.
 */
const clock = new TestClock(Date.parse('2026-05-01T10:00:00Z'));
const t = useTestFleet([modelService], { now: clock.now });
const app = () => t.fleet.app('model');
const GLOBAL_ID = fieldcastId('model', 'synthetic-global');
const RAPID_ID = fieldcastId('model', 'synthetic-rapid');
// docs/decisions/0022-derived-ids-uuid-v5.md: forecast:<model>:<ISO init>, whole seconds without a fraction.
const runId = (model: string, initIso: string) => fieldcastId('forecast', model, new Date(initIso).toISOString().replace('.000Z', 'Z'));

beforeEach(() => clock.set('2026-05-01T10:00:00Z'));
// alice holds the grant of the restricted dewpoint product, so every variable is served to her (docs/decisions/0429-model-variables-follow-product-grants.md)
beforeEach(() => grantRestricted(t.fleet, t.alice, true));

describe('models (public record, model area)', () => {
  it('lists the catalog models with id, name, description and the forecasts link', async () => {
    const res = await get(app(), t.alice, '/models');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: GLOBAL_ID,
        name: 'synthetic-global',
        description: expect.stringContaining('Global'),
        forecasts: `/models/${GLOBAL_ID}/forecasts`,
      },
      { id: RAPID_ID, name: 'synthetic-rapid', description: expect.any(String), forecasts: `/models/${RAPID_ID}/forecasts` },
    ]);
  });

  it('reads a model by name, by id and by its id in upper case', async () => {
    for (const ref of ['synthetic-global', GLOBAL_ID, GLOBAL_ID.toUpperCase()]) {
      const res = await get(app(), t.alice, `/models/${ref}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(GLOBAL_ID);
    }
  });

  it('404 model_does_not_exist for an unknown name or id, on every model path', async () => {
    for (const path of [
      '/models/nope',
      '/models/00000000-0000-4000-8000-000000000000',
      '/models/nope/variables',
      '/models/nope/forecasts',
      '/models/nope/latest-forecast',
      '/models/nope/latest-forecast/timeseries/42/-93',
    ]) {
      const res = await get(app(), t.alice, path);
      expect(res.status).toBe(404);
      expect(res.body.id).toBe('model_does_not_exist');
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  it('lists a model’s variables with name, description and unit', async () => {
    const res = await get(app(), t.alice, '/models/synthetic-global/variables');
    expect(res.status).toBe(200);
    expect(res.body.map((v: { name: string }) => v.name)).toEqual([
      'temperature',
      'dewPoint',
      'windSpeed',
      'surfacePressure',
      'precipitationRate',
      'shortwaveRadiation',
    ]);
    expect(res.body[0]).toEqual({
      name: 'temperature',
      description: 'Air temperature at 2 m',
      unit: { description: expect.stringMatching(/Celsius/i), label: '°C' },
    });
  });

  it('asks for credentials', async () => {
    const { default: request } = await import('supertest');
    const res = await request(app()).get('/models');
    expect(res.status).toBe(401);
  });
});

describe('forecast runs: the life cycle follows the clock', () => {
  const init = Date.parse('2026-05-01T06:00:00Z');
  const id = runId('synthetic-global', '2026-05-01T06:00:00Z');
  const statusAt = async (ms: number) => {
    clock.set(ms);
    const res = await get(app(), t.alice, `/forecasts/${id}`);
    return res.status === 200 ? res.body.status : res.status;
  };

  it('has the record of the public record, with links', async () => {
    const res = await get(app(), t.alice, `/forecasts/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      initTime: '2026-05-01T06:00:00.000Z',
      creationTime: '2026-05-01T09:30:00.000Z',
      expirationTime: '2026-05-08T06:00:00.000Z',
      status: 'COMPLETE',
      model: `/models/${GLOBAL_ID}`,
      variables: `/forecasts/${id}/variables`,
    });
  });

  it('does not exist before its init time, then INITIALIZING, INCOMPLETE, COMPLETE, EXPIRED, then gone', async () => {
    const producing = init + 52.5 * MINUTE;
    const complete = init + 210 * MINUTE;
    const expired = init + 168 * HOUR;
    const gone = init + 336 * HOUR;
    expect(await statusAt(init - 1)).toBe(404);
    expect(await statusAt(init)).toBe('INITIALIZING');
    expect(await statusAt(producing - 1)).toBe('INITIALIZING');
    expect(await statusAt(producing)).toBe('INCOMPLETE');
    expect(await statusAt(complete - 1)).toBe('INCOMPLETE');
    expect(await statusAt(complete)).toBe('COMPLETE');
    expect(await statusAt(expired - 1)).toBe('COMPLETE');
    expect(await statusAt(expired)).toBe('EXPIRED');
    expect(await statusAt(gone - 1)).toBe('EXPIRED');
    expect(await statusAt(gone)).toBe(404);
  });

  it('404 forecast_does_not_exist for an unknown id; 400 invalid_parameter for one that is no UUID', async () => {
    const unknown = await get(app(), t.alice, '/forecasts/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.id).toBe('forecast_does_not_exist');
    const malformed = await get(app(), t.alice, '/forecasts/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.id).toBe('invalid_parameter');
  });

  it('produces valid times in order while INCOMPLETE: none, the first, about half, all 385', async () => {
    const count = async (ms: number) => {
      clock.set(ms);
      const res = await get(app(), t.alice, `/forecasts/${id}/variables`);
      expect(res.status).toBe(200);
      const lengths = new Set(res.body.map((v: { validTimes: string[] }) => v.validTimes.length));
      expect(lengths.size).toBe(1);
      return { n: [...lengths][0] as number, first: res.body[0].validTimes[0] };
    };
    const producing = init + 52.5 * MINUTE;
    expect((await count(producing - 1)).n).toBe(0);
    expect(await count(producing)).toEqual({ n: 1, first: '2026-05-01T06:00:00.000Z' });
    // Half of the production interval (157.5 min): floor(385 / 2) + 1 valid times.
    expect((await count(producing + 78.75 * MINUTE)).n).toBe(193);
    expect((await count(init + 210 * MINUTE - 1)).n).toBe(385);
    expect((await count(init + 210 * MINUTE)).n).toBe(385);
  });

  it('lists its variables with ids that /variables/{id} reads back; 404 variable_does_not_exist otherwise', async () => {
    const list = await get(app(), t.alice, `/forecasts/${id}/variables`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(6);
    const temperature = list.body[0];
    expect(temperature).toEqual({
      id: fieldcastId('forecast-variable', id, 'temperature'),
      name: 'temperature',
      description: 'Air temperature at 2 m',
      unit: { description: expect.any(String), label: '°C' },
      validTimes: expect.any(Array),
      forecast: `/forecasts/${id}`,
    });
    expect(temperature.validTimes[0]).toBe('2026-05-01T06:00:00.000Z');
    expect(temperature.validTimes[384]).toBe('2026-05-17T06:00:00.000Z');
    const one = await get(app(), t.alice, `/variables/${temperature.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(temperature);
    const unknown = await get(app(), t.alice, '/variables/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.id).toBe('variable_does_not_exist');
    clock.set(init + 336 * HOUR);
    const gone = await get(app(), t.alice, `/variables/${temperature.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.id).toBe('variable_does_not_exist');
  });
});

describe('GET /models/{id}/forecasts', () => {
  const list = (query = '', model = 'synthetic-global') => get(app(), t.alice, `/models/${model}/forecasts${query}`);

  it('lists the existing runs newest first: 56 runs of synthetic-global (two retention periods of 6-hourly runs)', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(56);
    expect(res.body[0]).toMatchObject({ initTime: '2026-05-01T06:00:00.000Z', status: 'COMPLETE' });
    expect(res.body[1]).toMatchObject({ initTime: '2026-05-01T00:00:00.000Z', status: 'COMPLETE' });
    expect(res.body[55]).toMatchObject({ initTime: '2026-04-17T12:00:00.000Z', status: 'EXPIRED' });
    // EXPIRED from 168 h after init: the runs up to 2026-04-24T06:00Z.
    const statuses = res.body.map((r: { status: string }) => r.status);
    expect(statuses.filter((s: string) => s === 'COMPLETE')).toHaveLength(28);
    expect(statuses.filter((s: string) => s === 'EXPIRED')).toHaveLength(28);
  });

  it('shows the runs being produced: INITIALIZING and INCOMPLETE first', async () => {
    clock.set('2026-05-01T06:30:00Z');
    const res = await list('?limit=3', 'synthetic-rapid');
    expect(res.status).toBe(200);
    expect(res.body.map((r: { initTime: string; status: string }) => [r.initTime, r.status])).toEqual([
      ['2026-05-01T06:00:00.000Z', 'INCOMPLETE'],
      ['2026-05-01T05:00:00.000Z', 'COMPLETE'],
      ['2026-05-01T04:00:00.000Z', 'COMPLETE'],
    ]);
    clock.set('2026-05-01T06:05:00Z');
    const early = await list('?limit=2', 'synthetic-rapid');
    expect(early.body.map((r: { status: string }) => r.status)).toEqual(['INITIALIZING', 'COMPLETE']);
    clock.set('2026-05-01T06:20:00Z');
    const producing = await list('?limit=2', 'synthetic-rapid');
    expect(producing.body.map((r: { status: string }) => r.status)).toEqual(['INCOMPLETE', 'COMPLETE']);
  });

  it('a list answered again reads the same until a run in it changes status or the hour turns', async () => {
    const statuses = async (ms: number) => {
      clock.set(ms);
      const res = await list('?limit=2', 'synthetic-rapid');
      return res.body.map((r: { initTime: string; status: string }) => `${r.initTime.slice(11, 16)} ${r.status}`);
    };
    const init = Date.parse('2026-05-01T06:00:00Z');
    expect(await statuses(init + 11.25 * MINUTE - 1)).toEqual(['06:00 INITIALIZING', '05:00 COMPLETE']);
    expect(await statuses(init + 11.25 * MINUTE - 1)).toEqual(['06:00 INITIALIZING', '05:00 COMPLETE']);
    expect(await statuses(init + 11.25 * MINUTE)).toEqual(['06:00 INCOMPLETE', '05:00 COMPLETE']);
    expect(await statuses(init + 45 * MINUTE)).toEqual(['06:00 COMPLETE', '05:00 COMPLETE']);
    expect(await statuses(init + HOUR - 1)).toEqual(['06:00 COMPLETE', '05:00 COMPLETE']);
    expect(await statuses(init + HOUR)).toEqual(['07:00 INITIALIZING', '06:00 COMPLETE']);
    // And back in time: answered for that instant, not from what was kept.
    expect(await statuses(init + 11.25 * MINUTE - 1)).toEqual(['06:00 INITIALIZING', '05:00 COMPLETE']);
  });

  it('filters by initTime with start and end (inclusive), sorts, limits', async () => {
    const res = await list('?start=2026-04-30T00:00:00Z&end=2026-04-30T18:00:00Z&sort=asc');
    expect(res.status).toBe(200);
    expect(res.body.map((r: { initTime: string }) => r.initTime)).toEqual([
      '2026-04-30T00:00:00.000Z',
      '2026-04-30T06:00:00.000Z',
      '2026-04-30T12:00:00.000Z',
      '2026-04-30T18:00:00.000Z',
    ]);
    const desc = await list('?start=2026-04-30T00:00:00Z&end=2026-04-30T18:00:00Z&limit=2');
    expect(desc.body.map((r: { initTime: string }) => r.initTime)).toEqual(['2026-04-30T18:00:00.000Z', '2026-04-30T12:00:00.000Z']);
    const none = await list('?start=2026-06-01T00:00:00Z');
    expect(none.body).toEqual([]);
    const asc = await list('?sort=asc&limit=1');
    expect(asc.body[0].initTime).toBe('2026-04-17T12:00:00.000Z');
  });

  it('takes a time without seconds, ISO 8601’s reduced precision, as the minute’s start, as the insight area does (docs/decisions/0488-times-without-seconds.md)', async () => {
    const res = await list('?start=2026-04-30T00:00Z&end=2026-04-30T12:00%2B00:00&sort=asc');
    expect(res.status).toBe(200);
    expect(res.body.map((r: { initTime: string }) => r.initTime)).toEqual([
      '2026-04-30T00:00:00.000Z',
      '2026-04-30T06:00:00.000Z',
      '2026-04-30T12:00:00.000Z',
    ]);
    const series = await get(app(), t.alice, `/models/synthetic-global/latest-forecast/timeseries/42/-93?start=2026-05-01T06:00Z&limit=1`);
    expect([series.status, series.body.variables?.temperature?.series?.[0]?.validTime]).toEqual([200, '2026-05-01T06:00:00.000Z']);
  });

  it('every run listed reads back by id with the same record', async () => {
    const res = await list('?limit=5', 'synthetic-rapid');
    for (const run of res.body) {
      const one = await get(app(), t.alice, `/forecasts/${run.id}`);
      expect(one.body).toEqual(run);
      expect(run.id).toBe(runId('synthetic-rapid', run.initTime));
    }
  });

  it.each([
    ['start=yesterday', 'start'],
    ['start=2026-04-30', 'start'],
    ['end=2026-04-30T00:00:00%2B02:00', 'end'],
    ['start=2026-04-30T12:00:00Z&end=2026-04-30T00:00:00Z', 'end'],
    // An offset other than UTC's is the start's fault alone: its instant (07:00Z) is before end.
    ['start=2026-04-30T12:00:00%2B05:00&end=2026-04-30T18:00:00Z', 'start'],
    ['limit=0', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1001', 'limit'],
    ['sort=up', 'sort'],
    ['limit=1&limit=2', 'limit'],
  ])('400 invalid_parameter for %s, naming %s, and nothing else', async (query, name) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_parameter');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([name]);
  });

  it('an offset whose + was sent unencoded, read as a space, is 400 naming the parameter with the encoding to use', async () => {
    for (const name of ['start', 'end']) {
      const res = await list(`?${name}=2026-04-30T14:00:00+00:00`);
      expect([res.status, res.body.errors?.map((e: { path: string }) => e.path)]).toEqual([400, [name]]);
      expect(res.body.errors[0].message).toContain(`${name} must be a UTC ISO 8601 timestamp such as 2026-05-01T12:00:00Z`);
      expect(res.body.errors[0].message).toContain(
        "a + in a query string reads as a space, so send an offset's + as %2B (2026-05-01T14:00:00%2B00:00)",
      );
    }
  });
});

describe('GET /models/{id}/latest-forecast', () => {
  it('is the newest COMPLETE run: the 00Z run until 09:30, the 06Z run from then', async () => {
    clock.set(Date.parse('2026-05-01T09:30:00Z') - 1);
    const before = await get(app(), t.alice, '/models/synthetic-global/latest-forecast');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ initTime: '2026-05-01T00:00:00.000Z', status: 'COMPLETE' });
    clock.set('2026-05-01T09:30:00Z');
    const after = await get(app(), t.alice, `/models/${GLOBAL_ID}/latest-forecast`);
    expect(after.body).toMatchObject({ id: runId('synthetic-global', '2026-05-01T06:00:00Z'), status: 'COMPLETE' });
  });

  it('404 forecast_does_not_exist while the model has no complete run (the first runs of the catalog)', async () => {
    clock.set('2015-01-01T03:00:00Z');
    const res = await get(app(), t.alice, '/models/synthetic-global/latest-forecast');
    expect(res.status).toBe(404);
    expect(res.body.id).toBe('forecast_does_not_exist');
    expect(res.body.message).toBe('Model synthetic-global has no complete forecast yet');
    const series = await get(app(), t.alice, '/models/synthetic-global/latest-forecast/timeseries/42/-93');
    expect(series.status).toBe(404);
    expect(series.body.id).toBe('forecast_does_not_exist');
    const runs = await get(app(), t.alice, '/models/synthetic-global/forecasts');
    expect(runs.body).toEqual([expect.objectContaining({ initTime: '2015-01-01T00:00:00.000Z', status: 'INCOMPLETE' })]);
  });
});
