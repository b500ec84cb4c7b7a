import { areaOf, bboxRing, containsPoint, intersectionOf, signedRingArea } from '@fieldcast/geo';
import { degreeDays } from '@fieldcast/science';
import { SyntheticSource } from '@fieldcast/weather';
import { type ContourFeature, expectCoverage, type Polygon, useGddClient } from './gdd-client.js';

/*
 * Field results on the synthetic world (0.01 degree cells centred on whole hundredths, going
 * round the globe) against brute force, for the fields the straightforward code got wrong: a
 * field cut at the antimeridian (RFC 7946 section 3.1.9), a field exactly on cell edges, and a
 * field of parts that touch. Brute force: each cell's exact intersection with each part
 * (polygon-clipping), the cell also taken a turn east and west, and each cell's own point series
 * summed day by day with the scalar degree-day function.
 */
const NOW = Date.UTC(2024, 6, 1, 12);
const source = new SyntheticSource({ now: () => NOW });
const START = '2024-03-01',
  END = '2024-03-31';
// Base 0: the fields lie in Iowa in early spring and on the South Atlantic, where base 10 would
// leave every cell at 0 and the comparisons without contrast.
const BASE = 0;
const SEASON = `start=${START}&end=${END}&base=${BASE}`;
const { get, createField } = useGddClient(source, () => new Date(NOW));

const range = { startMs: Date.parse(`${START}T00:00:00Z`), endMs: Date.parse(`${END}T00:00:00Z`) };

function bruteForcePoint(lon: number, lat: number): number {
  const tmax = source.pointSeriesSync('air_temperature_daily_max', lon, lat, range).values;
  const tmin = source.pointSeriesSync('air_temperature_daily_min', lon, lat, range).values;
  let total = 0;
  for (let i = 0; i < tmax.length; i++) total += degreeDays(tmax[i]!, tmin[i]!, { base: BASE });
  return total;
}

const commonArea = (a: Polygon[], b: Polygon[]) => intersectionOf(a, b).reduce((s, p) => s + areaOf([p]), 0);

/** Cells (i, j hundredths) with their exact share of the field (both sides of ±180) and total. */
function bruteForceCells(polygons: Polygon[], is: number[], js: number[]) {
  const cells: { area: number; total: number }[] = [];
  for (const i of is) {
    for (const j of js) {
      const lat = i / 100,
        lon = j / 100;
      let area = 0;
      for (const shift of [-360, 0, 360])
        area += commonArea(polygons, [[bboxRing(lon + shift - 0.005, lat - 0.005, lon + shift + 0.005, lat + 0.005)]]);
      if (area > 0) cells.push({ area, total: bruteForcePoint(lon, lat) });
    }
  }
  return cells;
}

function statistics(cells: { area: number; total: number }[]) {
  return {
    mean: cells.reduce((s, c) => s + c.area * c.total, 0) / cells.reduce((s, c) => s + c.area, 0),
    max: Math.max(...cells.map((c) => c.total)),
    min: Math.min(...cells.map((c) => c.total)),
  };
}

const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(0.05 + 1e-3);
const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

describe('a field cut at the antimeridian on the synthetic world', () => {
  // Fiji: a pentagon west of 180 and a quadrilateral east of it, sharing the stretch of 180 between 16.985 S and 16.962 S.
  const east: Polygon = [
    [
      [179.9631, -16.9874],
      [180, -16.985],
      [180, -16.962],
      [179.9712, -16.9597],
      [179.9588, -16.9731],
      [179.9631, -16.9874],
    ],
  ];
  const west: Polygon = [
    [
      [-180, -16.985],
      [-179.9702, -16.9822],
      [-179.9745, -16.9653],
      [-180, -16.962],
      [-180, -16.985],
    ],
  ];
  let fieldId: string;
  let centroid: { latitude: number; longitude: number };
  beforeAll(async () => {
    ({ id: fieldId, centroid } = await createField([east, west]));
  });

  it('the centroid is the vertex mean of the joined field, at the antimeridian', () => {
    const vertices = [...east[0]!.slice(0, -1), ...west[0]!.slice(0, -1).map(([lon, lat]) => [lon! + 360, lat!])];
    const lon = vertices.reduce((s, p) => s + p[0]!, 0) / vertices.length;
    const lat = vertices.reduce((s, p) => s + p[1]!, 0) / vertices.length;
    expect(centroid.longitude).toBeCloseTo(lon > 180 ? lon - 360 : lon, 9);
    expect(centroid.latitude).toBeCloseTo(lat, 9);
  });

  it('centroid value, area-weighted mean, max and min', async () => {
    const res = await get(`/growing-degree-days/${fieldId}?${SEASON}`);
    expect(res.status).toBe(200);
    const cells = bruteForceCells([east, west], span(-1700, -1695), [...span(17995, 17999), ...span(-18000, -17996)]);
    expect(cells.length).toBeGreaterThanOrEqual(10);
    const { mean, max, min } = statistics(cells);
    expect(max - min).toBeGreaterThan(0.5);
    near(res.body.degreeDays, bruteForcePoint(centroid.longitude, centroid.latitude));
    near(res.body.fieldMean, mean);
    near(res.body.fieldMaximum, max);
    near(res.body.fieldMinimum, min);
  });

  it('contours cover each part once, every piece within ±180', async () => {
    const res = await get(`/growing-degree-days/${fieldId}/contours?${SEASON}`);
    expect(res.status).toBe(200);
    const features = res.body.features as ContourFeature[];
    expectCoverage([east, west], features);
    expect(features.some((f) => f.geometry.coordinates[0]!.some(([lon]) => lon! < 0))).toBe(true);
    expect(features.some((f) => f.geometry.coordinates[0]!.some(([lon]) => lon! > 0))).toBe(true);
  });
});

