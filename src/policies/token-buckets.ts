/**
 * Token buckets by key, in bounded memory: each key's bucket holds up to `capacity` tokens and
 * refills continuously at `refillPerMs`; a request takes one. A bucket that has refilled to full
 * says nothing a missing one would not, so it is dropped (the least recently used are looked at
 * on each take), and past `maxKeys` the least recently used bucket goes whatever its level. Pure:
 * the caller passes the time.
 * @module
 */

interface Bucket {
  /** Tokens at `at` (may be fractional). */
  tokens: number;
  /** When `tokens` was computed, in the caller's clock (ms). */
  at: number;
}

/** Sizes of a {@link TokenBuckets}. */
export interface TokenBucketLimits {
  /** Most tokens a bucket holds: the largest burst. */
  readonly capacity: number;
  /** Tokens added per millisecond. */
  readonly refillPerMs: number;
  /** Most buckets kept at once. */
  readonly maxKeys: number;
}

/** How many full buckets one take may drop (amortised clean-up, no timers). */
const SWEEP = 2;

/** Token buckets by key (see the module docs). */
export class TokenBuckets {
  readonly #limits: TokenBucketLimits;
  /** In least recently used order (a Map keeps insertion order; a use re-inserts). */
  readonly #buckets = new Map<string, Bucket>();

  constructor(limits: TokenBucketLimits) {
    this.#limits = limits;
  }

  /** Number of buckets kept (keys that are not full). */
  get size(): number {
    return this.#buckets.size;
  }

  /**
   * Takes a token from `key`'s bucket at time `now` (ms).
   * @returns 0 when taken; else the milliseconds until one will be there (nothing is taken).
   */
  take(key: string, now: number): number {
    const buckets = this.#buckets;
    const bucket = buckets.get(key);
    const tokens = bucket === undefined ? this.#limits.capacity : this.#level(bucket, now);
    if (tokens < 1) return this.#wait(tokens);
    if (bucket !== undefined) buckets.delete(key);
    buckets.set(key, { tokens: tokens - 1, at: now });
    this.#sweep(now);
    return 0;
  }

  /** The milliseconds until `key` could take a token at `now` (0: it can now). Changes nothing. */
  peek(key: string, now: number): number {
    const bucket = this.#buckets.get(key);
    return bucket === undefined ? 0 : this.#wait(this.#level(bucket, now));
  }

  #level(bucket: Bucket, now: number): number {
    const { capacity, refillPerMs } = this.#limits;
    return Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.at) * refillPerMs);
  }

  #wait(tokens: number): number {
    return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / this.#limits.refillPerMs);
  }

  /** Drops full buckets among the least recently used, then the oldest past `maxKeys`. */
  #sweep(now: number): void {
    const buckets = this.#buckets;
    let looked = 0;
    for (const [key, bucket] of buckets) {
      if (looked++ === SWEEP || this.#level(bucket, now) < this.#limits.capacity) break;
      buckets.delete(key);
    }
    while (buckets.size > this.#limits.maxKeys) {
      const oldest = buckets.keys().next().value as string;
      buckets.delete(oldest);
    }
  }
}
