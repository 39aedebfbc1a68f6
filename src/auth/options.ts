/**
 * The options of a resource server, and their checks: everything is validated when the server is
 * made, so that a typo fails at start-up with a message that says how to fix it, never at the
 * first request.
 *
 * Spec: RFC 8414 §2 (an issuer is an https URL without query or fragment); RFC 7518 §3.2 (an
 * HS256 key has at least 256 bits); RFC 6749 §3.3 (scope tokens); MCP 2026-07-28, Basic /
 * Authorization.
 * @module
 */
import { isScopeToken } from '../server/principal.js';
import type { Principal } from '../server/request-info.js';
import { checkAlgorithms, DEFAULT_ALGORITHMS, type JwsAlgorithm } from './algorithms.js';
import { unsafeUrl } from './fetch-json.js';
import { canonicalResource } from './resource.js';

/**
 * A custom token check: resolves to the caller for a good token, or to null/undefined for a bad
 * one (`401 invalid_token`). Throw `InvalidTokenError` to say why a token is bad, or
 * `AuthUnavailableError` for `503`; anything else thrown is a `500`.
 */
export type VerifyToken = (token: string, request: Request) => Principal | null | undefined | Promise<Principal | null | undefined>;

/** RFC 7662 introspection of opaque tokens. */
export interface IntrospectionOptions {
  /** This resource server's client id at the authorization server. */
  clientId: string;
  /** Its client secret (sent with HTTP Basic). */
  clientSecret: string;
  /** The endpoint; default: `introspection_endpoint` from the issuer's metadata. */
  endpoint?: string;
  /**
   * Longest time an answer is reused, in milliseconds (never past the token's `exp`).
   * @default 60000
   */
  cacheMs?: number;
}

/**
 * Options of {@link createResourceServer}: who issues the tokens, who they must be for, how they
 * are verified, and what the callers see.
 * @example
 * createResourceServer({ issuer: 'https://auth.example.com', audience: 'https://mcp.example.com/mcp' });
 */
export interface ResourceServerOptions {
  /**
   * The authorization server's issuer identifier, exactly as it appears in its metadata and in
   * the tokens' `iss` (https; http only for a loopback host).
   */
  issuer: string;
  /**
   * This MCP server's canonical URI (RFC 8707 resource): every token's `aud` must contain it, and
   * it is the `resource` of the Protected Resource Metadata. Usually the endpoint's public URL,
   * e.g. `https://mcp.example.com/mcp`.
   */
  audience: string;
  /** The `authorization_servers` of the metadata. @default [issuer] */
  authorizationServers?: string[];
  /**
   * Accepted JWS algorithms (a closed set: `RS256`, `PS256`, `ES256`, `EdDSA`, `Ed25519`,
   * `HS256`); `none` is never accepted.
   * @default ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'], plus 'HS256' when `secret` is given
   */
  algorithms?: JwsAlgorithm[];
  /** The HS256 shared secret (at least 32 bytes); only HS256 tokens are checked with it. */
  secret?: string | Uint8Array;
  /** The JWK Set URL; default: `jwks_uri` from the issuer's metadata (RFC 8414 / OpenID discovery). */
  jwksUri?: string;
  /** Allowed clock difference for `exp` and `nbf`, in seconds. @default 60 */
  clockSkewSec?: number;
  /**
   * The `scopes_supported` of the metadata and the `scope` of a `401` challenge; default: every
   * scope the server's tools and prompts declare.
   */
  scopes?: string[];
  /** Scope hierarchy: each scope grants the scopes listed for it, e.g. `{ 'files:write': ['files:read'] }`. */
  impliedScopes?: Record<string, string[]>;
  /**
   * `permitted`: `tools/list` and `prompts/list` show a caller only what its scopes allow;
   * `all`: they show everything (calls still need the scopes).
   * @default 'permitted'
   */
  listing?: 'permitted' | 'all';
  /** Token claims copied into `ctx.principal.claims` (e.g. `['email', 'tenant']`). @default [] */
  exposeClaims?: string[];
  /** Put the raw token in `ctx.principal.token` (for a server that must show it to its AS). @default false */
  exposeToken?: boolean;
  /** Introspect opaque (non-JWT) tokens (RFC 7662). */
  introspection?: IntrospectionOptions;
  /** A custom check that replaces the built-in one (JWT and introspection). */
  verify?: VerifyToken;
  /** The `resource_name` of the metadata. */
  resourceName?: string;
  /** The `fetch` used for metadata, JWKS and introspection. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Time-out of one fetch, in milliseconds. @default 5000 */
  fetchTimeoutMs?: number;
  /** Shortest interval between JWKS refetches caused by an unknown `kid`, in milliseconds. @default 30000 */
  jwksMinRefreshMs?: number;
  /** Longest time the metadata and JWKS are kept without a refetch, in milliseconds. @default 3600000 */
  cacheMaxAgeMs?: number;
  /** Most verified tokens remembered (each until its `exp`). @default 10000 */
  maxCachedTokens?: number;
}

