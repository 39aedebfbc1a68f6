/**
 * The claims of a verified token, checked and turned into the caller (`Principal`): `iss` equal
 * to the configured issuer, character for character; `aud` naming this server's canonical URI
 * (always: there is no switch to skip it); `exp` required and `nbf` honoured within a clock skew;
 * the scopes from `scope` (space-separated) or `scp` (a list), widened by the configured scope
 * hierarchy; and only the claims the server chose to expose.
 *
 * Spec: RFC 7519 §4.1 (`iss`, `aud`, `exp`, `nbf`, `iat`); RFC 9068 §4 (validating JWT access
 * tokens); RFC 8707 §2; RFC 8693 §4.2 (`scope`), §4.3 (`client_id`); MCP 2026-07-28, Basic /
 * Authorization ("Token Handling": the audience MUST be this server; "Step-Up Authorization
 * Flow": scope hierarchies).
 * @module
 */
import type { JsonObject, JsonValue } from '../protocol/messages.js';
import type { Principal } from '../server/request-info.js';
import { InvalidTokenError } from './errors.js';
import { sameResource } from './resource.js';

/** What the claims are checked against, and what of them the principal shows. */
export interface ClaimRules {
  /** The issuer identifier `iss` must equal. */
  readonly issuer: string;
  /** This server's canonical URI, which `aud` must contain. */
  readonly resource: string;
  /** Allowed clock difference, in seconds. */
  readonly clockSkewSec: number;
  /** Claims copied into `principal.claims` (when present in the token). */
  readonly exposeClaims: readonly string[];
  /** Scopes each scope implies (a broader scope grants narrower ones). */
  readonly impliedScopes: Readonly<Record<string, readonly string[]>>;
  /** Whether `principal.token` carries the raw token. */
  readonly exposeToken: boolean;
}

/** The scopes of a token or introspection answer: `scope` (space-separated) or `scp`. */
export function readScopes(claims: JsonObject): string[] {
  const scope = claims.scope ?? claims.scp;
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s.length > 0);
  if (Array.isArray(scope)) return scope.filter((s): s is string => typeof s === 'string' && s.length > 0);
  return [];
}

/** `scopes` plus every scope they imply, transitively, without repeats (given order first). */
export function widenScopes(scopes: readonly string[], implied: Readonly<Record<string, readonly string[]>>): string[] {
  const out = new Set(scopes);
  for (const scope of out) {
    const more = Object.prototype.hasOwnProperty.call(implied, scope) ? implied[scope] : undefined;
    if (more !== undefined) for (const s of more) out.add(s);
  }
  return [...out];
}

function numeric(claims: JsonObject, name: string): number | undefined {
  const value = claims[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidTokenError(`the token's ${name} is not a number`);
  return value;
}

/**
 * Checks the time claims: `exp` (required unless `requireExp` is false) and `nbf`, each within
 * `skew` seconds of `now` (milliseconds since the epoch).
 * @returns the expiry in milliseconds since the epoch, or undefined when there is none.
 * @throws {InvalidTokenError} for an expired token, one not yet valid, or a non-numeric claim.
 */
export function checkTimes(claims: JsonObject, now: number, skewSec: number, requireExp = true): number | undefined {
  const exp = numeric(claims, 'exp');
  const nbf = numeric(claims, 'nbf');
  numeric(claims, 'iat');
  const seconds = now / 1000;
  if (exp === undefined) {
    if (requireExp) throw new InvalidTokenError('the token has no exp');
  } else if (seconds >= exp + skewSec) {
    throw new InvalidTokenError('the token expired');
  }
  if (nbf !== undefined && seconds < nbf - skewSec) throw new InvalidTokenError('the token is not valid yet (nbf)');
  return exp === undefined ? undefined : exp * 1000;
}

/**
 * Checks that `iss` is the issuer and `aud` contains this server's canonical URI.
 * @throws {InvalidTokenError} naming the claim that is wrong (not its value).
 */
export function checkIssuerAndAudience(claims: JsonObject, rules: ClaimRules): void {
  if (claims.iss !== rules.issuer) throw new InvalidTokenError('the token was issued by another issuer (iss)');
  const aud = claims.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.some((a) => typeof a === 'string' && sameResource(a, rules.resource))) {
    throw new InvalidTokenError(`the token is not for this server (its aud must contain ${rules.resource})`);
  }
}

/**
 * The caller a set of verified claims describes.
 * @throws {InvalidTokenError} for claims that name neither a subject (`sub`) nor a client
 *   (`client_id` or `azp`): sessions, `requestState` and tasks are bound to one of them, and
 *   every such token would otherwise be one and the same caller (RFC 9068 §2.2 requires both).
 */
export function principalOf(claims: JsonObject, rules: ClaimRules, token: string): Principal {
  const chosen: Record<string, JsonValue> = {};
  for (const name of rules.exposeClaims) {
    const value = claims[name];
    if (value !== undefined) chosen[name] = value;
  }
  const clientId = typeof claims.client_id === 'string' ? claims.client_id : typeof claims.azp === 'string' ? claims.azp : undefined;
  if (typeof claims.sub !== 'string' && clientId === undefined) {
    throw new InvalidTokenError('the token names neither a subject (sub) nor a client (client_id), so it cannot be bound to a caller');
  }
  const principal: {
    -readonly [K in keyof Principal]: Principal[K];
  } = {
    scopes: Object.freeze(widenScopes(readScopes(claims), rules.impliedScopes)),
    claims: Object.freeze(chosen),
  };
  if (typeof claims.sub === 'string') principal.subject = claims.sub;
  if (clientId !== undefined) principal.clientId = clientId;
  if (typeof claims.iss === 'string') principal.issuer = claims.iss;
  if (rules.exposeToken) principal.token = token;
  return Object.freeze(principal);
}
