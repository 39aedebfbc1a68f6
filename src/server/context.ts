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
import type { Era } from './era.js';
import type { RequestTarget } from './methods.js';
import type { RequestControl } from './request-control.js';
import type { Principal, TransportInfo } from './request-info.js';
import type { Server } from './server.js';
import type { TraceContext } from './trace-context.js';

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

/**
 * `unknown` when a value of type `T` can go into JSON, else `never` at each place that cannot (a
 * function, a bigint, a symbol, or `undefined` as the whole value: the message would have no
 * `data`): `ctx.log`'s `data` has type `T & JsonData<T>`, so an object with optional fields, an
 * interface, a `Date` (it has `toJSON`) or an `unknown` (from a `catch`) is accepted, and a value
 * JSON would lose or refuse fails to compile.
 * Spec: MCP 2025-11-25, `LoggingMessageNotification` (`data`: "Any JSON serializable type").
 */
export type JsonData<T> = unknown extends T ? unknown : undefined extends T ? never : JsonMember<T>;

/** {@link JsonData} below the top level, where `undefined` (an absent key) is fine. */
type JsonMember<T> = T extends JsonValue | undefined
  ? unknown
  : T extends bigint | symbol | ((...args: never[]) => unknown)
    ? never
    : T extends { toJSON(): unknown }
      ? unknown
      : { [K in keyof T]: JsonMember<T[K]> };

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

/**
 * The task side of a `tools/call` that may run as a task (the tasks extension, SEP-2663): present
 * on `ctx.task` when the tool supports tasks and the client declared the extension, undefined
 * otherwise. While the call runs as a task, `ctx.elicit`/`sample`/`listRoots` become the task's
 * `inputRequests` (answered with `tasks/update`), `ctx.progress` sets its `statusMessage`, and
 * `ctx.log` sends nothing (a task has no stream).
 */
export interface TaskControl {
  /** The task's id once the call runs as a task; undefined while it runs inline. */
  readonly taskId: string | undefined;
  /**
   * Moves the call into a task now, if it is not one yet: the request is answered with a
   * `CreateTaskResult` and `run` goes on in the background. Questions asked before it went to the
   * client as multi round-trip requests, so a tool can gather input first and then hand off
   * (SEP-2663, "Composition with Multi Round-Trip Requests"). Resolves to true when the call runs
   * as a task, false when it goes on inline (the task store is full and the tool allows inline).
   * @throws {RpcError} `-32603` when the store is full and the tool requires a task (the request
   *   is answered with that error).
   */
  start(): Promise<boolean>;
  /** Sets the task's `statusMessage` (nothing while the call runs inline). */
  status(message: string): Promise<void>;
}

/** The per-request context passed to `run(args, ctx)` and every other handler. */
export interface RequestContext {
  /** The JSON-RPC id of the request being served. */
  readonly requestId: RequestId;
  /** The method being served, e.g. `tools/call`. */
  readonly method: string;
  /** The request's `params` as received (`undefined` when it had none). Do not mutate. */
  readonly params: JsonObject | undefined;
  /** The protocol revision this request is answered in, e.g. `2025-11-25`. */
  readonly protocolVersion: string;
  /** `modern` for a 2026-07-28 request (stateless, per-request `_meta`), else `legacy`. */
  readonly era: Era;
  /**
   * The calling client's identity and capabilities (for a 2026-07-28 request, those it declared
   * on this request; `capabilities.extensions` lists the extensions it declared).
   */
  readonly client: ClientInfo;
  /** What the request addresses (the tool of a `tools/call`, say), when it names one that exists. */
  readonly target: RequestTarget | undefined;
  /** Transport facts: its kind, HTTP headers, the peer's address, the legacy session id. */
  readonly transport: TransportInfo;
  /** The authenticated caller, when authorization verified one; undefined on stdio. */
  readonly principal: Principal | undefined;
  /** W3C trace context from `params._meta`, else from HTTP headers; undefined when none came. */
  readonly trace: TraceContext | undefined;
  /** The server serving the request (its registries, `resourceUpdated`, ...). */
  readonly server: Server;
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
  log<T>(level: LoggingLevel, data: T & JsonData<T>, logger?: string): void;
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
  /** The task side of a `tools/call` that may run as a task; undefined for any other request. */
  readonly task: TaskControl | undefined;
}

