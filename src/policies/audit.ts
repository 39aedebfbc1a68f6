/**
 * An audit record per request: what was asked (method, target), by whom (the authenticated
 * principal and the client), how long it took, and how it ended as the client saw it. Records go
 * to a sink; by default one JSON line each on stderr (never stdout, which carries the protocol).
 *
 * Spec: MCP 2025-11-25, Server / Tools ("Security Considerations": log tool usage for audit
 * purposes); MCP 2026-07-28, Basic / Authorization (the principal).
 * @module
 */
import type { JsonObject, RequestId } from '../protocol/messages.js';
import type { RequestContext } from '../server/context.js';
import type { Middleware, Next } from '../server/middleware.js';
import { addressed, epochClock, messageOf, observe, type Outcome } from './request-outcome.js';
import { writeStderr } from '../server/stderr.js';

/** One audited request. Every field is JSON. */
export interface AuditRecord {
  /** When the request reached the middleware, ISO 8601 (UTC). */
  time: string;
  /** The method, e.g. `tools/call`. */
  method: string;
  /** The tool or prompt name, or the resource URI, the request addressed (known or not). */
  target?: string;
  /** The JSON-RPC id. */
  requestId: RequestId;
  /** The revision the request was answered in. */
  protocolVersion: string;
  /** The transport's kind (`stdio`, `http`), when there is one. */
  transport?: string;
  /** The legacy HTTP session (`Mcp-Session-Id`), when there is one. */
  sessionId?: string;
  /** The authenticated caller (never its token or claims), when authorization verified one. */
  principal?: { subject?: string; clientId?: string; issuer?: string };
  /** The client as it named itself (`clientInfo`), when it did. */
  client?: { name?: string; version?: string };
  /** Milliseconds from the middleware to the outcome. */
  durationMs: number;
  /**
   * `ok`; `isError` (a tool result with `isError: true`); `input_required` (2026-07-28: the
   * request asked the client a question); `cancelled` (by the client: no reply was sent); `error`.
   */
  outcome: 'ok' | 'isError' | 'input_required' | 'cancelled' | 'error';
  /** For `error`: the JSON-RPC error code the client got. */
  errorCode?: number;
  /** For `error`: the message the client got. */
  errorMessage?: string;
}

/** Options of {@link audit}. */
export interface AuditOptions {
  /**
   * Receives each record once its request has an outcome. A sink that throws is reported (on the
   * server's `report`) and the request goes on.
   * @default one JSON line per record on stderr (`console.error`)
   */
  sink?: (record: AuditRecord) => void;
  /**
   * The methods to audit.
   * @default every request
   */
  methods?: readonly string[];
  /**
   * The clock, in milliseconds since the Unix epoch.
   * @default performance.timeOrigin + performance.now()
   */
  clock?: () => number;
}

/** Writes `record` as one JSON line on stderr (outliving a stderr whose reader is gone). */
function stderrSink(record: AuditRecord): void {
  writeStderr(JSON.stringify(record));
}

/** The audit record of a request that started at `start` and ended with `outcome` at `end`. */
function auditRecord(
  ctx: RequestContext,
  start: number,
  end: number,
  outcome: Outcome,
): AuditRecord {
  const record: AuditRecord = {
    time: new Date(start).toISOString(),
    method: ctx.method,
    requestId: ctx.requestId,
    protocolVersion: ctx.protocolVersion,
    durationMs: Math.max(0, end - start),
    outcome: outcome.kind,
  };
  const target = addressed(ctx);
  if (target !== undefined) record.target = target.name;
  if (ctx.transport.kind !== undefined) record.transport = ctx.transport.kind;
  if (ctx.transport.sessionId !== undefined) record.sessionId = ctx.transport.sessionId;
  const principal = ctx.principal;
  if (principal !== undefined) {
    const who: NonNullable<AuditRecord['principal']> = {};
    if (principal.subject !== undefined) who.subject = principal.subject;
    if (principal.clientId !== undefined) who.clientId = principal.clientId;
    if (principal.issuer !== undefined) who.issuer = principal.issuer;
    record.principal = who;
  }
  const { name, version } = ctx.client;
  if (name !== undefined || version !== undefined) {
    const client: NonNullable<AuditRecord['client']> = {};
    if (name !== undefined) client.name = name;
    if (version !== undefined) client.version = version;
    record.client = client;
  }
  if (outcome.kind === 'error') {
    record.errorCode = outcome.code;
    record.errorMessage = outcome.message;
  }
  return record;
}

/**
 * A middleware that writes an {@link AuditRecord} for every request it sees. Put it first to
 * record what later middleware refuses (a rate limit, read-only mode); requests refused before
 * any middleware (an unknown method, a missing required param) and HTTP refusals before the body
 * are not recorded.
 * @example
 * createServer({ info, tools, middleware: [audit(), rateLimit({ limit: 60 })] });
 */
export function audit(options: AuditOptions = {}): Middleware {
  const sink = options.sink ?? stderrSink;
  const clock = options.clock ?? epochClock;
  const audited = options.methods === undefined ? undefined : new Set(options.methods);
  return (ctx: RequestContext, next: Next): JsonObject | Promise<JsonObject> => {
    if (audited !== undefined && !audited.has(ctx.method)) return next();
    const start = clock();
    return observe(ctx, next, (outcome) => {
      try {
        sink(auditRecord(ctx, start, clock(), outcome));
      } catch (error) {
        ctx.server.report(`audit sink failed: ${messageOf(error)}`);
      }
    });
  };
}
