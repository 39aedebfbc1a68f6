/**
 * Admission before the body: what a Streamable HTTP POST tells by its headers alone, handed to the
 * server's admission checks (`Middleware.admit`) before the body is read. A refusal is the reply
 * at once (its status from its code: `429` with `Retry-After` for a rate limit), and the body is
 * never read or parsed. What the headers tell is in `AdmissionRequest`: the method only for
 * 2026-07-28 (`Mcp-Method`); the session id only for the legacy revisions.
 *
 * Spec: MCP 2026-07-28, Basic / Transports / Streamable HTTP ("Request Metadata"); MCP 2025-11-25,
 * Basic / Transports ("Session Management"); RFC 6585 §4 (429); RFC 9110 §10.2.3 (Retry-After).
 * @module
 */
import type { HttpReply, HttpRequest, ReplyHeaders } from './http-request.js';
import { MODERN_REVISIONS } from '../protocol/revisions.js';
import type { Principal } from '../server/request-info.js';
import type { Server } from '../server/server.js';
import { errorReply, HEADER, mergeHeaders, setRetryAfter, statusForError } from './http-rules.js';

/**
 * Runs `server`'s admission checks on a POST before its body is read.
 * @param principal the caller, when authorization verified one from the headers.
 * @returns the refusal as a response (CORS headers from `cors`), or undefined to go on.
 */
export function admissionRefusal(
  server: Server,
  request: HttpRequest,
  cors: ReplyHeaders,
  principal?: Principal,
): HttpReply | undefined {
  const headers = request.headers;
  const version = headers.get(HEADER.protocolVersion);
  const modern = version !== null && MODERN_REVISIONS.includes(version);
  // 2026-07-28 ignores Mcp-Session-Id; legacy POSTs name no method outside the body.
  const sessionId = modern ? null : headers.get(HEADER.sessionId);
  const refusal = server.admit({
    method: modern ? (headers.get(HEADER.method) ?? undefined) : undefined,
    transport:
      sessionId === null ? { kind: 'http', headers } : { kind: 'http', headers, sessionId },
    principal,
  });
  if (refusal === undefined) return undefined;
  // The body stays unread: the connection cannot carry another request after it.
  const close = mergeHeaders({ connection: 'close' }, cors);
  const replyHeaders = setRetryAfter(close, refusal.data);
  return errorReply(statusForError(refusal.code, modern), refusal.code, refusal.message, {
    ...(refusal.data === undefined ? {} : { data: refusal.data }),
    headers: replyHeaders,
  });
}
