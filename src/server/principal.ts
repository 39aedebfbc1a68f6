/**
 * What authorization means inside the server: which scopes a caller lacks for a tool or prompt,
 * and the one key that says whether two requests come from the same caller (so that a legacy
 * session, a multi round-trip `requestState` or a task stays with the caller that began it,
 * across refreshed tokens).
 *
 * Spec: MCP 2026-07-28, Basic / Authorization ("Scope Challenge Handling": every scope an
 * operation needs, in one challenge); Basic / Patterns / Multi Round-Trip Requests ("Server
 * Requirements": bind requestState to the request); RFC 9068 §2.2 (`sub`, `client_id`).
 * @module
 */
import type { Principal, TransportInfo } from './request-info.js';

/**
 * The scopes of `needed` that `granted` lacks, in the order `needed` lists them (empty: allowed).
 * A target that declares no scopes needs none.
 */
export function missingScopes(granted: readonly string[], needed: readonly string[] | undefined): string[] {
  if (needed === undefined || needed.length === 0) return [];
  return needed.filter((scope) => !granted.includes(scope));
}

/**
 * The key of a caller, the same for every token of that caller: its issuer and subject, or its
 * issuer and client id when the token has no subject (a client-credentials token). `''` for no
 * principal (stdio, or a server without authorization).
 */
export function principalKey(principal: Principal | undefined): string {
  if (principal === undefined) return '';
  if (principal.subject !== undefined) return JSON.stringify(['sub', principal.issuer ?? null, principal.subject]);
  return JSON.stringify(['client', principal.issuer ?? null, principal.clientId ?? null]);
}

/**
 * The scopes a list is filtered by for a request: the caller's, when the request is authorized
 * and its transport lists only what is permitted; undefined when the list is not filtered.
 */
export function listedFor(principal: Principal | undefined, transport: TransportInfo): readonly string[] | undefined {
  return principal !== undefined && transport.listing !== 'all' ? principal.scopes : undefined;
}

/** An RFC 6749 §3.3 scope token: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** True for a string usable as an OAuth scope (RFC 6749 §3.3 `scope-token`). */
export function isScopeToken(scope: unknown): scope is string {
  return typeof scope === 'string' && SCOPE_TOKEN.test(scope);
}

/**
 * Why a definition's `scopes` are unusable, or undefined when they are fine (absent, or an array
 * of scope tokens).
 */
export function badScopes(scopes: unknown): string | undefined {
  if (scopes === undefined) return undefined;
  if (!Array.isArray(scopes) || !scopes.every(isScopeToken)) {
    return 'scopes must be an array of OAuth scope names (printable ASCII without spaces, quotes or backslashes; RFC 6749 §3.3)';
  }
  return undefined;
}