/** Options after their checks, with defaults applied. */
export interface CheckedOptions {
  readonly issuer: string;
  readonly audience: string;
  readonly authorizationServers: readonly string[];
  readonly algorithms: ReadonlySet<JwsAlgorithm>;
  readonly secret: Uint8Array | undefined;
  readonly jwksUri: string | undefined;
  readonly clockSkewSec: number;
  readonly scopes: readonly string[] | undefined;
  readonly impliedScopes: Readonly<Record<string, readonly string[]>>;
  readonly listing: 'permitted' | 'all';
  readonly exposeClaims: readonly string[];
  readonly exposeToken: boolean;
  readonly introspection:
    | { readonly clientId: string; readonly clientSecret: string; readonly endpoint: string | undefined; readonly cacheMs: number }
    | undefined;
  readonly verify: VerifyToken | undefined;
  readonly resourceName: string | undefined;
  readonly fetch: typeof fetch;
  readonly fetchTimeoutMs: number;
  readonly jwksMinRefreshMs: number;
  readonly cacheMaxAgeMs: number;
  readonly maxCachedTokens: number;
}

const KNOWN: readonly (keyof ResourceServerOptions)[] = [
  'issuer', 'audience', 'authorizationServers', 'algorithms', 'secret', 'jwksUri', 'clockSkewSec', 'scopes',
  'impliedScopes', 'listing', 'exposeClaims', 'exposeToken', 'introspection', 'verify', 'resourceName', 'fetch',
  'fetchTimeoutMs', 'jwksMinRefreshMs', 'cacheMaxAgeMs', 'maxCachedTokens',
];

const WHERE = 'createResourceServer';

function fetchableUrl(value: unknown, name: string): string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new TypeError(`${WHERE}: ${name} ${JSON.stringify(value)} is not an absolute URL`);
  }
  if (typeof value !== 'string') throw new TypeError(`${WHERE}: ${name} must be a string URL`);
  const unsafe = unsafeUrl(url);
  if (unsafe !== undefined) throw new TypeError(`${WHERE}: ${name}: ${unsafe}`);
  return value;
}

function scopeList(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || !value.every(isScopeToken)) {
    throw new TypeError(`${WHERE}: ${name} must be an array of scope names (printable ASCII without spaces, quotes or backslashes)`);
  }
  return [...value];
}

function count(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`${WHERE}: ${name} must be a number >= 0`);
  }
  return value;
}

/**
 * Checks `options` and applies the defaults.
 * @throws {TypeError} naming the option and the fix: an unknown option, a missing or non-https
 *   issuer, a missing audience or one with a fragment, an unknown algorithm (the message lists
 *   the known ones), HS256 without a secret (or a secret shorter than 32 bytes), a bad scope.
 */
