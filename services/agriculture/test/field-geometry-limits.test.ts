import request from 'supertest';
import { type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { MAX_FIELD_POSITIONS } from '@fieldcast/schemas';
import { comb, surveyedField } from '../../../packages/geo/test/adversarial-rings.js';
import { agricultureService } from '../src/definition.js';

/** Field geometry limits and rings built against the checks (docs/decisions/0034-geometry-checks-bounded.md). */
const t = useTestFleet([agricultureService]);
const app = () => t.fleet.app('agriculture');
const fieldOf = (polygons: unknown[][][]) => ({
  description: 'limits',
  type: 'GeometryCollection',
  geometries: polygons.map((coordinates) => ({ type: 'Polygon', coordinates })),
});
const create = (account: TestAccount, body: unknown) =>
  request(app())
    .post('/fields')
    .set('Authorization', account.auth)
    .send(body as object);
/** A closed ring of n positions round (lon, lat), kilometres across. */
const loop = (n: number, lon: number, lat: number) => surveyedField(n)[0]!.map(([x, y]) => [x! + 93.63 + lon, y! - 42.03 + lat]);

describe('fields: at most MAX_FIELD_POSITIONS positions per field', () => {
  it('a field of exactly the limit, over several polygons, is accepted', async () => {
    const n = MAX_FIELD_POSITIONS / 4;
    const res = await create(t.alice, fieldOf([0, 1, 2, 3].map((k) => [loop(n, 10 + k * 0.05, 50)])));
    expect(res.status).toBe(201);
  });

  it('one position more gets 422 invalid_geometry at geometries, naming the limit, before any polygon is checked', async () => {
    const n = MAX_FIELD_POSITIONS / 4;
    // The last polygon also crosses itself: its fault is not reported, because the count stops the checks.
    const bowtie = [
      [20, 50],
      [20.01, 50.01],
      [20.01, 50],
      [20, 50.01],
      [20, 50],
    ];
    const polygons = [...[0, 1, 2, 3].map((k) => [loop(n - (k === 3 ? 4 : 0), 10 + k * 0.05, 50)]), [bowtie]];
    const res = await create(t.alice, fieldOf(polygons));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ id: 'invalid_geometry', status: 422 });
    expect(res.body.errors).toEqual([
      { path: 'geometries', message: `a field has at most 20,000 positions over all its polygons; got 20,001` },
    ]);
  });

  it('a comb of long parallel edges (the sweep’s worst case) is accepted, and the same comb crossing itself refused', async () => {
    const place = (rings: number[][][]) => rings.map((ring) => ring.map(([x, y]) => [10 + x! * 0.1, 50 + y! * 0.1]));
    const good = await create(t.alice, fieldOf([place(comb(8000) as number[][][])]));
    expect(good.status).toBe(201);
    const bad = await create(t.alice, fieldOf([place(comb(8000, true) as number[][][])]));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toEqual({ path: 'geometries.0.coordinates.0', message: expect.stringMatching(/^ring 0 crosses itself at/) });
  });
});
