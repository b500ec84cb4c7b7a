import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { SyntheticSource } from '@fieldcast/weather';
import { insightService } from '../src/definition.js';

/*
 * Hourly RH and ET at many places in one request (docs/decisions/0242-batch-requests.md) and as
 * CSV (0243): each batch series is the single endpoint's answer for its entry, in the order of
 * the entries; the work limit counts the whole batch.
 */
const NOW = new Date('2026-06-15T12:34:56Z');
const source = new SyntheticSource({ now: () => NOW.getTime() });
const t = useTestFleet([insightService], { weather: source, now: () => NOW });
const app = () => t.fleet.app('insight');
const get = (path: string, accept = 'application/json') =>
  request(app()).get(path).set('Authorization', t.alice.auth).set('Accept', accept);
const post = (path: string, body: unknown, accept = 'application/json') =>
  request(app())
    .post(path)
    .set('Authorization', t.alice.auth)
    .set('Accept', accept)
    .send(body as object);

const ring = [
  [-93.52, 41.99],
  [-93.49, 41.99],
  [-93.49, 42.02],
  [-93.52, 42.02],
  [-93.52, 41.99],
];
const createAsset = async (auth: string) => {
  const res = await request(app())
    .post('/assets')
    .set('Authorization', auth)
    .send({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: null }],
    });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const POINTS: [number, number][] = [
  [-93.6319, 42.0308],
  [-121.74, 38.54],
  [10.61, 44.27],
];
const RANGE = 'start=2026-06-01T00:00:00Z&end=2026-06-01T05:00:00Z';

describe.each(['/hourly-relative-humidity', '/hourly-evapotranspiration-short-crop'])('POST %s/batch', (path) => {
  it('answers every entry as its own request does, in order; CSV one row per place and hour', async () => {
    const asset = await createAsset(t.alice.auth);
    const locations = [POINTS[0], asset, POINTS[1], POINTS[2]];
    const res = await post(`${path}/batch?${RANGE}`, { locations });
    expect(res.status).toBe(200);
    const singles = await Promise.all(
      locations.map(async (l) => (await get(typeof l === 'string' ? `${path}/${l}?${RANGE}` : `${path}/${l![1]}/${l![0]}?${RANGE}`)).body),
    );
    expect(res.body).toEqual({ results: singles });
    expect(singles[3].series).toHaveLength(6);

    const csv = await post(`${path}/batch?${RANGE}`, { locations }, 'text/csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    const lines = csv.text.split('\r\n');
    const column = path.includes('humidity') ? 'relativeHumidity (%)' : 'evapotranspiration (mm/hr)';
    expect(lines[0]).toBe(`latitude,longitude,asset,validTime,${column},products`);
    expect(lines.slice(1, -1)).toEqual(
      singles.flatMap((s) =>
        s.series.map(
          (e: { validTime: string; value: number; products: string[] }) =>
            `${s.latitude},${s.longitude},${s.asset ?? ''},${e.validTime},${e.value},${e.products.join(';')}`,
        ),
      ),
    );
    expect(lines).toHaveLength(1 + 4 * 6 + 1);
    // the single series answers CSV too
    const one = await get(`${path}/${POINTS[0]![1]}/${POINTS[0]![0]}?${RANGE}`, 'text/csv');
    expect(one.text.split('\r\n').slice(0, 2)).toEqual(lines.slice(0, 2));
  });

  it('invalid entries are 400 by index; more than 1,000 or work over the limit 422; an asset not yours 404', async () => {
    const bad = await post(`${path}/batch`, { locations: [POINTS[0], [200, 0], {}, 'x'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['locations.1', 'locations.2', 'locations.3']);
    expect(bad.body.errors[0].message).toMatch(/assets$/);
    const many = await post(`${path}/batch`, { locations: Array.from({ length: 1001 }, () => POINTS[0]) });
    expect(many.status).toBe(422);
    expect(many.body.id).toBe('request_too_large');
    // a year of hours at one point is within the 10,000,000 cell-hours; at 300 points it is not
    const year = 'start=2025-06-16&end=2026-06-14';
    const heavy = await post(`${path}/batch?${year}`, { locations: Array.from({ length: 300 }, () => POINTS[0]) });
    expect(heavy.status).toBe(422);
    // 300 points x 4 cells x (8,736 hours + the one after; ET also the 24 before)
    const needs = path.includes('humidity') ? '10,484,400' : '10,513,200';
    expect(heavy.body.message).toMatch(
      new RegExp(`^This batch needs ${needs} cell-hours .*limit is 10,000,000. Ask for fewer hours or fewer places`),
    );
    const theirs = await createAsset(t.bob.auth);
    const notYours = await post(`${path}/batch`, { locations: [POINTS[0], theirs] });
    expect(notYours.status).toBe(404);
  });

  it('the OpenAPI document has the batch with its body and CSV beside JSON', async () => {
    const doc = (await request(app()).get('/openapi.json')).body;
    const op = doc.paths[`${path}/batch`].post;
    expect(Object.keys(op.responses['200'].content)).toEqual([expect.stringMatching(/json/), 'text/csv']);
    expect(op.requestBody.content['application/json'].schema.properties.locations.type).toBe('array');
    expect(Object.keys(doc.paths[`${path}/{latitude}/{longitude}`].get.responses['200'].content)).toContain('text/csv');
    // an hour the weather source holds no value for is 503 weather_data_missing (hourly-series.ts)
    for (const read of [op, doc.paths[`${path}/{latitude}/{longitude}`].get, doc.paths[`${path}/{id}`].get])
      expect(read.responses['503']).toBeDefined();
  });
});
