/**
 * Verifies one access token and says who the caller is. A token seen before and not yet expired
 * is answered from memory. Otherwise: a custom `verify` hook when configured (it replaces the
 * rest); a JWT is checked locally (its algorithm against the allow-list, its signature with the
 * issuer's key for its `kid`, or the HS256 secret, then its claims); any other token is
 * introspected when introspection is configured, and refused otherwise.
 *
 * Spec: OAuth 2.1 (draft-ietf-oauth-v2-1-13) §5.2 (the resource server validates the token);
 * RFC 9068 §4; RFC 7662; RFC 8725 §3.1 (the algorithm is checked against an allow-list);
 * MCP 2026-07-28, Basic / Authorization ("Token Handling").
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { Principal } from '../server/request-info.js';
import { importSecret, isJwsAlgorithm, isSymmetric, verifySignature, type VerifyKey } from './algorithms.js';
import { checkIssuerAndAudience, checkTimes, principalOf, type ClaimRules } from './claims.js';
import { Discovery } from './discovery.js';
import { AuthUnavailableError, InvalidTokenError } from './errors.js';
import type { FetchSettings } from './fetch-json.js';
import { introspect } from './introspection.js';
import { JwksCache } from './jwks.js';
import { looksLikeJws, parseJws } from './jws.js';
import type { CheckedOptions } from './options.js';
import { TokenCache } from './token-cache.js';

/** Largest size of a document fetched from the authorization server, in bytes. */
const MAX_DOCUMENT_BYTES = 1024 * 1024;

/**
 * Most introspection requests under way at once. Every opaque token not yet known costs one
 * request to the authorization server, so without a bound a flood of made-up tokens becomes a
 * flood of authenticated requests there; past it a new token gets `503` (the client retries).
 */
export const MAX_CONCURRENT_INTROSPECTIONS = 32;

/**
 * A custom hook's caller, made safe to use: `scopes` an array of strings and `claims` an object
 * (empty when the hook gave none), frozen.
 * @throws {TypeError} (a `500`, reported) for a caller with neither a string `subject` nor a
 *   string `clientId`: sessions, `requestState` and tasks are bound to one of them, so every
 *   such caller would be one and the same.
 */
function checkedPrincipal(principal: Principal): Principal {
  if (typeof principal.subject !== 'string' && typeof principal.clientId !== 'string') {
    throw new TypeError('the verify hook returned a caller with neither subject nor clientId; return one of them (sessions, requestState and tasks are bound to it)');
  }
  const scopes = Array.isArray(principal.scopes) ? principal.scopes.filter((s) => typeof s === 'string') : [];
  const claims = typeof principal.claims === 'object' && principal.claims !== null ? principal.claims : {};
  return Object.freeze({ ...principal, scopes: Object.freeze(scopes), claims: Object.freeze({ ...claims }) });
}

/** Verifies tokens for one resource server. */
export class TokenVerifier {
  readonly #options: CheckedOptions;
  readonly #rules: ClaimRules;
  readonly #cache: TokenCache<Principal>;
  readonly #discovery: Discovery;
  readonly #jwks: JwksCache;
  readonly #fetch: FetchSettings;
  #secret: Promise<VerifyKey> | undefined;
  readonly #now: () => number;
  /** Introspections under way, by token: a token sent again meanwhile shares its answer. */
  readonly #introspecting = new Map<string, Promise<Principal>>();

