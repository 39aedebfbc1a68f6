/**
 * Server spans without a tracing library: one span per request, named and attributed as the
 * OpenTelemetry semantic conventions for MCP say, parented to the caller's span from the W3C
 * trace context the request carried (`ctx.trace`: `params._meta`, else the HTTP headers), and
 * handed to a sink when it ends. An `around` hook runs the rest of the request inside the span,
 * which is where an adapter makes it the active span of a real tracer (see the
 * OpenTelemetry adapter in docs/middleware.md), so spans the tool starts become its children.
 *
 * Spec: OpenTelemetry semantic conventions for MCP (Development), "Server" span: name
 * `{mcp.method.name} {target}` (target: `gen_ai.tool.name` or `gen_ai.prompt.name`; never the
 * resource URI), kind SERVER, status ERROR when `error.type` is set, with the JSON-RPC error
 * message; "Context propagation": the context from `params._meta` is the parent. MCP 2026-07-28,
 * Basic / Overview (`traceparent` in `_meta`); W3C Trace Context Level 1.
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { RequestContext } from '../server/context.js';
import type { Middleware, Next } from '../server/middleware.js';
import {
  addressed,
  epochClock,
  messageOf,
  observe,
  type Addressed,
  type Outcome,
} from './request-outcome.js';

/** A span attribute value. */
export type SpanAttribute = string | number | boolean;

/** One server span, as a sink or an `around` hook sees it. Times are epoch milliseconds. */
export interface SpanData {
  /** `{mcp.method.name} {target}`, e.g. `tools/call get_weather`, or the method alone. */
  readonly name: string;
  /** Always `server` (OpenTelemetry `SpanKind.SERVER`). */
  readonly kind: 'server';
  /** 32 lower-case hex digits: the caller's trace, or a new one. */
  readonly traceId: string;
  /** 16 lower-case hex digits, random: this span's id for sinks that record spans themselves. */
  readonly spanId: string;
  /** The caller's span (from the incoming `traceparent`), when there is one. */
  readonly parentSpanId: string | undefined;
  /** The caller's sampled flag; true for a new trace. */
  readonly sampled: boolean;
  /** The incoming `tracestate`, when there is one. */
  readonly tracestate: string | undefined;
  /** When the request reached the middleware. */
  readonly startTime: number;
  /** When it ended; undefined until then (an `around` hook sees it set once `run()` settles). */
  endTime: number | undefined;
  /** `error` when `error.type` is set (with the JSON-RPC error message, if any), else `unset`. */
  status: { code: 'unset' | 'error'; message?: string };
  /**
   * `mcp.method.name`, `jsonrpc.request.id`, `mcp.protocol.version`, `network.transport` (`pipe`
   * for stdio, `tcp` for HTTP), `network.protocol.name` (`http`), `mcp.session.id` (a legacy HTTP
   * session), `gen_ai.tool.name` with `gen_ai.operation.name: execute_tool`, `gen_ai.prompt.name`,
   * `mcp.resource.uri`; at the end `error.type` (the JSON-RPC code, `tool_error` for an `isError`
   * result, `cancelled` when the client cancelled) and `rpc.response.status_code` (the code).
   */
  readonly attributes: Record<string, SpanAttribute>;
}

/** Options of {@link tracing}; give `sink`, `around`, or both. */
export interface TracingOptions {
  /** Receives each span once it has ended. A sink that throws is reported; the request goes on. */
  sink?: (span: SpanData) => void;
  /**
   * Runs the rest of the request (later middleware, the handler, the tool) inside the span: call
   * `run()` once and return what it returns. The span is complete (end time, status, attributes)
   * once `run()` settles. This is where an adapter starts a span of its tracer and makes it the
   * active one around `run()`.
   */
  around?: (span: SpanData, run: () => Promise<JsonObject>) => Promise<JsonObject>;
  /**
   * The clock, in milliseconds since the Unix epoch.
   * @default performance.timeOrigin + performance.now()
   */
  clock?: () => number;
}

/** Two hex digits per byte value. */
const HEX: readonly string[] = Array.from({ length: 256 }, (_, b) =>
  b.toString(16).padStart(2, '0'),
);
/** Random bytes drawn a pool at a time (one `getRandomValues` per 256 ids, not one per id). */
const pool = new Uint8Array(4096);
let used = pool.length;

