import request from 'supertest';
import { startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { SyntheticSource } from '@fieldcast/weather';
import { agricultureService } from '../src/definition.js';

/*
 * Many places in one request (docs/decisions/0242-batch-requests.md), daily values beside the
 * total (0244) and CSV answers (0243) of the degree-day and chill endpoints: each batch result is
 * the single endpoint's answer for its entry, in the order of the entries.
 */
const NOW = Date.UTC(2024, 11, 15, 12);
const source = new SyntheticSource({ now: () => NOW });
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';
const SEASON = 'start=2024-04-01&end=2024-10-17';

let fleet: TestFleet;
let alice: TestAccount;
let bob: TestAccount;
let small: string;
let large: string;
let bobs: string;
const app = () => fleet.app('agriculture');
const get = (path: string, accept = JSON_V1) => request(app()).get(path).set('Authorization', alice.auth).set('Accept', accept);
const post = (path: string, body: unknown, accept = JSON_V1) =>
  request(app())
    .post(path)
    .set('Authorization', alice.auth)
    .set('Accept', accept)
    .send(body as object);

const square = (lon: number, lat: number, size: number) => ({
  description: `${size} degrees`,
  type: 'GeometryCollection',
  geometries: [
    {
      type: 'Polygon',
      coordinates: [
        [
          [lon, lat],
          [lon + size, lat],
          [lon + size, lat + size],
          [lon, lat + size],
          [lon, lat],
        ],
      ],
    },
  ],
});
const create = async (account: TestAccount, body: object) => {
  const res = await request(app()).post('/fields').set('Authorization', account.auth).send(body);
  expect(res.status).toBe(201);
  return res.body.id as string;
};

beforeAll(async () => {
  fleet = await startTestFleet([agricultureService], { weather: source, now: () => new Date(NOW) });
  alice = await fleet.account('alice-batch');
  bob = await fleet.account('bob-batch');
  small = await create(alice, square(-93.52, 41.99, 0.03));
  large = await create(alice, square(-95, 40, 1));
  bobs = await create(bob, square(-93.52, 41.99, 0.03));
});
afterAll(async () => {
  await fleet.close();
});

const POINTS: [number, number][] = [
  [-93.6319, 42.0308],
  [-121.74, 38.54],
  [10.61, 44.27],
  [174.8, -36.9],
];

describe.each([
  ['/growing-degree-days', `${SEASON}&method=single-sine&cap=30`],
  ['/chill', 'model=utah&start=2023-11-01&end=2024-02-29'],
])('POST %s/batch', (path, query) => {
  it('answers every entry as its own request does, in the order of the entries', async () => {
    const locations = [POINTS[0], small, POINTS[1], POINTS[2], small.toUpperCase(), POINTS[3]];
    const res = await post(`${path}/batch?${query}`, { locations });
    expect(res.status).toBe(200);
    const singles = await Promise.all(
      locations.map(async (l) => (await get(typeof l === 'string' ? `${path}/${l}?${query}` : `${path}/${l![1]}/${l![0]}?${query}`)).body),
    );
    expect(res.body).toEqual({ results: singles });
    expect(new Set(singles.map((r) => JSON.stringify(r))).size).toBe(5); // the places differ, so order is checked
  });

  it('invalid entries are 400 naming each by its index', async () => {
    const res = await post(`${path}/batch?${query}`, {
      locations: [POINTS[0], [-93, 91], 'not-an-id', [1, 2, 3], ['1', 2], POINTS[1]],
    });
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_body');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['locations.1', 'locations.2', 'locations.3', 'locations.4']);
    expect(res.body.errors[0].message).toMatch(/\[longitude, latitude\].*or the id .* fields/);
    for (const body of [{}, { locations: 'x' }, { locations: [] }]) {
      const bad = await post(`${path}/batch?${query}`, body);
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].path).toBe('locations');
    }
  });

  it('GET of the batch is 405 naming POST, not a field whose id is "batch"', async () => {
    const res = await get(`${path}/batch?${query}`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('OPTIONS, POST');
    expect(res.body.id).toBe('method_not_allowed');
  });

  it('a bad query is 400 naming the parameter, as for one place', async () => {
    const res = await post(`${path}/batch?end=2014-01-01`, { locations: [POINTS[0]] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('end');
  });

  it('more than 1,000 entries is 422 request_too_large', async () => {
    const locations = Array.from({ length: 1001 }, (_, i) => [-100 + i / 100, 40]);
    const res = await post(`${path}/batch?${query}`, { locations });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ id: 'request_too_large', message: expect.stringMatching(/1,001 locations.*limit is 1,000/) });
    expect((await post(`${path}/batch?${query}`, { locations: locations.slice(1) })).status).toBe(200);
  });

  it("another account's field is 404, and nothing is computed", async () => {
    const res = await post(`${path}/batch?${query}`, { locations: [POINTS[0], bobs] });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ id: 'field_does_not_exist', errors: [{ path: 'locations.1' }] });
    expect(res.body.message).toContain(bobs);
  });

  it("every id that is not the caller's is named by its index, in one answer", async () => {
    const unknown = '3f1c2a70-0000-4000-8000-000000000000';
    const res = await post(`${path}/batch?${query}`, { locations: [bobs, POINTS[0], small, unknown] });
    expect(res.status).toBe(404);
    expect(res.body.id).toBe('field_does_not_exist');
    expect(res.body.errors).toEqual([
      { path: 'locations.0', message: expect.stringContaining(bobs) },
      { path: 'locations.3', message: expect.stringContaining(unknown) },
    ]);
  });

  it('the work limit counts the whole batch: 422 over it, though each entry alone is within it', async () => {
    // a 1 degree square field: 10,201 cells and the centroid's 4; seven of them over a year of
    // days (25,000,000 cell-days) or 30 days of hours (50,000,000 cell-hours) are over the limit
    const [range, limit] =
      path === '/chill'
        ? ['start=2024-01-01&end=2024-01-30', /^This batch needs .*limit is 50,000,000\. Ask for fewer days or fewer places\.$/]
        : ['start=2023-09-01&end=2024-08-31', /^This batch needs .*limit is 25,000,000\. Ask for fewer days or fewer places\.$/];
    expect((await get(`${path}/${large}?${range}`)).status).toBe(200);
    const res = await post(`${path}/batch?${range}`, { locations: Array.from({ length: 7 }, () => large) });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ id: 'request_too_large', message: expect.stringMatching(limit) });
  });
});

