/**
 * POST to the MCP endpoint: one JSON-RPC message (a batch only on 2025-03-26 sessions), served in
 * the era it belongs to. A 2026-07-28 request (its `_meta` names the protocol version, or the
 * `MCP-Protocol-Version` header names a modern revision) has its headers checked against its body
 * and is served on a fresh connection that lives exactly as long as the POST: nothing outlives the
 * request, so any replica can serve any request. Any other message belongs to a legacy session.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Sending Messages to the Server", "Session
 * Management", "Protocol Version Header"); MCP 2026-07-28, Basic / Transports / Streamable HTTP
 * ("Sending Messages", "Request Metadata", "Cancellation"), Basic / Overview ("Per-request
 * protocol fields").
 * @module
 */
import { classify } from '../protocol/classify.js';
import { ErrorCode, errorResponse } from '../protocol/errors.js';
import {
  hasOwn,
  isObject,
  isRequestId,
  type JsonObject,
  type JsonRpcMessage,
  type RequestId,
} from '../protocol/messages.js';
import { MODERN_REVISIONS, SUPPORTED_REVISIONS } from '../protocol/revisions.js';
import type { ResourceServer } from '../auth/resource-server.js';
import type { Connection, Reply, SessionSnapshot } from '../server/connection.js';
import { principalKey } from '../server/principal.js';
import type { Principal, TransportRequestInfo } from '../server/request-info.js';
import { isModernRequest } from '../server/era.js';
import { META } from '../protocol/meta.js';
import type { Server } from '../server/server.js';
import { Exchange } from './exchange.js';
import { authorizedInfo, scopeRefusal } from './authorize.js';
import { checkRequestHeaders, paramHeaders } from './headers.js';
import { emptyResponse, errorReply, HEADER, jsonResponse, mergeHeaders } from './http-rules.js';
import type { EventStore } from './event-store.js';
import type { LiveSessions } from './sessions.js';
import { toRecord } from './sessions.js';
import type { SseOptions } from './sse.js';
import { StreamJournal } from './stream-journal.js';
import { readInitialize } from '../server/lifecycle.js';

/** What the POST handlers share with the fetch handler. */
export interface PostContext {
  server: Server;
  /** The resource server, when the endpoint requires authorization. */
  auth?: ResourceServer;
  sessions: LiveSessions;
  /** Where the events of legacy streams are stored, for resumption. */
  events: EventStore;
  sse: SseOptions;
  /** Registers work in flight, so that a graceful close can wait for it. */
  track(work: Promise<unknown>): void;
  /** The 2026-07-28 connections in flight (each serves one POST). */
  live: Set<Connection>;
}

/** The id of a request-shaped message, when it has a usable one. */
function idOf(message: unknown): RequestId | undefined {
  return isObject(message) && isRequestId(message.id) ? message.id : undefined;
}

/** True for a message that expects a reply: a `method` and an `id`. */
function isRequestShaped(message: unknown): boolean {
  return isObject(message) && typeof message.method === 'string' && hasOwn(message, 'id');
}

/** True when the reply is a lone error response. */
function isError(reply: Reply): boolean {
  return reply !== null && !Array.isArray(reply) && 'error' in reply;
}

/** `handle` never rejects; should it ever, the request still gets an answer (`-32603`). */
function settle(reply: Promise<Reply>, message: unknown): Promise<Reply> {
  return reply.catch(() => errorResponse(idOf(message), ErrorCode.InternalError, 'Internal error'));
}

/**
 * True when a decoded POST body belongs to 2026-07-28: by its version header, or by its `_meta`
 * (except `initialize`, which selects the legacy era unless the header names a modern revision).
 */
export function isModernPost(message: unknown, version: string | null): boolean {
  if (version !== null && MODERN_REVISIONS.includes(version)) return true;
  if (!isObject(message) || message.method === 'initialize' || !isObject(message.params)) {
    return false;
  }
  return isModernRequest(message.params as JsonObject);
}

/**
 * Serves a 2026-07-28 POST. Notifications get `202` (none is defined over HTTP at this revision);
 * responses are refused. A request is checked (`_meta` present, `MCP-Protocol-Version` equal to
 * its `_meta` version, `Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` equal to the body), then served on its
 * own connection; closing the response stream cancels it.
 */
