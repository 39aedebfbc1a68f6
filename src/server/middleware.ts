/**
 * Middleware: functions wrapped around every request the server answers, in both eras and on
 * every transport. A middleware sees the request context (method, params, client, revision,
 * transport facts such as HTTP headers, the authenticated caller, trace context), and either
 * calls `next()` to go on (and may change what it returns) or answers itself: by returning a
 * result, or by throwing an `RpcError` (a protocol error). Anything else it throws becomes
 * `-32603`, exactly as from a handler.
 *
 * Order: the first middleware added is the outermost, so it runs first on the way in and last on
 * the way out. Middleware runs after the request was found valid for its era (a method that does
 * not exist, or a request the client may not make, is refused before any middleware runs), and
 * before the handler. Results a middleware returns are shaped for the request's revision like
 * any handler's.
 *
 * A middleware may also carry an admission check (`admit`) that a transport runs before it reads
 * a request's body: over Streamable HTTP, on every POST, with what the headers tell. It can only
 * refuse, and refuses with the same `RpcError` the middleware would throw once the body is read.
 *
 * Spec: MCP 2026-07-28, Basic / Overview (JSON-RPC errors), Basic / Transports / Streamable HTTP
 * ("Request Metadata": `Mcp-Method`); JSON-RPC 2.0 §5.1.
 * @module
 */
import type { RpcError } from '../protocol/errors.js';
import { isObject, type JsonObject } from '../protocol/messages.js';
import type { RequestContext } from './context.js';
import type { Principal, TransportInfo } from './request-info.js';

/** Goes on to the next middleware, or to the handler after the last one. Call it at most once. */
export type Next = () => Promise<JsonObject>;

/**
 * What a transport knows of a request before it reads the body (see {@link Middleware.admit}).
 * Over Streamable HTTP: the POST's headers, and
 * - 2026-07-28 (`MCP-Protocol-Version` names a modern revision): the method, from the `Mcp-Method`
 *   header (checked against the body afterwards; a mismatch is refused with `-32020`); no session;
 * - legacy revisions: no method (it is only in the body, and a 2025-03-26 batch holds several);
 *   the `Mcp-Session-Id` header (not yet checked against the live sessions).
 * The client's name and capabilities are in the body, so they are never known here.
 */
export interface AdmissionRequest {
  /** The JSON-RPC method, when a header names it (2026-07-28 `Mcp-Method`); else undefined. */
  readonly method: string | undefined;
  /** `kind: 'http'`, the request `headers`, and for legacy POSTs the `sessionId` header. */
  readonly transport: TransportInfo;
  /** The authenticated caller, when authorization verified one before the body; else undefined. */
  readonly principal: Principal | undefined;
}

/**
 * A middleware: resolves to the result of the request, usually `next()`'s, possibly changed.
 * @example
 * // Hide tools whose name starts with "admin_" from every listing.
 * const hideAdmin: Middleware = async (ctx, next) => {
 *   const result = await next();
 *   if (ctx.method !== 'tools/list') return result;
 *   const tools = (result.tools as { name: string }[]).filter((t) => !t.name.startsWith('admin_'));
 *   return { ...result, tools };
 * };
 */
export interface Middleware {
  (ctx: RequestContext, next: Next): JsonObject | Promise<JsonObject>;
  /**
   * An optional admission check, run by a transport before it reads a request's body (Streamable
   * HTTP: every POST, after the header checks). Returns the `RpcError` that refuses the request
   * (its HTTP status follows from its code, e.g. `429` with `Retry-After` for `RATE_LIMITED`), or
   * undefined to go on. It must not count or change anything: the middleware itself still runs
   * once the request is read. Synchronous, since it runs on every POST; a check that needs I/O
   * belongs in the middleware. A check that throws is reported and passes the request on.
   */
  admit?(request: AdmissionRequest): RpcError | undefined;
}

/**
 * Thrown when a middleware calls `next()` a second time, or resolves to something that is not a
 * result object (a bug in that middleware). The request gets `-32603`; the message goes to the
 * server's `report`.
 */
export class MiddlewareError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MiddlewareError';
  }
}

/**
 * What `value` is, for a message about a handler or middleware that should have returned a result
 * object (a JSON object: `{}` at least); undefined when it is one.
 */
export function notAResult(value: unknown): string | undefined {
  if (isObject(value)) return undefined;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return value === undefined ? 'undefined' : `a ${typeof value}`;
}

/**
 * Runs `middleware` around `handler` for one request: the composition of the chain.
 * @throws whatever a middleware or the handler throws; {@link MiddlewareError} when a middleware
 *   calls `next()` twice or resolves to something that is not a result object.
 */
export function runMiddleware(
  middleware: readonly Middleware[],
  ctx: RequestContext,
  handler: () => JsonObject | Promise<JsonObject>,
): Promise<JsonObject> {
  let last = -1;
  const dispatch = async (index: number): Promise<JsonObject> => {
    if (index <= last) throw new MiddlewareError(`middleware #${index - 1} called next() twice while serving ${ctx.method}`);
    last = index;
    const current = middleware[index];
    if (current === undefined) return handler();
    const value: unknown = await current(ctx, () => dispatch(index + 1));
    const wrong = notAResult(value);
    if (wrong === undefined) return value as JsonObject;
    const name = current.name === '' ? '' : ` (${current.name})`;
    const factory = typeof value === 'function' && current.name !== ''
      ? `; is ${current.name} a factory given uncalled? write ${current.name}(), not ${current.name}`
      : '';
    throw new MiddlewareError(
      `middleware #${index}${name} returned ${wrong} for ${ctx.method}, not a result object: ` +
        `return the result of next(), or a result of its own${factory}`,
    );
  };
  return dispatch(0);
}