describe('include=daily', () => {
  it.each([
    ['/growing-degree-days', 'degreeDays', `${SEASON}&method=double-sine&include=daily`, 200],
    ['/chill', 'chill', 'model=dynamic&start=2023-11-01&end=2024-02-29&include=daily', 121],
  ] as const)('%s: every day with its value and the running total, whose last is the total', async (path, key, query, days) => {
    for (const at of [`${POINTS[0]![1]}/${POINTS[0]![0]}`, small]) {
      const res = await get(`${path}/${at}?${query}`);
      expect(res.status).toBe(200);
      const daily = res.body.daily as ({ date: string; accumulated: number } & Record<string, number>)[];
      expect(daily).toHaveLength(days);
      expect(daily[0]!.date).toBe(res.body.startDate);
      expect(daily.at(-1)!.date).toBe(res.body.endDate);
      expect(daily.at(-1)!.accumulated).toBe(res.body[key]);
      let sum = 0;
      for (const d of daily) {
        sum += d[key]!;
        expect(Math.abs(d.accumulated - sum)).toBeLessThanOrEqual(0.05 * daily.indexOf(d) + 0.051);
      }
      expect(daily.filter((d) => d[key]! > 0).length).toBeGreaterThan(10);
      const without = await get(`${path}/${at}?${query.replace('&include=daily', '')}`);
      expect(without.body.daily).toBeUndefined();
      expect(without.body[key]).toBe(res.body[key]);
    }
  });

  it.each([
    ['/growing-degree-days', 'degreeDays', 'start=2024-05-01&end=2024-05-20&method=double-sine&cap=25&cutoff=vertical'],
    ['/chill', 'chill', 'model=dynamic&start=2023-10-15&end=2023-11-03'],
  ] as const)(
    '%s over a field: each day also the running mean, maximum and minimum over the field, each as the field result through that day gives them',
    async (path, key, query) => {
      const res = await get(`${path}/${small}?${query}&include=daily`);
      expect(res.status).toBe(200);
      const daily = res.body.daily as Record<string, number | string>[];
      const last = daily.at(-1)!;
      expect([last.accumulatedFieldMean, last.accumulatedFieldMaximum, last.accumulatedFieldMinimum]).toEqual([
        res.body.fieldMean,
        res.body.fieldMaximum,
        res.body.fieldMinimum,
      ]);
      // an independent check: the field result of a shorter season ending on that day
      for (const d of [daily[0]!, daily[6]!, daily[13]!]) {
        const through = await get(`${path}/${small}?${query.replace(/end=[\d-]+/, `end=${d.date as string}`)}`);
        expect([d.accumulatedFieldMean, d.accumulatedFieldMaximum, d.accumulatedFieldMinimum]).toEqual([
          through.body.fieldMean,
          through.body.fieldMaximum,
          through.body.fieldMinimum,
        ]);
        expect(d.accumulated).toBe(through.body[key]);
      }
      // the field varies, so the check sees the statistics, not one value three times
      expect(res.body.fieldMaximum).toBeGreaterThan(res.body.fieldMinimum);
      // a point has no field
      const point = await get(`${path}/${POINTS[0]![1]}/${POINTS[0]![0]}?${query}&include=daily`);
      expect(Object.keys(point.body.daily[0]).sort()).toEqual(['accumulated', 'date', key].sort());
    },
  );

  it('include takes only daily', async () => {
    const res = await get(`/chill/42/-93?include=hourly`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ path: 'include', message: 'include must be daily' });
    const twice = await get(`/chill/42/-93?include=daily&include=daily`);
    expect(twice.body.errors[0]).toEqual({ path: 'include', message: 'include must be given once: daily' });
  });
});

