import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import type { VariableId } from '@fieldcast/weather';
import { insightService } from '../src/definition.js';
import { HourlyTableSource } from './hourly-table-source.js';

const HOUR_MS = 3_600_000;
/** The service's clock: 12:34Z, so the current hour is 12:00Z and the previous one 11:00Z. */
const NOW = new Date('2026-06-15T12:34:56Z');

/**
 * An overcast world (Rs 0 every hour, also with the sun up) with fixed air: T 20 °C, dewpoint 10 °C
 * (15 °C east of 1°E, for the asset mean), wind 2 m/s at 2 m, ground at sea level.
 */
const value = (variable: VariableId, _lat: number, lon: number): number => {
  switch (variable) {
    case 'air_temperature':
      return 20;
    case 'dew_point_temperature':
      return lon > 1 ? 15 : 10;
    case 'wind_speed':
      return 2;
    case 'surface_air_pressure':
      return 101.3;
    default:
      return 0;
  }
};
// The table's own analysis ends at 10:30Z, so the hour 10:00-11:00 has a stamp of each product.
const source = new HourlyTableSource(value, Date.UTC(2026, 5, 15, 10, 30));
/** The service's clock, moved only by a test that needs another day and put back after it. */
let clock = NOW;
const t = useTestFleet([insightService], { weather: source, now: () => clock });
const app = () => t.fleet.app('insight');
const get = (path: string) => request(app()).get(path).set('Authorization', t.alice.auth);

// Bolton (1980) eq. 10, by hand: RH = 100 es(Td) / es(T), es(x) = 6.112 exp(17.67 x / (x + 243.5)).
const bolton = (x: number) => 6.112 * Math.exp((17.67 * x) / (x + 243.5));
const RH_20_10 = (100 * bolton(10)) / bolton(20); // 52.5 %
const RH_20_15 = (100 * bolton(15)) / bolton(20); // 72.9 %

/**
 * ASCE-EWRI 2005 eq. 1 by hand, with the standard's terms: T 20 °C, dewpoint 10 °C, u2 2 m/s,
 * z 0 m, Rs 0. Every hour with the sun at least 0.3 rad high has Rs/Rso 0, floored at 0.3
 * (eq. 45): fcd 0.055, which the night and the low-sun hours carry. Rn = -Rnl < 0 every hour, so
 * every hour takes the night's Cd 0.96 and G 0.5 Rn (Table 1: daytime is Rn > 0).
 */
function overcastEtos(): number {
  const T = 20,
    u2 = 2;
  const P = 101.3 * ((293 - 0) / 293) ** 5.26; // eq. 3
  const gamma = 0.000665 * P; // eq. 4
  const e0 = (x: number) => 0.6108 * Math.exp((17.27 * x) / (x + 237.3)); // eq. 7
  const delta = (2503 * Math.exp((17.27 * T) / (T + 237.3))) / (T + 237.3) ** 2; // eq. 5
  const es = e0(T),
    ea = e0(10); // eq. 8: ea from the dewpoint
  const rnl = 2.042e-10 * 0.055 * (0.34 - 0.14 * Math.sqrt(ea)) * (T + 273.16) ** 4; // eq. 44
  const rn = 0 - rnl;
  const g = 0.5 * rn; // night, Table 1
  return (0.408 * delta * (rn - g) + ((gamma * 37) / (T + 273)) * u2 * (es - ea)) / (delta + gamma * (1 + 0.96 * u2));
}