describe('a field exactly on the cell edges of the synthetic grid', () => {
  it('only the six cells it covers count: their neighbours’ rounding slivers do not', async () => {
    // Cells -53.01, -53.00 S x -42.07, -42.06, -42.05 E, whose edges are the field's edges.
    const ring = bboxRing(-42.075, -53.015, -42.045, -52.995);
    const field = await createField([[ring]]);
    const res = await get(`/growing-degree-days/${field.id}?${SEASON}`);
    expect(res.status).toBe(200);
    const cells = [-5301, -5300].flatMap((i) =>
      [-4207, -4206, -4205].map((j) => ({
        area: areaOf([[bboxRing(j / 100 - 0.005, i / 100 - 0.005, j / 100 + 0.005, i / 100 + 0.005)]]),
        total: bruteForcePoint(j / 100, i / 100),
      })),
    );
    const { mean, max, min } = statistics(cells);
    near(res.body.fieldMean, mean);
    near(res.body.fieldMaximum, max);
    near(res.body.fieldMinimum, min);
    // The test means something: a neighbour lies outside [min, max] by more than the rounding.
    const neighbours = [-5302, -5299].flatMap((i) => span(-4208, -4204).map((j) => bruteForcePoint(j / 100, i / 100)));
    expect(neighbours.some((v) => v > max + 0.1 || v < min - 0.1)).toBe(true);
  });
});

describe('a field of touching parts', () => {
  // Two squares sharing an edge, and a third touching the second at one corner.
  const parts: Polygon[] = [
    [bboxRing(-93.5217, 42.0013, -93.5003, 42.0191)],
    [bboxRing(-93.5003, 42.0013, -93.4811, 42.0152)],
    [bboxRing(-93.4811, 42.0152, -93.4706, 42.0247)],
  ];
  let fieldId: string;
  beforeAll(async () => {
    ({ id: fieldId } = await createField(parts));
  });

  it('mean, max and min against brute force (a shared edge adds no weight)', async () => {
    const res = await get(`/growing-degree-days/${fieldId}?${SEASON}`);
    expect(res.status).toBe(200);
    const { mean, max, min } = statistics(bruteForceCells(parts, span(4199, 4203), span(-9353, -9347)));
    near(res.body.fieldMean, mean);
    near(res.body.fieldMaximum, max);
    near(res.body.fieldMinimum, min);
  });

  it('contours cover each part exactly once', async () => {
    const res = await get(`/growing-degree-days/${fieldId}/contours?${SEASON}`);
    expect(res.status).toBe(200);
    const features = res.body.features as ContourFeature[];
    expect(new Set(features.map((f) => f.properties.degreeDays)).size).toBeGreaterThan(1);
    expectCoverage(parts, features);
    // The corner where parts 2 and 3 touch is in exactly one band's pieces' closure; a point just inside each part is in one piece.
    for (const [lon, lat] of [
      [-93.51, 42.01],
      [-93.49, 42.01],
      [-93.475, 42.02],
    ] as const) {
      expect(features.filter((f) => containsPoint([f.geometry.coordinates], [lon, lat]))).toHaveLength(1);
    }
  });
});

describe('contour positions as a map client reads them', () => {
  // Fields whose edges lie on the grid's cell-centre lines, where the isobands' own vertices are,
  // and one cut at the antimeridian, whose western part is contoured a turn east.
  const box = (w: number, s: number, e: number, n: number): Polygon => [bboxRing(w, s, e, n)];
  const fields: [string, Polygon[]][] = [
    ['on the grid lines', [box(-12.37, 45.02, -12.34, 45.06)]],
    ['cut at the antimeridian', [box(179.95, 10.02, 180, 10.04), box(-180, 10.02, -179.93, 10.04)]],
    ['with corners finer than the output precision', [box(5.01234567, 45.00098765, 5.04321234, 45.0301)]],
  ];

  it.each(fields)('a field %s: its own positions exactly, others at 6 decimals, rings well formed', async (_, parts) => {
    const field = await createField(parts);
    const res = await get(`/growing-degree-days/${field.id}/contours?${SEASON}`);
    expect(res.status).toBe(200);
    const features = res.body.features as ContourFeature[];
    expect(new Set(features.map((f) => f.properties.degreeDays)).size).toBeGreaterThan(1);
    expectCoverage(parts, features);
    const own = new Set(parts.flatMap((p) => p.flatMap((ring) => ring.flat())));
    const positions = features.flatMap((f) => f.geometry.coordinates.flat());
    // Every corner of the field is a vertex of some piece, exactly as the field has it; the
    // other values carry 6 decimals (RFC 7946 section 11.2: about 6 are enough).
    const keys = new Set(positions.map((p) => p.join(',')));
    for (const part of parts) for (const corner of part[0]!) expect(keys).toContain(corner.join(','));
    for (const value of positions.flat()) if (!own.has(value)) expect(value).toBe(Number(value.toFixed(6)));
    for (const f of features) {
      f.geometry.coordinates.forEach((ring, r) => {
        expect(ring.length).toBeGreaterThanOrEqual(4);
        expect(ring[ring.length - 1]).toEqual(ring[0]);
        for (let k = 1; k < ring.length; k++) expect(ring[k]).not.toEqual(ring[k - 1]);
        // Right-hand rule (RFC 7946 section 3.1.6): exterior counter-clockwise, holes clockwise.
        expect(Math.sign(signedRingArea(ring))).toBe(r === 0 ? 1 : -1);
      });
    }
  });
});
