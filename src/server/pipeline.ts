/**
 * The request pipeline: how one request becomes one response, the same way for every method, in
 * both eras, on every transport. In order: the nesting limit; the era, revision and client
 * (`requestScope`, decided once); the method table's lookup (era, revision, capability,
 * extension, required params); the request context (transport facts, caller, trace context);
 * the middleware chain around the handler; then the one pass that shapes the result for the
 * revision (`shapeResult`), or the error response.
 *
 * Spec: JSON-RPC 2.0 §5–6; MCP 2025-11-25, Basic / Lifecycle; MCP 2026-07-28, Basic / Versioning,
 * Basic / Overview, Basic / Patterns / Multi Round-Trip Requests.
 * @module
 */
import { ErrorCode, errorResponse, isRpcError, RpcError } from '../protocol/errors.js';
import { exceedsDepth } from '../protocol/limits.js';
import type {
  JsonObject,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcResponse,
  RequestId,
} from '../protocol/messages.js';
import type { Implementation } from '../protocol/types.js';
import { askLegacy, collectResponses, InputRequiredSignal, mrtrAsk, type AskClient } from './client-input.js';
import { createContext, type RequestContext } from './context.js';
import { requestScope, salientParams, type RequestScope, type SessionState } from './era.js';
import { serverInfoFor } from './lifecycle.js';
import { lookup, type MethodEntry, type MethodRequest, type RequestTarget, type SessionControl } from './methods.js';
import { notAResult, runMiddleware, type Middleware } from './middleware.js';
import { listedFor, missingScopes, principalKey } from './principal.js';
import type { RequestControl } from './request-control.js';
import type { Principal, TransportInfo, TransportRequestInfo } from './request-info.js';
import { digest, type RequestStateCodec } from './request-state.js';
import { shapeResult, type CacheHints } from './result.js';
import type { Server } from './server.js';
import { isThenable } from './thenable.js';
import { readTraceContext } from './trace-context.js';

/** The message of the `-32603` sent for a fault that is not an `RpcError` (the detail goes to `report`). */
export function internalErrorMessage(method: string): string {
  return `Internal error while handling ${method}`;
}

/**
 * Refuses a request whose target needs scopes the caller lacks, before anything of it runs. The
 * HTTP transport answers such a request with `403 insufficient_scope` before it gets here; this
 * holds for every other transport that supplies a principal.
 * @throws {RpcError} `-32600` naming the target and every missing scope.
 */
function refuseMissingScopes(method: string, target: RequestTarget | undefined, principal: Principal): void {
  const missing = missingScopes(principal.scopes, target?.scopes);
  if (missing.length === 0 || target === undefined) return;
  throw new RpcError(
    ErrorCode.InvalidRequest,
    `Forbidden: ${method} of ${target.kind} "${target.name}" needs scope ${target.scopes?.join(' ')} (missing: ${missing.join(' ')})`,
    { requiredScopes: [...(target.scopes ?? [])] },
  );
}

/** Marks an abort caused by `notifications/cancelled`: such a request gets no reply. */
export const CANCELLED: unique symbol = Symbol('cancelled by the client');

/** What the pipeline needs of the connection that carries a request. */
export interface ConnectionPort extends SessionControl {
  /** The connection's handshake state (legacy era). */
  readonly state: SessionState;
  /** The connection's scope for a plain legacy request (cached by the connection). */
  plainScope(): RequestScope;
  /** The request `id` was answered (its control is marked ended): it is no longer in flight. */
  ended(id: RequestId): void;
  /** Transport facts that hold for every request of the connection (its kind, say). */
  readonly transport: TransportInfo;
  /** Sends a server-originated notification on the connection, unless it is closed. */
  notify(notification: JsonRpcNotification): void;
  /** {@link notify}, bound once per connection (handed to each request without a stream). */
  readonly notifyOnConnection: (notification: JsonRpcNotification) => void;
  /** True while the connection is open. */
  readonly open: boolean;
  /** Sends a request to a legacy client; see `Connection.request`. */
  request(
    method: string,
    params: JsonObject,
    signal: AbortSignal,
    timeoutMs: number,
    send?: (message: JsonRpcMessage) => void,
  ): Promise<JsonObject>;
}

