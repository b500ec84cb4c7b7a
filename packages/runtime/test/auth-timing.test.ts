import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '@fieldcast/db';
import { basicAuth, UnauthorizedError } from '@fieldcast/kit';
import { IdentityStore, migrateIdentity, verifySecret } from '../src/identity.js';

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ dataDir: null });
  await migrateIdentity(db);
});
afterAll(() => db.close());

/** An identity store whose scrypt checks are counted, with what they were given. */
function counting() {
  const calls: { secret: string; stored: string; result: boolean }[] = [];
  const identity = new IdentityStore(db.knex, async (secret, stored) => {
    const result = await verifySecret(secret, stored);
    calls.push({ secret, stored, result });
    return result;
  });
  return { identity, calls };
}

const SCRYPT_HASH = /^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/;

describe('every bad credential costs one scrypt (no timing oracle)', () => {
  it('an unknown application id, an unknown key id, a wrong secret and a malformed key each run exactly one scrypt of the same parameters', async () => {
    const { identity, calls } = counting();
    const { account, applicationKey } = await identity.createAccount({ name: 'timing', handle: `timing-${randomUUID().slice(0, 8)}` });
    const [, keyHex, secret] = applicationKey.split('.');
    const otherKeyId = randomUUID().replace(/-/g, '');
    const wrongSecret = `${secret!.slice(0, -2)}${secret!.endsWith('AA') ? 'BB' : 'AA'}`;
    const bad: [string, string][] = [
      [randomUUID(), applicationKey], // unknown application id
      [account.id, `fc1.${otherKeyId}.${secret}`], // unknown key id
      [account.id, `fc1.${keyHex}.${wrongSecret}`], // wrong secret for a real key
      [account.id, 'password'], // not a key at all
      ['nobody', applicationKey], // not an application id at all
      [account.id, ''],
    ];
    for (const [id, key] of bad) {
      calls.length = 0;
      expect(await identity.authenticate(id, key)).toBeNull();
      expect(calls).toHaveLength(1);
      expect(calls[0]!.stored).toMatch(SCRYPT_HASH);
      expect(calls[0]!.result).toBe(false);
    }
    calls.length = 0;
    expect(await identity.authenticate(account.id, applicationKey)).toEqual(account);
    expect(calls).toHaveLength(1);
  });

  it('HTTP Basic without a colon is checked like any other bad credential', async () => {
    const { identity, calls } = counting();
    const req = { headers: { authorization: `Basic ${Buffer.from(randomUUID()).toString('base64')}` } };
    const res = { locals: {}, setHeader: () => undefined };
    const failure = await new Promise((resolve) => basicAuth(identity)(req as never, res as never, resolve));
    expect(failure).toBeInstanceOf(UnauthorizedError);
    expect(calls).toHaveLength(1);
  });
});
