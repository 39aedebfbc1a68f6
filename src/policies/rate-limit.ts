/**
 * Rate limiting per caller: a token bucket per key (the authenticated principal, else the legacy
 * HTTP session or the connection, else the client's name), in bounded memory.
 *
 * Over the limit, a `tools/call` gets a tool result with `isError` that tells the model when to
 * retry (on every transport: the model reads it); any other request gets the error
 * `RATE_LIMITED` with `data: { retryAfterMs }`, which Streamable HTTP sends as `429` with
 * `Retry-After`. Each item of a 2025-03-26 batch is counted and answered on its own.
 *
 * Over Streamable HTTP the limiter also checks each POST before its body is read
 * (`Middleware.admit`): a 2026-07-28 request names its method in `Mcp-Method`, so one that is not
 * a `tools/call` from a caller already over the limit is refused with `429` without reading or
 * parsing the body, provided its key is known from the headers (a principal, or a `key` that reads
 * headers). A legacy POST names no method outside its body (and may be a batch), and the default
 * key of an unauthenticated 2026-07-28 request is the client name in its body: those are read and
 * parsed first, then refused in the pipeline before any handler, with the same `429`.
 *
 * Spec: MCP 2025-11-25, Server / Tools ("Security Considerations": rate limit tool invocations;
 * "Error Handling"); MCP 2026-07-28, Basic / Overview ("Error Codes"), Basic / Transports /
 * Streamable HTTP ("Request Metadata"); RFC 6585 §4; RFC 9110 §10.2.3.
 * @module
 */
import { RATE_LIMITED, RpcError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/messages.js';
import type { ClientInfo, RequestContext } from '../server/context.js';
import type { AdmissionRequest, Middleware, Next } from '../server/middleware.js';
import type { Principal, TransportInfo } from '../server/request-info.js';
import { TokenBuckets } from './token-buckets.js';

/** The `_meta` key under which a rate-limited tool result carries the wait, in milliseconds. */
export const RETRY_AFTER_META_KEY = 'dev.baremcp/retryAfterMs';

/**
 * What a rate-limit key is made from: a request context, or before the body (HTTP admission)
 * the facts of an {@link AdmissionRequest}, which lack the client.
 */
export interface RateLimitCaller {
  /** The method, when known (always in the pipeline; from `Mcp-Method` before the body). */
  readonly method: string | undefined;
  readonly principal: Principal | undefined;
  readonly transport: TransportInfo;
  /** The client's identity; undefined before the body is read. */
  readonly client?: ClientInfo;
}

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Requests a caller may make per `windowMs`: the rate its bucket refills at. */
  limit: number;
  /**
   * The window of `limit`, in milliseconds.
   * @default 60000
   */
  windowMs?: number;
  /**
   * The largest burst: the tokens a full bucket holds.
   * @default limit
   */
  burst?: number;
  /**
   * The caller a request counts against; undefined when it cannot tell (then, before the body, the
   * request goes on; in the pipeline, it counts against one shared `anonymous` bucket).
   * @default {@link defaultRateLimitKey}
   */
  key?: (caller: RateLimitCaller) => string | undefined;
  /**
   * The methods that count.
   * @default every request
   */
  methods?: readonly string[];
  /**
   * Most callers tracked at once; past it the least recently seen is forgotten (its next request
   * starts with a full bucket). Buckets that have refilled are forgotten anyway.
   * @default 10000
   */
  maxKeys?: number;
  /**
   * The clock, in milliseconds (any origin; it must not go backwards).
   * @default performance.now
   */
  clock?: () => number;
}

/**
 * The default key: `principal:<issuer> <subject or clientId>` when authorization verified a caller;
 * else `session:<Mcp-Session-Id>` (legacy HTTP); else `connection:<id>` for a connection that
 * outlives its requests (stdio, `server.connect()`; not a 2026-07-28 POST, whose connection is
 * new each time); else `client:<clientInfo.name>` (self-declared, so only a courtesy limit);
 * else undefined.
 */
export function defaultRateLimitKey(caller: RateLimitCaller): string | undefined {
  const principal = caller.principal;
  const who = principal?.subject ?? principal?.clientId;
  if (who !== undefined) return `principal:${principal?.issuer ?? ''} ${who}`;
  const transport = caller.transport;
  if (transport.sessionId !== undefined) return `session:${transport.sessionId}`;
  if (transport.kind !== 'http' && transport.connectionId !== undefined) {
    return `connection:${transport.connectionId}`;
  }
  const name = caller.client?.name;
  return name === undefined ? undefined : `client:${name}`;
}

/** `60000` → `minute`, `1000` → `second`, `90000` → `90 seconds`. */
function windowText(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  for (const [size, name] of units) if (ms === size) return name;
  return ms % 1000 === 0 ? `${ms / 1000} seconds` : `${ms} ms`;
}

/** `1` → `1 second`, `2500` ms → `3 seconds`. */
function secondsText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/**
 * A middleware that limits each caller to `limit` requests per `windowMs` (token bucket, bursts of
 * `burst`), with an HTTP admission check. Put it first (or after `audit()`, to record refusals).
 * @throws {TypeError} for a `limit`, `windowMs`, `burst` or `maxKeys` that is not a positive
 *   number.
 * @example
 * const server = createServer({ info, tools, middleware: [rateLimit({ limit: 60 })] }); // 60/min
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  const { limit, windowMs = 60_000, methods, key = defaultRateLimitKey } = options;
  const burst = options.burst ?? limit;
  const maxKeys = options.maxKeys ?? 10_000;
  for (const [name, value] of Object.entries({ limit, windowMs, burst, maxKeys })) {
    if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
      throw new TypeError(`rateLimit: ${name} must be a positive number, got ${String(value)}`);
    }
  }
  const clock = options.clock ?? (() => performance.now());
  const buckets = new TokenBuckets({ capacity: burst, refillPerMs: limit / windowMs, maxKeys });
  const counted = methods === undefined ? undefined : new Set(methods);
  const rate = `${limit} request${limit === 1 ? '' : 's'} per ${windowText(windowMs)}`;

  const refusal = (method: string, waitMs: number): RpcError =>
    new RpcError(
      RATE_LIMITED,
      `Rate limit exceeded: ${method} refused; retry after ${secondsText(waitMs)} (limit: ${rate})`,
      { retryAfterMs: waitMs },
    );

  const middleware = (ctx: RequestContext, next: Next): JsonObject | Promise<JsonObject> => {
    if (counted !== undefined && !counted.has(ctx.method)) return next();
    const wait = buckets.take(key(ctx) ?? 'anonymous', clock());
    if (wait === 0) return next();
    if (ctx.method !== 'tools/call') throw refusal(ctx.method, wait);
    const text =
      `Rate limit exceeded: this client may make ${rate}. Try again in ${secondsText(wait)}; ` +
      'calling sooner fails the same way.';
    const _meta = { [RETRY_AFTER_META_KEY]: wait };
    return { content: [{ type: 'text', text }], isError: true, _meta };
  };

  const admit = (request: AdmissionRequest): RpcError | undefined => {
    const method = request.method;
    // A tools/call must get its isError result, which needs the id: the pipeline answers it.
    if (method === undefined || method === 'tools/call' || method.startsWith('notifications/')) {
      return undefined;
    }
    if (counted !== undefined && !counted.has(method)) return undefined;
    const caller = key(request);
    if (caller === undefined) return undefined;
    const wait = buckets.peek(caller, clock());
    return wait === 0 ? undefined : refusal(method, wait);
  };

  return Object.assign(middleware, { admit });
}
