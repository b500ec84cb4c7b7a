import type { Request } from 'express';

/**
 * The limits of one service process (docs/operations.md "Limits"; docs/decisions/0060-limits-per-account.md,
 * docs/decisions/0061-bounded-lists.md). A rate of 0 or a maximum of 0 turns that limit off.
 */
export interface Limits {
  /** the token bucket of each account's requests */
  requests: { perSecond: number; burst: number };
  /** requests of operations declared `heavy` one account may have in flight */
  heavyPerAccount: number;
  /**
   * heavy requests of one account that may wait, first in first out, for one of its slots
   * (docs/decisions/0511-heavy-requests-wait-their-turn.md); 0: none, one over the cap is refused at once
   */
  heavyQueuedPerAccount: number;
  /** milliseconds a heavy request waits for a slot at most */
  heavyWaitMs: number;
  /** the token bucket of failed authentications, per client address */
  failedAuth: { perSecond: number; burst: number };
  /** resources of one kind one account may own */
  ownedPerKind: number;
  /** milliseconds, monotonic; tests give a fake one */
  clock: () => number;
}

export const DEFAULT_LIMITS: Limits = {
  requests: { perSecond: 100, burst: 1_000 },
  heavyPerAccount: 16,
  heavyQueuedPerAccount: 160,
  heavyWaitMs: 30_000,
  failedAuth: { perSecond: 1, burst: 100 },
  ownedPerKind: 10_000,
  clock: () => performance.now(),
};

/** The most items a list of owned resources answers with, and its default page. */
export const MAX_PAGE = 1_000;

export function resolveLimits(given: Partial<Limits> | undefined): Limits {
  return { ...DEFAULT_LIMITS, ...given };
}

/** The limits of the app serving this request (createServiceApp keeps them in app.locals). */
export function limitsOf(req: Request): Limits {
  return (req.app.locals.limits as Limits | undefined) ?? DEFAULT_LIMITS;
}
