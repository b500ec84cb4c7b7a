import { randomUUID } from 'node:crypto';
import type { Database, Outbox } from '@fieldcast/db';
import { useTestFleet } from '@fieldcast/runtime/testing';
import type { ObservationSetInput } from '@fieldcast/schemas';
import { observationsService } from '../src/definition.js';
import { newObservationSet } from '../src/domain/observation-sets.js';
import { ObservationSetStore, type PageRequest, type SummaryPage } from '../src/store.js';
import { SummaryPageCache } from '../src/summary-page-cache.js';
import { site } from './observation-sets-client.js';

const page = (text: string): SummaryPage => ({ page: text, lastId: null, more: false });

describe('the list page cache (docs/decisions/0154-observation-list-cache.md)', () => {
  it('keeps pages by account and request until a publish of that account', () => {
    const cache = new SummaryPageCache(1000);
    cache.fill(cache.readStarted(), 'alice', 'week', page('a'));
    cache.fill(cache.readStarted(), 'bob', 'week', page('b'));
    expect(cache.get('alice', 'week')?.page).toBe('a');
    expect(cache.get('alice', 'month')).toBeUndefined();
    cache.invalidate('alice');
    expect(cache.get('alice', 'week')).toBeUndefined();
    expect(cache.get('bob', 'week')?.page).toBe('b');
  });

  it('does not keep a page read while a publish ended', () => {
    const cache = new SummaryPageCache(1000);
    const token = cache.readStarted();
    cache.invalidate('bob');
    cache.fill(token, 'alice', 'week', page('read before the publish'));
    expect(cache.get('alice', 'week')).toBeUndefined();
  });

  it('stays within its budget, least recently used accounts out, and keeps at most 64 pages an account', () => {
    const cache = new SummaryPageCache(30);
    cache.fill(cache.readStarted(), 'alice', 'k1', page('x'.repeat(10)));
    cache.fill(cache.readStarted(), 'bob', 'k1', page('y'.repeat(10)));
    expect(cache.get('alice', 'k1')).toBeDefined(); // alice is now the most recent
    cache.fill(cache.readStarted(), 'carol', 'k1', page('z'.repeat(10)));
    expect(cache.get('bob', 'k1')).toBeUndefined();
    expect(cache.get('alice', 'k1')).toBeDefined();
    expect(cache.get('carol', 'k1')).toBeDefined();
    expect(cache.size).toBe(24);
    cache.fill(cache.readStarted(), 'dave', 'k1', page('w'.repeat(40)));
    expect(cache.get('dave', 'k1')).toBeUndefined();

    const many = new SummaryPageCache(1_000_000);
    for (let i = 0; i < 70; i++) many.fill(many.readStarted(), 'alice', `k${i}`, page('p'));
    expect(many.get('alice', 'k5')).toBeUndefined();
    expect(many.get('alice', 'k6')?.page).toBe('p');
    expect(many.size).toBe(4 * 2 + 60 * 3 + 64); // keys k6..k9 and k10..k69, a one-character page each
  });
});

describe('the store with the list page cache', () => {
  const t = useTestFleet([observationsService]);
  const outbox = { add: async () => undefined } as unknown as Outbox;
  const week: PageRequest = { period: { start: 1_777_593_600_000_000n, end: 1_778_198_399_999_999n }, limit: 100 };

  /** The fleet's database, counting the statements a store runs. */
  function counted() {
    const statements: string[] = [];
    const db: Database = {
      ...t.fleet.db,
      prepared: (statement) => {
        statements.push(statement.name);
        return t.fleet.db.prepared(statement);
      },
    };
    return { db, statements };
  }

  const setOn = (accountId: string, time: string) => {
    const input = { sites: [site('s', [time])], tags: {} } as unknown as ObservationSetInput;
    return newObservationSet(randomUUID(), accountId, input, input);
  };

  it('as the only writer: a repeated list reads the database once, and a publish is listed at once', async () => {
    const { db, statements } = counted();
    const store = new ObservationSetStore(db, outbox, { soleWriter: true });
    const first = setOn(t.alice.id, '2026-05-02T12:00:00Z');
    await store.publish(first);
    expect((await store.list(t.alice.id, week))?.lastId).toBe(first.id);
    expect((await store.list(t.alice.id, week))?.lastId).toBe(first.id);
    expect(statements).toHaveLength(1);
    // Another account's publish leaves alice's page cached.
    await store.publish(setOn(t.bob.id, '2026-05-02T12:00:00Z'));
    await store.list(t.alice.id, week);
    expect(statements).toHaveLength(1);
    const second = setOn(t.alice.id, '2026-05-03T12:00:00Z');
    await store.publish(second);
    const listed = await store.list(t.alice.id, week);
    expect(statements).toHaveLength(2);
    expect(JSON.parse(`[${listed!.page}]`).map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
  });

  it('with other writers (PostgreSQL replicas): a repeated list reads only the account version, and another replica’s publish is listed at once', async () => {
    const { db, statements } = counted();
    const replica = new ObservationSetStore(db, outbox),
      other = new ObservationSetStore(t.fleet.db, outbox);
    const first = setOn(t.alice.id, '2026-05-02T12:00:00Z');
    await other.publish(first);
    expect((await replica.list(t.alice.id, week))?.lastId).toBe(first.id);
    expect((await replica.list(t.alice.id, week))?.lastId).toBe(first.id);
    expect(statements).toEqual([
      'observations_account_version',
      expect.stringMatching(/^observations_page_period/),
      'observations_account_version',
    ]);
    // Another account's publish on the other replica leaves alice's page as it was.
    await other.publish(setOn(t.bob.id, '2026-05-02T12:00:00Z'));
    await replica.list(t.alice.id, week);
    expect(statements).toHaveLength(4);
    const second = setOn(t.alice.id, '2026-05-03T12:00:00Z');
    await other.publish(second);
    const listed = await replica.list(t.alice.id, week);
    expect(statements).toHaveLength(6);
    expect(JSON.parse(`[${listed!.page}]`).map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
  });

  it('lists of one account arriving together share one version read', async () => {
    const { db, statements } = counted();
    const replica = new ObservationSetStore(db, outbox);
    const first = setOn(t.alice.id, '2026-05-02T12:00:00Z');
    await replica.publish(first);
    const [a, b, c] = await Promise.all([replica.list(t.alice.id, week), replica.list(t.alice.id, week), replica.list(t.bob.id, week)]);
    expect(statements.filter((n) => n === 'observations_account_version')).toHaveLength(2); // alice's and bob's
    for (const p of [a, b]) expect(p?.lastId).toBe(first.id);
    expect(c?.page).toBe('');
    // the next turn reads again: a publish committed in between is seen
    const second = setOn(t.alice.id, '2026-05-03T12:00:00Z');
    await new ObservationSetStore(t.fleet.db, outbox).publish(second);
    const listed = await replica.list(t.alice.id, week);
    expect(JSON.parse(`[${listed!.page}]`).map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
  });

  it('reads version 0 for an account that has published nothing, and lists nothing', async () => {
    const store = new ObservationSetStore(t.fleet.db, outbox);
    expect(await store.list(t.alice.id, week)).toEqual({ page: '', lastId: null, more: false });
  });
});
