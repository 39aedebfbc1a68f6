/**
 * A value fetched from the network and kept while fresh: one fetch at a time (callers share the
 * one under way), a lifetime from the response's `Cache-Control` within bounds, a stale copy kept
 * when a refresh fails, and a failure remembered for a retry interval so that an unreachable
 * server is not asked again by every request.
 *
 * Spec: RFC 9111 §4.2 (freshness); RFC 7517 §5 (JWK Sets change, so a verifier refetches).
 * @module
 */

/** A fetched value with its `Cache-Control` lifetime (undefined: none given). */
export interface Freshness<T> {
  readonly value: T;
  readonly maxAgeMs: number | undefined;
}

/** Bounds on how long a value is kept, in milliseconds. */
export interface RefreshBounds {
  /** Shortest lifetime (also for `no-store` and `max-age=0`). */
  readonly minTtlMs: number;
  /** Longest lifetime, and the lifetime when the response gives none. */
  readonly maxTtlMs: number;
  /** After a failed fetch, the time before another is tried. */
  readonly retryMs: number;
}

/** Keeps one fetched value fresh. */
export class Refresher<T> {
  readonly #load: () => Promise<Freshness<T>>;
  readonly #bounds: RefreshBounds;
  readonly #now: () => number;
  #value: T | undefined;
  #expires = 0;
  #fetchedAt = -Infinity;
  #failure: { error: unknown; until: number } | undefined;
  #loading: Promise<T> | undefined;

  constructor(load: () => Promise<Freshness<T>>, bounds: RefreshBounds, now: () => number = Date.now) {
    this.#load = load;
    this.#bounds = bounds;
    this.#now = now;
  }

  /** When the value was last fetched (milliseconds since the epoch), or -Infinity. */
  get fetchedAt(): number {
    return this.#fetchedAt;
  }

  /** The value: the cached one while fresh, else fetched (a stale copy when the fetch fails). */
  get(): Promise<T> {
    if (this.#value !== undefined && this.#now() < this.#expires) return Promise.resolve(this.#value);
    return this.refresh();
  }

  /**
   * Fetches the value again unless a fetch is under way (then shares it) or the last one failed
   * less than `retryMs` ago (then the stale value, or that failure).
   */
  refresh(): Promise<T> {
    if (this.#loading !== undefined) return this.#loading;
    const failure = this.#failure;
    if (failure !== undefined && this.#now() < failure.until) {
      return this.#value !== undefined ? Promise.resolve(this.#value) : Promise.reject(failure.error);
    }
    this.#loading = this.#load().then(
      ({ value, maxAgeMs }) => {
        const { minTtlMs, maxTtlMs } = this.#bounds;
        const now = this.#now();
        this.#value = value;
        this.#fetchedAt = now;
        this.#expires = now + Math.min(maxTtlMs, Math.max(minTtlMs, maxAgeMs ?? maxTtlMs));
        this.#failure = undefined;
        this.#loading = undefined;
        return value;
      },
      (error: unknown) => {
        this.#failure = { error, until: this.#now() + this.#bounds.retryMs };
        this.#loading = undefined;
        if (this.#value !== undefined) return this.#value;
        throw error;
      },
    );
    return this.#loading;
  }
}