/** What the connection supplies to build a context. */
export interface ContextInput {
  requestId: RequestId;
  method: string;
  params: JsonObject | undefined;
  protocolVersion: string;
  era: Era;
  client: ClientInfo;
  /**
   * Finds what the request addresses from its params; called at most once, when something reads
   * `ctx.target`.
   */
  target: ((params: JsonObject | undefined) => RequestTarget | undefined) | undefined;
  transport: TransportInfo;
  principal: Principal | undefined;
  trace: TraceContext | undefined;
  server: Server;
  /** The request's cancellation state; its signal is made only when a handler reads it. */
  control: RequestControl;
  meta: JsonObject | undefined;
  /** The minimum level the client asked for, or undefined for no log notifications. */
  logLevel: LoggingLevel | undefined;
  notify(notification: JsonRpcNotification): void;
  /** Sends one question to the client (legacy request or 2026-07-28 input request). */
  ask: AskClient;
  /** Where diagnostics go (a message sent after the request ended is reported here, once). */
  report(line: string): void;
}

/** What each request's target resolved to, once read. */
const targets = new WeakMap<ContextInput, RequestTarget | undefined>();

/** The context of one request; one object with prototype methods (no closures per request). */
class Context implements RequestContext {
  // `declare`d and set in the constructor: no per-object field definitions before it runs (one
  // of these is made for every request).
  declare readonly requestId: RequestId;
  declare readonly method: string;
  declare readonly params: JsonObject | undefined;
  declare readonly protocolVersion: string;
  declare readonly era: Era;
  declare readonly client: ClientInfo;
  declare readonly transport: TransportInfo;
  declare readonly principal: Principal | undefined;
  declare readonly trace: TraceContext | undefined;
  declare readonly server: Server;
  declare readonly meta: JsonObject | undefined;
  declare readonly input: ContextInput;
  declare readonly task: TaskControl | undefined;
  declare lastProgress: number;

  constructor(input: ContextInput) {
    this.input = input;
    this.requestId = input.requestId;
    this.method = input.method;
    this.params = input.params;
    this.protocolVersion = input.protocolVersion;
    this.era = input.era;
    this.client = input.client;
    this.transport = input.transport;
    this.principal = input.principal;
    this.trace = input.trace;
    this.server = input.server;
    this.meta = input.meta;
    this.task = undefined;
    this.lastProgress = -Infinity;
  }

  get target(): RequestTarget | undefined {
    // Cached per request (not per object: a tool's time-out wraps the context in a child).
    const input = this.input;
    if (targets.has(input)) return targets.get(input);
    const target = input.target?.(input.params);
    targets.set(input, target);
    return target;
  }

  get signal(): AbortSignal {
    return this.input.control.signal;
  }

  /** True (and reported once) when the request already ended: `what` is then dropped. */
  late(what: string): boolean {
    const control = this.input.control;
    if (!control.ended) return false;
    if (!control.lateReported) {
      control.lateReported = true;
      this.input.report(
        `${this.method} (request ${JSON.stringify(this.requestId)}) sent ${what} after its reply; dropped it (and any later ones)`,
      );
    }
    return true;
  }

  progress(progress: number, total?: number, message?: string): void {
    const token = this.meta?.progressToken;
    // A progress token is a string or an integer (MCP 2025-11-25, `ProgressToken`).
    if (typeof token !== 'string' && !Number.isSafeInteger(token)) return;
    if (this.late('notifications/progress')) return;
    if (this.input.control.aborted || !(progress > this.lastProgress)) return;
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: token as string | number, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && atLeast(this.protocolVersion, '2025-03-26')) params.message = message;
    this.input.notify({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  log<T>(level: LoggingLevel, data: T & JsonData<T>, logger?: string): void {
    if (!isOneOf(level, LOGGING_LEVELS)) throw new TypeError(`log: ${notOneOf('logging level', level, LOGGING_LEVELS)}`);
    const minimum = this.input.logLevel;
    if (minimum === undefined || this.input.control.aborted) return;
    if (LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(minimum)) return;
    if (this.late('notifications/message')) return;
    const params: JsonObject = { level, data: data as JsonValue };
    if (logger !== undefined) params.logger = logger;
    this.input.notify({ jsonrpc: '2.0', method: 'notifications/message', params });
  }

  elicit(params: JsonObject, options?: AskOptions): Promise<JsonObject> {
    if (this.late('elicitation/create')) return Promise.reject(new Error('elicitation/create after the request ended'));
    return this.input.ask('elicitation/create', params, options?.key);
  }

  sample(params: JsonObject, options?: AskOptions): Promise<JsonObject> {
    if (this.late('sampling/createMessage')) return Promise.reject(new Error('sampling/createMessage after the request ended'));
    return this.input.ask('sampling/createMessage', params, options?.key);
  }

  listRoots(options?: AskOptions): Promise<JsonObject> {
    if (this.late('roots/list')) return Promise.reject(new Error('roots/list after the request ended'));
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