  constructor(options: CheckedOptions, now: () => number = Date.now) {
    this.#options = options;
    this.#now = now;
    this.#rules = {
      issuer: options.issuer,
      resource: options.audience,
      clockSkewSec: options.clockSkewSec,
      exposeClaims: options.exposeClaims,
      impliedScopes: options.impliedScopes,
      exposeToken: options.exposeToken,
    };
    this.#cache = new TokenCache(options.maxCachedTokens, now);
    const fetch: FetchSettings = { fetch: options.fetch, timeoutMs: options.fetchTimeoutMs, maxBytes: MAX_DOCUMENT_BYTES };
    const bounds = { minTtlMs: Math.min(60_000, options.cacheMaxAgeMs), maxTtlMs: options.cacheMaxAgeMs, retryMs: 10_000 };
    this.#discovery = new Discovery(options.issuer, fetch, bounds);
    const jwksUri = options.jwksUri;
    this.#jwks = new JwksCache({
      ...bounds,
      uri: async () => {
        if (jwksUri !== undefined) return jwksUri;
        const metadata = await this.#discovery.get();
        if (metadata.jwksUri === undefined) throw new AuthUnavailableError(`the issuer's metadata has no jwks_uri, so JWTs cannot be verified`);
        return metadata.jwksUri;
      },
      fetch,
      minRefreshMs: options.jwksMinRefreshMs,
      now,
    });
    this.#fetch = fetch;
  }

  /** How many times the JWK Set was fetched. */
  get jwksFetches(): number {
    return this.#jwks.fetches;
  }

  /**
   * The caller `token` stands for.
   * @throws {InvalidTokenError} for a token that is not valid for this server (the message says
   *   why without quoting the token).
   * @throws {AuthUnavailableError} when the authorization server could not be asked.
   */
  /** The caller of a token verified before and not yet expired, else undefined. */
  known(token: string): Principal | undefined {
    return this.#cache.get(token);
  }

  async verify(token: string, request: Request): Promise<Principal> {
    const cached = this.#cache.get(token);
    if (cached !== undefined) return cached;
    const options = this.#options;
    if (options.verify !== undefined) {
      const principal = await options.verify(token, request);
      if (principal === null || principal === undefined) throw new InvalidTokenError('the token was refused');
      return checkedPrincipal(principal);
    }
    if (looksLikeJws(token)) return this.#verifyJwt(token);
    if (options.introspection !== undefined) return this.#introspectOnce(token);
    throw new InvalidTokenError('the token is not a JWT, and this server does not introspect tokens');
  }

  async #verifyJwt(token: string): Promise<Principal> {
    const jws = parseJws(token);
    const alg = jws.alg;
    if (!isJwsAlgorithm(alg) || !this.#options.algorithms.has(alg)) {
      throw new InvalidTokenError(`the token's algorithm ${JSON.stringify(alg.slice(0, 32))} is not accepted (accepted: ${[...this.#options.algorithms].join(', ')})`);
    }
    const key = isSymmetric(alg) ? await (this.#secret ??= importSecret(this.#options.secret as Uint8Array)) : await this.#jwks.key(alg, jws.kid);
    if (!(await verifySignature(alg, key, jws))) throw new InvalidTokenError('the token signature does not verify');
    return this.#accept(token, jws.payload, true, Infinity);
  }

  /** {@link #introspect}, at most {@link MAX_CONCURRENT_INTROSPECTIONS} at once, once per token. */
  #introspectOnce(token: string): Promise<Principal> {
    const running = this.#introspecting;
    const shared = running.get(token);
    if (shared !== undefined) return shared;
    if (running.size >= MAX_CONCURRENT_INTROSPECTIONS) {
      return Promise.reject(new AuthUnavailableError(`${MAX_CONCURRENT_INTROSPECTIONS} token introspections are under way already`));
    }
    const answer = this.#introspect(token).finally(() => running.delete(token));
    running.set(token, answer);
    return answer;
  }

  async #introspect(token: string): Promise<Principal> {
    const settings = this.#options.introspection!;
    const claims = await introspect(token, {
      endpoint: async () => {
        if (settings.endpoint !== undefined) return settings.endpoint;
        const metadata = await this.#discovery.get();
        if (metadata.introspectionEndpoint === undefined) throw new AuthUnavailableError(`the issuer's metadata has no introspection_endpoint`);
        return metadata.introspectionEndpoint;
      },
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      fetch: this.#fetch,
    });
    // An introspection answer need not repeat the issuer; when it does, it must be ours.
    const withIssuer = claims.iss === undefined ? { ...claims, iss: this.#options.issuer } : claims;
    return this.#accept(token, withIssuer, false, this.#now() + settings.cacheMs);
  }

  #accept(token: string, claims: JsonObject, requireExp: boolean, cacheLimit: number): Principal {
    const expires = checkTimes(claims, this.#now(), this.#rules.clockSkewSec, requireExp);
    checkIssuerAndAudience(claims, this.#rules);
    const principal = principalOf(claims, this.#rules, token);
    this.#cache.set(token, principal, Math.min(cacheLimit, expires ?? cacheLimit));
    return principal;
  }
}
