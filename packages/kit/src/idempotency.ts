import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { ConflictError, InvalidRequestError, TooManyRequestsError, ValidationError } from './errors.js';

/**
 * Creates answered again under the Idempotency-Key request header (draft-ietf-httpapi-idempotency-key-header;
 * docs/interface.md §1; docs/decisions/0434-creates-answered-again-under-an-idempotency-key.md):
 * the key's form, the request's fingerprint, and the answer sent again.
 */
export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** Marks an answer sent again from what was kept, as Stripe's API does; the draft names none. */
export const REPLAYED = 'Idempotent-Replayed';

/** The longest key taken, in characters between the quotes. */
export const MAX_IDEMPOTENCY_KEY = 255;

/** What a create answered, kept for its key (packages/db idempotency-keys.ts). */
export interface KeptAnswer {
  fingerprint: string;
  status: number;
  location: string | null;
  /** its ETag (RFC 9110 section 8.8.3); null when it had none */
  etag: string | null;
  body: string;
}

/**
 * Where an area keeps its creates' answers (packages/db IdempotencyKeys): `claim` runs the request
 * with its key held, keeps the answer in its create's transaction, and says when another request
 * holds the key or has kept an answer under it since `find`.
 */
export interface IdempotencyKeeper {
  find(accountId: string, key: string): Promise<KeptAnswer | null>;
  claim<T>(
    claim: { accountId: string; key: string; fingerprint: string; maxKept?: number },
    work: () => Promise<{ result: T; answer: Omit<KeptAnswer, 'fingerprint'> }>,
  ): Promise<{ done: T } | { refused: 'in_progress' | 'taken' } | { refused: 'full'; afterMs: number }>;
}

/** RFC 8941 section 3.3.3: sf-string = DQUOTE *( unescaped / "\" ( DQUOTE / "\" ) ) DQUOTE, printable ASCII. */
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

const badKey = (message: string) =>
  new InvalidRequestError('invalid_idempotency_key', `${IDEMPOTENCY_KEY}: ${message}`, [{ path: IDEMPOTENCY_KEY, message }]);

/**
 * The request's key, undefined when it sends none. The field is an Item whose value is an
 * sf-string (draft section 2.1, RFC 8941): a quoted string of 1 to MAX_IDEMPOTENCY_KEY characters,
 * leading and trailing spaces around it allowed (RFC 8941 section 4.2). One sent twice arrives
 * joined by a comma and is no sf-string either.
 */
export function idempotencyKeyOf(req: Request): string | undefined {
  const field = req.headers['idempotency-key'];
  if (field === undefined) return undefined;
  const match = SF_STRING.exec((Array.isArray(field) ? field.join(', ') : field).replace(/^ +| +$/g, ''));
  if (!match)
    throw badKey('must be one quoted string (an RFC 8941 sf-string of printable ASCII), such as "8e03978e-40d5-43e8-bc93-6894a57f9324"');
  const key = match[1]!.replace(/\\(["\\])/g, '$1');
  if (key.length === 0) throw badKey('must not be empty');
  if (key.length > MAX_IDEMPOTENCY_KEY) throw badKey(`must be at most ${MAX_IDEMPOTENCY_KEY} characters long`);
  return key;
}

/** JSON with every object's members in code-point order, so member order and spacing do not tell two bodies apart. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The request's fingerprint (draft section 2.4): its method, its path as routed and query, and its
 * JSON body as parsed (canonicalJson), hashed. The same request sent again has the same one. The
 * path as routed (`baseUrl` and `url`, after the kit decodes percent-encoded unreserved characters,
 * service.ts `unreservedDecoded`) rather than as sent: `/f%69elds` and `/fields` are one resource
 * (RFC 3986 section 6.2.2.2), so one request.
 */
export function fingerprintOf(req: Request): string {
  return createHash('sha256')
    .update(`${req.method} ${req.baseUrl}${req.url}\n`)
    .update(req.body === undefined ? '' : canonicalJson(req.body))
    .digest('base64url');
}

/**
 * The kept answer sent again for the same request (its status, Location, ETag and body), marked as such; a different request under the
 * key is 422 (draft section 2.7).
 */
export function replay(res: Response, kept: KeptAnswer, fingerprint: string): void {
  if (kept.fingerprint !== fingerprint) {
    throw new ValidationError(
      'idempotency_key_reused',
      `${IDEMPOTENCY_KEY} is already used for a different request payload: send a new key for a new request`,
    );
  }
  res.setHeader(REPLAYED, 'true');
  if (kept.location !== null) res.setHeader('Location', kept.location);
  if (kept.etag !== null) res.setHeader('ETag', kept.etag);
  res.status(kept.status).send(kept.body);
}

/** A request sent again while the first with its key is still under way (draft section 2.7). */
export const keyInProgress = () =>
  new ConflictError(
    'idempotency_key_in_progress',
    `A request with this ${IDEMPOTENCY_KEY} is still being processed: retry once it has been answered`,
  );

/**
 * A create under a key from an account that keeps as many answers in the area as it may
 * (docs/decisions/0442-kept-answers-per-account.md): 429 until the first of them expires
 * (RFC 6585 section 4, Retry-After in seconds as RFC 9110 section 10.2.3 has it).
 */
export function keysExhausted(res: Response, max: number, afterMs: number): TooManyRequestsError {
  res.setHeader('Retry-After', String(Math.max(1, Math.ceil(afterMs / 1000))));
  return new TooManyRequestsError(
    'idempotency_keys_exhausted',
    `This account keeps the answers of ${max.toLocaleString('en')} creates sent with an ${IDEMPOTENCY_KEY} in the last 24 hours, the most it may: retry after Retry-After, or send the create without a key`,
  );
}
