/**
 * Authorization on the Streamable HTTP endpoint: the Protected Resource Metadata documents, the
 * bearer check every request to the endpoint passes before anything else is read, the per-target
 * scope check (`403 insufficient_scope` before the tool or prompt runs), and the caller key a
 * legacy session is bound to. The token work itself is the `ResourceServer`'s (`baremcp/auth`);
 * this module only turns its answers into HTTP.
 *
 * Spec: MCP 2026-07-28, Basic / Authorization ("Error Handling": 401, 403, 400; "Scope Challenge
 * Handling": every needed scope in one challenge), Authorization Server Discovery (Protected
 * Resource Metadata at the root and path-aware well-known URLs); RFC 9728 §3.2 (a 200 JSON
 * document), §5.1; RFC 6750 §3, §3.1.
 * @module
 */
import { HttpReply, type HttpRequest, type ReplyHeaders } from './http-request.js';
import type { ResourceServer } from '../auth/resource-server.js';
import { ErrorCode } from '../protocol/errors.js';
import { isObject, isRequestId, type JsonObject, type RequestId } from '../protocol/messages.js';
import { missingScopes } from '../server/principal.js';
import type { Principal, TransportRequestInfo } from '../server/request-info.js';
import type { Server } from '../server/server.js';
import { emptyResponse, errorReply } from './http-rules.js';

/** Every scope the server's tools and prompts declare, sorted (the default `scopes_supported`). */
export function declaredScopes(server: Server): string[] {
  const scopes = new Set<string>();
  for (const tool of server.tools.list()) for (const scope of tool.scopes ?? []) scopes.add(scope);
  for (const prompt of server.prompts.definitions()) for (const scope of prompt.scopes ?? []) scopes.add(scope);
  return [...scopes].sort();
}

function supportedScopes(auth: ResourceServer, server: Server): readonly string[] {
  return auth.scopes ?? declaredScopes(server);
}

/**
 * The answer to a request for the Protected Resource Metadata, or undefined when `url` is not
 * one of its paths. Public: any origin may read it (`Access-Control-Allow-Origin: *`).
 */
export function metadataResponse(
  auth: ResourceServer,
  server: Server,
  request: HttpRequest,
  url: URL,
  endpointPath: string | undefined,
): HttpReply | undefined {
  if (!auth.isMetadataPath(url.pathname, endpointPath)) return undefined;
  const headers: ReplyHeaders = { 'access-control-allow-origin': '*' };
  if (request.method === 'OPTIONS') {
    headers['access-control-allow-methods'] = 'GET, HEAD, OPTIONS';
    headers['access-control-max-age'] = '600';
    return emptyResponse(204, headers);
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    headers.allow = 'GET, HEAD, OPTIONS';
    return emptyResponse(405, headers);
  }
  headers['content-type'] = 'application/json';
  headers['cache-control'] = 'public, max-age=3600';
  const body = request.method === 'HEAD' ? null : JSON.stringify(auth.metadata(supportedScopes(auth, server)));
  return new HttpReply(200, headers, body);
}

/**
 * Authenticates a request to the MCP endpoint.
 * @returns the caller, or the refusal: `401` with a challenge (no error code when no token came,
 *   `invalid_token` for a bad one), `400` `invalid_request` for a malformed one, `503` when the
 *   authorization server cannot be reached, `500` when a custom verifier failed.
 */
export async function authenticate(
  auth: ResourceServer,
  server: Server,
  request: HttpRequest,
  cors: ReplyHeaders,
): Promise<Principal | HttpReply> {
  // A token verified before is known from the headers alone: no web `Request` on the node:http path.
  const outcome = await auth.authenticate({
    headers: request.headers,
    url: request.url.href,
    toRequest: () => request.toRequest(),
  });
  if (outcome.ok) return outcome.principal;
  if (outcome.detail !== undefined) server.report(outcome.detail);
  const headers = { ...cors };
  let text: string;
  switch (outcome.status) {
    case 401:
      if (outcome.error === undefined) {
        headers['www-authenticate'] = auth.challenge({ scope: supportedScopes(auth, server).join(' ') });
        text = 'Unauthorized: send an access token in the Authorization header (Bearer)';
      } else {
        headers['www-authenticate'] = auth.challenge({ error: 'invalid_token', description: outcome.description });
        text = `Unauthorized: invalid token: ${outcome.description}`;
      }
      break;
    case 400:
      headers['www-authenticate'] = auth.challenge({ error: 'invalid_request', description: outcome.description });
      text = `Bad Request: ${outcome.description}`;
      break;
    case 503:
      headers['retry-after'] = '10';
      text = `Service Unavailable: ${outcome.description}`;
      break;
    default:
      text = `Internal error: ${outcome.description}`;
  }
  return errorReply(outcome.status, outcome.status === 500 || outcome.status === 503 ? ErrorCode.InternalError : ErrorCode.InvalidRequest, text, { headers });
}

/**
 * The `403 insufficient_scope` answer for a message (or legacy batch) whose requests address a
 * tool or prompt needing scopes the caller lacks, or undefined when every request may run. The
 * challenge lists every scope the requests need, in one `scope`.
 */
export function scopeRefusal(
  auth: ResourceServer,
  server: Server,
  message: unknown,
  principal: Principal,
  cors: ReplyHeaders,
): HttpReply | undefined {
  const needed = new Set<string>();
  const missing = new Set<string>();
  const names: string[] = [];
  let id: RequestId | undefined;
  for (const item of Array.isArray(message) ? message : [message]) {
    if (!isObject(item) || typeof item.method !== 'string' || !isRequestId(item.id)) continue;
    const target = server.target(item.method, isObject(item.params) ? (item.params as JsonObject) : undefined);
    const lacking = missingScopes(principal.scopes, target?.scopes);
    if (target === undefined || lacking.length === 0) continue;
    for (const scope of target.scopes ?? []) needed.add(scope);
    for (const scope of lacking) missing.add(scope);
    names.push(`${target.kind} "${target.name}"`);
    id ??= item.id;
  }
  if (missing.size === 0) return undefined;
  const scope = [...needed].join(' ');
  const description = `${names.join(', ')} needs scope ${scope}`;
  const headers = { ...cors };
  headers['www-authenticate'] = auth.challenge({ error: 'insufficient_scope', scope, description });
  const text = `Forbidden: insufficient scope: ${description} (missing: ${[...missing].join(' ')})`;
  return errorReply(403, ErrorCode.InvalidRequest, text, {
    ...(Array.isArray(message) || id === undefined ? {} : { id }),
    data: { requiredScopes: [...needed] },
    headers,
  });
}

/** The per-request transport facts of an authorized request. */
export function authorizedInfo(auth: ResourceServer | undefined, principal: Principal | undefined): Partial<TransportRequestInfo> {
  return principal === undefined || auth === undefined ? {} : { principal, listing: auth.listing };
}
