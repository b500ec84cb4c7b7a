import { useTestFleet } from '@fieldcast/runtime/testing';
import { archiveService } from '../src/definition.js';
import { tokenHash } from '../src/domain/tokens.js';
import { ArchiveUserStore } from '../src/store.js';
import { LOOPBACK, NOW } from './archive-client.js';

const t = useTestFleet([archiveService], { now: () => NOW });

/**
 * A user store whose hashing and reads of the users table are counted: the work a credential
 * check does, which is what its time follows (a database round trip, a SHA-256), measured without
 * a clock so the test is not at the mercy of a loaded machine.
 */
function countingStore() {
  const work = { hashes: 0, reads: 0 };
  const knex = t.fleet.db.knex;
  const store = new ArchiveUserStore(knex, undefined, (token) => {
    work.hashes += 1;
    return tokenHash(token);
  });
  const onQuery = (q: { sql: string }) => {
    if (/"users"/.test(q.sql) && /^select/i.test(q.sql)) work.reads += 1;
  };
  /** the work of one call */
  const measure = async (run: () => Promise<unknown>) => {
    work.hashes = 0;
    work.reads = 0;
    knex.on('query', onQuery);
    try {
      await run();
    } finally {
      knex.removeListener('query', onQuery);
    }
    return { ...work };
  };
  return { store, measure };
}

describe('archive users (docs/decisions/0172-archive-access.md)', () => {
  it('a refused check does the same work for a registered name as for an unknown one (docs/decisions/0366-archive-credential-checks-cost-the-same.md)', async () => {
    const alice = await new ArchiveUserStore(t.fleet.db.knex).register({ name: 'alice', ranges: LOOPBACK });
    const wrong = `${alice.token.slice(0, -1)}${alice.token.endsWith('A') ? 'B' : 'A'}`;
    const { store, measure } = countingStore();

    const unknown = await measure(() => store.authenticate('mallory', wrong));
    // registered, not yet kept by this process
    const registered = await measure(() => store.authenticate('alice', wrong));
    expect(registered).toEqual(unknown);
    // registered and kept (a right token was just presented): still the same work when wrong
    expect(await store.authenticate('alice', alice.token)).toMatchObject({ name: 'alice' });
    const kept = await measure(() => store.authenticate('alice', wrong));
    expect(kept).toEqual(unknown);
    expect(unknown).toEqual({ hashes: 1, reads: 1 });

    // the right token is still accepted, and another's refused
    expect(await store.authenticate('alice', wrong)).toBeUndefined();
    expect(await store.accepts('alice', alice.token)).toBe(true);
    expect(await store.accepts('mallory', alice.token)).toBe(false);
  });

  it('registering again keeps the user’s created_at', async () => {
    const first = new Date('2025-01-02T03:04:05Z');
    const later = new Date('2025-06-01T00:00:00Z');
    await new ArchiveUserStore(t.fleet.db.knex, () => first).register({ name: 'alice', ranges: LOOPBACK });
    const again = await new ArchiveUserStore(t.fleet.db.knex, () => later).register({ name: 'alice', ranges: ['10.0.0.0/8'] });
    const rows = await t.fleet.db.knex.withSchema('archive').table('users').select('name', 'created_at', 'ranges', 'token_hash');
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0].created_at).toISOString()).toBe(first.toISOString());
    // what registering again replaces is replaced
    expect(rows[0].ranges).toEqual(['10.0.0.0/8']);
    expect(rows[0].token_hash).toBe(tokenHash(again.token));
  });
});
