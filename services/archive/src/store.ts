import type { Knex } from 'knex';
import { LruCache } from '@fieldcast/caches';
import { parseRange, type AddressRange } from '@fieldcast/kit';
import { newToken, tokenHash, tokenMatches } from './domain/tokens.js';
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
  constructor(
    private readonly knex: Knex,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get users() {
    return this.knex.withSchema(AREA).table('users');
  }

  /**
   * Users as last read, for USER_CACHE_MS (docs/decisions/0172-archive-access.md): a lookup per
   * request would cost more than the answer. Only users found are kept; a caller whose token
   * differs from the kept one is read again (`fresh`), so a new registration works at once, while
   * a revocation made by another process (the CLI on DATABASE_URL) takes effect within
   * USER_CACHE_MS. Bounded; the least recently used go first.
   */
  private readonly cache = new LruCache<{ user: ArchiveUser; until: number }>(USER_CACHE_SIZE);

  async find(name: string, options: { fresh?: boolean } = {}): Promise<ArchiveUser | undefined> {
    if (!USER_NAME.test(name)) return undefined;
    const now = performance.now();
    const hit = this.cache.get(name);
    if (hit && hit.until > now && !options.fresh) return hit.user;
    const user = await this.read(name);
    this.cache.delete(name);
    if (!user) return undefined;
    this.cache.set(name, { user, until: now + USER_CACHE_MS });
    return user;
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
      token_hash: tokenHash(token),
      ranges: JSON.stringify(ranges),
      types: JSON.stringify(types),
      created_at: this.now(),
    };
    await this.users.insert(row).onConflict('name').merge();
    this.cache.delete(input.name);
    return { name: input.name, token, ranges, types: types as ArchiveType[] };
  }

  /** Whether a user exists with this token (addresses aside): the demo user's saved token still works. */
  async accepts(name: string, token: string): Promise<boolean> {
    const user = await this.find(name);
    return tokenMatches(token, user?.tokenHash);
  }

  /** Ends a user's access; false when there was no such user. */
  async revoke(name: string): Promise<boolean> {
    // The deleted rows, not a count: both drivers return those alike.
    const deleted = (await this.users.where({ name }).delete().returning('name')) as unknown[];
    this.cache.delete(name);
    return deleted.length > 0;
  }
}