/** `bytes` random bytes as lower-case hex, never all zeros (W3C Trace Context §3.2.2.3–4). */
function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  let text = '';
  let zero = true;
  for (let i = used; i < used + bytes; i++) {
    const b = pool[i] as number;
    if (b !== 0) zero = false;
    text += HEX[b];
  }
  used += bytes;
  return zero ? randomHex(bytes) : text;
}

/** The attributes known when the request starts. */
function startAttributes(
  ctx: RequestContext,
  target: Addressed | undefined,
): Record<string, SpanAttribute> {
  const attributes: Record<string, SpanAttribute> = {
    'mcp.method.name': ctx.method,
    'jsonrpc.request.id': String(ctx.requestId),
    'mcp.protocol.version': ctx.protocolVersion,
  };
  const transport = ctx.transport;
  if (transport.kind === 'stdio') attributes['network.transport'] = 'pipe';
  if (transport.kind === 'http') {
    attributes['network.transport'] = 'tcp';
    attributes['network.protocol.name'] = 'http';
  }
  if (transport.sessionId !== undefined) attributes['mcp.session.id'] = transport.sessionId;
  if (transport.remoteAddress !== undefined) attributes['client.address'] = transport.remoteAddress;
  if (target?.kind === 'tool') {
    attributes['gen_ai.tool.name'] = target.name;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (target?.kind === 'prompt') {
    attributes['gen_ai.prompt.name'] = target.name;
  } else if (target?.kind === 'resource') {
    attributes['mcp.resource.uri'] = target.name;
  }
  return attributes;
}

/** Records how the request ended on `span`. */
function endSpan(span: SpanData, end: number, outcome: Outcome): void {
  span.endTime = end;
  if (outcome.kind === 'error') {
    span.attributes['error.type'] = String(outcome.code);
    span.attributes['rpc.response.status_code'] = String(outcome.code);
    span.status = { code: 'error', message: outcome.message };
  } else if (outcome.kind === 'isError') {
    span.attributes['error.type'] = 'tool_error';
    span.status = { code: 'error' };
  } else if (outcome.kind === 'cancelled') {
    span.attributes['error.type'] = 'cancelled';
    span.status = { code: 'error', message: 'cancelled by the client' };
  }
}

/**
 * A middleware that reports a server span per request to `sink`, and runs the rest of the
 * request inside `around` (see {@link TracingOptions}). Put it first, so that its span covers the
 * other middleware.
 * @throws {TypeError} when neither `sink` nor `around` is given.
 * @example
 * createServer({ info, tools, middleware: [tracing({ sink: (span) => spans.push(span) })] });
 */
export function tracing(options: TracingOptions): Middleware {
  const { sink, around } = options ?? {};
  if (typeof sink !== 'function' && typeof around !== 'function') {
    throw new TypeError(
      'tracing: give a sink(span) to receive spans, an around(span, run) hook, or both',
    );
  }
  const clock = options.clock ?? epochClock;
  return (ctx: RequestContext, next: Next): Promise<JsonObject> => {
    const target = addressed(ctx);
    const trace = ctx.trace;
    const span: SpanData = {
      // The target in the name is a tool or prompt name: never a resource URI (high cardinality).
      name:
        target === undefined || target.kind === 'resource'
          ? ctx.method
          : `${ctx.method} ${target.name}`,
      kind: 'server',
      traceId: trace?.traceId ?? randomHex(16),
      spanId: randomHex(8),
      parentSpanId: trace?.parentSpanId,
      sampled: trace?.sampled ?? true,
      tracestate: trace?.tracestate,
      startTime: clock(),
      endTime: undefined,
      status: { code: 'unset' },
      attributes: startAttributes(ctx, target),
    };
    const run = (): Promise<JsonObject> =>
      observe(ctx, next, (outcome) => endSpan(span, clock(), outcome));
    const served = around === undefined ? run() : around(span, run);
    if (sink === undefined) return served;
    const report = (): void => {
      try {
        sink(span);
      } catch (error) {
        ctx.server.report(`tracing sink failed: ${messageOf(error)}`);
      }
    };
    return served.then(
      (result) => {
        report();
        return result;
      },
      (error: unknown) => {
        report();
        throw error;
      },
    );
  };
}
