import { openDatabase, type Database } from '@fieldcast/db';
import { IdentityError, IdentityStore, MAX_LIVE_KEYS, migrateIdentity, verifySecret } from '../src/identity.js';

let db: Database;
let identity: IdentityStore;
beforeAll(async () => {
  db = await openDatabase({ dataDir: null });
  await migrateIdentity(db);
  identity = new IdentityStore(db.knex);
});
afterAll(() => db.close());

describe('identity: accounts and keys', () => {
  it('creates an account whose key authenticates; only a scrypt hash is stored', async () => {
    const { account, applicationKey } = await identity.createAccount({ name: 'Acme Farms' });
    expect(account.handle).toBe('acme-farms');
    expect(await identity.authenticate(account.id, applicationKey)).toEqual(account);
    const rows = await db.knex.withSchema('identity').table('keys').where({ account_id: account.id });
    expect(rows[0].hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(JSON.stringify(rows)).not.toContain(applicationKey.split('.')[2]);
  });

  it('rejects a wrong key, another account’s id, and a malformed key', async () => {
    const a = await identity.createAccount({ name: 'a', handle: 'auth-a' });
    const b = await identity.createAccount({ name: 'b', handle: 'auth-b' });
    const tampered = `${a.applicationKey.slice(0, -2)}${a.applicationKey.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await identity.authenticate(a.account.id, tampered)).toBeNull();
    expect(await identity.authenticate(b.account.id, a.applicationKey)).toBeNull();
    expect(await identity.authenticate(a.account.id, 'password')).toBeNull();
  });

  it('knows a key at once only after it authenticated, and forgets it when revoked', async () => {
    const { account, applicationKey, keyId } = await identity.createAccount({ name: 'c', handle: 'auth-cached' });
    expect(identity.cachedAccount(account.id, applicationKey)).toBeUndefined();
    expect(await identity.authenticate(account.id, applicationKey)).toEqual(account);
    expect(identity.cachedAccount(account.id, applicationKey)).toEqual(account);
    expect(identity.cachedAccount(account.id, `${applicationKey}x`)).toBeUndefined();
    await identity.revokeKey(account.id, keyId);
    expect(identity.cachedAccount(account.id, applicationKey)).toBeUndefined();
  });

  it('a key revoked in another process stops working here within a second or so, without a scrypt per request', async () => {
    let scrypts = 0;
    const counting = new IdentityStore(db.knex, (secret, hash) => {
      scrypts += 1;
      return verifySecret(secret, hash);
    });
    const elsewhere = new IdentityStore(db.knex);
    const { account, applicationKey, keyId } = await counting.createAccount({ name: 'replicas', handle: 'replicas' });
    expect(await counting.authenticate(account.id, applicationKey)).toEqual(account);
    // believed again after the row is read, with no second scrypt
    await new Promise((r) => setTimeout(r, 1_100));
    expect(counting.cachedAccount(account.id, applicationKey)).toBeUndefined();
    expect(await counting.authenticate(account.id, applicationKey)).toEqual(account);
    expect(counting.cachedAccount(account.id, applicationKey)).toEqual(account);
    expect(scrypts).toBe(1);
    await elsewhere.revokeKey(account.id, keyId);
    const revoked = Date.now();
    await new Promise((r) => setTimeout(r, 1_100));
    expect(counting.cachedAccount(account.id, applicationKey)).toBeUndefined();
    expect(await counting.authenticate(account.id, applicationKey)).toBeNull();
    expect(Date.now() - revoked).toBeLessThan(2_000);
  });

  it('holds at most five live keys; a revoked key stops working and frees a place', async () => {
    const { account, applicationKey, keyId } = await identity.createAccount({ name: 'rotating', handle: 'rotating' });
    const added = [];
    for (let i = 1; i < MAX_LIVE_KEYS; i++) added.push(await identity.addKey(account.id));
    await expect(identity.addKey(account.id)).rejects.toMatchObject({ code: 'too_many_keys' });
    await identity.revokeKey(account.id, keyId);
    expect(await identity.authenticate(account.id, applicationKey)).toBeNull();
    const replacement = await identity.addKey(account.id);
    expect(await identity.authenticate(account.id, replacement.applicationKey)).not.toBeNull();
    for (const k of added) expect(await identity.authenticate(account.id, k.applicationKey)).not.toBeNull();
    const keys = await identity.listKeys(account.id);
    expect(keys.filter((k) => k.revokedAt === null)).toHaveLength(MAX_LIVE_KEYS);
  });

  it('handles are unique and well formed', async () => {
    await identity.createAccount({ name: 'x', handle: 'taken' });
    await expect(identity.createAccount({ name: 'y', handle: 'taken' })).rejects.toBeInstanceOf(IdentityError);
    await expect(identity.createAccount({ name: 'y', handle: 'Bad Handle!' })).rejects.toMatchObject({ code: 'invalid_handle' });
    expect(await identity.findAccount('TAKEN')).toMatchObject({ handle: 'taken' });
  });
});
