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

/** The keys of a JWK Set that have a `kty`. */
function readKeys(body: JsonObject, uri: string): JsonObject[] {
  const keys = body.keys;
  if (!Array.isArray(keys)) throw new AuthUnavailableError(`${uri} is not a JWK Set (no keys array)`);
  return keys.filter((k): k is JsonObject => typeof k === 'object' && k !== null && !Array.isArray(k) && typeof k.kty === 'string');
}

/** The signing keys of one issuer. */
export class JwksCache {
  readonly #settings: JwksSettings;
  readonly #now: () => number;
  readonly #keys: Refresher<JsonObject[]>;
  readonly #imported = new WeakMap<JsonObject, Map<JwsAlgorithm, Promise<VerifyKey>>>();
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
    const unfit = unfitKey(alg, found);
    if (unfit !== undefined) throw new InvalidTokenError(`the key ${kid === undefined ? '' : `${JSON.stringify(kid.slice(0, 64))} `}cannot verify ${alg}: ${unfit}`);
    let byAlg = this.#imported.get(found);
    if (byAlg === undefined) this.#imported.set(found, (byAlg = new Map()));
    let key = byAlg.get(alg);
    if (key === undefined) {
      key = importPublicKey(alg, found);
      byAlg.set(alg, key);
    }
    try {
      return await key;
    } catch {
      throw new InvalidTokenError(`the key ${JSON.stringify((kid ?? '').slice(0, 64))} in the issuer's JWKS is unusable for ${alg}`);
    }
  }

  #find(keys: readonly JsonObject[], alg: JwsAlgorithm, kid: string | undefined): JsonObject | undefined {
    if (kid !== undefined) {
      // One kid may name keys of several types (RFC 7517 §4.5): prefer the one that fits.
      const named = keys.filter((k) => k.kid === kid);
      return named.find((k) => unfitKey(alg, k) === undefined) ?? named[0];
    }
    const fitting = keys.filter((k) => unfitKey(alg, k) === undefined);
    return fitting.length === 1 ? fitting[0] : undefined;
  }
}
