import request from 'supertest';
import { bboxRing } from '@fieldcast/geo';
import { useTestFleet } from '@fieldcast/runtime/testing';
import type { GridSource } from '@fieldcast/weather';
import { agricultureService } from '../src/definition.js';
import { TableSource } from './table-source.js';

/*
 * Field degree days and contours are declared heavy (docs/architecture.md §3, limits): with a cap
 * of one in flight per account and no queue before it (docs/decisions/0511-heavy-requests-wait-their-turn.md),
 * a second one waits for nothing and gets 429. The weather here
 * answers only when the test opens its gate, so the first request is surely still in flight.
 */
const MAY_1 = Date.UTC(2024, 4, 1);
const NOW = new Date(Date.UTC(2024, 4, 10, 12));
const table = new TableSource(MAY_1, {}, { tmax: 30, tmin: 15 }, NOW.getTime() + 3 * 86_400_000);
let openGate: () => void = () => undefined;
let gate = Promise.resolve();
let waiting = 0;
/** The table's reads, each held until the gate opens; anything that is no promise passes as it is. */
const gated = new Proxy({} as GridSource, {
  get(_target, name) {
    const value = (table as unknown as Record<string | symbol, unknown>)[name];
    if (typeof value !== 'function') return value;
    return (...args: unknown[]) => {
      const result = (value as (...a: unknown[]) => unknown).apply(table, args);
      if (!(result instanceof Promise)) return result;
      waiting += 1;
      return gate.then(() => result);
    };
  },
});
const DAYS = 'start=2024-05-01&end=2024-05-03';

const t = useTestFleet([agricultureService], { weather: gated, now: () => NOW, limits: { heavyPerAccount: 1, heavyQueuedPerAccount: 0 } });

describe('heavy requests per account', () => {
  it.each(['', '/contours'])(
    'a second field request%s while one is in flight is 429 too_many_heavy_requests; a location request is not heavy',
    async (suffix) => {
      const created = await request(t.fleet.app('agriculture'))
        .post('/fields')
        .set('Authorization', t.alice.auth)
        .send({
          description: 'gated',
          type: 'GeometryCollection',
          geometries: [{ type: 'Polygon', coordinates: [bboxRing(10, 40, 11.5, 41)] }],
        });
      expect(created.status).toBe(201);
      const path = `/growing-degree-days/${created.body.id}${suffix}?${DAYS}`;
      gate = new Promise((resolve) => (openGate = resolve));
      waiting = 0;
      const first = request(t.fleet.app('agriculture'))
        .get(path)
        .set('Authorization', t.alice.auth)
        .then((r) => r);
      for (let i = 0; i < 2_000 && waiting === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(waiting).toBeGreaterThan(0);
      const second = await request(t.fleet.app('agriculture')).get(path).set('Authorization', t.alice.auth);
      expect(second.status).toBe(429);
      expect(second.headers['retry-after']).toBe('1');
      expect(second.body).toMatchObject({ status: 429, id: 'too_many_heavy_requests' });
      // Another account, and a light request of the same account, go on.
      expect((await request(t.fleet.app('agriculture')).get(path).set('Authorization', t.bob.auth)).status).toBe(404);
      const location = request(t.fleet.app('agriculture'))
        .get(`/growing-degree-days/40.5/10.5?${DAYS}`)
        .set('Authorization', t.alice.auth)
        .then((r) => r);
      openGate();
      expect((await first).status).toBe(200);
      expect((await location).status).toBe(200);
      // The slot is free again.
      expect((await request(t.fleet.app('agriculture')).get(path).set('Authorization', t.alice.auth)).status).toBe(200);
    },
  );
});
