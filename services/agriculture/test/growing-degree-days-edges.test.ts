import { bboxRing, containsPoint } from '@fieldcast/geo';
import { type ContourFeature, expectCoverage, useGddClient } from './gdd-client.js';
import { TableSource } from './table-source.js';

/*
 * Fields at the edges of the world, hand-computed: cut at the antimeridian
 * (RFC 7946 section 3.1.9), touching the poles, smaller than a cell. 1 degree cells centred on
 * x.5; days 2024-05-01..03, average method, base 10.
 *
 * Cell A: Tmax 20, 25, 8; Tmin 10, 11, 2 -> 5 + 8 + 0 = 13 degree days.
 * Cell B: Tmax 14, 16, 30; Tmin 6, 4, 10 -> 0 + 0 + 10 = 10.
 * Every other cell: Tmax 40, Tmin 30 -> 75.
 * A sits at (40.5 N, 179.5 E), just west of the antimeridian, B at (40.5 N, 179.5 W) just east
 * of it; A is also at (89.5 N, 10.5 E) and (89.5 S, 10.5 E) next to the poles, and at
 * (40.5 N, 10.5 E) for the small field.
 */
const DAY_MS = 86_400_000;
const MAY_1 = Date.UTC(2024, 4, 1);
const NOW = new Date(Date.UTC(2024, 4, 10, 12));
const A = { tmax: [20, 25, 8], tmin: [10, 11, 2] };
const B = { tmax: [14, 16, 30], tmin: [6, 4, 10] };
const source = new TableSource(
  MAY_1,
  { '40.5,179.5': A, '40.5,-179.5': B, '89.5,10.5': A, '-89.5,10.5': A, '40.5,10.5': A },
  { tmax: 40, tmin: 30 },
  NOW.getTime() + 3 * DAY_MS,
);
const DAYS = 'start=2024-05-01&end=2024-05-03';
const { get, createField } = useGddClient(source, () => NOW);