export function checkOptions(options: ResourceServerOptions): CheckedOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${WHERE}: options must be an object { issuer, audience, ... }`);
  for (const key of Object.keys(options)) {
    if (!(KNOWN as readonly string[]).includes(key)) {
      throw new TypeError(`${WHERE}: unknown option ${JSON.stringify(key)} (known: ${KNOWN.join(', ')})`);
    }
  }
  if (options.issuer === undefined) throw new TypeError(`${WHERE}: issuer is required (the authorization server's issuer URL)`);
  const issuer = fetchableUrl(options.issuer, 'issuer');
  if (/[?#]/.test(issuer)) throw new TypeError(`${WHERE}: issuer ${JSON.stringify(issuer)} must not have a query or fragment (RFC 8414 §2)`);
  if (options.audience === undefined) {
    throw new TypeError(`${WHERE}: audience is required (this server's canonical URI, e.g. https://mcp.example.com/mcp)`);
  }
  const audience = canonicalResource(options.audience, `${WHERE}: audience`);
  const secretInput = options.secret;
  const secret = typeof secretInput === 'string' ? new TextEncoder().encode(secretInput) : secretInput instanceof Uint8Array ? new Uint8Array(secretInput) : undefined;
  if (secretInput !== undefined && secret === undefined) throw new TypeError(`${WHERE}: secret must be a string or a Uint8Array`);
  if (secret !== undefined && secret.length < 32) throw new TypeError(`${WHERE}: secret must have at least 32 bytes for HS256 (RFC 7518 §3.2)`);
  const algorithms = checkAlgorithms(options.algorithms ?? [...DEFAULT_ALGORITHMS, ...(secret ? (['HS256'] as const) : [])], WHERE);
  if (algorithms.includes('HS256') && secret === undefined) {
    throw new TypeError(`${WHERE}: algorithm HS256 needs a secret (the key shared with the authorization server)`);
  }
  if (secret !== undefined && !algorithms.includes('HS256')) {
    throw new TypeError(`${WHERE}: a secret is given but HS256 is not among the algorithms`);
  }
  const introspection = options.introspection;
  if (introspection !== undefined) {
    if (typeof introspection.clientId !== 'string' || typeof introspection.clientSecret !== 'string') {
      throw new TypeError(`${WHERE}: introspection needs clientId and clientSecret (this server's credentials at the authorization server)`);
    }
    if (introspection.endpoint !== undefined) fetchableUrl(introspection.endpoint, 'introspection.endpoint');
  }
  const implied: Record<string, readonly string[]> = {};
  for (const [scope, more] of Object.entries(options.impliedScopes ?? {})) {
    if (!isScopeToken(scope)) throw new TypeError(`${WHERE}: impliedScopes: ${JSON.stringify(scope)} is not a scope name`);
    implied[scope] = scopeList(more, `impliedScopes[${JSON.stringify(scope)}]`);
  }
  const listing = options.listing ?? 'permitted';
  if (listing !== 'permitted' && listing !== 'all') throw new TypeError(`${WHERE}: listing must be 'permitted' or 'all'`);
  if (options.verify !== undefined && typeof options.verify !== 'function') {
    throw new TypeError(`${WHERE}: verify must be a function (token, request) => principal`);
  }
  const fetcher = options.fetch === undefined ? globalThis.fetch : options.fetch;
  if (typeof fetcher !== 'function') throw new TypeError(`${WHERE}: no fetch available; pass options.fetch`);
  return {
    issuer,
    audience,
    authorizationServers: (options.authorizationServers ?? [issuer]).map((s, i) => fetchableUrl(s, `authorizationServers[${i}]`)),
    algorithms: new Set(algorithms),
    secret,
    jwksUri: options.jwksUri === undefined ? undefined : fetchableUrl(options.jwksUri, 'jwksUri'),
    clockSkewSec: count(options.clockSkewSec, 'clockSkewSec', 60),
    scopes: options.scopes === undefined ? undefined : scopeList(options.scopes, 'scopes'),
    impliedScopes: implied,
    listing,
    exposeClaims: options.exposeClaims === undefined ? [] : [...options.exposeClaims].map(String),
    exposeToken: options.exposeToken === true,
    introspection:
      introspection === undefined
        ? undefined
        : {
            clientId: introspection.clientId,
            clientSecret: introspection.clientSecret,
            endpoint: introspection.endpoint,
            cacheMs: count(introspection.cacheMs, 'introspection.cacheMs', 60_000),
          },
    verify: options.verify,
    resourceName: options.resourceName,
    fetch: fetcher,
    fetchTimeoutMs: count(options.fetchTimeoutMs, 'fetchTimeoutMs', 5000),
    jwksMinRefreshMs: count(options.jwksMinRefreshMs, 'jwksMinRefreshMs', 30_000),
    cacheMaxAgeMs: count(options.cacheMaxAgeMs, 'cacheMaxAgeMs', 3_600_000),
    maxCachedTokens: count(options.maxCachedTokens, 'maxCachedTokens', 10_000),
  };
}
