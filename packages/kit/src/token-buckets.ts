/** A token bucket's size: it holds at most `burst` tokens and gains `perSecond` tokens a second. */
export interface BucketPolicy {
  perSecond: number;
  burst: number;
}

/** What taking a token from a bucket gave, with what the RateLimit fields report. */
export interface BucketVerdict {
  allowed: boolean;
  /** whole tokens left after this request */
  remaining: number;
  /** seconds until the bucket is full again (draft-ietf-httpapi-ratelimit-headers `t`) */
  resetSeconds: number;
  /** seconds until the next token, when refused (RFC 9110 section 10.2.3 Retry-After) */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets by key, held in memory with a bound: at most `maxKeys` buckets, the least
 * recently used dropped first when a new one would pass it. A dropped bucket that had refilled
 * is indistinguishable from a new one; one that had not is reset, which the bound accepts
 * (docs/decisions/0060-limits-per-account.md).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly policy: BucketPolicy,
    /** milliseconds, monotonic */
    private readonly clock: () => number,
    private readonly maxKeys = 100_000,
  ) {}

  get size(): number {
    return this.buckets.size;
  }

  /** Tokens the key's bucket holds now (a bucket never seen is full). */
  level(key: string): number {
    const bucket = this.buckets.get(key);
    return bucket ? this.refilled(bucket, this.clock()) : this.policy.burst;
  }

  /** Takes one token when there is one; a refused take leaves the bucket as it was. */
  take(key: string): BucketVerdict {
    const now = this.clock();
    const existing = this.buckets.get(key);
    const tokens = existing ? this.refilled(existing, now) : this.policy.burst;
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    // Re-inserting keeps the map in least-recently-used order, so eviction takes the idlest first.
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: left, at: now });
    this.evict();
    const rate = this.policy.perSecond;
    return {
      allowed,
      remaining: Math.floor(left),
      resetSeconds: rate > 0 ? Math.ceil((this.policy.burst - left) / rate) : 0,
      retryAfterSeconds: allowed ? 0 : rate > 0 ? Math.max(1, Math.ceil((1 - left) / rate)) : 1,
    };
  }

  /** Buckets that refilled completely carry nothing and go first; then the least recently used. */
  private evict(): void {
    if (this.buckets.size <= this.maxKeys) return;
    const now = this.clock();
    for (const [key, bucket] of this.buckets) {
      if (this.buckets.size <= this.maxKeys) return;
      if (this.refilled(bucket, now) >= this.policy.burst) this.buckets.delete(key);
      else break;
    }
    while (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value as string;
      this.buckets.delete(oldest);
    }
  }

  private refilled(bucket: Bucket, now: number): number {
    return Math.min(this.policy.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.policy.perSecond);
  }
}

/** How many requests of one key run at once, and how many may wait their turn, for how long. */
export interface QueuePolicy {
  /** requests of a key in flight at once */
  max: number;
  /** requests of a key waiting for a slot at once; 0 refuses at once beyond `max` */
  maxWaiting: number;
  /** milliseconds a request waits at most */
  waitMs: number;
}

/** Runs `fire` after `ms` milliseconds, and returns what cancels it. */
export type Schedule = (ms: number, fire: () => void) => () => void;

const timeout: Schedule = (ms, fire) => {
  const timer = setTimeout(fire, ms);
  // A waiter's own connection keeps the process serving; its deadline alone should not.
  timer.unref();
  return () => clearTimeout(timer);
};

/** One request's turn: it runs now, or waits for a slot; `leave` ends it either way, once. */
export interface Turn {
  running: boolean;
  leave: () => void;
}

interface KeyState {
  running: number;
  /** what gives each waiter its slot, oldest first */
  waiting: (() => void)[];
}

/**
 * Slots per key with a bounded first-in, first-out queue before them
 * (docs/decisions/0511-heavy-requests-wait-their-turn.md): a request runs while its key has fewer
 * than `max` in flight, else waits while fewer than `maxWaiting` wait, else is refused. A slot
 * given back goes to the oldest waiter; a waiter past `waitMs` is told and leaves its place. A key
 * with nothing running or waiting holds no memory.
 */
export class ConcurrencyQueue {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly policy: QueuePolicy,
    private readonly schedule: Schedule = timeout,
  ) {}

  /** Keys with requests running or waiting. */
  get size(): number {
    return this.keys.size;
  }

  /**
   * A turn for a request of `key`, or null when its slots and its queue are full. A waiting turn
   * calls `granted` when a slot is its own (its `leave` then gives the slot back), or `expired`
   * when its time is up (its `leave` then does nothing); neither once it has left.
   */
  enter(key: string, granted: () => void, expired: () => void): Turn | null {
    const state = this.keys.get(key) ?? { running: 0, waiting: [] };
    if (state.running < this.policy.max) {
      state.running += 1;
      this.keys.set(key, state);
      return { running: true, leave: this.release(key, state) };
    }
    if (state.waiting.length >= this.policy.maxWaiting) return null;
    this.keys.set(key, state);
    let phase: 'waiting' | 'running' | 'done' = 'waiting';
    let release = () => {};
    const grant = () => {
      phase = 'running';
      stopTimer();
      release = this.release(key, state);
      granted();
    };
    const leaveQueue = () => {
      phase = 'done';
      stopTimer();
      state.waiting.splice(state.waiting.indexOf(grant), 1);
      this.forgetIdle(key, state);
    };
    const stopTimer = this.schedule(this.policy.waitMs, () => {
      if (phase !== 'waiting') return;
      leaveQueue();
      expired();
    });
    state.waiting.push(grant);
    return {
      running: false,
      leave: () => {
        if (phase === 'waiting') return leaveQueue();
        if (phase === 'running') {
          phase = 'done';
          release();
        }
      },
    };
  }

  /** Gives a running request's slot back once: to the oldest waiter, or to no one. */
  private release(key: string, state: KeyState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const grant = state.waiting.shift();
      if (grant) {
        // The slot passes on without being counted free, so no newcomer takes it first.
        grant();
        return;
      }
      state.running -= 1;
      this.forgetIdle(key, state);
    };
  }

  private forgetIdle(key: string, state: KeyState): void {
    if (state.running <= 0 && state.waiting.length === 0 && this.keys.get(key) === state) this.keys.delete(key);
  }
}