describe('hourly relative humidity at a point (spec 2.7, 4.5)', () => {
  it('defaults to the next 24 hours from the next whole hour, forecast values, Bolton RH', async () => {
    const res = await get('/hourly-relative-humidity/0.5/0.5');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      latitude: 0.5,
      longitude: 0.5,
      startTime: '2026-06-15T13:00:00.000Z',
      endTime: '2026-06-16T12:00:00.000Z',
      unit: { description: 'percent', label: '%' },
    });
    expect(res.body.series).toHaveLength(24);
    res.body.series.forEach((e: { validTime: string; value: number; products: string[] }, h: number) => {
      expect(e.validTime).toBe(new Date(Date.UTC(2026, 5, 15, 13) + h * HOUR_MS).toISOString());
      expect(e.value).toBeCloseTo(RH_20_10, 1);
      expect(e.products).toEqual(['table-forecast']);
    });
    expect(res.body).not.toHaveProperty('asset');
  });

  it('takes start and end as dates or timestamps, echoed as given; names the products of each hour', async () => {
    const res = await get('/hourly-relative-humidity/0.5/0.5?start=2026-06-15T09:00Z&end=2026-06-15T11:00:00Z');
    expect(res.status).toBe(200);
    expect(res.body.startTime).toBe('2026-06-15T09:00Z');
    expect(res.body.endTime).toBe('2026-06-15T11:00:00Z');
    expect(res.body.series.map((e: { validTime: string }) => e.validTime)).toEqual([
      '2026-06-15T09:00:00.000Z',
      '2026-06-15T10:00:00.000Z',
      '2026-06-15T11:00:00.000Z',
    ]);
    // The hour's inputs are its two bounding stamps: 09 and 10 (analysis), 10 and 11, 11 and 12 (forecast).
    expect(res.body.series.map((e: { products: string[] }) => e.products)).toEqual([
      ['table-analysis'],
      ['table-analysis', 'table-forecast'],
      ['table-forecast'],
    ]);
    const days = await get('/hourly-relative-humidity/0.5/0.5?start=2026-06-13&end=2026-06-14');
    expect(days.status).toBe(200);
    expect(days.body.series).toHaveLength(48);
    expect(days.body.series[0].validTime).toBe('2026-06-13T00:00:00.000Z');
    expect(days.body.series[47].validTime).toBe('2026-06-14T23:00:00.000Z');
    expect(days.body.startTime).toBe('2026-06-13');
  });
});

describe('hourly short-crop ET at a point (ASCE-EWRI 2005)', () => {
  it('every overcast hour equals eq. 1 by hand, in mm/hr and in in/hr', async () => {
    const mm = await get('/hourly-evapotranspiration-short-crop/0.5/0.5');
    expect(mm.status).toBe(200);
    expect(mm.body.unit).toEqual({ description: 'millimeters per hour', label: 'mm/hr' });
    expect(mm.body.series).toHaveLength(24);
    for (const e of mm.body.series) expect(e.value).toBeCloseTo(overcastEtos(), 3);
    const inches = await get('/hourly-evapotranspiration-short-crop/0.5/0.5?unit=inches');
    expect(inches.status).toBe(200);
    expect(inches.body.unit).toEqual({ description: 'inches per hour', label: 'in/hr' });
    for (const e of inches.body.series) expect(e.value).toBeCloseTo(overcastEtos() / 25.4, 4);
    const explicit = await get('/hourly-evapotranspiration-short-crop/0.5/0.5?unit=millimeters');
    expect(explicit.body.series).toEqual(mm.body.series);
  });

  it('reads 24 hours before start, so the first night carries a real evening’s fcd, and the hour after end', async () => {
    source.calls.length = 0;
    const res = await get('/hourly-evapotranspiration-short-crop/0.5/0.5?start=2026-06-14T00:00:00Z&end=2026-06-14T05:00:00Z');
    expect(res.status).toBe(200);
    expect(res.body.series).toHaveLength(6);
    expect(source.calls).toContain('pointSeries air_temperature 2026-06-13T00:00:00.000Z 2026-06-14T06:00:00.000Z');
  });
});

