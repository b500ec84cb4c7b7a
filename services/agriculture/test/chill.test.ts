import request from 'supertest';
import { areaOf, intersectionOf } from '@fieldcast/geo';
import { startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { accumulateChill, chillHour, utahChillUnit } from '@fieldcast/science';
import { SyntheticSource } from '@fieldcast/weather';
import { agricultureService } from '../src/definition.js';

/*
 * GET /chill/{latitude}/{longitude} over the synthetic world, against the chill summed here
 * hour by hour from the source's own hourly air temperature at the point (the models themselves
 * are checked against chillR in packages/science/test/chill.test.ts).
 */
const NOW = Date.UTC(2024, 11, 15, 12);
const source = new SyntheticSource({ now: () => NOW });
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';
const HOUR_MS = 3_600_000;

let fleet: TestFleet;
let alice: TestAccount;
const get = (path: string) => request(fleet.app('agriculture')).get(path).set('Authorization', alice.auth).set('Accept', JSON_V1);

beforeAll(async () => {
  fleet = await startTestFleet([agricultureService], { weather: source, now: () => new Date(NOW) });
  alice = await fleet.account('alice');
});
afterAll(async () => {
  await fleet.close();
});

/** Hourly °C at a point from start 00:00Z to end 23:00Z, read here from the source. */
async function hourlyCelsius(lat: number, lon: number, start: string, end: string): Promise<number[]> {
  const startMs = Date.parse(`${start}T00:00:00Z`);
  const endMs = Date.parse(`${end}T23:00:00Z`);
  const s = await source.pointSeries('air_temperature', lon, lat, { startMs, endMs });
  expect(s.startMs).toBe(startMs);
  expect(s.values.length).toBe((endMs - startMs) / HOUR_MS + 1);
  const offset = s.units === 'K' ? 273.15 : s.units === 'degC' ? 0 : Number.NaN;
  return Array.from(s.values, (v) => v - offset);
}
const round1 = (v: number) => Math.round(v * 10) / 10;

describe('chill at a location', () => {
  it.each([
    ['hours', (t: number[]) => t.reduce((a, v) => a + chillHour(v), 0), 'chill hours'],
    ['utah', (t: number[]) => t.reduce((a, v) => a + utahChillUnit(v), 0), 'Utah chill units'],
    ['dynamic', (t: number[]) => accumulateChill('dynamic', t), 'chill portions'],
  ] as const)('model %s over a given range: the hourly sum, one decimal', async (model, sum, units) => {
    const [lat, lon] = [44.27, 10.61];
    const res = await get(`/chill/${lat}/${lon}?model=${model}&start=2023-11-01&end=2024-02-29`);
    expect(res.status).toBe(200);
    const expected = round1(sum(await hourlyCelsius(lat, lon, '2023-11-01', '2024-02-29')));
    expect(res.body).toEqual({
      latitude: lat,
      longitude: lon,
      startDate: '2023-11-01',
      endDate: '2024-02-29',
      model,
      units,
      chill: expected,
    });
    if (model === 'hours') expect(expected).toBeGreaterThan(100); // a winter that chills: the comparison is not of zeros
  });

  it('defaults: model dynamic, end today, start 1 September in the north and 1 March in the south', async () => {
    const north = await get('/chill/44.27/10.61');
    expect(north.status).toBe(200);
    expect(north.body).toMatchObject({ startDate: '2024-09-01', endDate: '2024-12-15', model: 'dynamic', units: 'chill portions' });
    expect(north.body.chill).toBe(round1(accumulateChill('dynamic', await hourlyCelsius(44.27, 10.61, '2024-09-01', '2024-12-15'))));
    const south = await get('/chill/-36.9/174.8?model=hours&end=2024-08-31');
    expect(south.body).toMatchObject({ startDate: '2024-03-01', endDate: '2024-08-31' });
    const before = await get('/chill/44.27/10.61?model=hours&end=2024-08-31');
    expect(before.body).toMatchObject({ startDate: '2023-09-01', endDate: '2024-08-31' });
  });

  it.each([
    ['model unknown', 'model=chill-units', 'model', /hours, utah, dynamic/],
    ['model given twice', 'model=utah&model=utah', 'model', /model must be given once: one of hours, utah, dynamic/],
    ['start before 2015', 'start=2014-12-31', 'start', /from 2015-01-01 to 2024-12-22/],
    ['end past today + 7 days', 'end=2024-12-23', 'end', /from 2015-01-01 to 2024-12-22/],
    ['end not a date', 'end=2024-02-30', 'end', /got 2024-02-30/],
    ['start after end', 'start=2024-12-01&end=2024-11-01', 'end', /no later than end \(2024-11-01\)/],
    // one fault per value (docs/decisions/0005-problem-details.md): a date out of range is not also compared
    ['start out of range and after end', 'start=2024-12-23&end=2024-12-01', 'start', /from 2015-01-01 to 2024-12-22 .*; got 2024-12-23/],
    ['end out of range and before start', 'start=2024-01-01&end=2014-12-31', 'end', /from 2015-01-01 to 2024-12-22 .*; got 2014-12-31/],
  ])('%s (%s): 400 naming the parameter', async (_name, q, path, message) => {
    const res = await get(`/chill/44.27/10.61?${q}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ id: 'invalid_parameter', status: 400 });
    expect(res.body.errors).toEqual([{ path, message: expect.stringMatching(message) }]);
  });

  it('coordinates as the degree-day location: a latitude past 90 is 400', async () => {
    const res = await get('/chill/91/10');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('latitude');
  });

  it('is in the OpenAPI document with its query', async () => {
    const doc = (await request(fleet.app('agriculture')).get('/openapi.json')).body;
    const op = doc.paths['/chill/{latitude}/{longitude}'].get;
    expect(op.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name)).toEqual([
      'model',
      'start',
      'end',
      'include',
    ]);
    // an hour the weather source holds no value for is 503 weather_data_missing
    expect(op.responses['503']).toBeDefined();
    expect(doc.paths['/chill/{id}'].get.responses['503']).toBeDefined();
    expect(doc.paths['/chill/batch'].post.responses['503']).toBeDefined();
  });
});

describe('chill over a field', () => {
  /* A quadrilateral of about 2.5 km² over several 0.01 degree cells, in a valley that chills. */
  const ring = [
    [10.6012, 44.2611],
    [10.6188, 44.2633],
    [10.6161, 44.2789],
    [10.6034, 44.2752],
    [10.6012, 44.2611],
  ];
  let fieldId: string;
  beforeAll(async () => {
    const res = await request(fleet.app('agriculture'))
      .post('/fields')
      .set('Authorization', alice.auth)
      .send({ description: 'orchard', type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: [ring] }] });
    expect(res.status).toBe(201);
    fieldId = res.body.id;
  });

  /** Every 0.01 degree cell the field covers with its exact intersection area and its own chill, summed here hour by hour. */
  async function bruteForceCells(model: 'hours' | 'dynamic', start: string, end: string) {
    const cells: { area: number; total: number }[] = [];
    for (let i = 4425; i <= 4429; i++) {
      for (let j = 1059; j <= 1063; j++) {
        const lat = i / 100,
          lon = j / 100;
        const cell = [
          [
            [lon - 0.005, lat - 0.005],
            [lon + 0.005, lat - 0.005],
            [lon + 0.005, lat + 0.005],
            [lon - 0.005, lat + 0.005],
            [lon - 0.005, lat - 0.005],
          ],
        ];
        const area = intersectionOf([[ring]], [cell]).reduce((s, p) => s + areaOf([p]), 0);
        if (area > 0) cells.push({ area, total: accumulateChill(model, await hourlyCelsius(lat, lon, start, end)) });
      }
    }
    return cells;
  }

  it.each(['hours', 'dynamic'] as const)(
    'model %s: centroid as the location result, area-weighted mean, max and min of the cells',
    async (model) => {
      const res = await get(`/chill/${fieldId}?model=${model}&start=2023-11-01&end=2024-01-31`);
      expect(res.status).toBe(200);
      const cells = await bruteForceCells(model, '2023-11-01', '2024-01-31');
      expect(cells.length).toBeGreaterThanOrEqual(4);
      const mean = cells.reduce((s, c) => s + c.area * c.total, 0) / cells.reduce((s, c) => s + c.area, 0);
      const max = Math.max(...cells.map((c) => c.total));
      const min = Math.min(...cells.map((c) => c.total));
      const field = (await get(`/fields/${fieldId}`)).body;
      const atCentroid = await get(
        `/chill/${field.centroid.latitude}/${field.centroid.longitude}?model=${model}&start=2023-11-01&end=2024-01-31`,
      );
      const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(0.05 + 1e-3);
      expect(res.body).toMatchObject({
        field: `/fields/${fieldId}`,
        startDate: '2023-11-01',
        endDate: '2024-01-31',
        model,
        units: model === 'hours' ? 'chill hours' : 'chill portions',
        chill: atCentroid.body.chill,
      });
      near(res.body.fieldMean, mean);
      near(res.body.fieldMaximum, max);
      near(res.body.fieldMinimum, min);
      expect(max - min).toBeGreaterThan(0.5); // the cells differ, so the statistics are not one number by accident
    },
  );

  it.each(['hours', 'utah', 'dynamic'] as const)(
    "model %s, include=daily: the last day's accumulated values are the totals, which are those without it",
    async (model) => {
      const query = `model=${model}&start=2023-11-01&end=2024-01-31`;
      const [plain, daily] = await Promise.all([get(`/chill/${fieldId}?${query}`), get(`/chill/${fieldId}?${query}&include=daily`)]);
      expect([plain.status, daily.status]).toEqual([200, 200]);
      const { daily: days, ...totals } = daily.body;
      expect(totals).toEqual(plain.body);
      expect(days).toHaveLength(92);
      expect(days.at(-1)).toMatchObject({
        date: '2024-01-31',
        accumulated: totals.chill,
        accumulatedFieldMean: totals.fieldMean,
        accumulatedFieldMaximum: totals.fieldMaximum,
        accumulatedFieldMinimum: totals.fieldMinimum,
      });
      expect(totals.fieldMaximum - totals.fieldMinimum).toBeGreaterThan(0.5); // cells that differ: not one number by accident
    },
  );

  it("default start: the season's at the centroid", async () => {
    const res = await get(`/chill/${fieldId}?end=2024-10-01`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ startDate: '2024-09-01', endDate: '2024-10-01', model: 'dynamic' });
  });

  it('work over 50,000,000 cell-hours is 422 before anything is read: a 1 degree field over a season', async () => {
    const big = await request(fleet.app('agriculture'))
      .post('/fields')
      .set('Authorization', alice.auth)
      .send({
        description: 'large',
        type: 'GeometryCollection',
        geometries: [
          {
            type: 'Polygon',
            coordinates: [
              [
                [10, 44],
                [11, 44],
                [11, 45],
                [10, 45],
                [10, 44],
              ],
            ],
          },
        ],
      });
    // 101 x 101 cells and the centroid's 4 (10,205) over 205 days of 24 hours: 50,208,600 cell-hours
    const within = await get(`/chill/${big.body.id}?model=hours&start=2024-09-01&end=2024-09-01`);
    expect(within.status).toBe(200);
    const res = await get(`/chill/${big.body.id}?model=hours&start=2024-02-10&end=2024-09-01`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      id: 'request_too_large',
      message: expect.stringMatching(/needs 50,208,600 cell-hours .*limit is 50,000,000/),
    });
  });

  it("another account's field and an unknown one are 404; a bad query is 400 naming the parameter", async () => {
    const bob = await fleet.account('bob-chill');
    const theirs = await request(fleet.app('agriculture')).get(`/chill/${fieldId}`).set('Authorization', bob.auth);
    expect(theirs.status).toBe(404);
    expect((await get('/chill/6f1c2e43-3c55-4c0f-9f00-000000000000')).status).toBe(404);
    const bad = await get(`/chill/${fieldId}?model=portions`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: 'model', message: expect.stringMatching(/hours, utah, dynamic/) }]);
  });
});
