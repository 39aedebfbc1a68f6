/**
 * The issuer's signing keys: its JWK Set, fetched from the `jwks_uri` of its metadata (or a
 * configured one), kept for the response's `Cache-Control` lifetime, and looked up by the token's
 * `kid`. A `kid` the set lacks triggers one refetch, at most once per `minRefreshMs`, so tokens
 * with made-up `kid`s cannot turn into a storm of fetches. Each key is checked against the
 * token's algorithm before use (its type, curve, `alg`, `use`, `key_ops`, RSA size) and imported
 * once.
 *
 * Spec: RFC 7517 §4.5 (`kid`), §5 (JWK Set); RFC 7515 §4.1.4; RFC 8414 §2 (`jwks_uri`); RFC 8725
 * §3.1; OpenID Connect Core 1.0 §10.1.1 (rotation: refetch on an unknown `kid`).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import { importPublicKey, unfitKey, type JwsAlgorithm, type VerifyKey } from './algorithms.js';
import { AuthUnavailableError, InvalidTokenError } from './errors.js';
import { fetchJson, type FetchSettings } from './fetch-json.js';
import { Refresher, type RefreshBounds } from './refresher.js';

/** Settings of a {@link JwksCache}. */
export interface JwksSettings extends RefreshBounds {
  /** Where the JWK Set is: resolved on first use (from the issuer's metadata, or configured). */
  readonly uri: () => Promise<string>;
  readonly fetch: FetchSettings;
  /** Shortest interval between two fetches caused by an unknown `kid`, in milliseconds. */
  readonly minRefreshMs: number;
  readonly now?: () => number;
}

/** A JWK Set's keys, and the same indexed by `kid`. */
interface KeySet {
  readonly keys: readonly JsonObject[];
  readonly byKid: ReadonlyMap<string, readonly JsonObject[]>;
}

/** The keys of a JWK Set that have a `kty`, indexed by `kid`. */
function readKeys(body: JsonObject, uri: string): KeySet {
  const list = body.keys;
  if (!Array.isArray(list)) throw new AuthUnavailableError(`${uri} is not a JWK Set (no keys array)`);
  const keys = list.filter((k): k is JsonObject => typeof k === 'object' && k !== null && !Array.isArray(k) && typeof k.kty === 'string');
  const byKid = new Map<string, JsonObject[]>();
  for (const key of keys) {
    if (typeof key.kid !== 'string') continue;
    const named = byKid.get(key.kid);
    if (named === undefined) byKid.set(key.kid, [key]);
    else named.push(key);
  }
  return { keys, byKid };
}

/** A key's usability for one algorithm: why it is unfit, or its import (made once). */
type Usable = { readonly unfit: string } | { readonly key: Promise<VerifyKey> };

/** The signing keys of one issuer. */
export class JwksCache {
  readonly #settings: JwksSettings;
  readonly #now: () => number;
  readonly #keys: Refresher<KeySet>;
  readonly #usable = new WeakMap<JsonObject, Map<JwsAlgorithm, Usable>>();
  /** How many times the JWK Set was fetched (for tests and diagnostics). */
  fetches = 0;

  constructor(settings: JwksSettings) {
    this.#settings = settings;
    this.#now = settings.now ?? Date.now;
    this.#keys = new Refresher(
      async () => {
        const uri = await settings.uri();
        this.fetches++;
        const { body, maxAgeMs } = await fetchJson(uri, settings.fetch);
        return { value: readKeys(body, uri), maxAgeMs };
      },
      settings,
      this.#now,
    );
  }

  /**
   * The key that verifies a token signed with `alg` under `kid`.
   * @throws {InvalidTokenError} when the set has no such key (after at most one refetch), the
   *   token has no `kid` and the set has not exactly one key for `alg`, or the key does not fit
   *   `alg`.
   * @throws {AuthUnavailableError} when the set cannot be fetched and no earlier copy exists.
   */
  async key(alg: JwsAlgorithm, kid: string | undefined): Promise<VerifyKey> {
    let keys = await this.#keys.get();
    let found = this.#find(keys, alg, kid);
    if (found === undefined && kid !== undefined && this.#now() - this.#keys.fetchedAt >= this.#settings.minRefreshMs) {
      keys = await this.#keys.refresh();
      found = this.#find(keys, alg, kid);
    }
    if (found === undefined) {
      throw new InvalidTokenError(
        kid === undefined
          ? `the token has no kid and the issuer's JWKS has no single key for ${alg}`
          : `the issuer's JWKS has no key with kid ${JSON.stringify(kid.slice(0, 64))}`,
      );
    }
    const usable = this.#usableFor(found, alg);
    if ('unfit' in usable) {
      throw new InvalidTokenError(`the key ${kid === undefined ? '' : `${JSON.stringify(kid.slice(0, 64))} `}cannot verify ${alg}: ${usable.unfit}`);
    }
    try {
      return await usable.key;
    } catch {
      throw new InvalidTokenError(`the key ${JSON.stringify((kid ?? '').slice(0, 64))} in the issuer's JWKS is unusable for ${alg}`);
    }
  }

  /** Whether `jwk` can verify `alg`, checked and imported once per key and algorithm. */
  #usableFor(jwk: JsonObject, alg: JwsAlgorithm): Usable {
    let byAlg = this.#usable.get(jwk);
    if (byAlg === undefined) this.#usable.set(jwk, (byAlg = new Map()));
    let usable = byAlg.get(alg);
    if (usable === undefined) {
      const unfit = unfitKey(alg, jwk);
      usable = unfit === undefined ? { key: importPublicKey(alg, jwk) } : { unfit };
      byAlg.set(alg, usable);
    }
    return usable;
  }

  #find(set: KeySet, alg: JwsAlgorithm, kid: string | undefined): JsonObject | undefined {
    if (kid !== undefined) {
      // One kid may name keys of several types (RFC 7517 §4.5): prefer the one that fits.
      const named = set.byKid.get(kid);
      if (named === undefined) return undefined;
      return named.length === 1 ? named[0] : (named.find((k) => !('unfit' in this.#usableFor(k, alg))) ?? named[0]);
    }
    const fitting = set.keys.filter((k) => !('unfit' in this.#usableFor(k, alg)));
    return fitting.length === 1 ? fitting[0] : undefined;
  }
}