describe('series over an asset (spec 2.7): the area-weighted mean of the covered cells', () => {
  // Cells are 1 degree, centred on x.5: the asset from 0.5°E to 1.5°E lies half in the cell of
  // dewpoint 10 °C (0..1°E) and half in the cell of 15 °C (1..2°E), nearly equal areas (same rows).
  const half = [
    [0.5, 0.2],
    [1.5, 0.2],
    [1.5, 0.8],
    [0.5, 0.8],
    [0.5, 0.2],
  ];
  const quarter = [
    [0.25, 0.2],
    [1.25, 0.2],
    [1.25, 0.8],
    [0.25, 0.8],
    [0.25, 0.2],
  ];
  const createAsset = async (ring: number[][]) => {
    const res = await request(app())
      .post('/assets')
      .set('Authorization', t.alice.auth)
      .send({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: null }],
      });
    expect(res.status).toBe(201);
    return res.body as { id: string; centroid: { latitude: number; longitude: number } };
  };

  it('RH over an asset half in each of two cells is the mean of the two; latitude/longitude the centroid; asset named', async () => {
    const asset = await createAsset(half);
    const res = await get(`/hourly-relative-humidity/${asset.id}`);
    expect(res.status).toBe(200);
    expect(res.body.asset).toBe(`/assets/${asset.id}`);
    expect(res.body.latitude).toBe(asset.centroid.latitude);
    expect(res.body.longitude).toBe(asset.centroid.longitude);
    expect(res.body.series).toHaveLength(24);
    for (const e of res.body.series) expect(e.value).toBeCloseTo((RH_20_10 + RH_20_15) / 2, 1);
  });

  it('weights follow the area inside each cell: three quarters in the first cell, one quarter in the second', async () => {
    const asset = await createAsset(quarter);
    const res = await get(`/hourly-relative-humidity/${asset.id}?start=2026-06-15T00:00:00Z&end=2026-06-15T02:00:00Z`);
    expect(res.status).toBe(200);
    expect(res.body.series).toHaveLength(3);
    for (const e of res.body.series) expect(e.value).toBeCloseTo(0.75 * RH_20_10 + 0.25 * RH_20_15, 1);
    expect(res.body.startTime).toBe('2026-06-15T00:00:00Z');
  });

  it('ET over an asset in one cell is that cell’s ET, in both units', async () => {
    const asset = await createAsset(quarter.map(([x, y]) => [x! * 0.5, y!]));
    const mm = await get(`/hourly-evapotranspiration-short-crop/${asset.id}`);
    expect(mm.status).toBe(200);
    expect(mm.body.asset).toBe(`/assets/${asset.id}`);
    for (const e of mm.body.series) expect(e.value).toBeCloseTo(overcastEtos(), 3);
    const inches = await get(`/hourly-evapotranspiration-short-crop/${asset.id}?unit=INCHES`);
    expect(inches.body.unit.label).toBe('in/hr');
    for (const e of inches.body.series) expect(e.value).toBeCloseTo(overcastEtos() / 25.4, 4);
  });

  it('an asset touching the antimeridian reads the cells across it too, and takes its own cells’ values', async () => {
    const asset = await createAsset([
      [179.2, 0.2],
      [180, 0.2],
      [180, 0.8],
      [179.2, 0.8],
      [179.2, 0.2],
    ]);
    source.calls.length = 0;
    const res = await get(`/hourly-relative-humidity/${asset.id}?start=2026-06-15T00:00:00Z&end=2026-06-15T01:00:00Z`);
    expect(res.status).toBe(200);
    for (const e of res.body.series) expect(e.value).toBeCloseTo(RH_20_15, 1);
    expect(source.calls.some((c) => c.startsWith('window air_temperature'))).toBe(true);
    expect(source.calls.filter((c) => c.startsWith('window air_temperature'))).toHaveLength(2);
  });

  it('another account’s asset is 404 on both series, like a missing one', async () => {
    const asset = await createAsset(half);
    for (const path of ['/hourly-relative-humidity', '/hourly-evapotranspiration-short-crop']) {
      const res = await request(app()).get(`${path}/${asset.id}`).set('Authorization', t.bob.auth);
      expect(res.status).toBe(404);
      expect(res.body.id).toBe('asset_does_not_exist');
      const missing = await get(`${path}/00000000-0000-4000-8000-000000000000`);
      expect(missing.status).toBe(404);
      expect(missing.body.id).toBe('asset_does_not_exist');
    }
  });
});

