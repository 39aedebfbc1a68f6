/**
 * GET on the MCP endpoint (legacy sessions only): opens the session's standalone SSE stream, or,
 * with `Last-Event-ID`, resumes a stream that dropped (see `resume.ts`), on whichever replica the
 * balancer picked. 2026-07-28 has no GET stream (`405`).
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Listening for Messages from the Server",
 * "Resumability and Redelivery"); MCP 2026-07-28, Basic / Transports / Streamable HTTP.
 * @module
 */
import { HttpReply, type HttpRequest, type ReplyHeaders } from './http-request.js';
import { ErrorCode } from '../protocol/errors.js';
import { MODERN_REVISIONS } from '../protocol/revisions.js';
import { emptyResponse, errorReply, HEADER, mergeHeaders } from './http-rules.js';
import { accepts } from './media-types.js';
import { findStream, followStream, replayStandalone, type ResumeContext } from './resume.js';
import type { LiveSessions } from './sessions.js';
import { sseHeaders } from './sse.js';

/** What a GET needs of the handler. */
export interface GetContext extends ResumeContext {
  sessions: LiveSessions;
}

/** Serves a GET: `405` (2026-07-28, or no session), `406`, `404`, `409`, or the stream. */
export async function getStream(context: GetContext, request: HttpRequest, cors: ReplyHeaders, owner: string): Promise<HttpReply> {
  const version = request.headers.get(HEADER.protocolVersion);
  const sessionId = request.headers.get(HEADER.sessionId);
  if ((version !== null && MODERN_REVISIONS.includes(version)) || sessionId === null) {
    // 2026-07-28 has no GET stream; legacy streams belong to a session.
    return emptyResponse(405, mergeHeaders({ allow: 'POST' }, cors));
  }
  const refuse = (status: number, text: string): HttpReply =>
    errorReply(status, ErrorCode.InvalidRequest, text, { headers: cors });
  if (!accepts(request.headers.get('accept'), 'text/event-stream')) {
    return refuse(406, 'Not Acceptable: Accept must list text/event-stream');
  }
  const session = await context.sessions.get(sessionId, owner);
  if (session === undefined) return refuse(404, 'Not Found: no such session');
  const headers = mergeHeaders(mergeHeaders(sseHeaders(), cors), { [HEADER.sessionId]: session.id });
  const lastEventId = request.headers.get('last-event-id');
  const found = lastEventId === null ? undefined : await findStream(context.events, session, lastEventId);
  if (found !== undefined && found.read.info.requestId !== undefined) {
    // A POST's stream: replayed, then followed up to its reply.
    const stream = followStream(context, found.streamId, found.seq, found.read);
    return new HttpReply(200, headers, stream);
  }
  const stream = context.sessions.openStream(session);
  if (stream === undefined) return refuse(409, 'Conflict: this session already has an open GET stream');
  // The standalone stream: what it missed first, then it goes on here.
  if (found !== undefined) replayStandalone(stream, found.streamId, found.seq, found.read);
  return new HttpReply(200, headers, stream);
}
