import { isUuid } from '@fieldcast/ids';
import { createHash, randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Knex } from 'knex';
import { migrateSchema, type Database, type Migration } from '@fieldcast/db';
import type { Account, Identity } from '@fieldcast/kit';

export const IDENTITY_SCHEMA = 'identity';
/** Live keys an account may hold at once, for rotation (public record: credentials). */
export const MAX_LIVE_KEYS = 5;
/**
 * How long a checked key is believed before its row is read again (one indexed read, no scrypt:
 * the secret was verified against that very hash), so a revocation made in any process reaches
 * every replica within it.
 */
const RECHECK_MS = 1_000;
/** scrypt's cost and output length for a key's hash; each hash carries its own, so a check reads them from it. */
export interface KeyHashing {
  N: number;
  r: number;
  p: number;
  keylen: number;
}
/** The parameters of every key hashed in production: OWASP's scrypt minimum (Password Storage Cheat Sheet). */
export const KEY_HASHING: KeyHashing = { N: 16384, r: 8, p: 1, keylen: 32 };

export interface KeyInfo {
  id: string;
  createdAt: string;
  revokedAt: string | null;
}

export class IdentityError extends Error {
  constructor(
    readonly code: 'account_does_not_exist' | 'handle_taken' | 'invalid_handle' | 'too_many_keys' | 'key_does_not_exist',
    message: string,
  ) {
    super(message);
  }
}

export const identityMigrations: Migration[] = [
  {
    name: '001_accounts_and_keys',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).createTable('accounts', (t) => {
        t.uuid('id').primary();
        t.text('name').notNullable();
        t.text('handle').notNullable().unique();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.schema.withSchema(schema).createTable('keys', (t) => {
        t.uuid('id').primary();
        t.uuid('account_id').notNullable().references('id').inTable(`${schema}.accounts`).onDelete('CASCADE');
        t.text('hash').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('revoked_at', { useTz: true });
        t.index(['account_id']);
      });
    },
  },
];

export async function migrateIdentity(db: Database): Promise<void> {
  await migrateSchema(db.knex, IDENTITY_SCHEMA, identityMigrations);
}