/** The limits of a 2025-03-26 batch. */
export interface BatchLimits {
  /** Most messages in one batch. */
  readonly maxItems: number;
  /** Largest batch reply, in bytes of JSON (UTF-16 code units, a close upper bound of UTF-8 for ASCII). */
  readonly maxReplyBytes: number;
}

/** The settings of a pipeline, fixed when the server is created. */
export interface PipelineOptions {
  /** The server (handlers and middleware see it as `ctx.server`). */
  server: Server;
  info: Implementation;
  /** The method table. */
  table: ReadonlyMap<string, MethodEntry>;
  /** The middleware chain, outermost first (the server may add to it later). */
  middleware: readonly Middleware[];
  /** The server's announced capabilities in an era (cached by the server). */
  capabilities(era: 'legacy' | 'modern'): JsonObject;
  /** Caching hints of a cacheable method's results. */
  cacheHints(method: string, scope: 'public' | 'private'): CacheHints;
  /** Largest nesting depth of `params`. */
  maxDepth: number;
  /** Batch limits (2025-03-26): messages per batch, bytes of JSON per batch reply. */
  batch: BatchLimits;
  /** Signs `requestState`. */
  requestStates: RequestStateCodec;
  /** Lifetime of a `requestState`, in milliseconds. */
  requestStateTtlMs: number;
  /** Time-out for requests to a legacy client, in milliseconds. */
  inputTimeoutMs: number;
  /** Where diagnostics go. */
  report(line: string): void;
}

/** The `InputRequiredResult` a 2026-07-28 question for the client ends its request with. */
function inputRequired(signal: InputRequiredSignal): JsonObject {
  return { resultType: 'input_required', inputRequests: signal.inputRequests, requestState: signal.requestState };
}

/**
 * Runs an entry's handler and checks that it returned a result object (a custom method, an
 * extension method or a wrapper may return anything at run time). Synchronous when the handler
 * is (no promise is made for a tool that answers at once).
 * @throws {TypeError} naming the method and what its handler returned instead (or rejects with it
 *   when the handler returned a promise); anything the handler throws.
 */
function runHandler(
  entry: MethodEntry,
  params: JsonObject | undefined,
  ctx: RequestContext,
  request: MethodRequest,
): JsonObject | Promise<JsonObject> {
  const result: unknown = entry.run(params, ctx, request);
  if (isThenable(result)) return Promise.resolve(result).then((value: unknown) => checkedResult(entry.method, value));
  return checkedResult(entry.method, result);
}

/** `value` as a result object. @throws {TypeError} when it is not one. */
function checkedResult(method: string, value: unknown): JsonObject {
  const wrong = notAResult(value);
  if (wrong !== undefined) {
    throw new TypeError(`the handler of ${method} returned ${wrong}, not a result object (return {} for an empty result)`);
  }
  return value as JsonObject;
}

/** Runs an entry inside middleware: a question for the client is a result the middleware sees. */
async function runEntry(
  entry: MethodEntry,
  params: JsonObject | undefined,
  ctx: RequestContext,
  request: MethodRequest,
): Promise<JsonObject> {
  try {
    return await runHandler(entry, params, ctx, request);
  } catch (error) {
    if (error instanceof InputRequiredSignal && request.scope.modern) return inputRequired(error);
    throw error;
  }
}

/** Serves requests; one per server, shared by its connections. */
export class Pipeline {
  readonly #options: PipelineOptions;
  readonly #serverInfo = new Map<string, JsonObject>();

  constructor(options: PipelineOptions) {
    this.#options = options;
  }

  /** The batch limits (read by connections). */
  get batch(): BatchLimits {
    return this.#options.batch;
  }

  /** Where diagnostics go. */
  report(line: string): void {
    this.#options.report(line);
  }

  /** The method table entry for `method`, if any (for transports' per-method facts). */
  entry(method: string): MethodEntry | undefined {
    return this.#options.table.get(method);
  }

