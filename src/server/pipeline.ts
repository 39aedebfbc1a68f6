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
import { collectResponses, InputRequiredSignal, legacyAsk, mrtrAsk, type AskClient } from './client-input.js';
import { createContext } from './context.js';
import { requestScope, salientParams, type RequestScope, type SessionState } from './era.js';
import { serverInfoFor } from './lifecycle.js';
import { lookup, type MethodEntry, type RequestTarget, type SessionControl } from './methods.js';
import { runMiddleware, type Middleware } from './middleware.js';
import { listedFor, missingScopes, principalKey } from './principal.js';
import type { RequestControl } from './request-control.js';
import type { Principal, TransportInfo, TransportRequestInfo } from './request-info.js';
import { digest, type RequestStateCodec } from './request-state.js';
import { shapeResult, type CacheHints } from './result.js';
import type { Server } from './server.js';
import { readTraceContext } from './trace-context.js';

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
  /** Transport facts that hold for every request of the connection (its kind, say). */
  readonly transport: TransportInfo;
  /** Sends a server-originated notification on the connection, unless it is closed. */
  notify(notification: JsonRpcNotification): void;
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
  /** Signs `requestState`. */
  requestStates: RequestStateCodec;
  /** Lifetime of a `requestState`, in milliseconds. */
  requestStateTtlMs: number;
  /** Time-out for requests to a legacy client, in milliseconds. */
  inputTimeoutMs: number;
  /** Where diagnostics go. */
  report(line: string): void;
}

/** Serves requests; one per server, shared by its connections. */
export class Pipeline {
  readonly #options: PipelineOptions;
  readonly #serverInfo = new Map<string, JsonObject>();

  constructor(options: PipelineOptions) {
    this.#options = options;
  }

  /** The method table entry for `method`, if any (for transports' per-method facts). */
  entry(method: string): MethodEntry | undefined {
    return this.#options.table.get(method);
  }

  /**
   * Serves one request on `port` and resolves to its response, or to `null` when the client
   * cancelled it (a cancelled request gets no reply). Never rejects.
   */
  async serve(
    port: ConnectionPort,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    control: RequestControl,
    transport: TransportRequestInfo | undefined,
  ): Promise<JsonRpcResponse | null> {
    const options = this.#options;
    if (exceedsDepth(params, options.maxDepth)) {
      return errorResponse(id, ErrorCode.InvalidParams, `Invalid params: nested deeper than the limit of ${options.maxDepth} levels`);
    }
    let scope: RequestScope | undefined;
    try {
      scope = requestScope(method, params, transport, port.state, () => port.plainScope());
      const capabilities = options.capabilities(scope.modern ? 'modern' : 'legacy');
      const entry = lookup(options.table, method, params, scope, capabilities);
      const result = await this.#run(port, id, method, params, control, scope, entry, transport);
      if (control.reason === CANCELLED) return null;
      const cache =
        scope.modern && entry.cacheScope !== undefined ? this.#cacheHints(entry, transport) : undefined;
      return {
        jsonrpc: '2.0',
        id,
        result: shapeResult(result, { modern: scope.modern, serverInfo: this.#info(scope), cache }),
      };
    } catch (error) {
      if (control.reason === CANCELLED) return null;
      // (Fields, not `toJSON`: the error may come from another copy of baremcp.)
      if (isRpcError(error)) return errorResponse(id, error.code, error.message, error.data);
      options.report(`internal error in ${method}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return errorResponse(id, ErrorCode.InternalError, `Internal error while handling ${method}`);
    }
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

  async #run(
    port: ConnectionPort,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    control: RequestControl,
    scope: RequestScope,
    entry: MethodEntry,
    transport: TransportRequestInfo | undefined,
  ): Promise<JsonObject> {
    const options = this.#options;
    const send = transport?.send;
    const notify =
      send === undefined
        ? (n: JsonRpcNotification): void => port.notify(n)
        : (n: JsonRpcNotification): void => {
            if (port.open) send(n);
          };
    const target = entry.target?.(params);
    const principal = transport?.principal;
    if (principal !== undefined) refuseMissingScopes(method, target, principal);
    let ask = this.#ask(port, method, params, control, scope, send, principalKey(principal));
    if (ask instanceof Promise) ask = await ask;
    // A request cancelled before its handler starts never runs.
    if (control.aborted) throw control.reason;
    const meta = params?._meta;
    const metaObject = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : undefined;
    const facts = transport === undefined ? port.transport : { ...port.transport, ...transport };
    const ctx = createContext({
      requestId: id,
      method,
      params,
      protocolVersion: scope.protocolVersion,
      era: scope.modern ? 'modern' : 'legacy',
      client: scope.client,
      target,
      transport: facts,
      principal,
      trace: readTraceContext(metaObject, facts.headers),
      server: options.server,
      control,
      meta: metaObject,
      logLevel: scope.logLevel,
      notify,
      ask,
    });
    const handler = async (): Promise<JsonObject> => {
      try {
        return await entry.run(params, ctx, { session: port, scope, notify });
      } catch (error) {
        // A 2026-07-28 question for the client ends the request with an InputRequiredResult.
        if (error instanceof InputRequiredSignal && scope.modern) {
          return { resultType: 'input_required', inputRequests: error.inputRequests, requestState: error.requestState };
        }
        throw error;
      }
    };
    const middleware = options.middleware;
    return middleware.length === 0 ? handler() : runMiddleware(middleware, ctx, handler);
  }

  /** The client-input function for a request; async only for a retry whose state must be verified. */
  #ask(
    port: ConnectionPort,
    method: string,
    params: JsonObject | undefined,
    control: RequestControl,
    scope: RequestScope,
    send: ((message: JsonRpcMessage) => void) | undefined,
    caller: string,
  ): AskClient | Promise<AskClient> {
    const options = this.#options;
    if (!scope.modern) {
      return legacyAsk({
        capabilities: scope.client.capabilities,
        request: (m, p, s, t) => port.request(m, p, s, t, send),
        control,
        protocolVersion: scope.protocolVersion,
        timeoutMs: options.inputTimeoutMs,
      });
    }
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

