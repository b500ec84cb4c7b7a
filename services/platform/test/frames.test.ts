import { FIELDCAST_NAMESPACE, fieldcastId, uuidv5 } from '@fieldcast/ids';
import { frameIndexAcrossClose, startTestFleet, useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, frameRecord, frameZoomLevels, productFrames, SyntheticSource } from '@fieldcast/weather';
import request from 'supertest';
import { platformService } from '../src/definition.js';
import { clock, get, H, now, START } from './helpers.js';

const weather = new SyntheticSource();
const t = useTestFleet([platformService], { now, weather });

beforeEach(() => {
  clock.ms = START;
});

interface FrameBody {
  id: string;
  validTime: string;
  runTime: string;
  forecast: string | null;
}
const valid = (body: FrameBody[]) => body.map((f) => f.validTime);

describe('GET /products/{product}/frames (public record)', () => {
  it('lists frames on the cadence across a year boundary, newest first, with the frame record', async () => {
    const res = await get(t, t.alice, '/products/air-temperature/frames?start=2019-12-31T22:00:00Z&end=2020-01-01T01:00:00Z');
    expect(res.status).toBe(200);
    expect(valid(res.body)).toEqual(['2020-01-01T01:00:00Z', '2020-01-01T00:00:00Z', '2019-12-31T23:00:00Z', '2019-12-31T22:00:00Z']);
    const productId = fieldcastId('product', 'air-temperature');
    expect(res.body[1]).toEqual({
      // UUID v5 of the natural key (docs/decisions/0022-derived-ids-uuid-v5.md), computed here from the RFC 9562 definition
      id: uuidv5('frame:air-temperature:2020-01-01T00:00:00Z', FIELDCAST_NAMESPACE),
      validTime: '2020-01-01T00:00:00Z',
      runTime: '2020-01-01T00:00:00Z',
      creationTime: '2020-01-01T00:00:00Z',
      expirationTime: null,
      // the synthetic world's 0.01 degree cells: 360 / (256 x 2^7) = 0.011 degrees a pixel
      zoomLevels: { minimum: 0, native: 7, maximum: 11 },
      mediaTypes: ['image/png'],
      tileSize: 256,
      forecast: null,
      product: `/products/${productId}`,
    });
  });

  it('takes start and end as inclusive bounds at the millisecond: a start past 00:00:00.000 by a microsecond leaves that frame out', async () => {
    const res = await get(t, t.alice, '/products/air-temperature/frames?start=2020-01-01T00:00:00.000001Z&end=2020-01-01T02:00:00.0009Z');
    expect(valid(res.body)).toEqual(['2020-01-01T02:00:00Z', '2020-01-01T01:00:00Z']);
    const offset = await get(
      t,
      t.alice,
      '/products/air-temperature/frames?start=2020-01-01T01:00:00.0001%2B01:00&end=2020-01-01T01:00:00Z',
    );
    expect(valid(offset.body)).toEqual(['2020-01-01T01:00:00Z']);
  });

  it('takes a time without seconds, ISO 8601’s reduced precision, as the minute’s start, with Z or an offset (docs/decisions/0488-times-without-seconds.md)', async () => {
    const res = await get(t, t.alice, '/products/air-temperature/frames?start=2020-01-01T01:00%2B01:00&end=2020-01-01T01:00Z');
    expect([res.status, valid(res.body)]).toEqual([200, ['2020-01-01T01:00:00Z', '2020-01-01T00:00:00Z']]);
    const products = await get(t, t.alice, '/products?start=2020-01-01T00:00Z&end=2020-01-01T00:00Z');
    expect(products.status).toBe(200);
    // A minute of 60 or a time of hours alone is still no time.
    for (const start of ['2020-01-01T01:60Z', '2020-01-01T01Z']) {
      const bad = await get(t, t.alice, `/products/air-temperature/frames?start=${start}`);
      expect([bad.status, bad.body.errors?.map((e: { path: string }) => e.path)]).toEqual([400, ['start']]);
    }
  });

  it('takes sort and limit', async () => {
    const asc = await get(t, t.alice, '/products/air-temperature/frames?start=2019-12-31T22:00:00Z&sort=asc&limit=3');
    expect(valid(asc.body)).toEqual(['2019-12-31T22:00:00Z', '2019-12-31T23:00:00Z', '2020-01-01T00:00:00Z']);
    const desc = await get(t, t.alice, '/products/air-temperature/frames?end=2020-01-01T00:30:00Z&limit=2');
    expect(valid(desc.body)).toEqual(['2020-01-01T00:00:00Z', '2019-12-31T23:00:00Z']);
  });

  it('steps daily frames over month ends, 29 February included', async () => {
    const res = await get(
      t,
      t.alice,
      '/products/growing-degree-days/frames?start=2020-01-30T00:00:00Z&end=2020-03-01T00:00:00Z&sort=asc&limit=1000',
    );
    expect(res.body).toHaveLength(32);
    expect(valid(res.body).slice(0, 3)).toEqual(['2020-01-30T00:00:00Z', '2020-01-31T00:00:00Z', '2020-02-01T00:00:00Z']);
    expect(valid(res.body).slice(-3)).toEqual(['2020-02-28T00:00:00Z', '2020-02-29T00:00:00Z', '2020-03-01T00:00:00Z']);
  });

  it('defaults to the 100 newest: the latest run’s forecast frames, back to analysis frames at the current hour', async () => {
    const res = await get(t, t.alice, '/products/air-temperature/frames');
    expect(res.body).toHaveLength(100);
    expect(res.body[0].validTime).toBe('2025-07-01T06:00:00Z');
    const run = fieldcastId('product-forecast', 'air-temperature', '2025-06-15T06:00:00Z');
    expect(res.body[0]).toMatchObject({
      runTime: '2025-06-15T06:00:00Z',
      forecast: `/forecasts/${run}`,
      expirationTime: '2025-06-22T06:00:00Z',
    });
    // analysis to 10Z (the current hour), the run's frames after it
    const around = await get(t, t.alice, '/products/air-temperature/frames?start=2025-06-15T10:00:00Z&end=2025-06-15T11:00:00Z');
    expect(around.body.map((f: FrameBody) => [f.validTime, f.forecast])).toEqual([
      ['2025-06-15T11:00:00Z', `/forecasts/${run}`],
      ['2025-06-15T10:00:00Z', null],
    ]);
  });

  it('lists a ten-year hourly product’s week by arithmetic, not by walking its 90,000 frames', async () => {
    const res = await get(t, t.alice, '/products/air-temperature/frames?start=2024-03-01T00:00:00Z&end=2024-03-08T00:00:00Z&limit=1000');
    expect(res.body).toHaveLength(7 * 24 + 1);
  });

  it('answers a repeated page as the clock moves across the hour and a run’s publication as it would a new one', async () => {
    // The page is kept (docs/decisions/0120-product-frames-and-forecast-runs.md); the same URL
    // each time, against the frames computed at that instant. The 12Z run is published at 15:30.
    const cat = createCatalog();
    const zoom = frameZoomLevels(weather.grid.dLon);
    const path = '/products/air-temperature/frames?start=2025-06-15T09:00:00Z&end=2025-06-16T00:00:00Z&sort=asc';
    const instants = ['10:20', '10:59', '11:00', '15:29', '15:30', '15:31', '16:00'];
    for (const hm of instants) {
      const [h, m] = hm.split(':').map(Number) as [number, number];
      clock.ms = Date.UTC(2025, 5, 15, h, m);
      const expected = productFrames(
        cat.product('air-temperature')!,
        clock.ms,
        Date.parse('2025-06-15T09:00:00Z'),
        Date.parse('2025-06-16T00:00:00Z'),
        100,
        'asc',
      ).map((f) => frameRecord(f, zoom));
      expect({ at: hm, body: (await get(t, t.alice, path)).body }).toEqual({ at: hm, body: expected });
    }
  });

  it('answers [] for a product without frames and 404 for an unknown product', async () => {
    expect((await get(t, t.alice, '/products/surface-altitude/frames')).body).toEqual([]);
    const missing = await get(t, t.alice, '/products/nope/frames');
    expect(missing.status).toBe(404);
    expect(missing.body.id).toBe('product_does_not_exist');
  });

  it.each([
    ['limit', 'limit=0'],
    ['limit', 'limit=1001'],
    ['limit', 'limit=ten'],
    ['sort', 'sort=up'],
    ['end', 'start=2020-01-02T00:00:00Z&end=2020-01-01T00:00:00Z'],
    ['end', 'end=soon'],
  ])('400 naming %s for %s', async (param, query) => {
    for (const path of ['/products/air-temperature/frames', '/products/air-temperature/forecasts']) {
      const res = await get(t, t.alice, `${path}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(param);
    }
  });

  it('an offset whose + was sent unencoded, read as a space, is 400 naming the parameter with the encoding to use', async () => {
    for (const path of ['/products/air-temperature/frames', '/products/air-temperature/forecasts', '/products'])
      for (const [param, query] of [
        ['start', 'start=2026-05-01T14:00:00+02:00&end=2026-05-02T00:00:00Z'],
        ['end', 'start=2026-05-01T00:00:00Z&end=2026-05-01T14:00:00+02:00'],
      ] as const) {
        const res = await get(t, t.alice, `${path}?${query}`);
        expect([res.status, res.body.errors?.map((e: { path: string }) => e.path)]).toEqual([400, [param]]);
        expect(res.body.errors[0].message).toContain(`${param} must be an ISO 8601 timestamp with a zone`);
        expect(res.body.errors[0].message).toContain(
          "a + in a query string reads as a space, so send an offset's + as %2B (2026-05-01T14:00:00%2B00:00)",
        );
      }
  });
});

describe('frames by id', () => {
  it('reads an analysis frame and a forecast frame by id, and 404s others', async () => {
    const list = await get(t, t.alice, '/products/precipitation-rate/frames?start=2025-06-15T09:00:00Z&end=2025-06-15T12:00:00Z');
    for (const frame of list.body) {
      const res = await get(t, t.alice, `/frames/${frame.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(frame);
    }
    const unknown = await get(t, t.alice, `/frames/${fieldcastId('frame', 'precipitation-rate', '2014-01-01T00:00:00Z')}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.id).toBe('frame_does_not_exist');
    expect((await get(t, t.alice, '/frames/not-a-uuid')).status).toBe(400);
  });

  it('does not know a frame before its hour has come', async () => {
    const id = fieldcastId('frame', 'precipitation-rate-north-america', '2025-06-15T11:00:00Z');
    expect((await get(t, t.alice, `/frames/${id}`)).status).toBe(404);
    clock.ms = START + H;
    expect((await get(t, t.alice, `/frames/${id}`)).body.validTime).toBe('2025-06-15T11:00:00Z');
  });

  // starts a second fleet inside the test, which is slow on a loaded machine
  it('gives the same ids after a restart', async () => {
    const before = (await get(t, t.alice, '/products/air-temperature/frames?limit=5')).body.map((f: FrameBody) => f.id);
    const again = await startTestFleet([platformService], { now, weather });
    try {
      const account = await again.account('carol');
      const res = await request(again.app('platform')).get('/products/air-temperature/frames?limit=5').set('Authorization', account.auth);
      expect(res.body.map((f: FrameBody) => f.id)).toEqual(before);
      const frame = await request(again.app('platform')).get(`/frames/${before[4]}`).set('Authorization', account.auth);
      expect(frame.status).toBe(200);
    } finally {
      await again.close();
    }
  }, 120_000);
});

describe('forecasts (public record)', () => {
  it('lists a product’s published runs, reads one and its frames', async () => {
    const res = await get(t, t.alice, '/products/air-temperature/forecasts?limit=1000');
    expect(res.status).toBe(200);
    // every 6 h from 00Z, published 3.5 h after init, kept 7 days: 06Z back to the 12Z of 7 days before
    expect(res.body).toHaveLength(28);
    const id = fieldcastId('product-forecast', 'air-temperature', '2025-06-15T06:00:00Z');
    expect(res.body[0]).toEqual({
      id,
      initTime: '2025-06-15T06:00:00Z',
      creationTime: '2025-06-15T09:30:00Z',
      expirationTime: '2025-06-22T06:00:00Z',
      frames: `/forecasts/${id}/frames`,
      product: `/products/${fieldcastId('product', 'air-temperature')}`,
    });
    expect(res.body[27].initTime).toBe('2025-06-08T12:00:00Z');
    const asc = await get(t, t.alice, '/products/air-temperature/forecasts?sort=asc&limit=2&start=2025-06-14T00:00:00Z');
    expect(asc.body.map((f: { initTime: string }) => f.initTime)).toEqual(['2025-06-14T00:00:00Z', '2025-06-14T06:00:00Z']);
    expect((await get(t, t.alice, `/forecasts/${id.toUpperCase()}`)).body).toEqual(res.body[0]);
    const frames = await get(t, t.alice, `/forecasts/${id}/frames?limit=1000&sort=asc`);
    expect(frames.body).toHaveLength(385);
    expect(frames.body[0]).toMatchObject({
      validTime: '2025-06-15T06:00:00Z',
      runTime: '2025-06-15T06:00:00Z',
      forecast: `/forecasts/${id}`,
    });
    expect((await get(t, t.alice, `/frames/${frames.body[200].id}`)).body).toEqual(frames.body[200]);
    expect((await get(t, t.alice, '/products/precipitation-rate-north-america/forecasts')).body).toEqual([]);
  });

  it('404s an unknown, unpublished or expired run', async () => {
    const unpublished = fieldcastId('product-forecast', 'air-temperature', '2025-06-15T12:00:00Z');
    expect((await get(t, t.alice, `/forecasts/${unpublished}`)).body.id).toBe('forecast_does_not_exist');
    clock.ms = Date.UTC(2025, 5, 15, 15, 30);
    expect((await get(t, t.alice, `/forecasts/${unpublished}`)).status).toBe(200);
    const old = fieldcastId('product-forecast', 'air-temperature', '2025-06-08T12:00:00Z');
    expect((await get(t, t.alice, `/forecasts/${old}/frames`)).status).toBe(404);
    expect((await get(t, t.alice, '/forecasts/nope')).status).toBe(400);
  });
});

describe('GET /frames/{id}/datapoint/{latitude}/{longitude}', () => {
  it('gives the value at the point and the native-zoom tile and pixel, as computed by hand', async () => {
    const frame = fieldcastId('frame', 'air-temperature', '2025-06-01T18:00:00Z');
    const res = await get(t, t.alice, `/frames/${frame}/datapoint/42.0308/-93.6319`);
    expect(res.status).toBe(200);
    // Web mercator at z = 7 (n = 128), OGC 17-083r2: x = n (lon + 180) / 360 = 30.7087, so tile
    // column 30 and pixel column floor(0.7087 x 256) = 181; y = n (1 - ln(tan(lat) + sec(lat)) / pi) / 2
    // = 47.5010, so tile row 47 and pixel row floor(0.5010 x 256) = 128.
    expect(res.body.tile).toEqual({ z: 7, x: 30, y: 47 });
    expect(res.body.pixel).toEqual({ row: 128, column: 181 });
    const series = await weather.pointSeries('air_temperature', -93.6319, 42.0308, {
      startMs: Date.UTC(2025, 5, 1, 18),
      endMs: Date.UTC(2025, 5, 1, 18),
    });
    expect(res.body.value).toBeCloseTo(series.values[0]!, 3);
    expect(res.body.unit).toEqual({ description: 'degrees Celsius', label: '°C' });
    // Sydney: x = 128 x 331.2093 / 360 = 117.7633, y = 76.8118
    const south = await get(t, t.alice, `/frames/${frame}/datapoint/-33.8688/151.2093`);
    expect(south.body.tile).toEqual({ z: 7, x: 117, y: 76 });
    expect(south.body.pixel).toEqual({ row: 207, column: 195 });
  });

  it('computes derived products from their inputs', async () => {
    const rh = await get(
      t,
      t.alice,
      `/frames/${fieldcastId('frame', 'relative-humidity', '2025-06-01T18:00:00Z')}/datapoint/42.0308/-93.6319`,
    );
    expect(rh.body.unit.label).toBe('%');
    expect(rh.body.value).toBeGreaterThan(0);
    expect(rh.body.value).toBeLessThanOrEqual(100);
    const gdd = await get(
      t,
      t.alice,
      `/frames/${fieldcastId('frame', 'growing-degree-days', '2025-06-01T00:00:00Z')}/datapoint/42.0308/-93.6319`,
    );
    const { tmax, tmin } = await weather.dailyExtremesAt(-93.6319, 42.0308, { startMs: Date.UTC(2025, 5, 1), endMs: Date.UTC(2025, 5, 1) });
    // average method, base 10 °C (McMaster and Wilhelm 1997, eq. 1)
    expect(gdd.body.value).toBeCloseTo(Math.max(0, (tmax.values[0]! + tmin.values[0]!) / 2 - 10), 3);
    const et = await get(
      t,
      t.alice,
      `/frames/${fieldcastId('frame', 'evapotranspiration-short-crop', '2025-06-01T18:00:00Z')}/datapoint/42.0308/-93.6319`,
    );
    expect(et.body.unit.label).toBe('mm/hr');
    // an early-June afternoon in Iowa: a few tenths of a millimetre an hour
    expect(et.body.value).toBeGreaterThan(0.05);
    expect(et.body.value).toBeLessThan(1.5);
  });

  it('reads the ET product at its first frame, whose hour begins the weather’s coverage', async () => {
    // The hour's shortwave is read from the stamps whose time cells reach into it; the first
    // stamp's cell starts before the coverage does, but the stamp itself is inside it.
    const first = await get(t, t.alice, '/products/evapotranspiration-short-crop/frames?sort=asc&limit=1');
    expect(first.body[0].validTime).toBe('2015-01-01T00:00:00Z');
    const res = await get(t, t.alice, `/frames/${first.body[0].id}/datapoint/42.0308/-93.6319`);
    expect(res.status).toBe(200);
    expect(typeof res.body.value).toBe('number');
  });

  it('has no value outside the product’s coverage, where its tiles are transparent', async () => {
    const frame = fieldcastId('frame', 'precipitation-rate-north-america', '2025-06-01T18:00:00Z');
    const paris = await get(t, t.alice, `/frames/${frame}/datapoint/48.85/2.35`);
    expect(paris.status).toBe(200);
    expect(paris.body).toMatchObject({ value: null, unit: { label: 'mm/h' }, tile: { z: 7, x: 64, y: 44 } });
    const iowa = await get(t, t.alice, `/frames/${frame}/datapoint/42.0308/-93.6319`);
    expect(typeof iowa.body.value).toBe('number');
  });

  it('refuses coordinates out of range and 404s an unknown frame', async () => {
    const frame = fieldcastId('frame', 'air-temperature', '2025-06-01T18:00:00Z');
    for (const path of ['91/0', '0/181', 'north/0', '1e1/0']) {
      expect((await get(t, t.alice, `/frames/${frame}/datapoint/${path}`)).status).toBe(400);
    }
    const unknown = await get(t, t.alice, `/frames/${fieldcastId('frame', 'air-temperature', '2030-01-01T00:00:00Z')}/datapoint/0/0`);
    expect(unknown.status).toBe(404);
  });
});

describe('closing the area', () => {
  it('stops the frame index growing in the background, so a closing process is not held by it', async () => {
    const { atClose, later } = await frameIndexAcrossClose([platformService], { now, weather });
    expect(later).toBe(atClose);
  });
});