  /**
   * Serves one request on `port` and resolves to its response, or to `null` when the client
   * cancelled it (a cancelled request gets no reply). Never rejects. Once the response is decided
   * (just before the promise settles), `control` is marked ended and `port.ended` is told.
   *
   * Everything up to the handler's call runs now; a handler that answers at once (a synchronous
   * tool) costs one promise and one turn of the microtask queue, in which a cancel that follows
   * it in the same input still takes effect.
   */
  serve(
    port: ConnectionPort,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    control: RequestControl,
    transport: TransportRequestInfo | undefined,
  ): Promise<JsonRpcResponse | null> {
    const options = this.#options;
    let scope: RequestScope | undefined;
    let entry: MethodEntry | undefined;
    let pending: JsonObject | Promise<JsonObject>;
    try {
      if (exceedsDepth(params, options.maxDepth)) {
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params: nested deeper than the limit of ${options.maxDepth} levels`);
      }
      scope = requestScope(method, params, transport, port.state, port);
      entry = lookup(options.table, method, params, scope, options.capabilities(scope.modern ? 'modern' : 'legacy'));
      const principal = transport?.principal;
      if (principal !== undefined && entry.target !== undefined) refuseMissingScopes(method, entry.target(params), principal);
      const ask = scope.modern
        ? this.#modernAsk(method, params, scope, principalKey(principal))
        : this.#legacyAsk(port, control, scope, transport?.send);
      pending =
        ask instanceof Promise
          ? ask.then((a) => this.#run(port, id, method, params, control, transport, scope as RequestScope, entry as MethodEntry, a))
          : this.#run(port, id, method, params, control, transport, scope, entry, ask);
    } catch (error) {
      pending = Promise.reject(error);
    }
    return this.#settle(port, id, method, control, transport, scope, entry, pending);
  }

  /**
   * Builds the request's context and runs the entry (inside the middleware, if any); the value
   * when the handler answered at once.
   * @throws what the handler (or a middleware) throws; the abort reason of a request cancelled
   *   before its handler starts (it never runs).
   */
  #run(
    port: ConnectionPort,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    control: RequestControl,
    transport: TransportRequestInfo | undefined,
    scope: RequestScope,
    entry: MethodEntry,
    ask: AskClient,
  ): JsonObject | Promise<JsonObject> {
    const options = this.#options;
    // A request cancelled before its handler starts never runs.
    if (control.aborted) throw control.reason;
    const send = transport?.send;
    const notify =
      send === undefined
        ? port.notifyOnConnection
        : (n: JsonRpcNotification): void => {
            if (port.open) send(n);
          };
    const meta = params?._meta;
    const metaObject = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : undefined;
    // Object.assign, not a spread of two objects: on V8 a spread copy that gets more keys
    // after it builds a new hidden class per request (microseconds, and garbage).
    const facts = transport === undefined ? port.transport : Object.assign({}, port.transport, transport);
    const ctx = createContext({
      requestId: id,
      method,
      params,
      protocolVersion: scope.protocolVersion,
      era: scope.modern ? 'modern' : 'legacy',
      client: scope.client,
      target: entry.target,
      transport: facts,
      principal: transport?.principal,
      trace: readTraceContext(metaObject, facts.headers),
      server: options.server,
      control,
      meta: metaObject,
      logLevel: scope.logLevel,
      notify,
      ask,
      report: options.report,
    });
    const request: MethodRequest = { session: port, scope, notify };
    const middleware = options.middleware;
    return middleware.length === 0
      ? runHandler(entry, params, ctx, request)
      : runMiddleware(middleware, ctx, () => runEntry(entry, params, ctx, request));
  }

  /** Waits for the handler's result (or fault) and turns it into the response; never rejects. */
  async #settle(
    port: ConnectionPort,
    id: RequestId,
    method: string,
    control: RequestControl,
    transport: TransportRequestInfo | undefined,
    scope: RequestScope | undefined,
    entry: MethodEntry | undefined,
    pending: JsonObject | Promise<JsonObject>,
  ): Promise<JsonRpcResponse | null> {
    try {
      const result = await pending;
      if (control.reason === CANCELLED) return null;
      return this.#respond(id, method, result, scope as RequestScope, entry, transport);
    } catch (error) {
      return this.#failed(error, id, method, control, transport, scope);
    } finally {
      control.ended = true;
      port.ended(id);
    }
  }

  /** The response to a request whose handling threw `error` (`null`: it was cancelled). */
  #failed(
    error: unknown,
    id: RequestId,
    method: string,
    control: RequestControl,
    transport: TransportRequestInfo | undefined,
    scope: RequestScope | undefined,
  ): JsonRpcResponse | null {
    if (control.reason === CANCELLED) return null;
    // A 2026-07-28 question for the client ends the request with an InputRequiredResult.
    if (error instanceof InputRequiredSignal && scope?.modern === true) {
      return this.#respond(id, method, inputRequired(error), scope, undefined, transport);
    }
    // (Fields, not `toJSON`: the error may come from another copy of baremcp.)
    if (isRpcError(error)) return errorResponse(id, error.code, error.message, error.data);
    this.#options.report(`internal error in ${method}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return errorResponse(id, ErrorCode.InternalError, internalErrorMessage(method));
  }

  #respond(
    id: RequestId,
    method: string,
    result: JsonObject,
    scope: RequestScope,
    entry: MethodEntry | undefined,
    transport: TransportRequestInfo | undefined,
  ): JsonRpcResponse {
    if (!scope.modern) return { jsonrpc: '2.0', id, result };
    const cache = entry?.cacheScope === undefined ? undefined : this.#cacheHints(entry, transport);
    return { jsonrpc: '2.0', id, result: shapeResult(result, { modern: true, serverInfo: this.#info(scope), cache }) };
  }

  /** A cacheable result's hints: private when the result is filtered by the caller's scopes. */
  #cacheHints(entry: MethodEntry, transport: TransportRequestInfo | undefined): CacheHints {
    const hints = this.#options.cacheHints(entry.method, entry.cacheScope ?? 'public');
    const filtered = entry.scoped === true && transport !== undefined && listedFor(transport.principal, transport) !== undefined;
    return filtered && hints.cacheScope !== 'private' ? { ...hints, cacheScope: 'private' } : hints;
  }

  #info(scope: RequestScope): JsonObject {
    let info = this.#serverInfo.get(scope.protocolVersion);
    if (info === undefined) {
      info = serverInfoFor(this.#options.info, scope.protocolVersion);
      this.#serverInfo.set(scope.protocolVersion, info);
    }
    return info;
  }

  /**
   * The client-input function of a legacy request: requests to the client on its connection. One
   * closure per request; the rest is made only when a question is asked (most requests ask none).
   */
  #legacyAsk(
    port: ConnectionPort,
    control: RequestControl,
    scope: RequestScope,
    send: ((message: JsonRpcMessage) => void) | undefined,
  ): AskClient {
    const timeoutMs = this.#options.inputTimeoutMs;
    return (method, params) =>
      askLegacy(
        {
          capabilities: scope.client.capabilities,
          request: (m, p, s, t) => port.request(m, p, s, t, send),
          control,
          protocolVersion: scope.protocolVersion,
          timeoutMs,
        },
        method,
        params,
      );
  }

  /**
   * The client-input function of a 2026-07-28 request (multi round-trip); a promise only for a
   * retry whose state must be verified before the handler runs.
   */
  #modernAsk(
    method: string,
    params: JsonObject | undefined,
    scope: RequestScope,
    caller: string,
  ): AskClient | Promise<AskClient> {
    const options = this.#options;
    const state = params?.requestState;
    const capabilities = scope.client.capabilities;
    const mrtr = async (): Promise<Parameters<typeof mrtrAsk>[0]> => {
      // Bound to the request and to its caller: another principal cannot resume it.
      const salient = salientParams(params);
      const bind = `${method}:${await digest(caller === '' ? salient : [caller, salient])}`;
      const payload = typeof state === 'string' ? await options.requestStates.open(state, bind) : undefined;
      const responses = collectResponses(payload?.responses ?? {}, payload?.pending, params?.inputResponses);
      return { capabilities, responses, codec: options.requestStates, bind, ttlMs: options.requestStateTtlMs };
    };
    // A retry's state is verified before the handler runs; otherwise the work waits for a question.
    if (typeof state === 'string') return mrtr().then(mrtrAsk);
    let ask: Promise<AskClient> | undefined;
    return async (m, p, key) => {
      ask ??= mrtr().then(mrtrAsk);
      return (await ask)(m, p, key);
    };
  }
}
