import request from 'supertest';
import { areaOf as areaOfPolygons, containsPoint, haversineKm, intersectionOf } from '@fieldcast/geo';
import { startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { degreeDays, celsiusToFahrenheit } from '@fieldcast/science';
import { SyntheticSource } from '@fieldcast/weather';
import { agricultureService } from '../src/definition.js';

/*
 * The field and contour results against a brute-force computation on the synthetic world:
 * cell weights by a true polygon intersection (polygon-clipping) instead
 * of bbox-clip, cell values from a point series at each cell centre, degree days summed day by
 * day with the scalar science function.
 */
const NOW = Date.UTC(2024, 6, 1, 12);
const source = new SyntheticSource({ now: () => NOW });
const SEASON = 'start=2024-04-01&end=2024-06-30';
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';
const DAY_MS = 86_400_000;

type Polygon = number[][][];
/* A pentagon with a hole (about 6 km², over several 0.01 degree cells) and a triangle apart from it. */
const withHole: Polygon = [
  [
    [-93.5123, 41.9987],
    [-93.4871, 42.0012],
    [-93.4835, 42.0203],
    [-93.5002, 42.0291],
    [-93.5168, 42.0155],
    [-93.5123, 41.9987],
  ],
  [
    [-93.5041, 42.0071],
    [-93.4952, 42.0083],
    [-93.4978, 42.0162],
    [-93.5041, 42.0071],
  ],
];
const triangle: Polygon = [
  [
    [-93.4712, 42.0105],
    [-93.4597, 42.0131],
    [-93.4688, 42.0244],
    [-93.4712, 42.0105],
  ],
];
const POLYGONS = [withHole, triangle];

let fleet: TestFleet;
let alice: TestAccount;
let fieldId: string;
const app = () => fleet.app('agriculture');
const get = (path: string) => request(app()).get(path).set('Authorization', alice.auth).set('Accept', JSON_V1);

beforeAll(async () => {
  fleet = await startTestFleet([agricultureService], { weather: source, now: () => new Date(NOW) });
  alice = await fleet.account('alice');
  const res = await request(app())
    .post('/fields')
    .set('Authorization', alice.auth)
    .send({
      description: 'brute force',
      type: 'GeometryCollection',
      geometries: POLYGONS.map((coordinates) => ({ type: 'Polygon', coordinates })),
    });
  expect(res.status).toBe(201);
  fieldId = res.body.id;
});
afterAll(async () => {
  await fleet.close();
});

const days = (start: string, end: string) => ({ startMs: Date.parse(`${start}T00:00:00Z`), endMs: Date.parse(`${end}T00:00:00Z`) });

/** Degree days at a point, day by day with the scalar function (optionally in Fahrenheit). */
function bruteForcePoint(lon: number, lat: number, start: string, end: string, fahrenheit = false): number {
  const tmax = source.pointSeriesSync('air_temperature_daily_max', lon, lat, days(start, end)).values;
  const tmin = source.pointSeriesSync('air_temperature_daily_min', lon, lat, days(start, end)).values;
  let total = 0;
  for (let i = 0; i < tmax.length; i++) {
    total += fahrenheit
      ? degreeDays(celsiusToFahrenheit(tmax[i]!), celsiusToFahrenheit(tmin[i]!), { base: 50 })
      : degreeDays(tmax[i]!, tmin[i]!, { base: 10 });
  }
  return total;
}

const areaOf = (coordinates: Polygon) => areaOfPolygons([coordinates]);
const commonArea = (a: Polygon[], b: Polygon[]) => intersectionOf(a, b).reduce((s, p) => s + areaOf(p), 0);

/** Every 0.01 degree cell near the field with its exact intersection area and its own total. */
function bruteForceCells(fahrenheit = false) {
  const cells: { area: number; total: number }[] = [];
  for (let i = Math.floor(41.99 * 100); i <= Math.ceil(42.04 * 100); i++) {
    for (let j = Math.floor(-93.53 * 100); j <= Math.ceil(-93.45 * 100); j++) {
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
      const area = commonArea(POLYGONS, [cell]);
      if (area > 0) cells.push({ area, total: bruteForcePoint(lon, lat, '2024-04-01', '2024-06-30', fahrenheit) });
    }
  }
  return cells;
}

describe('growing degree days on the synthetic world: against brute force', () => {
  it.each([
    ['celsius', false],
    ['fahrenheit', true],
  ] as const)('field result in %s: centroid, area-weighted mean, max and min', async (scale, fahrenheit) => {
    const field = (await get(`/fields/${fieldId}`)).body;
    const res = await get(`/growing-degree-days/${fieldId}?${SEASON}&scale=${scale}`);
    expect(res.status).toBe(200);
    const cells = bruteForceCells(fahrenheit);
    expect(cells.length).toBeGreaterThanOrEqual(15);
    const mean = cells.reduce((s, c) => s + c.area * c.total, 0) / cells.reduce((s, c) => s + c.area, 0);
    const max = Math.max(...cells.map((c) => c.total));
    const min = Math.min(...cells.map((c) => c.total));
    const centroid = bruteForcePoint(field.centroid.longitude, field.centroid.latitude, '2024-04-01', '2024-06-30', fahrenheit);
    // The API rounds to one decimal: within half a tenth of the unrounded brute force.
    const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(0.05 + 1e-3);
    near(res.body.degreeDays, centroid);
    near(res.body.fieldMean, mean);
    near(res.body.fieldMaximum, max);
    near(res.body.fieldMinimum, min);
    // The values differ across the field, so mean, max and min are not the same number by accident.
    expect(max - min).toBeGreaterThan(1);
    expect(res.body.degreeDays).toBe(Math.round(res.body.degreeDays * 10) / 10);
  });

  it('the centroid value is the location result at the centroid', async () => {
    const field = (await get(`/fields/${fieldId}`)).body;
    const atField = (await get(`/growing-degree-days/${fieldId}?${SEASON}`)).body;
    const atPoint = (await get(`/growing-degree-days/${field.centroid.latitude}/${field.centroid.longitude}?${SEASON}`)).body;
    expect(atPoint.degreeDays).toBe(atField.degreeDays);
  });

  it('days in the forecast period use the forecast values (not clipped at now)', async () => {
    const end = new Date(NOW + 7 * DAY_MS).toISOString().slice(0, 10);
    const res = await get(`/growing-degree-days/42.01/-93.5?start=2024-06-25&end=${end}`);
    expect(res.status).toBe(200);
    expect(res.body.endDate).toBe('2024-07-08');
    const series = source.pointSeriesSync('air_temperature_daily_max', -93.5, 42.01, days('2024-06-25', end));
    expect(series.values).toHaveLength(14);
    expect(series.productOf(13)).not.toBe(series.productOf(0)); // the last days come from the forecast
    expect(Math.abs(res.body.degreeDays - bruteForcePoint(-93.5, 42.01, '2024-06-25', end))).toBeLessThanOrEqual(0.051);
  });
});

describe('contours on the synthetic world', () => {
  it('Polygon features in round bands covering every part of the field once', async () => {
    const res = await get(`/growing-degree-days/${fieldId}/contours?${SEASON}`);
    expect(res.status).toBe(200);
    const features = res.body.features as { geometry: { type: string; coordinates: Polygon }; properties: { degreeDays: number } }[];
    const levels = [...new Set(features.map((f) => f.properties.degreeDays))].sort((a, b) => a - b);
    expect(levels.length).toBeGreaterThan(2);
    // One round width: consecutive levels differ by a multiple of the smallest gap, which is 1, 2, 2.5 or 5 x 10^n.
    const step = Math.min(...levels.slice(1).map((l, k) => l - levels[k]!));
    expect([1, 2, 2.5, 5, 10, 20, 25, 50]).toContain(step);
    for (const l of levels) expect(Math.abs(l / step - Math.round(l / step))).toBeLessThan(1e-9);
    for (const f of features) expect(f.geometry.type).toBe('Polygon');

    const pieces = features.map((f) => f.geometry.coordinates);
    const fieldArea = POLYGONS.reduce((s, p) => s + areaOf(p), 0);
    const total = pieces.reduce((s, p) => s + areaOf(p), 0);
    expect(Math.abs(total - fieldArea) / fieldArea).toBeLessThan(0.005);
    for (let a = 0; a < pieces.length; a++) {
      for (let b = a + 1; b < pieces.length; b++) {
        expect(commonArea([pieces[a]!], [pieces[b]!])).toBeLessThan(fieldArea * 1e-6);
      }
    }
    for (const part of POLYGONS) {
      const covered = pieces.reduce((s, p) => s + commonArea([p], [part]), 0);
      expect(Math.abs(covered - areaOf(part)) / areaOf(part)).toBeLessThan(0.005);
    }
    // Nothing of the hole is covered but the slivers rounding to 6 decimals may leave along its
    // edges: positions move by at most half a unit in each coordinate (docs/decisions/0412-contour-positions.md).
    const hole = [withHole[1]!];
    const inHole = pieces.reduce((s, p) => s + commonArea([p], [hole]), 0);
    const perimeterM = hole[0]!.slice(1).reduce((s, [lon, lat], k) => {
      const [lon0, lat0] = hole[0]![k]!;
      return s + 1000 * haversineKm({ lat: lat0!, lon: lon0! }, { lat: lat!, lon: lon! });
    }, 0);
    const halfUnitM = 0.5e-6 * Math.SQRT2 * 111_320;
    expect(inHole).toBeLessThan(perimeterM * halfUnitM);
  });

  it('each grid centre inside the field lies in the band of its own value', async () => {
    const features = (await get(`/growing-degree-days/${fieldId}/contours?${SEASON}`)).body.features as {
      geometry: { coordinates: Polygon };
      properties: { degreeDays: number };
    }[];
    const levels = [...new Set(features.map((f) => f.properties.degreeDays))].sort((a, b) => a - b);
    const step = Math.min(...levels.slice(1).map((l, k) => l - levels[k]!));
    let checked = 0;
    for (let i = 4199; i <= 4204; i++) {
      for (let j = -9352; j <= -9345; j++) {
        const lat = i / 100,
          lon = j / 100;
        if (!containsPoint(POLYGONS, [lon, lat])) continue;
        const value = bruteForcePoint(lon, lat, '2024-04-01', '2024-06-30');
        const holding = features.filter((f) => containsPoint([f.geometry.coordinates], [lon, lat]));
        expect(holding).toHaveLength(1);
        const lower = holding[0]!.properties.degreeDays;
        expect(value).toBeGreaterThanOrEqual(lower - 1e-3);
        expect(value).toBeLessThan(lower + step + 1e-3);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3);
  });
});