function scrypt(secret: string, salt: Buffer, p: KeyHashing): Promise<Buffer> {
  const opts: ScryptOptions = { N: p.N, r: p.r, p: p.p, maxmem: 64 * 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCb(secret, salt, p.keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

/** A key's stored form: `scrypt$N$r$p$salt$hash`, the salt and hash in base64. */
function storedHash(hashing: KeyHashing, salt: Buffer, hash: Buffer): string {
  return ['scrypt', hashing.N, hashing.r, hashing.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

async function hashSecret(secret: string, hashing: KeyHashing): Promise<string> {
  const salt = randomBytes(16);
  return storedHash(hashing, salt, await scrypt(secret, salt, hashing));
}

/** Checks a secret against a stored hash: one scrypt of the stored hash's parameters. */
export type VerifySecret = (secret: string, stored: string) => Promise<boolean>;

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p), keylen: expected.length });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash no secret matches (its digest is all zeros), of the same parameters as every stored
 * key: a credential whose application or key id is unknown is checked against it, so it costs
 * the same scrypt as a wrong secret for a real key and its time tells nothing (OWASP
 * Authentication Cheat Sheet, "Authentication Responses").
 */
function noKeyHash(hashing: KeyHashing): string {
  return storedHash(hashing, Buffer.alloc(16, 1), Buffer.alloc(hashing.keylen));
}

/**
 * Application keys read `fc1.<key id>.<secret>`: the key id lets a check hash one candidate
 * instead of every live key of the account, and names the key to revoke.
 */
function formatKey(keyId: string, secret: string): string {
  return `fc1.${keyId.replace(/-/g, '')}.${secret}`;
}

function parseKey(key: string): { keyId: string; secret: string } | null {
  const m = /^fc1\.([0-9a-f]{32})\.([A-Za-z0-9_-]{20,})$/.exec(key);
  if (!m) return null;
  const h = m[1]!;
  return { keyId: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`, secret: m[2]! };
}

/** The auth cache's key: a digest, so the cache never holds a key itself. */
function credentialDigest(applicationId: string, applicationKey: string): string {
  return createHash('sha256').update(`${applicationId}\0${applicationKey}`).digest('base64');
}

const HANDLE = /^[a-z0-9][a-z0-9-]{1,62}$/;

/**
 * Accounts and their keys in schema `identity`, read by every service (docs/architecture.md §4).
 * The runtime owns the schema: it migrates it with the services' schemas, and the CLI manages
 * accounts and keys through this store; services see it only as the kit's `Identity`.
 */
export class IdentityStore implements Identity {
  private readonly cache = new Map<string, { account: Account; hash: string; checked: number }>();

  private readonly noKeyHash: string;

  constructor(
    private readonly knex: Knex,
    private readonly verify: VerifySecret = verifySecret,
    /** the parameters new keys are hashed with (a test fleet's are cheaper) */
    private readonly hashing: KeyHashing = KEY_HASHING,
  ) {
    this.noKeyHash = noKeyHash(hashing);
  }

  private get accounts() {
    return this.knex.withSchema(IDENTITY_SCHEMA).table('accounts');
  }

  private get keys() {
    return this.knex.withSchema(IDENTITY_SCHEMA).table('keys');
  }

  async createAccount(input: { name: string; handle?: string }): Promise<{ account: Account; applicationKey: string; keyId: string }> {
    const handle = (
      input.handle ??
      input.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
    ).slice(0, 63);
    if (!HANDLE.test(handle))
      throw new IdentityError(
        'invalid_handle',
        `handle "${handle}" must be 2-63 characters of a-z, 0-9 and -, starting with a letter or digit`,
      );
    const account: Account = { id: randomUUID(), name: input.name, handle };
    const keyId = randomUUID();
    const secret = randomBytes(32).toString('base64url');
    const hash = await hashSecret(secret, this.hashing);
    try {
      await this.knex.transaction(async (trx) => {
        await trx.withSchema(IDENTITY_SCHEMA).table('accounts').insert(account);
        await trx.withSchema(IDENTITY_SCHEMA).table('keys').insert({ id: keyId, account_id: account.id, hash });
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505')
        throw new IdentityError('handle_taken', `handle "${handle}" is taken; choose another with --handle`);
      throw err;
    }
    return { account, applicationKey: formatKey(keyId, secret), keyId };
  }

  async findAccount(idOrHandle: string): Promise<Account | null> {
    const row = await this.accounts
      .where(isUuid(idOrHandle) ? { id: idOrHandle } : { handle: idOrHandle.toLowerCase() })
      .first('id', 'name', 'handle');
    return row ?? null;
  }

  async addKey(accountId: string): Promise<{ keyId: string; applicationKey: string }> {
    const keyId = randomUUID();
    const secret = randomBytes(32).toString('base64url');
    const hash = await hashSecret(secret, this.hashing);
    await this.knex.transaction(async (trx) => {
      // Lock the account row so two concurrent adds cannot both pass the limit.
      const account = await trx.withSchema(IDENTITY_SCHEMA).table('accounts').where({ id: accountId }).forUpdate().first('id');
      if (!account) throw new IdentityError('account_does_not_exist', `no account ${accountId}`);
      const live = await trx
        .withSchema(IDENTITY_SCHEMA)
        .table('keys')
        .where({ account_id: accountId })
        .whereNull('revoked_at')
        .count({ n: '*' })
        .first();
      if (Number(live?.n ?? 0) >= MAX_LIVE_KEYS) {
        throw new IdentityError('too_many_keys', `account ${accountId} already has ${MAX_LIVE_KEYS} live keys; revoke one first`);
      }
      await trx.withSchema(IDENTITY_SCHEMA).table('keys').insert({ id: keyId, account_id: accountId, hash });
    });
    return { keyId, applicationKey: formatKey(keyId, secret) };
  }

  /** Revokes a live key, named by its id or by the whole key; answers its id. */
  async revokeKey(accountId: string, keyIdOrKey: string): Promise<string> {
    const keyId = parseKey(keyIdOrKey)?.keyId ?? keyIdOrKey;
    if (!isUuid(keyId)) throw new IdentityError('key_does_not_exist', `no key ${keyIdOrKey}`);
    const n = await this.keys
      .where({ id: keyId, account_id: accountId })
      .whereNull('revoked_at')
      .update({ revoked_at: this.knex.fn.now() });
    if (n === 0) throw new IdentityError('key_does_not_exist', `no live key ${keyId} on account ${accountId}`);
    this.cache.clear();
    return keyId;
  }

  async listKeys(accountId: string): Promise<KeyInfo[]> {
    const rows = await this.keys.where({ account_id: accountId }).orderBy('created_at').select('id', 'created_at', 'revoked_at');
    return rows.map((r) => ({
      id: r.id,
      createdAt: new Date(r.created_at).toISOString(),
      revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
    }));
  }

  /**
   * The account of a key checked within RECHECK_MS, without waiting: the cache in front of
   * `authenticate`, so a request with a known key goes on in the same tick.
   */
  cachedAccount(applicationId: string, applicationKey: string): Account | undefined {
    const hit = this.cache.get(credentialDigest(applicationId, applicationKey));
    return hit && Date.now() - hit.checked < RECHECK_MS ? hit.account : undefined;
  }

  /**
   * The account whose live key this is, or null. A key that passed scrypt is kept (keyed by a
   * digest, never the key) with the hash it matched, because scrypt is deliberately slow; after
   * RECHECK_MS its row is read again and the key believed while that row is live with the same
   * hash, so a revocation in another process takes effect within RECHECK_MS.
   */
  async authenticate(applicationId: string, applicationKey: string): Promise<Account | null> {
    const digest = credentialDigest(applicationId, applicationKey);
    const now = Date.now();
    const hit = this.cache.get(digest);
    if (hit && now - hit.checked < RECHECK_MS) return hit.account;
    const parsed = parseKey(applicationKey);
    const row = parsed && isUuid(applicationId) ? await this.storedKey(applicationId, parsed.keyId) : undefined;
    if (hit && row && row.hash === hit.hash) {
      hit.checked = now;
      hit.account = { id: row.id, name: row.name, handle: row.handle };
      return hit.account;
    }
    this.cache.delete(digest);
    // Every bad credential runs one scrypt, found or not, so none answers faster than another.
    const valid = await this.verify(parsed?.secret ?? applicationKey, row?.hash ?? this.noKeyHash);
    if (!row || !valid) return null;
    const account: Account = { id: row.id, name: row.name, handle: row.handle };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(digest, { account, hash: row.hash, checked: now });
    return account;
  }

  private async storedKey(
    applicationId: string,
    keyId: string,
  ): Promise<{ id: string; name: string; handle: string; hash: string } | undefined> {
    return this.knex
      .from(`${IDENTITY_SCHEMA}.keys as k`)
      .join(`${IDENTITY_SCHEMA}.accounts as a`, 'a.id', 'k.account_id')
      .where({ 'k.id': keyId, 'k.account_id': applicationId })
      .whereNull('k.revoked_at')
      .first('a.id', 'a.name', 'a.handle', 'k.hash');
  }
}