describe('a field cut at the antimeridian (RFC 7946 section 3.1.9)', () => {
  // All of A (179..180 E) and the western half of B (180..179.5 W), at 40..41 N.
  const east = [bboxRing(179, 40, 180, 41)];
  const west = [bboxRing(-180, 40, -179.5, 41)];

  it('centroid, centroid value, mean, max and min by hand', async () => {
    const field = await createField([east, west]);
    // Vertex mean in one frame: (179.5 x 4 + 180.25 x 4) / 8 = 179.875 E, 40.5 N (not 0 E).
    expect(field.centroid.longitude).toBeCloseTo(179.875, 9);
    expect(field.centroid.latitude).toBeCloseTo(40.5, 9);
    // At 179.875 E: 0.625 A + 0.375 B (bilinear across 180):
    //   Tmax 17.75, 21.625, 16.25; Tmin 8.5, 8.375, 5 -> means 13.125, 15, 10.625 -> 3.125 + 5 + 0.625 = 8.75 -> 8.8.
    // Weights: all of A, half of B (one latitude band): mean (13 + 10 x 0.5) / 1.5 = 12.
    const res = await get(`/growing-degree-days/${field.id}?${DAYS}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ degreeDays: 8.8, fieldMean: 12, fieldMaximum: 13, fieldMinimum: 10 });
    // The centroid value is the location result there.
    expect((await get(`/growing-degree-days/40.5/179.875?${DAYS}`)).body.degreeDays).toBe(8.8);
  });

  it("include=daily: the field's running mean, maximum and minimum on both sides, by hand", async () => {
    const field = await createField([east, west]);
    // Running totals: A 5, 13, 13; B 0, 0, 10. Weights A 1, B 0.5 (docs/decisions/0510-field-daily-statistics.md):
    // means 5 / 1.5 = 3.3, 13 / 1.5 = 8.7, (13 + 5) / 1.5 = 12.
    const res = await get(`/growing-degree-days/${field.id}?${DAYS}&include=daily`);
    expect(res.status).toBe(200);
    const running = res.body.daily.map((d: Record<string, number>) => [
      d.accumulatedFieldMean,
      d.accumulatedFieldMaximum,
      d.accumulatedFieldMinimum,
    ]);
    expect(running).toEqual([
      [3.3, 5, 0],
      [8.7, 13, 0],
      [12, 13, 10],
    ]);
  });

  it('contours cover both parts once, every piece within ±180, A and B in their own bands', async () => {
    const field = await createField([east, west]);
    const res = await get(`/growing-degree-days/${field.id}/contours?${DAYS}`);
    expect(res.status).toBe(200);
    const features = res.body.features as ContourFeature[];
    expectCoverage([east, west], features);
    // Range 10..75 -> edges 10, 20, ..., 80 (as for the hand-computed field in growing-degree-days.test.ts).
    const bandAt = (lon: number, lat: number) =>
      features.filter((f) => containsPoint([f.geometry.coordinates], [lon, lat])).map((f) => f.properties.degreeDays);
    expect(bandAt(179.5, 40.5)).toEqual([10]);
    expect(bandAt(-179.75, 40.5)).toEqual([10]);
  });
});

describe('fields at the poles', () => {
  it.each([
    ['north', bboxRing(10, 89, 11, 90), 89.5],
    ['south', bboxRing(10, -90, 11, -89), -89.5],
  ] as const)('%s pole: the edge cell holds to the pole; contours cover the field', async (_name, ring, lat) => {
    const field = await createField([[ring]]);
    expect(field.centroid.latitude).toBeCloseTo(lat, 9);
    // The field is exactly cell A (centred half a degree from the pole): everything is 13.
    const res = await get(`/growing-degree-days/${field.id}?${DAYS}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ degreeDays: 13, fieldMean: 13, fieldMaximum: 13, fieldMinimum: 13 });
    // The grid's last row is half a cell short of the pole: the contours still cover the field,
    // and the strip between that row and the pole takes the band of the row's own values.
    const contours = await get(`/growing-degree-days/${field.id}/contours?${DAYS}`);
    expect(contours.status).toBe(200);
    const features = contours.body.features as ContourFeature[];
    expectCoverage([[ring]], features);
    const atPole = features.filter((f) => containsPoint([f.geometry.coordinates], [10.5, Math.sign(lat) * 89.9]));
    expect(atPole.map((f) => f.properties.degreeDays)).toEqual([10]);
  });
});

describe('a field smaller than one cell, and one exactly on cell edges', () => {
  it('inside cell A: mean, minimum and maximum are A’s 13', async () => {
    const small = [bboxRing(10.2, 40.2, 10.3, 40.25)];
    const field = await createField([small]);
    const res = await get(`/growing-degree-days/${field.id}?${DAYS}`);
    expect(res.body).toMatchObject({ fieldMean: 13, fieldMaximum: 13, fieldMinimum: 13 });
    expectCoverage([small], (await get(`/growing-degree-days/${field.id}/contours?${DAYS}`)).body.features);
  });

  it('a trial plot of about 2 x 2 m, under a billionth of its 1 degree cell, is still over cell A', async () => {
    // 0.00002 degrees is about 1.7 m east-west and 2.2 m north-south here: about 4 m², against
    // about 9,400 km² for the cell.
    const plot = [bboxRing(10.4, 40.4, 10.40002, 40.40002)];
    const field = await createField([plot]);
    const res = await get(`/growing-degree-days/${field.id}?${DAYS}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fieldMean: 13, fieldMaximum: 13, fieldMinimum: 13 });
  });

  it('exactly cell A: the neighbours (75) that only touch its edges take no part', async () => {
    const field = await createField([[bboxRing(10, 40, 11, 41)]]);
    expect((await get(`/growing-degree-days/${field.id}?${DAYS}`)).body).toMatchObject({
      fieldMean: 13,
      fieldMaximum: 13,
      fieldMinimum: 13,
    });
  });
});
