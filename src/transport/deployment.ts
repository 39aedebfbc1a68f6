/**
 * What an operator needs from the Streamable HTTP handler when it runs as one of several replicas
 * behind a load balancer: the opt-in health endpoint (`healthPath`), and the one line reported
 * when the server has no shared `stateSecret`. Pure: no `node:` module.
 *
 * Spec: MCP 2026-07-28, Basic / Patterns / Multi Round-Trip Requests ("Server Requirements":
 * `requestState` integrity); RFC 9110 §15.6.4 (503 Service Unavailable), §9.3.2 (HEAD).
 * @module
 */
import { HttpReply, type ReplyHeaders } from './http-request.js';
import type { Server } from '../server/server.js';

/**
 * The line reported when HTTP is served without a shared `stateSecret`: what breaks with more
 * than one replica, and how to fix it.
 */
export const NO_STATE_SECRET: string =
  'no stateSecret configured: requestState is signed with a key random to this process, so with ' +
  'more than one replica a multi round-trip request (elicitation, sampling, roots) whose retry ' +
  'reaches another replica fails with "integrity check failed"; give every replica the same ' +
  'secret: createServer({ stateSecret }), baremcp serve --state-secret, or BAREMCP_STATE_SECRET';

/**
 * Reports {@link NO_STATE_SECRET} through `server.report` (stderr by default) when `server` has no
 * shared secret. A server of another copy of baremcp without `hasStateSecret` is not reported.
 */
export function reportMissingStateSecret(server: Server): void {
  if ((server as { hasStateSecret?: boolean }).hasStateSecret === false) {
    server.report(NO_STATE_SECRET);
  }
}

/** Headers of every health reply: JSON, never cached. */
function healthHeaders(): ReplyHeaders {
  return { 'content-type': 'application/json', 'cache-control': 'no-store' };
}

/**
 * The answer of the health endpoint: to `GET` and `HEAD`, `200 {"status":"ok"}` while the
 * handler serves and `503 {"status":"closing"}` once its graceful close began (so that a load
 * balancer sends no new request to a replica that drains); to any other method `405` with
 * `Allow: GET, HEAD`. It needs no session, reads no body and is answered before the `Host` check
 * (balancers probe by address); it tells nothing but the status.
 */
export function healthResponse(method: string, closing: boolean): HttpReply {
  if (method !== 'GET' && method !== 'HEAD') {
    const headers = healthHeaders();
    headers.allow = 'GET, HEAD';
    return new HttpReply(405, headers);
  }
  const body = method === 'HEAD' ? null : JSON.stringify({ status: closing ? 'closing' : 'ok' });
  return new HttpReply(closing ? 503 : 200, healthHeaders(), body);
}
