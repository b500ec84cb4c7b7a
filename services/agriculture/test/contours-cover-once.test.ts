import request from 'supertest';
import { areaOf } from '@fieldcast/geo';
import { startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { SyntheticSource } from '@fieldcast/weather';
import { agricultureService } from '../src/definition.js';

/*
 * Contours cover every part of the field once (docs/interface.md §3): on a one-degree field of
 * the synthetic world whose warmest days lie along its northern edge, the band below the warm
 * spot is a ring round it and must not take the spot in as well.
 */
const NOW = Date.UTC(2026, 11, 7, 22);
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';
const SQUARE = [
  [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
    [0, 0],
  ],
];

let fleet: TestFleet;
let alice: TestAccount;

beforeAll(async () => {
  fleet = await startTestFleet([agricultureService], { weather: new SyntheticSource({ now: () => NOW }), now: () => new Date(NOW) });
  alice = await fleet.account('alice');
});
afterAll(async () => {
  await fleet.close();
});

it('the contour bands of a field add up to its area', async () => {
  const created = await request(fleet.app('agriculture'))
    .post('/fields')
    .set('Authorization', alice.auth)
    .send({ type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: SQUARE }] });
  expect(created.status).toBe(201);
  const res = await request(fleet.app('agriculture'))
    .get(`/growing-degree-days/${created.body.id as string}/contours?start=2026-06-01&end=2026-06-10`)
    .set('Authorization', alice.auth)
    .set('Accept', JSON_V1);
  expect(res.status).toBe(200);
  const features = res.body.features as { geometry: { coordinates: number[][][] } }[];
  expect(new Set(res.body.features.map((f: { properties: { degreeDays: number } }) => f.properties.degreeDays)).size).toBeGreaterThan(3);
  const total = features.reduce((sum, f) => sum + areaOf([f.geometry.coordinates as never]), 0);
  const field = areaOf([SQUARE as never]);
  expect(Math.abs(total - field) / field).toBeLessThan(0.001);
});
