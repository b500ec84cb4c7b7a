import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Archive tokens: 32 random bytes, base64url (256 bits, so a fast hash is enough: nothing to
 * stretch, unlike a password). Only SHA-256 of a token is stored; a presented token is hashed and
 * compared in constant time (docs/decisions/0172-archive-access.md).
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A stored hash compared with nothing: an unknown user costs what a known one does. */
const NO_USER_HASH = tokenHash(newToken());

/**
 * Whether a presented token's hash is the stored one (undefined: no such user, still compared),
 * in constant time. The caller hashes the token once, whatever it compares it with.
 */
export function hashesMatch(givenHash: string, storedHash: string | undefined): boolean {
  const given = Buffer.from(givenHash, 'hex');
  const stored = Buffer.from(storedHash ?? NO_USER_HASH, 'hex');
  return stored.length === given.length && timingSafeEqual(given, stored) && storedHash !== undefined;
}
