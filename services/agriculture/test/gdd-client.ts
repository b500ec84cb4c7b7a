import request from 'supertest';
import { areaOf, intersectionOf } from '@fieldcast/geo';
import type { GridSource } from '@fieldcast/weather';
import { startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '../src/definition.js';

/** The media type the degree-day endpoints answer with (docs/architecture.md §3). */
export const JSON_V1 = 'application/vnd.fieldcast+json; version=1';

export type Polygon = number[][][];
export type ContourFeature = { geometry: { type: string; coordinates: Polygon }; properties: { degreeDays: number } };

export interface GddClient {
  fleet: TestFleet;
  alice: TestAccount;
  get(path: string): request.Test;
  /** Creates a field of these parts as alice; fails the test unless it is stored (201). */
  createField(polygons: Polygon[]): Promise<{ id: string; centroid: { latitude: number; longitude: number } }>;
}

/**
 * One agriculture fleet for a test file on the given weather source, with one account. Call at
 * the top level; use the returned object inside tests (it is filled in beforeAll).
 */
export function useGddClient(weather: GridSource, now: () => Date): GddClient {
  const client = {} as GddClient;
  beforeAll(async () => {
    client.fleet = await startTestFleet([agricultureService], { weather, now });
    client.alice = await client.fleet.account('alice');
  });
  afterAll(async () => {
    await client.fleet?.close();
  });
  const app = () => client.fleet.app('agriculture');
  client.get = (path) => request(app()).get(path).set('Authorization', client.alice.auth).set('Accept', JSON_V1);
  client.createField = async (polygons) => {
    const res = await request(app())
      .post('/fields')
      .set('Authorization', client.alice.auth)
      .send({
        description: 'test field',
        type: 'GeometryCollection',
        geometries: polygons.map((coordinates) => ({ type: 'Polygon', coordinates })),
      });
    expect(res.status).toBe(201);
    return res.body;
  };
  return client;
}

/** Contours cover each part once: per-part coverage and total area within 0.5 %, no overlaps, all within ±180. */
export function expectCoverage(polygons: Polygon[], features: ContourFeature[]) {
  const pieces = features.map((f) => f.geometry.coordinates);
  for (const f of features) expect(f.geometry.type).toBe('Polygon');
  for (const p of pieces)
    for (const ring of p) for (const [lon, lat] of ring) expect(Math.abs(lon!) <= 180 && Math.abs(lat!) <= 90).toBe(true);
  const fieldArea = areaOf(polygons);
  const total = pieces.reduce((s, p) => s + areaOf([p]), 0);
  expect(Math.abs(total - fieldArea) / fieldArea).toBeLessThan(0.005);
  for (const part of polygons) {
    const covered = pieces.reduce((s, p) => s + intersectionOf([p], [part]).reduce((t, q) => t + areaOf([q]), 0), 0);
    expect(Math.abs(covered - areaOf([part])) / areaOf([part])).toBeLessThan(0.005);
  }
  for (let a = 0; a < pieces.length; a++) {
    for (let b = a + 1; b < pieces.length; b++) {
      expect(intersectionOf([pieces[a]!], [pieces[b]!]).reduce((t, q) => t + areaOf([q]), 0)).toBeLessThan(fieldArea * 1e-6);
    }
  }
}
