import type { Request, RequestHandler, Response } from 'express';
import { TooManyRequestsError, UnauthorizedError } from './errors.js';
import type { Limits } from './limits.js';
import { ConcurrencyQueue, TokenBuckets, type BucketPolicy } from './token-buckets.js';
import type { Account } from './identity.js';
import { clientAddress, type AddressRange } from './address-ranges.js';

/** Buckets one service process keeps at most, per kind of limit (docs/decisions/0060-limits-per-account.md). */
const MAX_TRACKED_KEYS = 100_000;

/**
 * The address a failed login is counted against: the caller's as the trusted reverse proxies tell
 * it (FIELDCAST_TRUSTED_PROXIES), or the connection's peer. Behind an ingress every caller's peer is
 * the ingress, and one client's wrong keys would refuse everyone's.
 */
function clientAddressOf(req: Request, trusted: readonly AddressRange[]): string {
  const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted);
  return address ? `${address.family}:${address.value.toString(16)}` : 'unknown';
}

function refuse(res: Response, retryAfterSeconds: number, code: string, message: string): TooManyRequestsError {
  // RFC 6585 section 4: a 429 may say when to try again; RFC 9110 section 10.2.3: Retry-After in seconds.
  res.setHeader('Retry-After', String(retryAfterSeconds));
  return new TooManyRequestsError(code, message);
}

/**
 * draft-ietf-httpapi-ratelimit-headers: the policy (quota `q` over window `w` seconds, the time a
 * spent bucket takes to refill) and the current state (remaining `r`, seconds to reset `t`) as the
 * two structured fields RateLimit-Policy and RateLimit (docs/decisions/0060-limits-per-account.md).
 */
function rateLimitFields(res: Response, policy: BucketPolicy, remaining: number, resetSeconds: number): void {
  res.setHeader('RateLimit-Policy', `"account";q=${policy.burst};w=${Math.max(1, Math.ceil(policy.burst / policy.perSecond))}`);
  res.setHeader('RateLimit', `"account";r=${remaining};t=${resetSeconds}`);
}

export interface RequestLimiters {
  /**
   * Authentication within its limits: a client address over its failed authentications is
   * refused with 429 before its credentials are checked; a rejected credential counts against its
   * address; an authenticated account spends a token of its bucket or is refused.
   */
  authenticate: RequestHandler;
  /**
   * Holds one of the account's heavy slots until the response ends; beyond them waits its turn in
   * the account's bounded queue, or is refused with 429 (docs/decisions/0511-heavy-requests-wait-their-turn.md).
   */
  heavy: RequestHandler;
}

/** The request limits of one service app, in memory (docs/architecture.md §3, limits). */
export function requestLimiters(
  limits: Limits,
  authenticate: RequestHandler,
  trustedProxies: readonly AddressRange[] = [],
): RequestLimiters {
  const failures = limits.failedAuth.perSecond > 0 ? new TokenBuckets(limits.failedAuth, limits.clock, MAX_TRACKED_KEYS) : null;
  const requests = limits.requests.perSecond > 0 ? new TokenBuckets(limits.requests, limits.clock, MAX_TRACKED_KEYS) : null;
  const heavy =
    limits.heavyPerAccount > 0
      ? new ConcurrencyQueue({ max: limits.heavyPerAccount, maxWaiting: limits.heavyQueuedPerAccount, waitMs: limits.heavyWaitMs })
      : null;

  const afterAuthentication = (req: Request, res: Response, next: (err?: unknown) => void) => (err?: unknown) => {
    if (err) {
      if (failures && err instanceof UnauthorizedError && req.headers.authorization !== undefined)
        failures.take(clientAddressOf(req, trustedProxies));
      return next(err);
    }
    if (!requests) return next();
    const account = res.locals.account as Account;
    const verdict = requests.take(account.id);
    rateLimitFields(res, limits.requests, verdict.remaining, verdict.resetSeconds);
    if (verdict.allowed) return next();
    next(
      refuse(
        res,
        verdict.retryAfterSeconds,
        'too_many_requests',
        `This account sent more than ${limits.requests.burst} requests at once or ${limits.requests.perSecond} a second; try again in ${verdict.retryAfterSeconds} s`,
      ),
    );
  };

  return {
    authenticate: (req, res, next) => {
      if (failures && req.headers.authorization !== undefined) {
        const level = failures.level(clientAddressOf(req, trustedProxies));
        if (level < 1) {
          const wait = Math.max(1, Math.ceil((1 - level) / limits.failedAuth.perSecond));
          return next(
            refuse(
              res,
              wait,
              'too_many_failed_authentications',
              `Too many failed authentications from this address; try again in ${wait} s`,
            ),
          );
        }
      }
      authenticate(req, res, afterAuthentication(req, res, next));
    },
    heavy: (_req, res, next) => {
      if (!heavy) return next();
      const account = res.locals.account as Account | undefined;
      if (!account) return next();
      // A waiter is answered on its own turn of the event loop, not inside the response whose
      // end gave it the slot; if its client left in between, the slot goes on at once.
      const granted = () => setImmediate(() => (res.closed ? turn?.leave() : next()));
      const expired = () =>
        next(
          refuse(
            res,
            1,
            'too_many_heavy_requests',
            `This request waited ${limits.heavyWaitMs / 1000} s, the most a heavy request waits, for one of this account's ${limits.heavyPerAccount} heavy requests in progress to finish; try again when one has finished`,
          ),
        );
      const turn = heavy.enter(account.id, granted, expired);
      if (!turn) {
        return next(
          refuse(
            res,
            1,
            'too_many_heavy_requests',
            `This account already has ${limits.heavyPerAccount} heavy requests in progress and ${limits.heavyQueuedPerAccount} waiting; try again when one has finished`,
          ),
        );
      }
      // 'close' ends every response, finished or aborted, so a slot or a place in the queue is
      // never kept; a client that left while its request waited for authentication has had its
      // 'close' already.
      res.once('close', turn.leave);
      if (res.closed) return turn.leave();
      if (turn.running) next();
    },
  };
}
