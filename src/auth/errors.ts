/**
 * The two ways verifying an access token fails: the token is no good (`invalid_token`, answered
 * `401`), or the resource server could not find out (the authorization server's metadata, keys
 * or introspection endpoint unreachable, answered `503`).
 *
 * Spec: RFC 6750 §3.1 (`invalid_token`); MCP 2026-07-28, Basic / Authorization ("Token
 * Handling": invalid or expired tokens MUST receive a 401).
 * @module
 */

/**
 * The token is expired, revoked, malformed, not for this resource, or otherwise invalid: the
 * client gets `401` with `error="invalid_token"` and the message as `error_description`, so the
 * message must say what is wrong without echoing the token. Throw it from a custom `verify` hook.
 */
export class InvalidTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

/**
 * The token could not be checked because the authorization server (its metadata, its JWKS, its
 * introspection endpoint) did not answer usefully: the client gets `503` and may retry. Throw it
 * from a custom `verify` hook for the same outcome.
 */
export class AuthUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthUnavailableError';
  }
}
