/**
 * The context every handler receives: who is calling, which revision, cancellation, progress
 * and logging for this one request.
 *
 * Spec: MCP 2025-11-25, Basic / Utilities / Cancellation, Progress; Server / Utilities / Logging.
 * @module
 */
import type { JsonObject, JsonRpcNotification, JsonValue, RequestId } from '../protocol/messages.js';
import { atLeast } from '../protocol/revisions.js';
import type { AskClient } from './client-input.js';

/** RFC 5424 severities, as MCP names them, least severe first. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** A logging level (MCP 2025-11-25, `LoggingLevel`). */
export type LoggingLevel =
  | 'debug'
  | 'info'
  | 'notice'
  | 'warning'
  | 'error'
  | 'critical'
  | 'alert'
  | 'emergency';

/** Who is calling: from the `initialize` handshake (or, later, per-request `_meta`). */
export interface ClientInfo {
  name?: string;
  version?: string;
  /** The capabilities the client declared; `{}` when none. */
  capabilities: JsonObject;
}

/** The per-request context passed to `run(args, ctx)` and every other handler. */
export interface RequestContext {
  /** The JSON-RPC id of the request being served. */
  readonly requestId: RequestId;
  /** The method being served, e.g. `tools/call`. */
  readonly method: string;
  /** The protocol revision this request is answered in, e.g. `2025-11-25`. */
  readonly protocolVersion: string;
  /** The calling client's identity and capabilities. */
  readonly client: ClientInfo;
  /** Aborted when the client cancels this request, the time-out passes, or the server closes. */
  readonly signal: AbortSignal;
  /** The request's `params._meta`, if any. */
  readonly meta: JsonObject | undefined;
  /**
   * Reports progress; sends `notifications/progress` only when the request carried a
   * `progressToken`, and only when `progress` is greater than the last value sent.
   */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Sends `notifications/message` when `level` is at or above the level the client set with
   * `logging/setLevel`; nothing when the client set none.
   */
  log(level: LoggingLevel, data: JsonValue, logger?: string): void;
  /**
   * Asks the user for input through the client (`elicitation/create`). On a legacy connection
   * this is a server-to-client request; at 2026-07-28 the call ends with `input_required` and
   * `run` starts again when the client retries with the answer, so code before it should be
   * repeatable. Rejects when the client lacks the `elicitation` capability.
   */
  elicit(params: JsonObject): Promise<JsonObject>;
  /** Asks the client's model for a completion (`sampling/createMessage`); as {@link elicit}. */
  sample(params: JsonObject): Promise<JsonObject>;
  /** Asks the client for its roots (`roots/list`); as {@link elicit}. */
  listRoots(): Promise<JsonObject>;
}

/** What the connection supplies to build a context. */
export interface ContextInput {
  requestId: RequestId;
  method: string;
  protocolVersion: string;
  client: ClientInfo;
  signal: AbortSignal;
  meta: JsonObject | undefined;
  /** The minimum level the client asked for, or undefined for no log notifications. */
  logLevel: LoggingLevel | undefined;
  notify(notification: JsonRpcNotification): void;
  /** Sends one question to the client (legacy request or 2026-07-28 input request). */
  ask: AskClient;
}

/** Builds the context for one request. */
export function createContext(input: ContextInput): RequestContext {
  const token = input.meta?.progressToken;
  const hasToken = typeof token === 'string' || typeof token === 'number';
  let last = -Infinity;
  return {
    requestId: input.requestId,
    method: input.method,
    protocolVersion: input.protocolVersion,
    client: input.client,
    signal: input.signal,
    meta: input.meta,
    progress(progress: number, total?: number, message?: string): void {
      if (!hasToken || input.signal.aborted || !(progress > last)) return;
      last = progress;
      const params: JsonObject = { progressToken: token, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined && atLeast(input.protocolVersion, '2025-03-26')) params.message = message;
      input.notify({ jsonrpc: '2.0', method: 'notifications/progress', params });
    },
    log(level: LoggingLevel, data: JsonValue, logger?: string): void {
      if (input.logLevel === undefined || input.signal.aborted) return;
      if (LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(input.logLevel)) return;
      const params: JsonObject = { level, data };
      if (logger !== undefined) params.logger = logger;
      input.notify({ jsonrpc: '2.0', method: 'notifications/message', params });
    },
    elicit: (params) => input.ask('elicitation/create', params),
    sample: (params) => input.ask('sampling/createMessage', params),
    listRoots: () => input.ask('roots/list', {}),
  };
}
