/**
 * A 2026-07-28 POST: its request (`_meta` names the protocol version, or the
 * `MCP-Protocol-Version` header names a modern revision) has its headers checked against its body
 * and is served on a fresh connection that lives exactly as long as the POST: nothing outlives the
 * request, so any replica can serve any request.
 *
 * Spec: MCP 2026-07-28, Basic / Transports / Streamable HTTP ("Sending Messages", "Request
 * Metadata", "Cancellation"), Basic / Overview ("Per-request protocol fields").
 * @module
 */
import { classify } from '../protocol/classify.js';
import { ErrorCode } from '../protocol/errors.js';
import { isObject, type JsonObject } from '../protocol/messages.js';
import { MODERN_REVISIONS } from '../protocol/revisions.js';
import type { Connection } from '../server/connection.js';
import { principalKey } from '../server/principal.js';
import type { Principal, TransportRequestInfo } from '../server/request-info.js';
import { isModernRequest } from '../server/era.js';
import { META } from '../protocol/meta.js';
import { Exchange } from './exchange.js';
import type { HttpReply, HttpRequest, ReplyHeaders } from './http-request.js';
import { authorizedInfo, scopeRefusal } from './authorize.js';
import { checkRequestHeaders, paramHeaders } from './headers.js';
import { emptyResponse, errorReply, jsonResponse } from './http-rules.js';
import { inFlightRefusal } from './in-flight.js';
import { idOf, settleThen, type PostContext } from './post-context.js';

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
  request: HttpRequest,
  message: unknown,
  version: string | null,
  cors: ReplyHeaders,
  principal?: Principal,
  waitUntil?: TransportRequestInfo['waitUntil'],
): Promise<HttpReply> {
  const m = classify(message);
  const fail = (code: number, text: string, id = idOf(message)): HttpReply =>
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
  // Stateless requests count per principal; anonymous ones only towards the total.
  const permit = context.inFlight.take(principal === undefined ? undefined : `principal ${principalKey(principal)}`, 1);
  if (permit.refusedBy !== undefined) return inFlightRefusal(permit.refusedBy, cors, m.id);

  let connection: Connection | undefined;
  const cancel = (): void => connection?.close();
  const exchange = new Exchange({ modern: true, headers: cors, sse: context.sse, onabort: cancel });
  connection = context.server.connect({ send: exchange.send });
  const alive = context.live.add(connection);
  const stopListening = request.onAbort(cancel);
  const served = settleThen(
    connection.handle(message, {
      kind: 'http',
      headers: request.headers,
      protocolVersion: version,
      send: exchange.send,
      ...(waitUntil === undefined ? {} : { waitUntil }),
      ...authorizedInfo(context.auth, principal),
    }),
    message,
    (reply) => {
      permit.release();
      exchange.finish(reply);
      stopListening();
      connection.close();
      alive.remove();
    },
  );
  context.track(served);
  // `return await`: a promise returned as it is costs one more promise and turn.
  return await exchange.response;
}
