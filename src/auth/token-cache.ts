/**
 * Verified tokens remembered until they expire, so that a client sending the same token on every
 * request pays for its signature (or its introspection) once. Bounded: at most `max` entries,
 * the oldest dropped first, and nothing kept past the token's own expiry (or past `maxAgeMs`).
 *
 * Spec: RFC 7662 §4 (a resource server MAY cache an introspection response, no longer than the
 * token's expiry); MCP 2026-07-28, Basic / Authorization / Security Considerations ("Token
 * Theft": cached tokens are held in memory only).
 * @module
 */

interface Entry<T> {
  readonly value: T;
  /** Milliseconds since the epoch after which the entry is not used. */
  readonly until: number;
}

/** A bounded map from token to what its verification established. */
export class TokenCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #max: number;
  readonly #now: () => number;

  /** @param max most entries kept (0 disables the cache). */
  constructor(max: number, now: () => number = Date.now) {
    this.#max = max;
    this.#now = now;
  }

  /** Number of entries (some may be expired and not yet dropped). */
  get size(): number {
    return this.#entries.size;
  }

  /** The value remembered for `token`, unless there is none or it expired (then it is dropped). */
  get(token: string): T | undefined {
    const entry = this.#entries.get(token);
    if (entry === undefined) return undefined;
    if (this.#now() < entry.until) return entry.value;
    this.#entries.delete(token);
    return undefined;
  }

  /** Remembers `value` for `token` until `until` (milliseconds since the epoch), if that is ahead. */
  set(token: string, value: T, until: number): void {
    if (this.#max === 0 || !(until > this.#now())) return;
    this.#entries.delete(token);
    while (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
    this.#entries.set(token, { value, until });
  }
}
