/**
 * The context every handler receives: who is calling, which revision, cancellation, progress
 * and logging for this one request.
 *
 * Spec: MCP 2025-11-25, Basic / Utilities / Cancellation, Progress; Server / Utilities / Logging.
 * @module
 */
import type { JsonObject, JsonRpcNotification, JsonValue, RequestId } from '../protocol/messages.js';
import { isOneOf, notOneOf } from '../protocol/names.js';
import { atLeast } from '../protocol/revisions.js';
import type { AskClient, AskOptions } from './client-input.js';
import type { RequestControl } from './request-control.js';

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
   * @throws {TypeError} when `level` is not one of `LOGGING_LEVELS` (`warn` is `warning`).
   */
  log(level: LoggingLevel, data: JsonValue, logger?: string): void;
  /**
   * Asks the user for input through the client (`elicitation/create`). On a legacy connection
   * this is a server-to-client request; at 2026-07-28 the call ends with `input_required` and
   * `run` starts again when the client retries with the answer, so code before it should be
   * repeatable. Rejects when the client lacks the `elicitation` capability.
   */
  elicit(params: JsonObject, options?: AskOptions): Promise<JsonObject>;
  /** Asks the client's model for a completion (`sampling/createMessage`); as {@link elicit}. */
  sample(params: JsonObject, options?: AskOptions): Promise<JsonObject>;
  /** Asks the client for its roots (`roots/list`); as {@link elicit}. */
  listRoots(options?: AskOptions): Promise<JsonObject>;
}

/** What the connection supplies to build a context. */
export interface ContextInput {
  requestId: RequestId;
  method: string;
  protocolVersion: string;
  client: ClientInfo;
  /** The request's cancellation state; its signal is made only when a handler reads it. */
  control: RequestControl;
  meta: JsonObject | undefined;
  /** The minimum level the client asked for, or undefined for no log notifications. */
  logLevel: LoggingLevel | undefined;
  notify(notification: JsonRpcNotification): void;
  /** Sends one question to the client (legacy request or 2026-07-28 input request). */
  ask: AskClient;
}

/** The context of one request; one object with prototype methods (no closures per request). */
class Context implements RequestContext {
  readonly requestId: RequestId;
  readonly method: string;
  readonly protocolVersion: string;
  readonly client: ClientInfo;
  readonly meta: JsonObject | undefined;
  readonly input: ContextInput;
  lastProgress: number = -Infinity;

  constructor(input: ContextInput) {
    this.input = input;
    this.requestId = input.requestId;
    this.method = input.method;
    this.protocolVersion = input.protocolVersion;
    this.client = input.client;
    this.meta = input.meta;
  }

  get signal(): AbortSignal {
    return this.input.control.signal;
  }

  progress(progress: number, total?: number, message?: string): void {
    const token = this.meta?.progressToken;
    // A progress token is a string or an integer (MCP 2025-11-25, `ProgressToken`).
    if (typeof token !== 'string' && !Number.isSafeInteger(token)) return;
    if (this.input.control.aborted || !(progress > this.lastProgress)) return;
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: token as string | number, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && atLeast(this.protocolVersion, '2025-03-26')) params.message = message;
    this.input.notify({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  log(level: LoggingLevel, data: JsonValue, logger?: string): void {
    if (!isOneOf(level, LOGGING_LEVELS)) throw new TypeError(`log: ${notOneOf('logging level', level, LOGGING_LEVELS)}`);
    const minimum = this.input.logLevel;
    if (minimum === undefined || this.input.control.aborted) return;
    if (LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(minimum)) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.input.notify({ jsonrpc: '2.0', method: 'notifications/message', params });
  }

  elicit(params: JsonObject, options?: AskOptions): Promise<JsonObject> {
    return this.input.ask('elicitation/create', params, options?.key);
  }

  sample(params: JsonObject, options?: AskOptions): Promise<JsonObject> {
    return this.input.ask('sampling/createMessage', params, options?.key);
  }

  listRoots(options?: AskOptions): Promise<JsonObject> {
    return this.input.ask('roots/list', {}, options?.key);
  }
}

/** Builds the context for one request. */
export function createContext(input: ContextInput): RequestContext {
  return new Context(input);
}

/**
 * True when the request behind `ctx` was aborted, without making its `AbortSignal` (contexts not
 * made here, e.g. a wrapper with its own signal, are asked through their signal).
 */
export function isAborted(ctx: RequestContext): boolean {
  if (Object.prototype.hasOwnProperty.call(ctx, 'signal')) return ctx.signal.aborted;
  return ctx instanceof Context ? ctx.input.control.aborted : ctx.signal.aborted;
}
