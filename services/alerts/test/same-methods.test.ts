import request from 'supertest';
import { agricultureService } from '@fieldcast/agriculture';
import { insightService } from '@fieldcast/insight';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { alertsService } from '../src/definition.js';
import { createField, rules } from './helpers.js';

/*
 * The alerts measure with the methods the areas serve (docs/interface.md §12): a rule's value is
 * what the agriculture area's degree days and the insight area's hourly short-crop ET give for the
 * same place and days or hours, on the service's own weather, up to the rounding of those answers.
 */
const NOW = Date.parse('2026-06-15T10:20:00Z');
const HOUR_MS = 3_600_000;
const t = useTestFleet([agricultureService, insightService, alertsService], { now: () => new Date(NOW) });

async function valueOf(target: object, condition: object): Promise<number> {
  const created = await rules(t.fleet).create(t.alice, { target, condition });
  expect(created.status).toBe(201);
  await t.fleet.runBackground('alerts', 'evaluate');
  await t.fleet.db.knex.withSchema('alerts').table('hourly_passes').delete();
  const state = await rules(t.fleet).get(t.alice, `/rules/${created.body.id}/state`);
  expect(state.body.evaluatedAt).toBe(new Date(NOW).toISOString());
  return state.body.value as number;
}

async function centroidOf(field: string): Promise<{ latitude: number; longitude: number }> {
  const res = await request(t.fleet.app('agriculture')).get(`/fields/${field}`).set('Authorization', t.alice.auth);
  return res.body.centroid;
}

describe('a rule measures what the areas serve for the same place', () => {
  it('degree days: as GET /growing-degree-days at the centroid, from start through today', async () => {
    const field = await createField(t.fleet, t.alice);
    const { latitude, longitude } = await centroidOf(field);
    const condition = { kind: 'degree-days', start: '2026-05-01', threshold: 100, scale: 'fahrenheit', method: 'single-sine', cap: 86 };
    const value = await valueOf({ type: 'field', id: field }, condition);
    const query = 'start=2026-05-01&end=2026-06-15&scale=fahrenheit&method=single-sine&cap=86';
    const served = await request(t.fleet.app('agriculture'))
      .get(`/growing-degree-days/${latitude}/${longitude}?${query}`)
      .set('Authorization', t.alice.auth);
    expect(served.status).toBe(200);
    // served to one decimal
    expect(Math.abs(value - served.body.degreeDays)).toBeLessThanOrEqual(0.05);
  });

  it.each([
    ['Ames, Iowa', -93.5, 42],
    ['the Alps', 10.5, 46.3],
  ])('reference ET at %s: the sum of GET /hourly-evapotranspiration-short-crop over the same hours', async (_, lon, lat) => {
    const field = await createField(t.fleet, t.alice, lon, lat);
    const { latitude, longitude } = await centroidOf(field);
    const days = 2;
    const value = await valueOf({ type: 'field', id: field }, { kind: 'reference-et', threshold: 30, days });
    // the days x 24 hours before the current hour, each named by its start (docs/decisions/0111-hourly-series.md)
    const currentHour = Math.floor(NOW / HOUR_MS) * HOUR_MS;
    const start = new Date(currentHour - days * 24 * HOUR_MS).toISOString();
    const end = new Date(currentHour - HOUR_MS).toISOString();
    const served = await request(t.fleet.app('insight'))
      .get(`/hourly-evapotranspiration-short-crop/${latitude}/${longitude}?start=${start}&end=${end}`)
      .set('Authorization', t.alice.auth);
    expect([served.status, served.body.series.length]).toEqual([200, days * 24]);
    const sum = (served.body.series as { value: number }[]).reduce((total, h) => total + h.value, 0);
    // each hour served to three decimals
    expect(Math.abs(value - sum)).toBeLessThanOrEqual(days * 24 * 0.0005);
  });
});
