/**
 * Signed download URLs (docs/interface.md §9; docs/decisions/0164-signed-download-urls.md): an
 * HMAC-SHA256 over the path, the account and the expiry, with the process's signing key, so a
 * link works in curl, wget or GDAL's /vsicurl/ without credentials for an hour, only for that
 * dataset, and only as long as its account exists.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a link works, seconds. */
export const LINK_LIFETIME_SECONDS = 3600;

export interface Signature {
  account: string;
  /** epoch seconds after which the link no longer works */
  expires: number;
  /** base64url HMAC-SHA256 */
  signature: string;
}

export type Verdict = 'valid' | 'expired' | 'invalid';

export class UrlSigner {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => Date,
  ) {}

  private mac(path: string, account: string, expires: number): Buffer {
    // One field per line: no value can contain a newline (a path is percent-encoded), so no two inputs sign alike.
    return createHmac('sha256', this.key).update(`GET\n${path}\n${account}\n${expires}`).digest();
  }

  /** A signature for GET `path` by `account`, valid for LINK_LIFETIME_SECONDS from now. */
  sign(path: string, account: string): Signature {
    const expires = Math.floor(this.now().getTime() / 1000) + LINK_LIFETIME_SECONDS;
    return { account, expires, signature: this.mac(path, account, expires).toString('base64url') };
  }

  /** Whether a request's signature matches its path, account and expiry, and has not expired. */
  verify(path: string, given: Signature): Verdict {
    // Compared as text: Node's base64url decoder skips characters outside the alphabet, so decoding
    // the given signature would take altered spellings of it as the one signed (docs/decisions/0164-signed-download-urls.md).
    const expected = Buffer.from(this.mac(path, given.account, given.expires).toString('base64url'));
    const actual = Buffer.from(given.signature);
    // Compared in constant time, so the time taken tells nothing of how much of it matched.
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return 'invalid';
    return this.now().getTime() / 1000 > given.expires ? 'expired' : 'valid';
  }
}
