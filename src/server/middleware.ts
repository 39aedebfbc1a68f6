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
 * Spec: MCP 2026-07-28, Basic / Overview (JSON-RPC errors); JSON-RPC 2.0 §5.1.
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { RequestContext } from './context.js';

/** Goes on to the next middleware, or to the handler after the last one. Call it at most once. */
export type Next = () => Promise<JsonObject>;

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
export type Middleware = (ctx: RequestContext, next: Next) => JsonObject | Promise<JsonObject>;

/** Thrown when a middleware calls `next()` a second time (a bug in that middleware). */
export class MiddlewareError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MiddlewareError';
  }
}

/**
 * Runs `middleware` around `handler` for one request: the composition of the chain.
 * @throws whatever a middleware or the handler throws; {@link MiddlewareError} when a middleware
 *   calls `next()` twice.
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
    return current(ctx, () => dispatch(index + 1));
  };
  return dispatch(0);
}
