import request from 'supertest';
import { bboxRing, areaOf, containsPoint } from '@fieldcast/geo';
import { type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '../src/definition.js';
import { TableSource } from './table-source.js';

/*
 * Hand-computable degree days: a TableSource with temperatures chosen here
 * feeds the real code path. Cells are 1 degree, centred on x.5. Days 2024-05-01..03; the clock
 * reads 2024-05-10T12:00Z, so dates run 2015-01-01..2024-05-17.
 *
 * Cell A, centre (40.5 N, 10.5 E): Tmax 20, 25, 8; Tmin 10, 11, 2.
 *   average method, base 10 °C: (20+10)/2-10 = 5, (25+11)/2-10 = 8, (8+2)/2-10 < 0 -> 0. Total 13.
 * Cell B, centre (40.5 N, 11.5 E): Tmax 14, 16, 30; Tmin 6, 4, 10.
 *   (14+6)/2-10 = 0, (16+4)/2-10 = 0, (30+10)/2-10 = 10. Total 10.
 * Every other cell: Tmax 40, Tmin 30: 25 a day, 75 in three days.
 */
const DAY_MS = 86_400_000;
const MAY_1 = Date.UTC(2024, 4, 1);
const NOW = new Date(Date.UTC(2024, 4, 10, 12));
const source = new TableSource(
  MAY_1,
  {
    '40.5,10.5': { tmax: [20, 25, 8], tmin: [10, 11, 2] },
    '40.5,11.5': { tmax: [14, 16, 30], tmin: [6, 4, 10] },
    // a cell the source holds no value for, as a land-only store's sea (docs/decisions/0015)
    '40.5,21.5': { tmax: [NaN, NaN, NaN], tmin: [NaN, NaN, NaN] },
  },
  { tmax: 40, tmin: 30 },
  // The table stops 3 days after "now": a request beyond it exercises GridRequestError -> 400.
  NOW.getTime() + 3 * DAY_MS,
);
const DAYS = 'start=2024-05-01&end=2024-05-03';
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';

const rect = bboxRing;
/* The field: all of cell A and the western half of cell B (lon 10..11.5, lat 40..41). */
const FIELD_RING = rect(10, 40, 11.5, 41);
const fieldBody = (rings: number[][][] = [FIELD_RING]) => ({
  description: 'hand',
  type: 'GeometryCollection',
  geometries: [{ type: 'Polygon', coordinates: rings }],
});

let fieldId: string;
const app = () => t.fleet.app('agriculture');
const get = (path: string, account: TestAccount = t.alice) =>
  request(app()).get(path).set('Authorization', account.auth).set('Accept', JSON_V1);

const t = useTestFleet([agricultureService], { weather: source, now: () => NOW });
beforeEach(async () => {
  const created = await request(app()).post('/fields').set('Authorization', t.alice.auth).send(fieldBody());
  expect(created.status).toBe(201);
  fieldId = created.body.id;
});

describe('growing degree days: hand-computed through the real path (spec 2.6, 4.1)', () => {
  it('location at cell A: 13 degree days, the spec shape', async () => {
    const res = await get(`/growing-degree-days/40.5/10.5?${DAYS}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.fieldcast+json; version=1; charset=utf-8');
    expect(res.body).toEqual({
      latitude: 40.5,
      longitude: 10.5,
      startDate: '2024-05-01',
      endDate: '2024-05-03',
      baseTemperature: 10,
      scale: 'Celsius',
      degreeDays: 13,
    });
  });

  it('fahrenheit: base defaults to 50 °F; A in °F is 68/50, 77/51.8, 46.4/35.6 -> 9 + 14.4 + 0 = 23.4', async () => {
    const res = await get(`/growing-degree-days/40.5/10.5?${DAYS}&scale=FAHRENHEIT`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ baseTemperature: 50, scale: 'Fahrenheit', degreeDays: 23.4 });
  });

  it('a chosen base and the other methods', async () => {
    // base 5: 15-5 = 10, 18-5 = 13, day 3: (8+2)/2 = 5, not above 5 -> 0. Total 23
    expect((await get(`/growing-degree-days/40.5/10.5?${DAYS}&base=5`)).body).toMatchObject({ baseTemperature: 5, degreeDays: 23 });
    // modified-average, cap 22: day 1 (20, 10) -> 5; day 2 (22, 11) -> 6.5; day 3 (10, 10) -> 0. Total 11.5
    expect((await get(`/growing-degree-days/40.5/10.5?${DAYS}&method=modified-average&cap=22`)).body.degreeDays).toBe(11.5);
    // single-triangle, base 10: day 1 and 2 lie above the base: 5 + 8; day 3 (8, 2) lies below it: 0. Total 13
    expect((await get(`/growing-degree-days/40.5/10.5?${DAYS}&method=single-triangle`)).body.degreeDays).toBe(13);
  });

  it('the double methods read the minimum of the day after end (UC IPM double triangle)', async () => {
    // 05-01..05-02 at A, base 10. Day 1: rise 10 -> 20 gives M - L = 5, fall to 11 gives 15.5 - 10 = 5.5: 5.25.
    // Day 2: rise 11 -> 25 gives 8, fall to 05-03's 2 gives (25-10)^2 / (2 x 23) = 4.8913: 6.4457.
    // Total 11.6957 -> 11.7 (single-triangle: 5 + 8 = 13).
    const res = await get(`/growing-degree-days/40.5/10.5?start=2024-05-01&end=2024-05-02&method=double-triangle`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ startDate: '2024-05-01', endDate: '2024-05-02', degreeDays: 11.7 });
    // the field's window reads the day after as well: its cells A and B agree with the points
    const field = await get(`/growing-degree-days/${fieldId}?start=2024-05-01&end=2024-05-02&method=double-triangle`);
    expect(field.status).toBe(200);
    expect(field.body.fieldMaximum).toBe(11.7);
  });

  it.each([
    // Single triangle at A, base 10, cap 22. Day 1 (20, 10) lies below the cap: 5. Day 3 (8, 2): 0.
    // Day 2 (25, 11): E(10) = 8, E(22) = 3^2 / 28 = 0.32143, share above 22 = 3/14.
    ['horizontal', 12.7, '5 + 8 - 0.32143 = 12.679'],
    ['vertical', 10.1, '5 + 8 - 0.32143 - 12 x 3/14 = 10.107'],
    ['intermediate', 12.4, '5 + 8 - 2 x 0.32143 = 12.357'],
  ])('cutoff %s with cap 22: %p  [%s]', async (cutoff, expected) => {
    const res = await get(`/growing-degree-days/40.5/10.5?${DAYS}&method=single-triangle&cap=22&cutoff=${cutoff}`);
    expect(res.status).toBe(200);
    expect(res.body.degreeDays).toBe(expected);
  });

  it('cap alone is the horizontal cutoff, and cutoff=cap names it too', async () => {
    const res = await get(`/growing-degree-days/40.5/10.5?${DAYS}&method=single-triangle&cap=22`);
    expect(res.body.degreeDays).toBe(12.7);
    const alias = await get(`/growing-degree-days/40.5/10.5?${DAYS}&method=single-triangle&cap=22&cutoff=cap`);
    expect(alias.status).toBe(200);
    expect(alias.body.degreeDays).toBe(12.7);
  });

  it('field: centroid 9.8, mean 12, max 13, min 10', async () => {
    // Centroid (vertex mean) = (10.75 E, 40.5 N): a quarter of the way from A to B, on their row,
    // so each temperature is 0.75 A + 0.25 B:
    //   Tmax 18.5, 22.75, 13.5; Tmin 9, 9.25, 4 -> means 13.75, 16, 8.75 -> 3.75 + 6 + 0 = 9.75 -> 9.8.
    // Weights: all of A and half of B (same latitude band, so areas go with longitude):
    //   mean = (13 x 1 + 10 x 0.5) / 1.5 = 12. The hot cells around only touch the field's edges.
    const res = await get(`/growing-degree-days/${fieldId}?${DAYS}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      field: `/fields/${fieldId}`,
      startDate: '2024-05-01',
      endDate: '2024-05-03',
      baseTemperature: 10,
      scale: 'Celsius',
      degreeDays: 9.8,
      fieldMean: 12,
      fieldMaximum: 13,
      fieldMinimum: 10,
      contours: `/growing-degree-days/${fieldId}/contours?start=2024-05-01&end=2024-05-03`,
    });
  });

  it('field: one window read per variable, one point series per variable', async () => {
    source.calls.length = 0;
    await get(`/growing-degree-days/${fieldId}?${DAYS}`);
    expect([...source.calls].sort()).toEqual([
      'pointSeries air_temperature_daily_max',
      'pointSeries air_temperature_daily_min',
      'window air_temperature_daily_max',
      'window air_temperature_daily_min',
    ]);
  });

  it('the contours link carries every given parameter over, normalised; unknown ones are dropped', async () => {
    const res = await get(
      `/growing-degree-days/${fieldId}?${DAYS}&scale=Fahrenheit&base=41&method=single-sine&cap=86&cutoff=vertical&colour=red`,
    );
    expect(res.status).toBe(200);
    expect(res.body.contours).toBe(
      `/growing-degree-days/${fieldId}/contours?start=2024-05-01&end=2024-05-03&base=41&scale=fahrenheit&method=single-sine&cap=86&cutoff=vertical`,
    );
    const followed = await get(res.body.contours);
    expect(followed.status).toBe(200);
    expect(followed.body).toMatchObject({ baseTemperature: 41, scale: 'Fahrenheit', startDate: '2024-05-01' });
  });

  it('the contours link writes base and cap as plain decimals, which its endpoint takes, where String gives an exponent', async () => {
    // String writes 1e-7 and 2e-7 with an exponent; a threshold from 1e21 up, the other such
    // magnitude, is past any air temperature and refused (DEGREE_DAY_THRESHOLD_RANGE).
    const res = await get(`/growing-degree-days/${fieldId}?${DAYS}&base=0.0000001&method=single-sine&cap=0.0000002`);
    expect(res.status).toBe(200);
    expect(res.body.contours).toBe(
      `/growing-degree-days/${fieldId}/contours?start=2024-05-01&end=2024-05-03&base=0.0000001&method=single-sine&cap=0.0000002`,
    );
    const followed = await get(res.body.contours);
    expect(followed.status).toBe(200);
    expect(followed.body).toMatchObject({ baseTemperature: 1e-7 });
  });

  it('contours: Polygons covering the field once, A in the lowest band', async () => {
    // Grid one cell wider than the field: centres lon 9.5..12.5, lat 39.5..41.5, all 75 except
    // A = 13 and B = 10. Range 10..75: widths 1..5 need over 10 bands, width 10 gives 7:
    // edges 10, 20, ..., 80.
    const res = await get(`/growing-degree-days/${fieldId}/contours?${DAYS}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      field: `/fields/${fieldId}`,
      startDate: '2024-05-01',
      endDate: '2024-05-03',
      baseTemperature: 10,
      scale: 'Celsius',
      type: 'FeatureCollection',
    });
    const features = res.body.features as {
      type: string;
      geometry: { type: string; coordinates: number[][][] };
      properties: { degreeDays: number };
    }[];
    expect(features.length).toBeGreaterThan(1);
    for (const f of features) {
      expect(f.type).toBe('Feature');
      expect(f.geometry.type).toBe('Polygon');
      expect([10, 20, 30, 40, 50, 60, 70]).toContain(f.properties.degreeDays);
    }
    const total = features.reduce((s, f) => s + areaOf([f.geometry.coordinates]), 0);
    const fieldArea = areaOf([[FIELD_RING]]);
    expect(Math.abs(total - fieldArea) / fieldArea).toBeLessThan(0.005);
    // A's centre has 13: it must be in the band [10, 20).
    const at = features.filter((f) => containsPoint([f.geometry.coordinates], [10.5, 40.5]));
    expect(at.map((f) => f.properties.degreeDays)).toEqual([10]);
  });

  it('a field half over a cell without values: its result and its contours both leave that cell out', async () => {
    // lon 18.8..22 at 40..41: cells at 75 degree days but (40.5, 21.5), without values; the
    // centroid, (40.5, 20.4), reads valued cells only
    const coastal = await request(app())
      .post('/fields')
      .set('Authorization', t.alice.auth)
      .send(fieldBody([rect(18.8, 40, 22, 41)]));
    const result = await get(`/growing-degree-days/${coastal.body.id}?${DAYS}`);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ degreeDays: 75, fieldMean: 75, fieldMinimum: 75, fieldMaximum: 75 });
    const contours = await get(`/growing-degree-days/${coastal.body.id}/contours?${DAYS}`);
    expect(contours.status).toBe(200);
    const pieces = (contours.body.features as { geometry: { coordinates: number[][][] } }[]).map((f) => f.geometry.coordinates);
    const area = pieces.reduce((sum, p) => sum + areaOf([p]), 0);
    expect(area / areaOf([[rect(18.8, 40, 21, 41)]])).toBeCloseTo(1, 6);
    expect(pieces.every((p) => !containsPoint([p], [21.5, 40.5]))).toBe(true);
  });

  it('a day past the source coverage: the source refusal is a 400 with its code', async () => {
    const res = await get('/growing-degree-days/40.5/10.5?start=2024-05-10&end=2024-05-15');
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('out_of_coverage');
  });
});

describe('growing degree days: parameters (spec 4.1)', () => {
  // Accepted dates: 2015-01-01 .. 2024-05-17 (the clock's date + 7 days).
  const cases: [string, string, string, RegExp][] = [
    ['base not a number', 'base=warm', 'base', /decimal number \(-100 to 100 °C or -148 to 212 °F\)/],
    // Thresholds past any air temperature on Earth (docs/decisions/0485-limits-count-characters-and-thresholds-are-earthly.md).
    ['base of 1e24, written out', `base=1${'0'.repeat(24)}`, 'base', /^base must be from -100 to 100 °C \(scale celsius\)/],
    ['base in kelvin', 'base=283.15', 'base', /^base must be from -100 to 100 °C/],
    ['base below -148 °F', 'scale=fahrenheit&base=-148.5', 'base', /^base must be from -148 to 212 °F \(scale fahrenheit\)/],
    ['cap past 100 °C', 'method=single-sine&cap=100.5', 'cap', /^cap must be from -100 to 100 °C/],
    ['cap of 1e21, written out', `method=single-sine&cap=1${'0'.repeat(21)}`, 'cap', /^cap must be from -100 to 100 °C/],
    ['base empty', 'base=', 'base', /decimal number/],
    ['base in exponent form', 'base=1e1', 'base', /decimal number/],
    ['base given twice', 'base=1&base=2', 'base', /once/],
    ['scale unknown', 'scale=kelvin', 'scale', /celsius or fahrenheit/],
    ['start before 2015', 'start=2014-12-31', 'start', /from 2015-01-01 to 2024-05-17/],
    ['start not a date', 'start=2024-02-30', 'start', /from 2015-01-01 to 2024-05-17/],
    ['start in another format', 'start=05/01/2024', 'start', /YYYY-MM-DD from 2015-01-01 to 2024-05-17/],
    ['end past today + 7 days', 'end=2024-05-18', 'end', /from 2015-01-01 to 2024-05-17/],
    ['start after end', 'start=2024-05-03&end=2024-05-01', 'end', /no later than end \(2024-05-01\)/],
    ['start after the default end (today)', 'start=2024-05-12', 'start', /no later than end \(today, 2024-05-10\)/],
    ['end before the default start (today)', 'end=2024-05-01', 'end', /start \(today, 2024-05-10\) must be no later/],
    [
      'method unknown',
      'method=quad-sine',
      'method',
      /average, modified-average, single-sine, single-triangle, double-sine, double-triangle/,
    ],
    ['cap with the average method', 'cap=30', 'cap', /other than average/],
    ['cutoff unknown', 'method=single-sine&cap=30&cutoff=diagonal', 'cutoff', /horizontal, vertical, intermediate/],
    ['cutoff without cap', 'method=single-sine&cutoff=vertical', 'cutoff', /needs cap/],
    ['cutoff with a method that has no curve', 'method=modified-average&cap=30&cutoff=intermediate', 'cutoff', /needs method single-sine/],
    ['a double method up to the last accepted day', 'method=double-sine&end=2024-05-17', 'end', /at most 2024-05-16/],
    ['cap below base', 'method=single-sine&cap=5', 'cap', /not below base \(10\)/],
    ['method given twice, though valid', 'method=single-sine&method=single-sine', 'method', /method must be given once: one of average/],
    ['cutoff given twice', 'method=single-sine&cap=30&cutoff=vertical&cutoff=vertical', 'cutoff', /cutoff must be given once/],
    ['cap not a number', 'method=single-sine&cap=hot', 'cap', /decimal number/],
    // Digits past Number.MAX_VALUE read as Infinity, past every threshold.
    ['cap too large to be a finite number', `method=single-sine&cap=${'9'.repeat(400)}`, 'cap', /^cap must be from -100 to 100 °C/],
  ];
  const paths = () => [`/growing-degree-days/40.5/10.5`, `/growing-degree-days/${fieldId}`, `/growing-degree-days/${fieldId}/contours`];

  it.each(cases)('%s (%s): 400 invalid_parameter, on all three endpoints', async (_name, q, path, message) => {
    for (const p of paths()) {
      const res = await get(`${p}?${q}`);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ id: 'invalid_parameter', status: 400 });
      expect(res.body.errors).toEqual([{ path, message: expect.stringMatching(message) }]);
    }
  });

  const coordinates: [string, string, string][] = [
    ['latitude above 90', '90.5/10', 'latitude'],
    ['latitude below -90', '-91/10', 'latitude'],
    ['latitude not a number', 'north/10', 'latitude'],
    ['latitude in exponent form', '4e1/10', 'latitude'],
    ['longitude above 180', '40/180.01', 'longitude'],
    ['longitude not a number', '40/east', 'longitude'],
    ['a UUID in the latitude position', '3f1c2a7e-8b9d-4e6f-a1b2-c3d4e5f60718/10', 'latitude'],
  ];
  it.each(coordinates)('%s (%s): 400 naming the parameter with its range', async (_name, location, path) => {
    const res = await get(`/growing-degree-days/${location}`);
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_parameter');
    expect(res.body.errors).toEqual([
      { path, message: expect.stringMatching(path === 'latitude' ? /from -90 to 90/ : /from -180 to 180/) },
    ]);
  });

  it('edges are accepted: 2015-01-01 and today + 7 days, latitude ±90, longitude ±180, thresholds -100 to 100 °C and -148 to 212 °F', async () => {
    for (const q of [
      'start=2015-01-01&end=2015-01-02',
      'start=2024-05-10&end=2024-05-13',
      `${DAYS}&base=-100&method=single-sine&cap=100`,
      `${DAYS}&scale=fahrenheit&base=-148&method=single-sine&cap=212`,
    ]) {
      expect((await get(`/growing-degree-days/30.5/30.5?${q}`)).status).toBe(200);
    }
    for (const location of ['90/180', '-90/-180', '+0.5/-0'])
      expect((await get(`/growing-degree-days/${location}?${DAYS}`)).status).toBe(200);
  });

  it('defaults: today for both dates, base 10, Celsius; unknown parameters are ignored', async () => {
    // (30.5 N, 30.5 E) is an "every other" cell: 25 a day.
    const res = await get('/growing-degree-days/30.5/30.5?units=kelvin&foo=bar');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      startDate: '2024-05-10',
      endDate: '2024-05-10',
      baseTemperature: 10,
      scale: 'Celsius',
      degreeDays: 25,
    });
  });

  it('a field id that is not a UUID: 400 naming id', async () => {
    for (const p of ['/growing-degree-days/north-40', '/growing-degree-days/north-40/contours']) {
      const res = await get(p);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: 'id', message: 'must be a UUID' }]);
    }
  });
});

describe('growing degree days: ownership and routing', () => {
  it("another account's field: 404 field_does_not_exist on both field endpoints", async () => {
    for (const p of [`/growing-degree-days/${fieldId}?${DAYS}`, `/growing-degree-days/${fieldId}/contours?${DAYS}`]) {
      const res = await get(p, t.bob);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ id: 'field_does_not_exist', status: 404 });
      expect((await get(p, t.alice)).status).toBe(200);
    }
  });

  it('an unknown field: 404; no credentials: 401', async () => {
    const res = await get(`/growing-degree-days/3f1c2a7e-8b9d-4e6f-a1b2-c3d4e5f60718?${DAYS}`);
    expect(res.status).toBe(404);
    expect(res.body.id).toBe('field_does_not_exist');
    expect((await request(app()).get(`/growing-degree-days/40.5/10.5?${DAYS}`)).status).toBe(401);
  });

  it('/{id}/contours is not taken for /{latitude}/{longitude}, nor the reverse', async () => {
    expect((await get(`/growing-degree-days/${fieldId}/contours?${DAYS}`)).body.type).toBe('FeatureCollection');
    expect((await get(`/growing-degree-days/40.5/10.5?${DAYS}`)).body.latitude).toBe(40.5);
  });

  it('OpenAPI documents all three with their parameters, components and examples', async () => {
    const doc = (await request(app()).get('/openapi.json')).body;
    const location = doc.paths['/growing-degree-days/{latitude}/{longitude}'].get;
    expect(location.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:latitude',
      'path:longitude',
      'query:base',
      'query:scale',
      'query:start',
      'query:end',
      'query:method',
      'query:cap',
      'query:cutoff',
      'query:include',
    ]);
    expect(doc.paths['/growing-degree-days/{id}'].get.responses['404']).toBeDefined();
    // a place or day the weather source holds no value for is 503 weather_data_missing
    for (const path of ['/growing-degree-days/{latitude}/{longitude}', '/growing-degree-days/{id}', '/growing-degree-days/{id}/contours'])
      expect(doc.paths[path].get.responses['503']).toBeDefined();
    expect(doc.paths['/growing-degree-days/batch'].post.responses['503']).toBeDefined();
    // the contours have no daily values, so no include (docs/decisions/0244-daily-values.md)
    expect(doc.paths['/growing-degree-days/{id}/contours'].get.parameters.map((p: { name: string }) => p.name)).not.toContain('include');
    expect(doc.paths['/growing-degree-days/{id}/contours'].get.description).toMatch(/lower edge/);
    for (const name of ['GrowingDegreeDayLocation', 'GrowingDegreeDayField', 'GrowingDegreeDayContours']) {
      expect(doc.components.schemas[name].examples).toHaveLength(1);
    }
  });
});
