import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { fieldcastId } from '@fieldcast/ids';
import { SyntheticSource } from '@fieldcast/weather';
import { modelService } from '../src/definition.js';
import { get, grantRestricted, HOUR, MINUTE, TestClock } from './helpers.js';

/*
 * Point time series of forecast runs (spec 2.8, 4.7; docs/decisions/0141-forecast-error-model.md)
 * on the synthetic world, the service's default weather.
 */
const clock = new TestClock(Date.parse('2026-05-01T10:00:00Z'));
const t = useTestFleet([modelService], { now: clock.now });
const app = () => t.fleet.app('model');
const world = new SyntheticSource();
const runId = (model: string, initIso: string) => fieldcastId('forecast', model, new Date(initIso).toISOString().replace('.000Z', 'Z'));
const RUN_00 = runId('synthetic-global', '2026-05-01T00:00:00Z');
const RUN_06 = runId('synthetic-global', '2026-05-01T06:00:00Z');
const AMES = { latitude: 42.0308, longitude: -93.6319 };
const at = (run: string, variable: string, query = '', p = AMES) =>
  get(app(), t.alice, `/forecasts/${run}/variables/${variable}/timeseries/${p.latitude}/${p.longitude}${query}`);
const round2 = (v: number) => Math.round(v * 100) / 100 + 0;

interface Point {
  validTime: string;
  value: number | null;
}

beforeEach(() => clock.set('2026-05-01T10:00:00Z'));
// alice holds the grant of the restricted dewpoint product, so every variable is served to her (docs/decisions/0429-model-variables-follow-product-grants.md)
beforeEach(() => grantRestricted(t.fleet, t.alice, true));

/** The synthetic world's value (the analysis) at a point and time, as the service rounds it. */
async function analysis(variable: Parameters<SyntheticSource['pointSeries']>[0], ms: number, p = AMES): Promise<number> {
  const s = await world.pointSeries(variable, p.longitude, p.latitude, { startMs: ms, endMs: ms });
  return round2(s.values[0] as number);
}

