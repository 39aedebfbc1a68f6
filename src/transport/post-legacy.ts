/**
 * A legacy POST (2025-03-26 to 2025-11-25), served on its `Mcp-Session-Id` session: `initialize`
 * opens one, anything else needs a live one; a batch only on 2025-03-26 sessions.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Sending Messages to the Server", "Session
 * Management", "Protocol Version Header"); MCP 2025-03-26, Basic / Transports (batches).
 * @module
 */
import { ErrorCode } from '../protocol/errors.js';
import {
  isObject,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcResponse,
} from '../protocol/messages.js';
import { SUPPORTED_REVISIONS } from '../protocol/revisions.js';
import type { Connection, Reply, SessionSnapshot } from '../server/connection.js';
import { principalKey } from '../server/principal.js';
import type { HeaderReader, Principal, TransportRequestInfo } from '../server/request-info.js';
import { readInitialize } from '../server/lifecycle.js';
import { Exchange } from './exchange.js';
import type { HttpReply, ReplyHeaders } from './http-request.js';
import { authorizedInfo, scopeRefusal } from './authorize.js';
import { emptyResponse, errorReply, HEADER, jsonResponse, mergeHeaders } from './http-rules.js';
import { inFlightRefusal, requestCount, splitBatch, type InFlight, type InFlightPermit } from './in-flight.js';
import { idOf, isRequestShaped, settle, settleThen, type PostContext } from './post-context.js';
import { toRecord } from './sessions.js';
import { StreamJournal } from './stream-journal.js';

/** True when the reply is a lone error response. */
function isError(reply: Reply): boolean {
  return reply !== null && !Array.isArray(reply) && 'error' in reply;
}

/**
 * Serves a legacy POST on its session: `initialize` without `Mcp-Session-Id` opens one (the id
 * comes back in the response header); anything else needs a live session (`400` without the
 * header, `404` for an unknown or ended one). Notifications and responses get `202`; requests get
 * JSON or SSE. A client that disconnects does not cancel its request (it sends
 * `notifications/cancelled` for that).
 */