describe('series parameters: each fault is 400 invalid_parameter naming the parameter', () => {
  const RANGE = /from 2025-06-15T12:00:00\.000Z .* to 2026-06-15T11:00:00\.000Z/;
  it.each([
    ['start without end', '?start=2026-06-15T00:00:00Z', 'end'],
    ['end without start', '?end=2026-06-15T00:00:00Z', 'start'],
    ['a start that is no time', '?start=yesterday&end=2026-06-15T00:00:00Z', 'start'],
    ['an end with an offset, not UTC', '?start=2026-06-15T00:00:00Z&end=2026-06-15T02:00:00+01:00', 'end'],
    ['a date that does not exist', '?start=2026-02-30&end=2026-06-15T00:00:00Z', 'start'],
    ['hour 24', '?start=2026-06-14T24:00:00Z&end=2026-06-15T00:00:00Z', 'start'],
    ['start before one year ago', '?start=2025-06-15T11:00:00Z&end=2026-06-15T00:00:00Z', 'start'],
    ['end in the current hour', '?start=2026-06-15T00:00:00Z&end=2026-06-15T12:00:00Z', 'end'],
    ['end as today’s date (its last hour is ahead)', '?start=2026-06-15T00:00:00Z&end=2026-06-15', 'end'],
    ['end in the future', '?start=2026-06-15T00:00:00Z&end=2026-06-20T00:00:00Z', 'end'],
    ['start after end', '?start=2026-06-15T05:00:00Z&end=2026-06-15T04:00:00Z', 'end'],
    ['no whole hour between', '?start=2026-06-15T04:10:00Z&end=2026-06-15T04:50:00Z', 'end'],
    ['start given twice', '?start=2026-06-15T00:00:00Z&start=2026-06-15T01:00:00Z&end=2026-06-15T02:00:00Z', 'start'],
  ])('%s', async (_name, query, parameter) => {
    for (const path of ['/hourly-relative-humidity/0.5/0.5', '/hourly-evapotranspiration-short-crop/0.5/0.5']) {
      const res = await get(`${path}${query}`);
      expect(res.status).toBe(400);
      expect(res.body.id).toBe('invalid_parameter');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(parameter);
    }
  });

  it('a time out of range names the accepted range', async () => {
    const res = await get('/hourly-relative-humidity/0.5/0.5?start=2020-01-01&end=2026-06-15T00:00:00Z');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(RANGE);
  });

  it('the edges of the range are accepted: one year before the current hour, and the previous hour', async () => {
    const res = await get('/hourly-relative-humidity/0.5/0.5?start=2025-06-15T12:00:00Z&end=2026-06-15T11:00:00Z');
    expect(res.status).toBe(200);
    expect(res.body.series).toHaveLength(365 * 24);
  });

  it('a start date is compared as a date: the date one year back is accepted all day, from its 00:00Z; the day before it is not', async () => {
    const res = await get('/hourly-relative-humidity/0.5/0.5?start=2025-06-15&end=2025-06-15');
    expect(res.status).toBe(200);
    expect(res.body.startTime).toBe('2025-06-15');
    expect(res.body.series).toHaveLength(24);
    expect(res.body.series[0].validTime).toBe('2025-06-15T00:00:00.000Z');
    const before = await get('/hourly-relative-humidity/0.5/0.5?start=2025-06-14&end=2025-06-15');
    expect([before.status, before.body.errors?.[0].path]).toEqual([400, 'start']);
    expect(before.body.errors[0].message).toContain('or its date 2025-06-15');
  });

  it('a UTC timestamp may end in +00:00 (sent as %2B00:00) and carry digits past the millisecond, as ISO 8601 writes UTC', async () => {
    const validTimes = (res: request.Response) => res.body.series.map((e: { validTime: string }) => e.validTime);
    const res = await get('/hourly-relative-humidity/0.5/0.5?start=2026-06-15T09:00:00%2B00:00&end=2026-06-15T10:00:00.000000Z');
    expect(res.status).toBe(200);
    expect([res.body.startTime, res.body.endTime]).toEqual(['2026-06-15T09:00:00+00:00', '2026-06-15T10:00:00.000000Z']);
    expect(validTimes(res)).toEqual(['2026-06-15T09:00:00.000Z', '2026-06-15T10:00:00.000Z']);
    // Python's datetime.isoformat() for a UTC time: microseconds and +00:00
    const python = await get(
      '/hourly-relative-humidity/0.5/0.5?start=2026-06-14T22:00:00.000000%2B00:00&end=2026-06-14T23:59:59.999999-00:00',
    );
    expect([python.status, validTimes(python)]).toEqual([200, ['2026-06-14T22:00:00.000Z', '2026-06-14T23:00:00.000Z']]);
    // a start past a whole hour by less than a millisecond begins at the next hour (the model area's bounds, docs/interface.md §7)
    const past = await get('/hourly-relative-humidity/0.5/0.5?start=2026-06-15T09:00:00.0000001Z&end=2026-06-15T10:00:00Z');
    expect([past.status, validTimes(past)]).toEqual([200, ['2026-06-15T10:00:00.000Z']]);
  });

  it('an offset other than UTC’s, or a + sent unencoded (read as a space), is refused naming the UTC forms', async () => {
    for (const start of ['2026-06-15T09:00:00%2B01:00', '2026-06-15T09:00:00+00:00']) {
      const res = await get(`/hourly-relative-humidity/0.5/0.5?start=${start}&end=2026-06-15T10:00:00Z`);
      expect([res.status, res.body.errors[0].path]).toEqual([400, 'start']);
      expect(res.body.errors[0].message).toContain('+00:00 (sent as %2B00:00)');
    }
  });

  it('an offset whose + was sent unencoded, read as a space, is 400 naming the parameter with the encoding to use', async () => {
    for (const [name, query] of [
      ['start', 'start=2026-06-15T09:00:00+00:00&end=2026-06-15T10:00:00Z'],
      ['end', 'start=2026-06-15T09:00:00Z&end=2026-06-15T10:00:00+00:00'],
    ] as const) {
      const res = await get(`/hourly-relative-humidity/0.5/0.5?${query}`);
      expect([res.status, res.body.errors?.map((e: { path: string }) => e.path)]).toEqual([400, [name]]);
      expect(res.body.errors[0].message).toContain(`${name} must be a UTC timestamp such as 2026-05-01T06:00:00Z`);
      expect(res.body.errors[0].message).toContain(
        "a + in a query string reads as a space, so send an offset's + as %2B (2026-05-01T14:00:00%2B00:00)",
      );
    }
  });

  it('one year before 29 February is 28 February, as a calendar counts years back (366 days, as across every 29 February)', async () => {
    clock = new Date('2024-02-29T12:34:56Z');
    try {
      const edge = await get('/hourly-relative-humidity/0.5/0.5?start=2023-02-28T12:00:00Z&end=2023-02-28T13:00:00Z');
      expect([edge.status, edge.body.series?.length]).toEqual([200, 2]);
      const before = await get('/hourly-relative-humidity/0.5/0.5?start=2023-02-28T11:00:00Z&end=2023-02-28T13:00:00Z');
      expect([before.status, before.body.errors?.[0].path]).toEqual([400, 'start']);
      expect(before.body.errors[0].message).toContain('from 2023-02-28T12:00:00.000Z (one year before the current hour)');
    } finally {
      clock = NOW;
    }
  });

  it.each([['furlongs'], ['mm'], [''], ['millimeters&unit=inches']])('ET unit=%s: 400', async (unit) => {
    const res = await get(`/hourly-evapotranspiration-short-crop/0.5/0.5?unit=${unit}`);
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_parameter');
    expect(res.body.errors[0].path).toBe('unit');
    expect(res.body.errors[0].message).toMatch(/millimeters or inches/);
  });

  it.each([
    ['latitude 91', '91/0'],
    ['longitude 181', '0/181'],
    ['latitude with an exponent', '1e1/0'],
  ])('%s: 400', async (_name, path) => {
    const res = await get(`/hourly-relative-humidity/${path}`);
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_parameter');
  });

  it('an asset id that is no UUID is 400', async () => {
    const res = await get('/hourly-relative-humidity/not-a-uuid');
    expect(res.status).toBe(400);
  });
});
