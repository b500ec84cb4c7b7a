import { RequestTooLargeError } from '@fieldcast/kit';
import type { DegreeDayQuery } from '@fieldcast/schemas';
import type { BBox, DailyExtremes, GridSource, GridWindow, PointSeries, TimeRange, VariableInfo } from '@fieldcast/weather';
import { locationDegreeDays } from '../src/domain/growing-degree-days.js';
import { MAX_DEGREE_DAY_CELL_DAYS } from '../src/domain/work-limits.js';
import request from 'supertest';
import { startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '../src/definition.js';
import { JSON_V1 } from './gdd-client.js';

/*
 * Each degree-day endpoint refuses more than MAX_DEGREE_DAY_CELL_DAYS (grid cells x days) with
 * 422 request_too_large before reading any weather, and answers a request just under it. The
 * weather is a flat 1 degree grid that fills its arrays without computing anything, so requests
 * at the limit (25 million cell-days) stay quick.
 */
const DAY_MS = 86_400_000;
const NOW = new Date(Date.UTC(2026, 10, 25, 12));

class FlatSource implements GridSource {
  readonly id = 'flat';
  readonly label = 'flat';
  readonly grid = { lat0: -89.5, lon0: -179.5, dLat: 1, dLon: 1, nLat: 180, nLon: 360 };
  /** weather reads, to show a refused request read nothing */
  reads = 0;

  coverage(): TimeRange {
    return { startMs: Date.UTC(2015, 0, 1), endMs: Date.UTC(2030, 0, 1) };
  }

  variables(): VariableInfo[] {
    return (['air_temperature_daily_max', 'air_temperature_daily_min'] as const).map((id) => ({
      id,
      standardName: 'air_temperature',
      cellMethods: '',
      units: 'degC',
      description: id,
      stepMs: DAY_MS,
    }));
  }

  private steps(range: TimeRange) {
    return Math.round((range.endMs - range.startMs) / DAY_MS) + 1;
  }

  async dailyExtremesAt(_lon: number, _lat: number, range: TimeRange): Promise<DailyExtremes<PointSeries>> {
    this.reads++;
    const nt = this.steps(range);
    const series = (variable: 'air_temperature_daily_max' | 'air_temperature_daily_min', v: number): PointSeries => ({
      variable,
      units: 'degC',
      startMs: range.startMs,
      stepMs: DAY_MS,
      values: new Float32Array(nt).fill(v),
      productOf: () => 'flat',
    });
    return { tmax: series('air_temperature_daily_max', 25), tmin: series('air_temperature_daily_min', 15) };
  }

  async dailyExtremesIn(bbox: BBox, range: TimeRange): Promise<DailyExtremes<GridWindow>> {
    this.reads++;
    const [w, s, e, n] = bbox;
    const centres = (lo: number, hi: number, origin: number) =>
      Array.from({ length: 400 }, (_, k) => origin + k).filter((c) => c >= lo && c <= hi);
    const lats = Float64Array.from(centres(s, n, this.grid.lat0)),
      lons = Float64Array.from(centres(w, e, this.grid.lon0));
    const nt = this.steps(range);
    const window = (variable: 'air_temperature_daily_max' | 'air_temperature_daily_min', v: number): GridWindow => ({
      variable,
      units: 'degC',
      lats,
      lons,
      dLat: 1,
      dLon: 1,
      startMs: range.startMs,
      stepMs: DAY_MS,
      nt,
      values: new Float32Array(nt * lats.length * lons.length).fill(v),
      productOf: () => 'flat',
    });
    return { tmax: window('air_temperature_daily_max', 25), tmin: window('air_temperature_daily_min', 15) };
  }

  pointSeries(): never {
    throw new Error('not read');
  }
  window(): never {
    throw new Error('not read');
  }
  slice(): never {
    throw new Error('not read');
  }
  etInputsAt(): never {
    throw new Error('not read');
  }
  etInputsIn(): never {
    throw new Error('not read');
  }
}

const source = new FlatSource();
// Timeouts that hold on a loaded two-core machine: a request at the limit fills 200 MB of values.
const SLOW = 120_000;
let fleet: TestFleet, alice: TestAccount;
beforeAll(async () => {
  fleet = await startTestFleet([agricultureService], { weather: source, now: () => NOW });
  alice = await fleet.account('alice');
}, SLOW);
afterAll(() => fleet?.close());
const client = {
  get: (path: string) => request(fleet.app('agriculture')).get(path).set('Authorization', alice.auth).set('Accept', JSON_V1),
  createField: async (polygons: number[][][][]) => {
    const body = {
      description: 'limits',
      type: 'GeometryCollection',
      geometries: polygons.map((coordinates) => ({ type: 'Polygon', coordinates })),
    };
    const res = await request(fleet.app('agriculture')).post('/fields').set('Authorization', alice.auth).send(body);
    expect(res.status).toBe(201);
    return res.body as { id: string };
  },
};
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** start=2015-01-01 and an end `days` days on, inclusive */
const span = (days: number) => `start=2015-01-01&end=${isoDay(Date.UTC(2015, 0, 1) + (days - 1) * DAY_MS)}`;
const thousands = (n: number) => n.toLocaleString('en');

/*
 * A field of 80 x 80 grid cells: its bbox is 0.2..79.8 E, 39.8 S..39.8 N, so the cells within half
 * a cell of it (the field result) are the 80 x 80 centres 0.5..79.5 and -39.5..39.5, and within
 * one cell of it (contours) 82 x 82.
 */
const square = [
  [
    [0.2, -39.8],
    [79.8, -39.8],
    [79.8, 39.8],
    [0.2, 39.8],
    [0.2, -39.8],
  ],
];
const FIELD_CELLS = 80 * 80 + 4; // and the centroid's four
const CONTOUR_CELLS = 82 * 82;

describe('degree-day work limit: grid cells x days', () => {
  let fieldId: string;
  beforeAll(async () => {
    fieldId = (await client.createField([square])).id;
  }, SLOW);
  beforeEach(() => {
    source.reads = 0;
  });

  const refused = async (path: string, cellDays: number) => {
    const res = await client.get(path);
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ id: 'request_too_large', status: 422 });
    expect(res.body.message).toBe(
      `This request needs ${thousands(cellDays)} cell-days (grid cells x days); the limit is ${thousands(MAX_DEGREE_DAY_CELL_DAYS)}. Ask for fewer days or a smaller field.`,
    );
    expect(source.reads).toBe(0);
  };

  it(
    'contours: one day over the limit is refused before any weather is read; the day before it is answered',
    async () => {
      const days = Math.floor(MAX_DEGREE_DAY_CELL_DAYS / CONTOUR_CELLS);
      await refused(`/growing-degree-days/${fieldId}/contours?${span(days + 1)}`, CONTOUR_CELLS * (days + 1));
      const res = await client.get(`/growing-degree-days/${fieldId}/contours?${span(days)}`);
      expect(res.status).toBe(200);
      expect(res.body.features.length).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    'field: one day over the limit is refused before any weather is read; the day before it is answered',
    async () => {
      const days = Math.floor(MAX_DEGREE_DAY_CELL_DAYS / FIELD_CELLS);
      await refused(`/growing-degree-days/${fieldId}?${span(days + 1)}`, FIELD_CELLS * (days + 1));
      const res = await client.get(`/growing-degree-days/${fieldId}?${span(days)}`);
      expect(res.status).toBe(200);
      expect(res.body.fieldMean).toBe(10 * days);
    },
    SLOW,
  );

  it('location: every accepted range is within the limit (4 cells), from 2015-01-01 to today + 7 days', async () => {
    const res = await client.get(`/growing-degree-days/42/-93?start=2015-01-01&end=${isoDay(NOW.getTime() + 7 * DAY_MS)}`);
    expect(res.status).toBe(200);
  });

  it('location: a limit below its 4 cells x days is refused before any weather is read', async () => {
    const query: DegreeDayQuery = { base: 10, scale: 'celsius', start: '2024-01-01', end: '2024-01-10', method: 'average', given: {} };
    await expect(locationDegreeDays(source, query, 42, -93, 39)).rejects.toThrow(
      new RequestTooLargeError(
        'This request needs 40 cell-days (grid cells x days); the limit is 39. Ask for fewer days or a smaller field.',
      ),
    );
    expect(source.reads).toBe(0);
    await expect(locationDegreeDays(source, query, 42, -93, 40)).resolves.toMatchObject({ degreeDays: 100 });
  });
});