describe('by-variable time series (spec 2.8)', () => {
  it('answers every valid time of a complete run with statistics and the unit', async () => {
    const res = await at(RUN_06, 'temperature');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['maximum', 'mean', 'median', 'minimum', 'mode', 'series', 'unit']);
    expect(res.body.series).toHaveLength(385);
    expect(res.body.series[0].validTime).toBe('2026-05-01T06:00:00.000Z');
    expect(res.body.series[384].validTime).toBe('2026-05-17T06:00:00.000Z');
    expect(res.body.unit).toEqual({ description: expect.stringMatching(/Celsius/i), label: '°C' });
    const values: number[] = res.body.series.map((p: Point) => p.value);
    const sorted = [...values].sort((a, b) => a - b);
    expect(res.body.minimum.value).toBe(sorted[0]);
    expect(res.body.maximum.value).toBe(sorted[384]);
    expect(res.body.series.find((p: Point) => p.value === sorted[0]).validTime).toBe(res.body.minimum.validTime);
    expect(res.body.median).toBe(sorted[192]);
    expect(res.body.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 2);
    // Every value at two decimals.
    for (const v of values) expect(Math.round(v * 100) / 100).toBe(v);
  });

  it('lead 0 agrees with the analysis for every variable; later leads do not', async () => {
    const init = Date.parse('2026-05-01T06:00:00Z');
    const variables = {
      temperature: 'air_temperature',
      dewPoint: 'dew_point_temperature',
      windSpeed: 'wind_speed',
      surfacePressure: 'surface_air_pressure',
      precipitationRate: 'precipitation_rate',
      shortwaveRadiation: 'surface_downwelling_shortwave_flux_in_air',
    } as const;
    for (const [name, variable] of Object.entries(variables)) {
      const res = await at(RUN_06, name, '?limit=1');
      expect(res.status).toBe(200);
      expect(res.body.series).toEqual([{ validTime: '2026-05-01T06:00:00.000Z', value: await analysis(variable, init) }]);
    }
    const late = await at(RUN_06, 'temperature', '?start=2026-05-15T00:00:00Z&limit=24');
    const truth = await Promise.all(late.body.series.map((p: Point) => analysis('air_temperature', Date.parse(p.validTime))));
    const differences = late.body.series.map((p: Point, i: number) => Math.abs((p.value as number) - truth[i]));
    expect(Math.max(...differences)).toBeGreaterThan(0.5);
  });

  it('two runs disagree about the same valid times, and the error grows with lead time', async () => {
    const window = '?start=2026-05-02T00:00:00Z&end=2026-05-02T23:00:00Z';
    const [a, b] = await Promise.all([at(RUN_00, 'temperature', window), at(RUN_06, 'temperature', window)]);
    expect(a.body.series.map((p: Point) => p.validTime)).toEqual(b.body.series.map((p: Point) => p.validTime));
    const disagreements = a.body.series.filter((p: Point, i: number) => p.value !== b.body.series[i].value);
    expect(disagreements.length).toBeGreaterThan(20);
    // Mean absolute error against the analysis over many places: the first day of leads versus the last.
    const meanError = async (start: string, end: string) => {
      let sum = 0;
      let n = 0;
      for (let lat = -50; lat <= 60; lat += 10) {
        for (let lon = -170; lon <= 170; lon += 20) {
          const p = { latitude: lat, longitude: lon };
          const res = await at(RUN_06, 'temperature', `?start=${start}&end=${end}`, p);
          const first = Date.parse(res.body.series[0].validTime);
          const truth = await world.pointSeries('air_temperature', lon, lat, { startMs: first, endMs: first + 23 * HOUR });
          res.body.series.forEach((q: Point, i: number) => {
            sum += Math.abs((q.value as number) - (truth.values[i] as number));
            n++;
          });
        }
      }
      return sum / n;
    };
    const early = await meanError('2026-05-01T07:00:00Z', '2026-05-02T06:00:00Z');
    const late = await meanError('2026-05-16T07:00:00Z', '2026-05-17T06:00:00Z');
    expect(early).toBeGreaterThan(0);
    expect(late).toBeGreaterThan(2 * early);
  });

  it('the same request gives the same answer (a derived, deterministic run)', async () => {
    const [a, b] = await Promise.all([at(RUN_06, 'windSpeed'), at(RUN_06, 'windSpeed')]);
    expect(a.body).toEqual(b.body);
  });

  it('forecast dewpoint never exceeds forecast temperature; rates and radiation never go below zero', async () => {
    for (const p of [AMES, { latitude: 1.3, longitude: 103.8 }, { latitude: -33.9, longitude: 18.4 }]) {
      const [tRes, dRes, rain, sun, wind] = await Promise.all(
        ['temperature', 'dewPoint', 'precipitationRate', 'shortwaveRadiation', 'windSpeed'].map((v) => at(RUN_06, v, '', p)),
      );
      tRes!.body.series.forEach((q: Point, i: number) =>
        expect(dRes!.body.series[i].value).toBeLessThanOrEqual((q.value as number) + 0.01),
      );
      for (const r of [rain, sun, wind]) for (const q of r!.body.series as Point[]) expect(q.value).toBeGreaterThanOrEqual(0);
    }
  });

  it('start and end select valid times inclusively; limit keeps the first ones', async () => {
    const res = await at(RUN_06, 'temperature', '?start=2026-05-01T10:00:00Z&end=2026-05-01T13:00:00Z');
    expect(res.body.series.map((p: Point) => p.validTime)).toEqual([
      '2026-05-01T10:00:00.000Z',
      '2026-05-01T11:00:00.000Z',
      '2026-05-01T12:00:00.000Z',
      '2026-05-01T13:00:00.000Z',
    ]);
    const limited = await at(RUN_06, 'temperature', '?start=2026-05-01T10:00:00Z&limit=2');
    expect(limited.body.series).toEqual(res.body.series.slice(0, 2));
    const big = await at(RUN_06, 'temperature', '?limit=100000000000000000000');
    expect(big.body.series).toHaveLength(385);
    // Between valid times: the next one on.
    const between = await at(RUN_06, 'temperature', '?start=2026-05-01T10:30:00.000Z&limit=1');
    expect(between.body.series[0].validTime).toBe('2026-05-01T11:00:00.000Z');
    // a nanosecond after a valid time: the next one on, not the one truncated to the millisecond
    const after = await at(RUN_06, 'temperature', '?start=2026-05-01T10:00:00.000000001Z&limit=1');
    expect(after.body.series[0].validTime).toBe('2026-05-01T11:00:00.000Z');
    // UTC written as an offset
    const offset = await at(RUN_06, 'temperature', '?start=2026-05-01T10:00:00%2B00:00&end=2026-05-01T13:00:00-00:00');
    expect(offset.body.series).toEqual(res.body.series);
  });

  it('a window with no valid time gives an empty series and null statistics', async () => {
    const res = await at(RUN_06, 'temperature', '?start=2026-06-01T00:00:00Z');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      series: [],
      mean: null,
      median: null,
      mode: null,
      minimum: null,
      maximum: null,
      unit: { description: expect.any(String), label: '°C' },
    });
  });

  it('a run being produced answers the valid times produced so far; INITIALIZING none', async () => {
    const init = Date.parse('2026-05-01T06:00:00Z');
    clock.set(init + 52.5 * MINUTE + 78.75 * MINUTE);
    const half = await at(RUN_06, 'temperature');
    expect(half.body.series).toHaveLength(193);
    clock.set(init + 10 * MINUTE);
    const none = await at(RUN_06, 'temperature');
    expect(none.status).toBe(200);
    expect(none.body.series).toEqual([]);
  });

  it('an EXPIRED run still answers, with the values it had; a gone run is 404', async () => {
    const complete = await at(RUN_06, 'temperature', '?limit=48');
    clock.set(Date.parse('2026-05-01T06:00:00Z') + 200 * HOUR);
    expect((await get(app(), t.alice, `/forecasts/${RUN_06}`)).body.status).toBe('EXPIRED');
    const expired = await at(RUN_06, 'temperature', '?limit=48');
    expect(expired.status).toBe(200);
    expect(expired.body).toEqual(complete.body);
    clock.set(Date.parse('2026-05-01T06:00:00Z') + 336 * HOUR);
    const gone = await at(RUN_06, 'temperature', '?limit=48');
    expect(gone.status).toBe(404);
    expect(gone.body.id).toBe('forecast_does_not_exist');
  });

  it('404 forecast_does_not_exist and variable_does_not_exist', async () => {
    const unknownRun = await at('00000000-0000-4000-8000-000000000000', 'temperature');
    expect(unknownRun.status).toBe(404);
    expect(unknownRun.body.id).toBe('forecast_does_not_exist');
    const unknownVariable = await at(RUN_06, 'humidity');
    expect(unknownVariable.status).toBe(404);
    expect(unknownVariable.body.id).toBe('variable_does_not_exist');
    expect(unknownVariable.body.message).toBe('Model synthetic-global has no variable humidity');
    // Names are exact: the catalog spells them in camelCase.
    expect((await at(RUN_06, 'Temperature')).status).toBe(404);
  });

  it.each([
    ['latitude', '/91/0'],
    ['latitude', '/-90.5/0'],
    ['longitude', '/0/180.01'],
    ['latitude', '/abc/0'],
    ['latitude', '/1e1/0'],
    ['longitude', '/0/0x10'],
    ['longitude', '/0/Infinity'],
  ])('400 invalid_parameter naming the %s for %s', async (name, path) => {
    const res = await get(app(), t.alice, `/forecasts/${RUN_06}/variables/temperature/timeseries${path}`);
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_parameter');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([name]);
  });

  it.each([
    ['start=2026-05-01', 'start'],
    ['start=tomorrow', 'start'],
    ['end=2026-05-01T00:00:00%2B01:00', 'end'],
    ['start=2026-05-02T00:00:00Z&end=2026-05-01T00:00:00Z', 'end'],
    ['limit=0', 'limit'],
    ['limit=-3', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=', 'limit'],
    ['start=2026-05-01T00:00:00Z&start=2026-05-02T00:00:00Z', 'start'],
  ])('400 invalid_parameter for %s', async (query, name) => {
    const res = await at(RUN_06, 'temperature', `?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_parameter');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([name]);
  });

  it('400 for a forecast id that is no UUID', async () => {
    const res = await at('latest', 'temperature');
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_parameter');
  });
});

describe('latest-forecast time series (spec 2.8, 4.7)', () => {
  it('links the latest complete run and maps every variable to its per-variable object', async () => {
    const res = await get(app(), t.alice, `/models/synthetic-global/latest-forecast/timeseries/${AMES.latitude}/${AMES.longitude}`);
    expect(res.status).toBe(200);
    expect(res.body.forecast).toBe(`/forecasts/${RUN_06}`);
    expect(Object.keys(res.body.variables)).toEqual([
      'temperature',
      'dewPoint',
      'windSpeed',
      'surfacePressure',
      'precipitationRate',
      'shortwaveRadiation',
    ]);
    for (const [name, body] of Object.entries(res.body.variables)) {
      const one = await at(RUN_06, name);
      expect(body).toEqual(one.body);
    }
  });

  it('takes start, end and limit as the by-variable form does', async () => {
    const res = await get(app(), t.alice, '/models/synthetic-rapid/latest-forecast/timeseries/10/20?limit=3');
    expect(res.status).toBe(200);
    for (const body of Object.values(res.body.variables) as { series: Point[] }[]) expect(body.series).toHaveLength(3);
    const bad = await get(app(), t.alice, '/models/synthetic-rapid/latest-forecast/timeseries/10/200');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['longitude']);
  });
});

describe('as CSV (Accept: text/csv; docs/decisions/0243-csv-answers.md)', () => {
  const csv = (path: string) => request(app()).get(path).set('Authorization', t.alice.auth).set('Accept', 'text/csv');
  const records = (text: string) => text.split('\r\n').slice(0, -1);

  it('writes a variable’s series a row per valid time, the variable and its unit in the header, the values of the JSON form', async () => {
    const path = `/forecasts/${RUN_06}/variables/surfacePressure/timeseries/${AMES.latitude}/${AMES.longitude}?limit=3`;
    const [json, res] = await Promise.all([get(app(), t.alice, path), csv(path)]);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    const place = `${AMES.latitude},${AMES.longitude}`;
    expect(records(res.text)).toEqual([
      'latitude,longitude,validTime,surfacePressure (kPa)',
      ...json.body.series.map((p: Point) => `${place},${p.validTime},${p.value}`),
    ]);
  });

  it('writes the latest run’s variables side by side, in the model’s order', async () => {
    const path = `/models/synthetic-global/latest-forecast/timeseries/${AMES.latitude}/${AMES.longitude}?limit=4`;
    const [json, res] = await Promise.all([get(app(), t.alice, path), csv(path)]);
    expect(res.status).toBe(200);
    const [header, ...rows] = records(res.text);
    expect(header).toBe(
      'latitude,longitude,validTime,temperature (°C),dewPoint (°C),windSpeed (m/s),surfacePressure (kPa),precipitationRate (mm/h),shortwaveRadiation (W/m²)',
    );
    const variables = Object.values(json.body.variables) as { series: Point[] }[];
    expect(rows).toEqual(
      variables[0]!.series.map((p, i) =>
        [AMES.latitude, AMES.longitude, p.validTime, ...variables.map((v) => v.series[i]!.value)].join(','),
      ),
    );
    expect(rows).toHaveLength(4);
  });

  it('answers a fault as a problem, and documents both forms', async () => {
    const missing = await csv(`/forecasts/${RUN_06}/variables/nope/timeseries/42/-93`);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    const doc = (await request(app()).get('/openapi.json')).body;
    for (const path of [
      '/forecasts/{id}/variables/{variable}/timeseries/{latitude}/{longitude}',
      '/models/{id}/latest-forecast/timeseries/{latitude}/{longitude}',
    ]) {
      expect(Object.keys(doc.paths[path].get.responses['200'].content)).toContain('text/csv');
    }
  });
});
