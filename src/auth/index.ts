/**
 * baremcp/auth: an OAuth 2.1 resource server for remote MCP servers, with nothing but WebCrypto
 * and `fetch` (so it runs on Node, Deno, Bun and Workers): Protected Resource Metadata, Bearer
 * challenges, JWT verification against the issuer's JWKS (RS256, PS256, ES256, EdDSA, HS256 with
 * an explicit secret), RFC 7662 introspection, and a custom hook. Every line here is public API.
 *
 * Spec: MCP 2026-07-28, Basic / Authorization; RFC 9728, RFC 6750, RFC 8707, RFC 8414, RFC 7662.
 * @module baremcp/auth
 */
export { createResourceServer, ResourceServer } from './resource-server.js';
export type { AuthenticatedRequest, Authentication, Challenge } from './resource-server.js';
export type { ChallengeParams } from './bearer.js';
export type { IntrospectionOptions, ResourceServerOptions, VerifyToken } from './options.js';
export { AuthUnavailableError, InvalidTokenError } from './errors.js';
export { JWS_ALGORITHMS } from './algorithms.js';
export type { JwsAlgorithm } from './algorithms.js';
export type { Principal } from '../server/request-info.js';