describe('CSV', () => {
  const lines = (text: string) => text.split('\r\n');

  it('a batch: a header with units, then one row per place in order; JSON stays the default', async () => {
    const res = await post(`/growing-degree-days/batch?${SEASON}`, { locations: [POINTS[1], small, POINTS[0]] }, 'text/csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    const json = (await post(`/growing-degree-days/batch?${SEASON}`, { locations: [POINTS[1], small, POINTS[0]] })).body.results;
    const [a, f, b] = json;
    expect(lines(res.text)).toEqual([
      'latitude,longitude,field,startDate,endDate,baseTemperature (°C),method,upperThreshold (°C),cutoff,degreeDays (Celsius degree days),fieldMean (Celsius degree days),fieldMaximum (Celsius degree days),fieldMinimum (Celsius degree days)',
      `38.54,-121.74,,2024-04-01,2024-10-17,10,average,,,${a.degreeDays},,,`,
      `,,/fields/${small},2024-04-01,2024-10-17,10,average,,,${f.degreeDays},${f.fieldMean},${f.fieldMaximum},${f.fieldMinimum}`,
      `42.0308,-93.6319,,2024-04-01,2024-10-17,10,average,,,${b.degreeDays},,,`,
      '',
    ]);
    const preferred = await post(`/growing-degree-days/batch?${SEASON}`, { locations: [POINTS[0]] }, 'application/json;q=0.5, text/csv');
    expect(preferred.headers['content-type']).toMatch(/^text\/csv/);
    const json2 = await post(`/growing-degree-days/batch?${SEASON}`, { locations: [POINTS[0]] }, 'text/csv;q=0.5, application/json');
    expect(json2.headers['content-type']).toMatch(/json/);
    const any = await post(`/growing-degree-days/batch?${SEASON}`, { locations: [POINTS[0]] }, '*/*');
    expect(any.headers['content-type']).toMatch(/json/);
    // the form follows Accept, and caches are told so (RFC 9110 §12.5.5)
    for (const r of [res, json2]) expect((r.headers.vary ?? '').split(/,\s*/)).toContain('Accept');
  });

  it('names the method, upper threshold and cutoff on each row, so files of two methods cannot be taken for each other', async () => {
    const q = 'start=2024-06-01&end=2024-06-02&include=daily&scale=fahrenheit&base=50';
    const [sine, vertical] = await Promise.all(
      ['method=single-sine&cap=86', 'method=single-sine&cap=86&cutoff=vertical'].map((m) =>
        post(`/growing-degree-days/batch?${q}&${m}`, { locations: [POINTS[0]] }, 'text/csv'),
      ),
    );
    const average = await get(`/growing-degree-days/42.0308/-93.6319?${q}`, 'text/csv');
    expect(lines(sine!.text)[0]).toBe(
      'latitude,longitude,field,startDate,endDate,baseTemperature (°F),method,upperThreshold (°F),cutoff,date,degreeDays (Fahrenheit degree days),accumulated (Fahrenheit degree days),accumulatedFieldMean (Fahrenheit degree days),accumulatedFieldMaximum (Fahrenheit degree days),accumulatedFieldMinimum (Fahrenheit degree days)',
    );
    expect(lines(sine!.text)[1]).toMatch(/^42\.0308,-93\.6319,,2024-06-01,2024-06-02,50,single-sine,86,horizontal,2024-06-01,/);
    expect(lines(vertical!.text)[1]).toMatch(/^42\.0308,-93\.6319,,2024-06-01,2024-06-02,50,single-sine,86,vertical,2024-06-01,/);
    expect(lines(average.text)[1]).toMatch(/^42\.0308,-93\.6319,,2024-06-01,2024-06-02,50,average,,,2024-06-01,/);
  });

  it('with include=daily: one row per place and day; chill units in the header', async () => {
    const q = 'model=hours&start=2024-01-01&end=2024-01-03&include=daily';
    const res = await post(`/chill/batch?${q}`, { locations: [POINTS[2], POINTS[0]] }, 'text/csv');
    const json = (await post(`/chill/batch?${q}`, { locations: [POINTS[2], POINTS[0]] })).body.results;
    const rows = json.flatMap((r: { latitude: number; longitude: number; daily: { date: string; chill: number; accumulated: number }[] }) =>
      r.daily.map((d) => `${r.latitude},${r.longitude},,2024-01-01,2024-01-03,hours,${d.date},${d.chill},${d.accumulated},,,`),
    );
    expect(lines(res.text)).toEqual([
      'latitude,longitude,field,startDate,endDate,model,date,chill (chill hours),accumulated (chill hours),accumulatedFieldMean (chill hours),accumulatedFieldMaximum (chill hours),accumulatedFieldMinimum (chill hours)',
      ...rows,
      '',
    ]);
    expect(rows).toHaveLength(6);
  });

  it("with include=daily over a field: the field's running mean, maximum and minimum on each day's row", async () => {
    const q = 'model=utah&start=2024-01-01&end=2024-01-02&include=daily';
    const res = await post(`/chill/batch?${q}`, { locations: [POINTS[2], small] }, 'text/csv');
    const [p, f] = (await post(`/chill/batch?${q}`, { locations: [POINTS[2], small] })).body.results;
    type Day = Record<'chill' | 'accumulated' | 'accumulatedFieldMean' | 'accumulatedFieldMaximum' | 'accumulatedFieldMinimum', number> & {
      date: string;
    };
    expect(typeof f.daily[0].accumulatedFieldMean).toBe('number');
    expect(lines(res.text)).toEqual([
      'latitude,longitude,field,startDate,endDate,model,date,chill (Utah chill units),accumulated (Utah chill units),accumulatedFieldMean (Utah chill units),accumulatedFieldMaximum (Utah chill units),accumulatedFieldMinimum (Utah chill units)',
      ...p.daily.map((d: Day) => `44.27,10.61,,2024-01-01,2024-01-02,utah,${d.date},${d.chill},${d.accumulated},,,`),
      ...f.daily.map(
        (d: Day) =>
          `,,/fields/${small},2024-01-01,2024-01-02,utah,${d.date},${d.chill},${d.accumulated},${d.accumulatedFieldMean},${d.accumulatedFieldMaximum},${d.accumulatedFieldMinimum}`,
      ),
      '',
    ]);
  });

  it('a single place answers CSV too; errors stay problem+json', async () => {
    const res = await get(`/chill/44.27/10.61?model=utah&start=2024-01-01&end=2024-01-31`, 'text/csv');
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(lines(res.text)[0]).toBe(
      'latitude,longitude,field,startDate,endDate,model,chill (Utah chill units),fieldMean (Utah chill units),fieldMaximum (Utah chill units),fieldMinimum (Utah chill units)',
    );
    expect(lines(res.text)).toHaveLength(3);
    const bad = await get('/chill/44.27/10.61?model=x', 'text/csv');
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toMatch(/problem\+json/);
  });

  it('the OpenAPI document names text/csv beside JSON, and the batch bodies', async () => {
    const doc = (await request(app()).get('/openapi.json')).body;
    for (const [path, method] of [
      ['/growing-degree-days/batch', 'post'],
      ['/growing-degree-days/{latitude}/{longitude}', 'get'],
      ['/growing-degree-days/{id}', 'get'],
      ['/chill/batch', 'post'],
      ['/chill/{id}', 'get'],
      ['/chill/{latitude}/{longitude}', 'get'],
    ] as const) {
      const content = doc.paths[path][method].responses['200'].content;
      expect(Object.keys(content)).toEqual([expect.stringMatching(/json/), 'text/csv']);
      expect(content['text/csv'].schema).toMatchObject({ type: 'string', description: expect.stringMatching(/row per place/) });
    }
    const locations = doc.paths['/chill/batch'].post.requestBody.content['application/json'].schema.properties.locations;
    expect(locations).toMatchObject({ type: 'array', minItems: 1, maxItems: 1000 });
    // each entry's two forms, as a client generator reads them
    expect(locations.items.oneOf).toEqual([
      expect.objectContaining({ type: 'array', minItems: 2, maxItems: 2 }),
      { type: 'string', format: 'uuid' },
    ]);
    // the pattern is JSON Schema's, which has no flags: it takes every case the service takes
    const scale = doc.paths['/growing-degree-days/{latitude}/{longitude}'].get.parameters.find((p: { name: string }) => p.name === 'scale');
    const pattern = new RegExp(scale.schema.pattern);
    for (const word of ['celsius', 'FAHRENHEIT', 'Fahrenheit']) expect(pattern.test(word)).toBe(true);
    expect(pattern.test('kelvin')).toBe(false);
    expect((await get(`/growing-degree-days/40/-90?${SEASON}&scale=FAHRENHEIT`)).body.scale).toBe('Fahrenheit');
  });
});

describe('chill: a season whose default start is before the first day served', () => {
  // end 2015-03-01: the northern season began 2014-09-01, the southern one 2015-03-01
  const END = 'end=2015-03-01';

  it('one place: 400 naming start, not an error about coverage', async () => {
    const res = await get(`/chill/${POINTS[0]![1]}/${POINTS[0]![0]}?${END}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      id: 'invalid_parameter',
      errors: [{ path: 'start', message: expect.stringMatching(/began 2014-09-01.*give start/) }],
    });
    expect((await get(`/chill/${POINTS[0]![1]}/${POINTS[0]![0]}?${END}&start=2015-01-01`)).status).toBe(200);
    expect((await get(`/chill/${POINTS[3]![1]}/${POINTS[3]![0]}?${END}`)).status).toBe(200);
  });

  it('a field: 400 naming start', async () => {
    const res = await get(`/chill/${small}?${END}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'start', message: expect.stringMatching(/began 2014-09-01/) }]);
  });

  it('a batch: 400 naming each entry it fails for by its index; the southern one alone is answered', async () => {
    const res = await post(`/chill/batch?${END}`, { locations: [POINTS[3], POINTS[0], small, POINTS[1]] });
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_parameter');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['locations.1', 'locations.2', 'locations.3']);
    expect(res.body.errors[0].message).toMatch(/began 2014-09-01 at latitude 42.0308/);
    expect((await post(`/chill/batch?${END}`, { locations: [POINTS[3]] })).status).toBe(200);
    const one = await post(`/chill/batch?${END}`, { locations: [POINTS[3], POINTS[0]] });
    expect(one.body.message).toMatch(/^locations\.1: the chill season/);
  });
});
