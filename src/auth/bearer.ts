/**
 * The Bearer scheme on the wire: reading the access token from the `Authorization` header (the
 * only place this server accepts it), and writing the `WWW-Authenticate` challenge that answers a
 * request without a usable token or without enough scope, its values quoted and escaped.
 *
 * Spec: RFC 6750 §2.1 (`Authorization: Bearer <b64token>`, the scheme case-insensitive per
 * RFC 9110 §11.1), §2.3 and MCP 2026-07-28, Basic / Authorization ("Access tokens MUST NOT be
 * included in the URI query string"), §3 (the challenge: `scope`, `error`, `error_description`;
 * no error code when the request had no authentication), §3.1 (error codes); RFC 9728 §5.1
 * (`resource_metadata`); RFC 9110 §5.6.4 (quoted-string).
 * @module
 */

/** What the `Authorization` header of a request holds. */
export type BearerCredentials =
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed'; readonly description: string };

/** The RFC 6750 `b64token` (RFC 7235 token68) syntax. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
const CREDENTIALS = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?: +(.*))?$/;

/** Longest token accepted, in characters. */
export const MAX_TOKEN_LENGTH = 8192;

/**
 * Reads the bearer token of a request.
 * @param authorization the `Authorization` header (several headers arrive joined by `, `).
 * @param url the request URL: an `access_token` in its query beside a header token is a second
 *   method of sending a token (RFC 6750 §3.1 `invalid_request`); alone, it is ignored.
 */
export function readBearer(authorization: string | null, url: string): BearerCredentials {
  if (authorization === null) return { kind: 'none' };
  if (authorization.includes(',')) {
    return { kind: 'malformed', description: 'send exactly one Authorization header' };
  }
  const match = CREDENTIALS.exec(authorization.trim());
  if (match === null) return { kind: 'malformed', description: 'the Authorization header is malformed' };
  if ((match[1] as string).toLowerCase() !== 'bearer') return { kind: 'none' };
  const token = (match[2] ?? '').trim();
  if (!TOKEN68.test(token)) return { kind: 'malformed', description: 'the Bearer token is missing or malformed' };
  if (token.length > MAX_TOKEN_LENGTH) {
    return { kind: 'malformed', description: `the Bearer token is longer than ${MAX_TOKEN_LENGTH} characters` };
  }
  if (url.includes('?') && hasQueryToken(url)) {
    return { kind: 'malformed', description: 'send the token in the Authorization header only, never in the URL' };
  }
  return { kind: 'token', token };
}

/** True when the query of `url` has an `access_token` parameter (false for a malformed URL). */
function hasQueryToken(url: string): boolean {
  try {
    return new URL(url).searchParams.has('access_token');
  } catch {
    return false;
  }
}

/** The parameters of one Bearer challenge. */
export interface ChallengeParams {
  /** `invalid_request`, `invalid_token` or `insufficient_scope`; absent when no token came. */
  readonly error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  /** A sentence for a developer (non-ASCII and control characters are dropped). */
  readonly description?: string;
  /** The scopes the request needs, space-separated. */
  readonly scope?: string;
  /** The URL of the Protected Resource Metadata. */
  readonly resourceMetadata: string;
}

/**
 * A `quoted-string` (RFC 9110 §5.6.4) holding `value`: `"` and `\` escaped, and characters
 * outside printable ASCII dropped (RFC 6750 §3 limits `error_description` to them).
 */
export function quoted(value: string): string {
  return `"${value.replace(/[^\x20-\x7E]/g, '').replace(/["\\]/g, '\\$&')}"`;
}

/** The `WWW-Authenticate` value of a Bearer challenge. */
export function bearerChallenge(params: ChallengeParams): string {
  const parts: string[] = [];
  if (params.error !== undefined) parts.push(`error=${quoted(params.error)}`);
  if (params.description !== undefined) parts.push(`error_description=${quoted(params.description)}`);
  if (params.scope !== undefined && params.scope !== '') parts.push(`scope=${quoted(params.scope)}`);
  parts.push(`resource_metadata=${quoted(params.resourceMetadata)}`);
  return `Bearer ${parts.join(', ')}`;
}
