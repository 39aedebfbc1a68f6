/**
 * Streamable HTTP as a web-standard handler, `(request: Request) => Promise<Response>`, for every
 * runtime with the Fetch API (Node, Deno, Bun, Cloudflare Workers and other serverless hosts).
 * Both eras on one endpoint: 2026-07-28 requests are stateless (a fresh connection per POST, no
 * session, no GET stream), so replicas behind a load balancer need to share only the server's
 * `stateSecret`; legacy revisions get `Mcp-Session-Id` sessions, a GET stream and DELETE. The
 * endpoint itself (every check and answer) is `endpoint.ts`. Imports no `node:` module.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Streamable HTTP"); MCP 2026-07-28, Basic /
 * Transports / Streamable HTTP.
 * @module
 */
import type { Server } from '../server/server.js';
import { createEndpoint, type Endpoint } from './endpoint.js';
import type { ExecutionContext, FetchHandlerOptions } from './endpoint-options.js';
import { webRequest } from './http-request.js';

export type { ExecutionContext, FetchHandlerOptions } from './endpoint-options.js';


/** A Streamable HTTP handler: call it with each request to the MCP endpoint. */
export interface FetchHandler {
  /**
   * Answers `request`. `execution` is the runtime's per-request context where it has one (the
   * third argument of a Cloudflare Workers `fetch`): its `waitUntil` keeps work that outlives the
   * response (a task's run) alive.
   */
  (request: Request, execution?: ExecutionContext): Promise<Response>;
  /**
   * Graceful close: new requests get `503`, subscriptions end with their result, requests in
   * flight finish (up to `closeTimeoutMs`, then are aborted), then every session and stream ends.
   */
  close(): Promise<void>;
}


/**
 * Creates the Streamable HTTP handler of `server`: the `Endpoint` of
 * `createEndpoint` (internal), called with web `Request`s.
 * @throws {TypeError} for a `healthPath` that is not a path or is `path` itself.
 * @example
 * const handler = createFetchHandler(server, { path: '/mcp' });
 * Deno.serve((request) => handler(request));
 */
export function createFetchHandler(
  server: Server,
  options: FetchHandlerOptions = {},
): FetchHandler {
  return fetchHandlerOf(createEndpoint(server, options));
}

/** The {@link FetchHandler} that serves web `Request`s on `endpoint`. */
export function fetchHandlerOf(endpoint: Endpoint): FetchHandler {
  const handler = async (request: Request, execution?: ExecutionContext): Promise<Response> =>
    (await endpoint.serve(webRequest(request), execution)).toResponse();
  return Object.assign(handler, { close: endpoint.close });
}