export async function postLegacy(
  context: PostContext,
  message: unknown,
  version: string | null,
  cors: ReplyHeaders,
  sessionId: string | null,
  requestHeaders: HeaderReader,
  principal?: Principal,
  waitUntil?: TransportRequestInfo['waitUntil'],
  address?: string,
): Promise<HttpReply> {
  const id = idOf(message);
  const withId = id === undefined ? {} : { id };
  if (version !== null && !SUPPORTED_REVISIONS.includes(version)) {
    return errorReply(
      400,
      ErrorCode.UnsupportedProtocolVersion,
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}`,
      {
        ...withId,
        data: { supported: [...SUPPORTED_REVISIONS], requested: version },
        headers: cors,
      },
    );
  }
  const { sessions } = context;
  // A session belongs to the caller that opened it; to any other it does not exist.
  const owner = principalKey(principal);
  const opening =
    sessionId === null &&
    isObject(message) &&
    message.method === 'initialize' &&
    isRequestShaped(message);
  if (sessionId === null && !opening) {
    return errorReply(
      400,
      ErrorCode.InvalidRequest,
      'Bad Request: Mcp-Session-Id header is required (start with initialize)',
      { ...withId, headers: cors },
    );
  }
  let session = opening ? undefined : await sessions.get(sessionId, owner);
  if (opening) {
    const handshake = initializeHandshake(message);
    if (handshake === undefined) {
      // Malformed: served without a session, so that its error names what is wrong.
      const connection = context.server.connect();
      const reply = await settle(connection.handle(message), message);
      connection.close();
      return jsonResponse(200, reply as JsonRpcMessage, cors);
    }
    session = await sessions.create(
      toRecord(owner, { ...handshake, logLevel: undefined, initialized: false, resourceSubscriptions: [] }, address),
    );
    if (session === undefined) {
      const text = 'Service Unavailable: too many sessions';
      return errorReply(503, ErrorCode.InternalError, text, { ...withId, headers: cors });
    }
  }
  if (session === undefined) {
    const text =
      'Not Found: no such session (it ended or expired); start a new one with initialize';
    return errorReply(404, ErrorCode.InvalidRequest, text, { ...withId, headers: cors });
  }
  if (principal !== undefined && context.auth !== undefined) {
    const refusal = scopeRefusal(context.auth, context.server, message, principal, cors);
    if (refusal !== undefined) return refusal;
  }
  const live = session;
  const headers = mergeHeaders({ [HEADER.sessionId]: live.id }, cors);
  const info: TransportRequestInfo = {
    kind: 'http',
    headers: requestHeaders,
    sessionId: live.id,
    ...(version === null ? {} : { protocolVersion: version }),
    ...(waitUntil === undefined ? {} : { waitUntil }),
    ...authorizedInfo(context.auth, principal),
  };
  const batch = Array.isArray(message) ? message : [message];
  if (!batch.some(isRequestShaped)) {
    const reply = await live.connection.handle(message, info);
    // State changes are stored, and stray messages relayed, before the client hears back.
    await sessions.settled(live);
    return reply === null ? emptyResponse(202, headers) : jsonResponse(400, reply, headers);
  }
  // Requests take places in flight (the opening initialize only towards the total); a batch is
  // refused whole only when none of its requests finds one.
  const { permit, run, refused } = admit(context.inFlight, opening ? undefined : `session ${live.id}`, message, live.connection);
  if (permit.granted === 0 && permit.refusedBy !== undefined) {
    if (opening) await sessions.delete(live.id);
    return inFlightRefusal(permit.refusedBy, opening ? cors : headers, id);
  }
  live.busy++;
  sessions.recording();
  const node = context.server.nodeId;
  const requestId = idOf(message);
  const exchange = new Exchange({
    modern: false,
    headers,
    sse: context.sse,
    journal: () =>
      new StreamJournal(
        context.events,
        { sessionId: live.id, node, ...(requestId === undefined ? {} : { requestId }) },
        (line) => context.server.report(line),
      ),
  });
  const served = settleThen(
    live.connection.handle(run, Object.assign({}, info, { send: exchange.send })),
    message,
    async (ran) => {
      permit.release();
      const reply = withRefused(ran, refused);
      // A failed initialize opens nothing.
      if (opening && isError(reply)) {
        delete headers[HEADER.sessionId];
        await sessions.delete(live.id);
      }
      await sessions.settled(live);
      await exchange.finish(reply);
      live.busy--;
    },
  );
  context.track(served);
  // `return await`: a promise returned as it is costs one more promise and turn.
  return await exchange.response;
}

/** The handshake an `initialize` request asks for, or undefined when its params are malformed. */
function initializeHandshake(message: unknown): Pick<SessionSnapshot, 'protocolVersion' | 'client'> | undefined {
  try {
    return readInitialize(isObject(message) && isObject(message.params) ? (message.params as JsonObject) : undefined);
  } catch {
    return undefined;
  }
}

/**
 * Takes places in flight for the requests of a legacy POST. A batch on a 2025-03-26 session is
 * split: the requests that found a place run (`run`), each other gets its error in `refused`.
 * Anything else runs whole, or not at all when its one request found no place.
 */
function admit(
  inFlight: InFlight,
  caller: string | undefined,
  message: unknown,
  connection: Connection,
): { permit: InFlightPermit; run: unknown; refused: JsonRpcResponse[] } {
  // A batch a session cannot take (not 2025-03-26, empty) runs nothing: its one error needs no place.
  const batch = Array.isArray(message) && message.length > 0 && connection.protocolVersion === '2025-03-26';
  const wanted = batch ? requestCount(message as unknown[]) : Array.isArray(message) ? 0 : 1;
  const permit = inFlight.take(caller, wanted);
  if (!batch || permit.granted === 0 || permit.refusedBy === undefined) return { permit, run: message, refused: [] };
  const { run, refused } = splitBatch(message as unknown[], permit.granted, permit.refusedBy);
  return { permit, run, refused };
}

/** The batch reply with the errors of the requests that found no place in flight. */
function withRefused(reply: Reply, refused: JsonRpcResponse[]): Reply {
  if (refused.length === 0) return reply;
  if (reply === null) return refused;
  return Array.isArray(reply) ? [...reply, ...refused] : reply;
}
