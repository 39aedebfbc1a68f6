/**
 * W3C trace context of one request: read from `params._meta` (where MCP reserves `traceparent`,
 * `tracestate` and `baggage`), else from the HTTP headers of the same names. A malformed
 * `traceparent` is ignored, as W3C Trace Context says a receiver must (a new trace starts).
 *
 * Spec: MCP 2026-07-28, Basic / Overview ("OpenTelemetry trace context"); W3C Trace Context
 * Level 1 §3.2 (`traceparent`: version 00, 32 hex trace-id, 16 hex parent-id, 2 hex flags; all-zero
 * ids are invalid), §3.3 (`tracestate`); W3C Baggage.
 * @module
 */
import { isObject, type JsonObject } from '../protocol/messages.js';
import type { HeaderReader } from './request-info.js';

/** The trace context a request carried. */
export interface TraceContext {
  /** The `traceparent` value as received, e.g. `00-4bf9…4736-00f0…02b7-01`. */
  readonly traceparent: string;
  /** The 32 lower-case hex digits of the trace id. */
  readonly traceId: string;
  /** The 16 lower-case hex digits of the caller's span id (the parent of the server's span). */
  readonly parentSpanId: string;
  /** True when the caller sampled the trace (flag bit 0). */
  readonly sampled: boolean;
  /** The `tracestate` value, when one came with it. */
  readonly tracestate?: string;
  /** The `baggage` value, when one came with it. */
  readonly baggage?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/**
 * Parses a `traceparent` value; undefined when it is malformed, uses version `ff`, has an
 * all-zero id, or (version 00) carries more than the four fields.
 */
export function parseTraceparent(value: string): Pick<TraceContext, 'traceId' | 'parentSpanId' | 'sampled'> | undefined {
  const match = TRACEPARENT.exec(value.trim());
  if (match === null) return undefined;
  const [whole, version, traceId, parentSpanId, flags] = match as unknown as [string, string, string, string, string];
  if (version === 'ff' || (version === '00' && whole.trim().length !== 55)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentSpanId)) return undefined;
  return { traceId, parentSpanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= 8192 ? value : undefined;
}

/**
 * The trace context of a request: from `meta` when it has a valid `traceparent`, else from
 * `headers`; `tracestate` and `baggage` come from the same source as the `traceparent`.
 */
export function readTraceContext(
  meta: JsonObject | undefined,
  headers: HeaderReader | undefined,
): TraceContext | undefined {
  const fromMeta = isObject(meta) ? build(text(meta.traceparent), text(meta.tracestate), text(meta.baggage)) : undefined;
  if (fromMeta !== undefined || headers === undefined) return fromMeta;
  return build(
    text(headers.get('traceparent')),
    text(headers.get('tracestate')),
    text(headers.get('baggage')),
  );
}

function build(
  traceparent: string | undefined,
  tracestate: string | undefined,
  baggage: string | undefined,
): TraceContext | undefined {
  if (traceparent === undefined) return undefined;
  const parsed = parseTraceparent(traceparent);
  if (parsed === undefined) return undefined;
  return {
    traceparent,
    ...parsed,
    ...(tracestate === undefined ? {} : { tracestate }),
    ...(baggage === undefined ? {} : { baggage }),
  };
}
