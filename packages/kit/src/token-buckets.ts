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

/** Counts of requests in flight by key; a key at zero holds no memory. */
export class ConcurrencyCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.counts.size;
  }

  /** A release function when the key is under its maximum, or null. */
  acquire(key: string): (() => void) | null {
    const count = this.counts.get(key) ?? 0;
    if (count >= this.max) return null;
    this.counts.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.counts.get(key) ?? 1) - 1;
      if (now <= 0) this.counts.delete(key);
      else this.counts.set(key, now);
    };
  }
}
