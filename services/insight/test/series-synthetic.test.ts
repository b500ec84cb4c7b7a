import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { SyntheticSource } from '@fieldcast/weather';
import { insightService } from '../src/definition.js';

const NOW = new Date('2026-06-15T12:34:56Z');
const t = useTestFleet([insightService], { weather: new SyntheticSource({ now: () => NOW.getTime() }), now: () => NOW });
const app = () => t.fleet.app('insight');
const get = (path: string) => request(app()).get(path).set('Authorization', t.alice.auth);

const rectangle = (w: number, s: number, e: number, n: number) => [
  [w, s],
  [e, s],
  [e, n],
  [w, n],
  [w, s],
];
async function createAsset(ring: number[][]) {
  const res = await request(app())
    .post('/assets')
    .set('Authorization', t.alice.auth)
    .send({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: { farm: 'x' } }],
    });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe('series on the synthetic world (0.01 degree cells)', () => {
  it('a point: RH within 0..100 and ET of plausible size, the synthetic products named', async () => {
    const rh = await get('/hourly-relative-humidity/41.6/-93.6?start=2026-06-10&end=2026-06-11');
    expect(rh.status).toBe(200);
    expect(rh.body.series).toHaveLength(48);
    for (const e of rh.body.series) {
      expect(e.value).toBeGreaterThanOrEqual(0);
      expect(e.value).toBeLessThanOrEqual(100);
      expect(e.products).toEqual(['synthetic-analysis']);
    }
    const et = await get('/hourly-evapotranspiration-short-crop/41.6/-93.6?start=2026-06-10&end=2026-06-11');
    expect(et.status).toBe(200);
    const values = et.body.series.map((e: { value: number }) => e.value);
    // June in Iowa: a few tenths of a mm at midday, near zero (or a little dew) at night.
    expect(Math.max(...values)).toBeGreaterThan(0.2);
    expect(Math.max(...values)).toBeLessThan(1.5);
    expect(Math.min(...values)).toBeGreaterThan(-0.1);
    const sum = values.reduce((a: number, b: number) => a + b, 0) / 2;
    expect(sum).toBeGreaterThan(2);
    expect(sum).toBeLessThan(10);
    const forecast = await get('/hourly-evapotranspiration-short-crop/41.6/-93.6');
    expect(forecast.body.series.every((e: { products: string[] }) => e.products.join() === 'synthetic-forecast')).toBe(true);
  });

  it('a series starting at night gives the same night and dawn values as one started the day before (the evening is read)', async () => {
    // Iowa, 10 June: 05:00-12:00Z is local night to mid-morning (sunrise near 10:30Z).
    const late = await get('/hourly-evapotranspiration-short-crop/41.6/-93.6?start=2026-06-10T05:00:00Z&end=2026-06-10T12:00:00Z');
    const early = await get('/hourly-evapotranspiration-short-crop/41.6/-93.6?start=2026-06-09T00:00:00Z&end=2026-06-10T12:00:00Z');
    expect(late.status).toBe(200);
    expect(early.status).toBe(200);
    expect(late.body.series).toEqual(early.body.series.slice(-8));
  });

  it('where the winter sun stays low, an hour has one value, however far back its series starts', async () => {
    // 56°N in mid-December: no hour's sun reaches 0.3 rad, so none has its own fcd.
    const hour = '2025-12-15T11:00:00Z';
    const alone = await get(`/hourly-evapotranspiration-short-crop/56/10?start=${hour}&end=${hour}`);
    const inLong = await get(`/hourly-evapotranspiration-short-crop/56/10?start=2025-11-01&end=${hour}`);
    expect(alone.status).toBe(200);
    expect(inLong.status).toBe(200);
    expect(alone.body.series).toEqual(inLong.body.series.slice(-1));
  });

  it('a small asset’s series stays within 3 % RH of the series at its centre', async () => {
    const asset = await createAsset(rectangle(-93.62, 41.58, -93.58, 41.62));
    const res = await get(`/hourly-relative-humidity/${asset.id}?start=2026-06-10T00:00:00Z&end=2026-06-10T05:00:00Z`);
    expect(res.status).toBe(200);
    const point = await get('/hourly-relative-humidity/41.6/-93.6?start=2026-06-10T00:00:00Z&end=2026-06-10T05:00:00Z');
    res.body.series.forEach((e: { value: number }, h: number) => expect(Math.abs(e.value - point.body.series[h].value)).toBeLessThan(3));
  });

  it('a 60,000 km² asset over a year is 422 request_too_large, naming its size and the limit', async () => {
    const asset = await createAsset(rectangle(-100, 40, -97.3, 42.4));
    const res = await get(`/hourly-evapotranspiration-short-crop/${asset.id}?start=2025-07-01&end=2026-06-01`);
    expect(res.status).toBe(422);
    expect(res.body.id).toBe('request_too_large');
    expect(res.body.message).toMatch(/cell-hours .* the limit is 10,000,000/);
  });
});