export async function postModern(
  context: PostContext,
  request: Request,
  message: unknown,
  version: string | null,
  cors: Headers,
  principal?: Principal,
  waitUntil?: TransportRequestInfo['waitUntil'],
): Promise<Response> {
  const m = classify(message);
  const fail = (code: number, text: string, id = idOf(message)): Response =>
    errorReply(400, code, text, { ...(id === undefined ? {} : { id }), headers: cors });
  if (m.kind === 'invalid') return jsonResponse(400, m.reply, cors);
  if (m.kind === 'notification') return emptyResponse(202, cors);
  if (m.kind === 'response') {
    return fail(
      ErrorCode.InvalidRequest,
      'Invalid Request: a 2026-07-28 client sends no responses (answers travel in inputResponses)',
    );
  }
  const params = m.params;
  if (m.method === 'initialize') {
    // Only the header makes an initialize modern (see isModernPost), and 2026-07-28 has none.
    const text = `Method not found: initialize (removed in ${version})`;
    return errorReply(404, ErrorCode.MethodNotFound, text, { id: m.id, headers: cors });
  }
  if (!isModernRequest(params)) {
    return fail(
      ErrorCode.InvalidParams,
      `Invalid params: missing required _meta["${META.protocolVersion}"] ` +
        `(MCP-Protocol-Version says ${version})`,
    );
  }
  const stated = (params?._meta as JsonObject)[META.protocolVersion];
  if (version === null) {
    const text = 'Header mismatch: required header MCP-Protocol-Version is missing';
    return fail(ErrorCode.HeaderMismatch, text);
  }
  if (version !== stated) {
    return fail(
      ErrorCode.HeaderMismatch,
      `Header mismatch: MCP-Protocol-Version header value '${version}' ` +
        `does not match body value '${String(stated)}'`,
    );
  }
  const target = context.server.target(m.method, params);
  const problem = checkRequestHeaders(
    request.headers,
    m.method,
    params,
    target?.inputSchema === undefined ? [] : paramHeaders(target.inputSchema),
    context.server.nameParam(m.method),
  );
  if (problem !== undefined) return fail(ErrorCode.HeaderMismatch, problem, m.id);
  if (principal !== undefined && context.auth !== undefined) {
    const refusal = scopeRefusal(context.auth, context.server, message, principal, cors);
    if (refusal !== undefined) return refusal;
  }

  let connection: Connection | undefined;
  const cancel = (): void => connection?.close();
  const exchange = new Exchange({ modern: true, headers: cors, sse: context.sse, onabort: cancel });
  connection = context.server.connect({ send: exchange.send });
  context.live.add(connection);
  request.signal?.addEventListener('abort', cancel, { once: true });
  const served = settle(
    connection.handle(message, {
      kind: 'http',
      headers: request.headers,
      protocolVersion: version,
      send: exchange.send,
      ...(waitUntil === undefined ? {} : { waitUntil }),
      ...authorizedInfo(context.auth, principal),
    }),
    message,
  ).then((reply) => {
    exchange.finish(reply);
    request.signal?.removeEventListener('abort', cancel);
    connection.close();
    context.live.delete(connection);
  });
  context.track(served);
  return exchange.response;
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
  cors: Headers,
  sessionId: string | null,
  requestHeaders: Headers,
  principal?: Principal,
  waitUntil?: TransportRequestInfo['waitUntil'],
): Promise<Response> {
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
      toRecord(owner, { ...handshake, logLevel: undefined, initialized: false, resourceSubscriptions: [] }),
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
  const headers = mergeHeaders(new Headers({ [HEADER.sessionId]: live.id }), cors);
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
  live.busy++;
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
  const served = settle(
    live.connection.handle(message, { ...info, send: exchange.send }),
    message,
  ).then(async (reply) => {
    // A failed initialize opens nothing.
    if (opening && isError(reply)) {
      headers.delete(HEADER.sessionId);
      await sessions.delete(live.id);
    }
    await sessions.settled(live);
    await exchange.finish(reply);
    live.busy--;
  });
  context.track(served);
  return exchange.response;
}

/** The handshake an `initialize` request asks for, or undefined when its params are malformed. */
function initializeHandshake(message: unknown): Pick<SessionSnapshot, 'protocolVersion' | 'client'> | undefined {
  try {
    return readInitialize(isObject(message) && isObject(message.params) ? (message.params as JsonObject) : undefined);
  } catch {
    return undefined;
  }
}
