import type { Knex } from 'knex';
import { LruCache } from '@fieldcast/caches';
import { parseRange, type AddressRange } from '@fieldcast/kit';
import { hashesMatch, newToken, tokenHash } from './domain/tokens.js';
import { ARCHIVE_TYPES, isArchiveType, type ArchiveType } from './domain/types.js';

export const AREA = 'archive';

export interface ArchiveUser {
  name: string;
  tokenHash: string;
  ranges: AddressRange[];
  types: ReadonlySet<ArchiveType>;
}

/** User names: what fits a query parameter unescaped. */
export const USER_NAME = /^[A-Za-z0-9._@-]{1,64}$/;

export class ArchiveRegistrationError extends Error {}

/** How long a user read is believed, ms (a revocation reaches every replica within it), and how many are kept. */
export const USER_CACHE_MS = 1_500;
const USER_CACHE_SIZE = 10_000;

/** The archive's users (schema `archive`, docs/architecture.md §4); nothing else touches the table. */
export class ArchiveUserStore {
  /** `hash` is the token's hash (SHA-256), given so a test can count the hashing a check does. */
  constructor(
    private readonly knex: Knex,
    private readonly now: () => Date = () => new Date(),
    private readonly hash: (token: string) => string = tokenHash,
  ) {}

  private get users() {
    return this.knex.withSchema(AREA).table('users');
  }

  /**
   * Users as last read, for USER_CACHE_MS (docs/decisions/0172-archive-access.md): a lookup per
   * request would cost more than the answer. Only users found are kept; a caller whose token
   * differs from the kept one is read again, so a new registration works at once, while a
   * revocation made by another process (the CLI on DATABASE_URL) takes effect within
   * USER_CACHE_MS. Bounded; the least recently used go first.
   */
  private readonly cache = new LruCache<{ user: ArchiveUser; until: number }>(USER_CACHE_SIZE);

  /** The user as kept, while it is believed. */
  private kept(name: string): ArchiveUser | undefined {
    const hit = this.cache.get(name);
    return hit && hit.until > performance.now() ? hit.user : undefined;
  }

  /** The user as the database has it now, then kept. */
  private async readAndKeep(name: string): Promise<ArchiveUser | undefined> {
    const user = await this.read(name);
    this.cache.delete(name);
    if (user) this.cache.set(name, { user, until: performance.now() + USER_CACHE_MS });
    return user;
  }

  /**
   * The user `name` when `token` is theirs, else undefined (docs/decisions/0172-archive-access.md).
   * A check that fails costs the same whether the name is registered or not, so neither its time
   * nor its work tells a registered name from an unknown one
   * (docs/decisions/0366-archive-credential-checks-cost-the-same.md): the token is hashed once,
   * compared with the kept user's hash (a fixed one when none is kept) and, unless they match,
   * the user is read from the database once and compared again. A name no user can have is
   * refused without reading: it tells nothing of who is registered.
   */
  async authenticate(name: string, token: string): Promise<ArchiveUser | undefined> {
    const given = this.hash(token);
    if (!USER_NAME.test(name)) return undefined;
    const kept = this.kept(name);
    if (hashesMatch(given, kept?.tokenHash)) return kept;
    const user = await this.readAndKeep(name);
    return hashesMatch(given, user?.tokenHash) ? user : undefined;
  }

  private async read(name: string): Promise<ArchiveUser | undefined> {
    const row = (await this.users.where({ name }).first('name', 'token_hash', 'ranges', 'types')) as
      { name: string; token_hash: string; ranges: string[]; types: string[] } | undefined;
    if (!row) return undefined;
    return {
      name: row.name,
      tokenHash: row.token_hash,
      ranges: row.ranges.map(parseRange),
      types: new Set(row.types.filter(isArchiveType)),
    };
  }

  /**
   * Registers a user, or registers one again: a new token (returned, shown once; only its hash is
   * kept), and exactly these ranges and types, replacing what the user had
   * (docs/decisions/0172-archive-access.md).
   */
  async register(input: {
    name: string;
    ranges: readonly string[];
    types?: readonly string[];
  }): Promise<{ name: string; token: string; ranges: string[]; types: ArchiveType[] }> {
    if (!USER_NAME.test(input.name)) throw new ArchiveRegistrationError(`user name "${input.name}" must be 1 to 64 of A-Z a-z 0-9 . _ @ -`);
    if (input.ranges.length === 0) throw new ArchiveRegistrationError('give at least one address or CIDR range');
    const ranges = [
      ...new Set(
        input.ranges.map((r) => {
          try {
            return parseRange(r).text;
          } catch (err) {
            throw new ArchiveRegistrationError((err as Error).message);
          }
        }),
      ),
    ];
    const types = input.types && input.types.length > 0 ? [...new Set(input.types)] : [...ARCHIVE_TYPES];
    const unknown = types.filter((t) => !isArchiveType(t));
    if (unknown.length > 0)
      throw new ArchiveRegistrationError(`unknown type ${unknown.join(', ')}; the types are ${ARCHIVE_TYPES.join(', ')}`);
    const token = newToken();
    const row = {
      name: input.name,
      token_hash: this.hash(token),
      ranges: JSON.stringify(ranges),
      types: JSON.stringify(types),
      created_at: this.now(),
    };
    // Registering again replaces the token, ranges and types; the user was created when first registered.
    await this.users.insert(row).onConflict('name').merge(['token_hash', 'ranges', 'types']);
    this.cache.delete(input.name);
    return { name: input.name, token, ranges, types: types as ArchiveType[] };
  }

  /** Whether a user exists with this token (addresses aside): the demo user's saved token still works. */
  async accepts(name: string, token: string): Promise<boolean> {
    return (await this.authenticate(name, token)) !== undefined;
  }

  /** Ends a user's access; false when there was no such user. */
  async revoke(name: string): Promise<boolean> {
    // The deleted rows, not a count: both drivers return those alike.
    const deleted = (await this.users.where({ name }).delete().returning('name')) as unknown[];
    this.cache.delete(name);
    return deleted.length > 0;
  }
}
