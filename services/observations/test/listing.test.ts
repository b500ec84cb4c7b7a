import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { observationsService } from '../src/definition.js';
import { list, publish, site } from './observation-sets-client.js';

/** A clock a millisecond further on at each reading, so sets published one after another never share a creationTime. */
let tick = Date.parse('2026-06-01T00:00:00Z');
const t = useTestFleet([observationsService], { now: () => new Date(tick++) });
const app = () => t.fleet.app('observations');

/** Publishes a set with one site observed at `times`; returns its summary. */
async function setAt(times: string[], account = t.alice, tags: Record<string, string> = {}) {
  const res = await publish(app(), account, { sites: [site('s', times)], tags });
  expect(res.status).toBe(201);
  return res.body as { id: string; creationTime: string; earliestObservationTime: string; latestObservationTime: string };
}

const ids = (body: { id: string }[]) => body.map((s) => s.id);

describe('observation sets: the period (spec 4.8)', () => {
  it('without a period: every set of the caller, newest created first, as stored summaries', async () => {
    const a = await setAt(['2026-05-01T00:00:00Z'], t.alice, { n: 'a' });
    const b = await setAt(['2020-01-01T00:00:00Z']);
    const c = await setAt(['2030-01-01T00:00:00Z']);
    const res = await list(app(), t.alice);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([c.id, b.id, a.id]);
    expect(res.body[2]).toEqual(a);
    expect(res.headers.link).toBeUndefined();
  });

  it('a set is listed when one of its observations lies in [start, end], both bounds included', async () => {
    const set = await setAt(['2026-05-01T12:00:00Z']);
    const listed = async (start: string, end: string) => ids((await list(app(), t.alice, { start, end })).body).includes(set.id);
    expect(await listed('2026-05-01T12:00:00Z', '2026-05-01T12:00:00Z')).toBe(true);
    expect(await listed('2026-05-01T11:00:00Z', '2026-05-01T12:00:00Z')).toBe(true);
    expect(await listed('2026-05-01T12:00:00Z', '2026-05-01T13:00:00Z')).toBe(true);
    expect(await listed('2026-05-01T12:00:00.001Z', '2026-05-01T13:00:00Z')).toBe(false);
    expect(await listed('2026-05-01T11:00:00Z', '2026-05-01T11:59:59.999999Z')).toBe(false);
    // The same instants written with offsets.
    expect(await listed('2026-05-01T14:00:00+02:00', '2026-05-01T14:00:00+02:00')).toBe(true);
    expect(await listed('2026-05-01T07:00:00.001-05:00', '2026-05-02T00:00:00Z')).toBe(false);
  });

  it('bounds compare at the millisecond summaries show, so a time copied from a summary takes in its set', async () => {
    const set = await setAt(['2026-01-05T12:00:00.000500Z', '2026-01-05T23:59:59.999999Z']);
    const old = await setAt(['1969-12-31T23:59:59.9995Z']);
    expect(set.earliestObservationTime).toBe('2026-01-05T12:00:00.000Z');
    expect(set.latestObservationTime).toBe('2026-01-05T23:59:59.999Z');
    expect(old.latestObservationTime).toBe('1969-12-31T23:59:59.999Z');
    const listed = async (query: Record<string, string>) => ids((await list(app(), t.alice, query)).body);
    for (const time of [set.earliestObservationTime, set.latestObservationTime]) {
      expect(await listed({ start: time, end: time })).toEqual([set.id]);
    }
    expect(await listed({ end: set.latestObservationTime, start: '2026-01-05T13:00:00Z' })).toEqual([set.id]);
    expect(await listed({ start: old.latestObservationTime, end: old.latestObservationTime })).toEqual([old.id]);
    // Digits past the millisecond name the same millisecond, on either bound.
    expect(await listed({ start: '2026-01-05T12:00:00.000900Z', end: '2026-01-05T12:00:00.000900Z' })).toEqual([set.id]);
    expect(await listed({ start: '2026-01-05T12:00:00.000100Z', end: '2026-01-05T12:00:00.000100Z' })).toEqual([set.id]);
    // The millisecond before or after holds nothing.
    expect(await listed({ start: '2026-01-05T12:00:00.001Z', end: '2026-01-05T23:59:59.998999Z' })).toEqual([]);
    expect(await listed({ start: '2026-01-05T11:00:00Z', end: '2026-01-05T11:59:59.999999Z' })).toEqual([]);
  });

  it('a date stands for its whole UTC day, from its first to its last microsecond', async () => {
    const first = await setAt(['2026-05-01T00:00:00Z']);
    const last = await setAt(['2026-05-01T23:59:59.999999Z']);
    const before = await setAt(['2026-04-30T23:59:59.999999Z']);
    const after = await setAt(['2026-05-02T00:00:00Z']);
    const day = await list(app(), t.alice, { start: '2026-05-01', end: '2026-05-01' });
    expect(ids(day.body)).toEqual([last.id, first.id]);
    const from = await list(app(), t.alice, { start: '2026-05-01' });
    expect(ids(from.body)).toEqual([after.id, last.id, first.id]);
    const until = await list(app(), t.alice, { end: '2026-04-30' });
    expect(ids(until.body)).toEqual([before.id]);
    // Times sent with an offset count on the UTC day they fall on.
    const local = await setAt(['2026-05-02T01:00:00+02:00']);
    expect(ids((await list(app(), t.alice, { start: '2026-05-01', end: '2026-05-01' })).body)).toContain(local.id);
  });

  it('observations on either side of the period, none inside it: not listed', async () => {
    const around = await setAt(['2026-01-01T00:00:00Z', '2026-01-10T00:00:00Z']);
    const sameDay = await setAt(['2026-01-05T01:00:00Z', '2026-01-05T23:00:00Z']);
    expect((await list(app(), t.alice, { start: '2026-01-03', end: '2026-01-06' })).body.map((s: { id: string }) => s.id)).toEqual([
      sameDay.id,
    ]);
    expect((await list(app(), t.alice, { start: '2026-01-05T02:00:00Z', end: '2026-01-05T22:00:00Z' })).body).toEqual([]);
    expect(ids((await list(app(), t.alice, { start: '2026-01-05T02:00:00Z', end: '2026-01-10T00:00:00Z' })).body)).toEqual([
      sameDay.id,
      around.id,
    ]);
  });

  it('times before 1970 and far ahead are placed on their days', async () => {
    const old = await setAt(['1969-12-31T23:59:59.5Z', '1901-06-01T00:00:00Z']);
    const ahead = await setAt(['9999-12-31T23:59:59Z']);
    expect(old.earliestObservationTime).toBe('1901-06-01T00:00:00.000Z');
    expect(old.latestObservationTime).toBe('1969-12-31T23:59:59.500Z');
    expect(ids((await list(app(), t.alice, { start: '1969-12-31', end: '1969-12-31' })).body)).toEqual([old.id]);
    expect(ids((await list(app(), t.alice, { start: '1970-01-01', end: '1970-01-01' })).body)).toEqual([]);
    expect(ids((await list(app(), t.alice, { start: '9999-12-31' })).body)).toEqual([ahead.id]);
  });

  it.each([
    [{ start: 'yesterday' }, 'start'],
    [{ end: '2026-05-01T12:00:00' }, 'end'],
    [{ start: '2026-02-30' }, 'start'],
    [{ start: '2026-05-02', end: '2026-05-01' }, 'end'],
    [{ start: '2026-05-01T12:00:00Z', end: '2026-05-01T11:59:59Z' }, 'end'],
  ])('a bad period %j is 400 naming %s', async (query, path) => {
    const res = await list(app(), t.alice, query);
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_parameter');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
  });

  it('an offset whose + was sent unencoded, read as a space, is refused with the encoding to use', async () => {
    const set = await setAt(['2026-05-01T12:00:00Z']);
    const raw = await request(app()).get('/observation-sets?start=2026-05-01T14:00:00+02:00').set('Authorization', t.alice.auth);
    expect([raw.status, raw.body.errors?.[0]?.path]).toEqual([400, 'start']);
    expect(raw.body.errors[0].message).toMatch(/%2B/);
    const encoded = await request(app()).get('/observation-sets?start=2026-05-01T14:00:00%2B02:00').set('Authorization', t.alice.auth);
    expect(ids(encoded.body)).toEqual([set.id]);
  });

  it('sets published concurrently are listed in creationTime order, newest first', async () => {
    // A large document takes longer to compress and store than a small one: a small set published
    // once the large one has read the clock must still be listed before it.
    const times = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString());
    const large = { sites: [site('s', times(6_000))] };
    const small = { sites: [site('s', times(1))] };
    const inFlight = [];
    for (let n = 0; n < 3; n++) {
      const read = tick;
      const first = publish(app(), t.alice, large).then((r) => r);
      while (tick === read) await new Promise((resolve) => setImmediate(resolve));
      inFlight.push(
        first,
        publish(app(), t.alice, small).then((r) => r),
      );
    }
    expect((await Promise.all(inFlight)).map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const created = (await list(app(), t.alice)).body.map((s: { creationTime: string }) => s.creationTime);
    expect(created).toHaveLength(6);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('another account’s sets are never listed', async () => {
    await setAt(['2026-05-01T00:00:00Z']);
    expect((await list(app(), t.bob)).body).toEqual([]);
    expect((await list(app(), t.bob, { start: '2026-05-01' })).body).toEqual([]);
  });
});

describe('observation sets: pages (spec 4.8, docs/interface.md §8)', () => {
  it('the latest 100 by default, limit up to 1,000 (1,001 is 400), and pages further back with before=<set id>', async () => {
    // 1,001 sets: one over the largest page.
    const created: string[] = [];
    for (let i = 0; i < 1001; i++) created.push((await setAt([`2026-05-01T00:00:${String(i % 60).padStart(2, '0')}Z`])).id);
    created.reverse();

    const first = await list(app(), t.alice);
    expect(ids(first.body)).toEqual(created.slice(0, 100));
    expect(first.headers.link).toBe(`</observation-sets?limit=100&before=${created[99]}>; rel="next"`);
    const most = await list(app(), t.alice, { limit: '1000', start: '2026-05-01' });
    expect(ids(most.body)).toEqual(created.slice(0, 1000));
    expect(most.headers.link).toBe(`</observation-sets?start=2026-05-01&limit=1000&before=${created[999]}>; rel="next"`);
    for (const limit of ['1001', '0', '-1', '1.5', 'ten', '']) {
      const res = await list(app(), t.alice, { limit });
      expect([limit, res.status, res.body.errors?.[0]?.path]).toEqual([limit, 400, 'limit']);
    }

    // Following the Link header to the end, with a period.
    const seen: string[] = [];
    let next: string | undefined = '/observation-sets?limit=300&start=2026-05-01T00:00:00Z&end=2026-05-01T00:01:00Z';
    let pages = 0;
    while (next) {
      const url = new URL(next, 'http://x');
      const res = await list(app(), t.alice, Object.fromEntries(url.searchParams));
      expect(res.status).toBe(200);
      seen.push(...ids(res.body));
      next = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];
      pages++;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual(created);
    // The last page has no Link; nothing lies before the oldest set.
    const tail = await list(app(), t.alice, { before: created[999]! });
    expect(ids(tail.body)).toEqual([created[1000]]);
    expect(tail.headers.link).toBeUndefined();
    expect((await list(app(), t.alice, { before: created[1000]! })).body).toEqual([]);
    // A page before a set, in a period: only older sets with observations in it.
    const inPeriod = await list(app(), t.alice, { before: created[0]!, start: '2026-05-01T00:00:59Z', end: '2026-05-01T00:00:59Z' });
    expect(ids(inPeriod.body)).toEqual(created.filter((_, i) => i > 0 && (1000 - i) % 60 === 59).slice(0, 100));
  }, 180_000);

  it('a cursor that is no set of the caller’s is 400 unknown_cursor; one that is no UUID is 400 invalid_parameter', async () => {
    const bobs = (await setAt(['2026-05-01T00:00:00Z'], t.bob)).id;
    await setAt(['2026-05-01T00:00:00Z']);
    for (const before of [bobs, '3f1c2a70-0000-4000-8000-000000000000']) {
      const res = await list(app(), t.alice, { before });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ id: 'unknown_cursor', errors: [{ path: 'before' }] });
    }
    const bad = await list(app(), t.alice, { before: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.id).toBe('invalid_parameter');
  });
});
