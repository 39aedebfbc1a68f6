/**
 * POST to the MCP endpoint, up to the era: the `Content-Type` and `Accept` checks, the rate
 * limiter's admission check, the body read under its limit and parsed, then the message served in
 * the era it belongs to (`post-modern.ts` for 2026-07-28, `post-legacy.ts` for a legacy session).
 * A refusal before the body is read says `Connection: close`: the unread body must not be taken
 * for the next request on a kept-alive connection.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Sending Messages to the Server"); MCP 2026-07-28,
 * Basic / Transports / Streamable HTTP ("Sending Messages"); RFC 9110 §15.5.14 (413), §15.5.16
 * (415), §15.5.7 (406).
 * @module
 */
import { ErrorCode } from '../protocol/errors.js';
import type { Principal } from '../server/request-info.js';
import { admissionRefusal } from './admission.js';
import type { ExecutionContext } from './endpoint-options.js';
import type { HttpReply, HttpRequest, ReplyHeaders } from './http-request.js';
import { emptyResponse, errorReply, HEADER, mergeHeaders, refuse } from './http-rules.js';
import { acceptsAll, isJsonContentType } from './media-types.js';
import type { PostContext } from './post-context.js';
import { postLegacy } from './post-legacy.js';
import { isModernPost, postModern } from './post-modern.js';

/** What the `Accept` of a POST must admit: a reply may come as JSON or as an SSE stream. */
const POST_ACCEPT: readonly string[] = ['application/json', 'text/event-stream'];

/** `cors` with `Connection: close`, for a refusal before the body is read. */
function closing(cors: ReplyHeaders): ReplyHeaders {
  return mergeHeaders({ connection: 'close' }, cors);
}

/**
 * Serves one POST (see the module doc): `415`, `406`, an admission refusal (`429`), `413`, `400`
 * for an aborted body or one that is not JSON (`-32700`), `400` for a 2026-07-28 batch; otherwise
 * the era's reply.
 */
export async function servePost(
  context: PostContext,
  request: HttpRequest,
  cors: ReplyHeaders,
  principal: Principal | undefined,
  execution: ExecutionContext | undefined,
): Promise<HttpReply> {
  // Deno and Bun pass objects of their own as the second argument (connection info, the
  // server): only a waitUntil function is taken.
  const keep: unknown = execution?.waitUntil;
  const waitUntil =
    typeof keep === 'function' ? (work: Promise<unknown>) => void keep.call(execution, work) : undefined;
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return refuse(415, 'Unsupported Media Type: Content-Type must be application/json', closing(cors));
  }
  if (!acceptsAll(request.headers.get('accept'), POST_ACCEPT)) {
    const text = 'Not Acceptable: Accept must list application/json and text/event-stream';
    return refuse(406, text, closing(cors));
  }
  const refused = admissionRefusal(context.server, request, cors, principal);
  if (refused !== undefined) return refused;
  const maxBodyBytes = context.maxBodyBytes;
  const body = await request.readBody(maxBodyBytes);
  if (body.kind === 'too-large') {
    return refuse(413, `Content Too Large: the body exceeds ${maxBodyBytes} bytes`, closing(cors));
  }
  if (body.kind === 'aborted') return emptyResponse(400, cors);
  let message: unknown;
  try {
    if (body.kind === 'invalid-utf8') throw new SyntaxError('not UTF-8');
    message = JSON.parse(body.text);
  } catch {
    return errorReply(400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON', {
      headers: cors,
    });
  }
  const version = request.headers.get(HEADER.protocolVersion);
  if (!isModernPost(message, version)) {
    const sessionId = request.headers.get(HEADER.sessionId);
    // Behind a proxy every client has the proxy's address: it tells nothing about the client.
    const given: unknown = execution?.remoteAddress;
    const address = context.behindProxy || typeof given !== 'string' ? undefined : given;
    // `return await`: a promise returned as it is costs one more promise and turn.
    return await postLegacy(context, message, version, cors, sessionId, request.headers, principal, waitUntil, address);
  }
  if (Array.isArray(message)) {
    return refuse(400, 'Invalid Request: 2026-07-28 has no batches', cors);
  }
  return await postModern(context, request, message, version, cors, principal, waitUntil);
}
