/**
 * One client's connection to a server: the revision negotiated by `initialize` (legacy era), the
 * requests in flight, the server's own requests to the client, and the dispatcher that turns one
 * decoded message into one reply. Each request is served in its own era: 2026-07-28 when its
 * `_meta` says so (stateless), else the connection's negotiated revision.
 *
 * Spec: JSON-RPC 2.0 §4–6; MCP 2025-11-25, Basic / Lifecycle, Basic / Utilities / Cancellation;
 * MCP 2026-07-28, Basic / Versioning, Basic / Patterns / Multi Round-Trip Requests.
 * @module
 */
import { classify } from '../protocol/classify.js';
import { ErrorCode, RpcError, errorResponse, isRpcError } from '../protocol/errors.js';
import { isRequestId } from '../protocol/messages.js';
import type {
  JsonObject,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcResponse,
  RequestId,
} from '../protocol/messages.js';
import { exceedsDepth } from '../protocol/limits.js';
import { LATEST_LEGACY_REVISION, SUPPORTED_REVISIONS } from '../protocol/revisions.js';
import { collectResponses, InputRequiredSignal, legacyAsk, mrtrAsk, type AskClient } from './client-input.js';
import { idKey, OutgoingRequests } from './outgoing.js';
import { RequestControl } from './request-control.js';
import { Subscriptions, type ListKind } from './subscriptions.js';
import { createContext, LOGGING_LEVELS, type ClientInfo, type LoggingLevel } from './context.js';
import { isLegacyRevision, isModernRequest, modernScope, REMOVED_IN_MODERN, salientParams, shapeModernResult, type RequestScope } from './era.js';
import { META, resolveClientIdentity, type TransportRequestInfo } from './identity.js';
import { initializeResult, readInitialize, serverInfoFor } from './lifecycle.js';
import { digest } from './request-state.js';
import type { Server } from './server.js';

/** What `handle` resolves to: a response, an array of them (a batch), or `null` (nothing to send). */
export type Reply = JsonRpcResponse | JsonRpcResponse[] | null;

/** The lists whose changes are announced (re-exported from subscriptions.ts). */
export type { ListKind } from './subscriptions.js';

/** Options for {@link Server.connect}. */
export interface ConnectOptions {
  /**
   * Sends a message the server originates: notifications (progress, log messages) and, on legacy
   * connections, requests to the client. Default: drop them.
   */
  send?: (message: JsonRpcMessage) => void;
}

/** Marks an abort caused by `notifications/cancelled`: such a request gets no reply. */
const CANCELLED = Symbol('cancelled by the client');

let connectionCount = 0;

/** A connection: create with {@link Server.connect}. */
export class Connection {
  /** The revision negotiated by `initialize`; undefined before it. */
  protocolVersion: string | undefined = undefined;
  /** True once `notifications/initialized` arrived. */
  initialized = false;
  /** The client's identity and capabilities from the handshake. */
  client: ClientInfo = { capabilities: {} };
  /** The level set by `logging/setLevel`; undefined: no log notifications. */
  logLevel: LoggingLevel | undefined = undefined;
  /** A name for this connection, unique in the process (legacy resource subscriptions use it). */
  readonly id: string = `connection-${++connectionCount}`;

  readonly #server: Server;
  readonly #send: (message: JsonRpcMessage) => void;
  readonly #inFlight = new Map<string, RequestControl>();
  readonly #outgoing = new OutgoingRequests();
  readonly #subscriptions = new Subscriptions();
  /** The scope of plain legacy requests, rebuilt when the handshake or the log level changes. */
  #sessionScope: RequestScope | undefined;
  #closed = false;
  /** Called once by {@link close}; the server uses it to forget the connection. */
  onclose: (() => void) | undefined = undefined;

  constructor(server: Server, options: ConnectOptions = {}) {
    this.#server = server;
    this.#send = options.send ?? (() => {});
  }

  /** Number of requests being handled now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Handles one decoded JSON-RPC message (or a batch array) and resolves to its reply.
   * `transport` carries per-request metadata from the transport (e.g. HTTP headers).
   * Never rejects: every fault becomes a JSON-RPC error response.
   */
  async handle(message: unknown, transport?: TransportRequestInfo): Promise<Reply> {
    if (Array.isArray(message)) return this.#batch(message, transport);
    return this.#single(message, transport);
  }

  /** Aborts every request in flight and fails pending requests to the client. Safe to call twice. */
  close(): void {
    if (!this.#closed) this.onclose?.();
    this.#closed = true;
    for (const controller of this.#inFlight.values()) controller.abort(new Error('connection closed'));
    this.#outgoing.rejectAll(new Error('connection closed'));
  }

  /**
   * The client's input ended (stdio end of input): subscriptions end gracefully and questions
   * waiting for the client's answer fail at once, since none can come.
   */
  inputEnded(): void {
    this.#subscriptions.endAll();
    this.#outgoing.rejectAll(new Error('the client closed its input before answering'));
  }

  /**
   * Ends every open `subscriptions/listen` gracefully: each gets its completion result. Transports
   * call this at end of input so that long-lived subscriptions do not hold the process open.
   */
  endSubscriptions(): void {
    this.#subscriptions.endAll();
  }

  /**
   * Announces a list change: to a legacy client once it sent `notifications/initialized`, and on
   * every 2026-07-28 subscription that asked for it (tagged with its subscription id).
   */
  listChanged(kind: ListKind): void {
    if (this.initialized) this.notify({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` });
    this.#subscriptions.listChanged(kind);
  }

  /**
   * Sends `notifications/resources/updated` for `uri`: once when this legacy connection subscribed
   * to it, and on every 2026-07-28 subscription whose `resourceSubscriptions` lists it.
   */
  resourceUpdated(uri: string, subscribed: boolean): void {
    if (subscribed) this.notify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
    this.#subscriptions.resourceUpdated(uri);
  }

  /** Sends a server-originated notification unless the connection is closed. */
  notify(notification: JsonRpcNotification): void {
    if (!this.#closed) this.#send(notification);
  }

  /**
   * Sends a request to the client (legacy connections) and resolves to its result. Rejects on an
   * error reply, on `timeoutMs`, or when `signal` aborts; the last two also send
   * `notifications/cancelled` for it.
   */
  request(
    method: string,
    params: JsonObject,
    signal: AbortSignal,
    timeoutMs: number,
    send: (message: JsonRpcMessage) => void = this.#send,
  ): Promise<JsonObject> {
    if (this.#closed) return Promise.reject(new Error('connection closed'));
    return this.#outgoing.request(method, params, signal, timeoutMs, send, () => !this.#closed);
  }

  async #batch(messages: unknown[], transport: TransportRequestInfo | undefined): Promise<Reply> {
    if (messages.length === 0) {
      return errorResponse(undefined, ErrorCode.InvalidRequest, 'Invalid Request: empty batch');
    }
    if (this.protocolVersion !== '2025-03-26') {
      return errorResponse(
        undefined,
        ErrorCode.InvalidRequest,
        `Invalid Request: batches are only part of protocol revision 2025-03-26 (this connection uses ${this.protocolVersion ?? LATEST_LEGACY_REVISION})`,
      );
    }
    const replies = await Promise.all(
      messages.map((m) =>
        // initialize MUST NOT be part of a batch (MCP 2025-03-26, Basic / Lifecycle).
        typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize' && 'id' in m
          ? errorResponse(
              isRequestId((m as { id?: unknown }).id) ? ((m as { id: RequestId }).id) : undefined,
              ErrorCode.InvalidRequest,
              'Invalid Request: initialize must not be part of a batch',
            )
          : this.#single(m, transport),
      ),
    );
    const list = replies.filter((r): r is JsonRpcResponse => r !== null && !Array.isArray(r));
    return list.length > 0 ? list : null;
  }

  async #single(message: unknown, transport: TransportRequestInfo | undefined): Promise<JsonRpcResponse | null> {
    const m = classify(message);
    switch (m.kind) {
      case 'invalid':
        return m.reply;
      case 'response':
        this.#outgoing.settle(m.id, m.result, m.error);
        return null;
      case 'notification':
        this.#notification(m.method, m.params);
        return null;
      case 'request':
        return this.#request(m.id, m.method, m.params, transport);
    }
  }

  #notification(method: string, params: JsonObject | undefined): void {
    if (method === 'notifications/initialized') {
      this.initialized = true;
    } else if (method === 'notifications/cancelled') {
      const id = params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') {
        const control = this.#inFlight.get(idKey(id));
        // The client MUST NOT cancel initialize (MCP 2025-11-25, Cancellation): it is answered anyway.
        if (control !== undefined && control.method !== 'initialize') control.abort(CANCELLED);
      }
    }
  }

  #legacyScope(method: string, params: JsonObject | undefined, transport: TransportRequestInfo | undefined): RequestScope {
    if (method === 'server/discover') {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `server/discover needs _meta["${META.protocolVersion}"] and _meta["${META.clientCapabilities}"]`,
      );
    }
    // The common case (no transport metadata, no identity in _meta): the connection's own scope.
    const meta = params?._meta;
    if (transport?.protocolVersion === undefined && transport?.clientName === undefined && transport?.clientVersion === undefined &&
        (meta === undefined || !Object.prototype.hasOwnProperty.call(meta, META.clientInfo))) {
      return (this.#sessionScope ??= {
        modern: false,
        protocolVersion: this.protocolVersion ?? LATEST_LEGACY_REVISION,
        client: this.client,
        logLevel: this.logLevel,
      });
    }
    const identity = resolveClientIdentity({
      request: { params },
      transport,
      session: { protocolVersion: this.protocolVersion, clientName: this.client.name, clientVersion: this.client.version },
    });
    const protocolVersion = isLegacyRevision(identity.protocolVersion) ? identity.protocolVersion : (this.protocolVersion ?? LATEST_LEGACY_REVISION);
    const client: ClientInfo = { capabilities: this.client.capabilities };
    if (identity.clientName !== undefined) client.name = identity.clientName;
    if (identity.clientVersion !== undefined) client.version = identity.clientVersion;
    return { modern: false, protocolVersion, client, logLevel: this.logLevel };
  }

  async #request(id: RequestId, method: string, params: JsonObject | undefined, transport: TransportRequestInfo | undefined): Promise<JsonRpcResponse | null> {
    const key = idKey(id);
    if (this.#inFlight.has(key)) {
      return errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight`);
    }
    const server = this.#server;
    if (exceedsDepth(params, server.maxDepth)) {
      return errorResponse(id, ErrorCode.InvalidParams, `Invalid params: nested deeper than the limit of ${server.maxDepth} levels`);
    }
    const control = new RequestControl(method);
    this.#inFlight.set(key, control);
    let scope: RequestScope | undefined;
    try {
      scope = method !== 'initialize' && isModernRequest(params) ? modernScope(params) : this.#legacyScope(method, params, transport);
      const result = await this.#dispatch(id, method, params, control, scope, transport);
      if (control.reason === CANCELLED) return null;
      return {
        jsonrpc: '2.0',
        id,
        result: scope.modern ? shapeModernResult(method, result, { serverInfo: serverInfoFor(server.info, scope.protocolVersion), ttlMs: server.cacheTtlMs }) : result,
      };
    } catch (error) {
      if (control.reason === CANCELLED) return null;
      if (error instanceof InputRequiredSignal && scope?.modern === true) {
        return {
          jsonrpc: '2.0',
          id,
          result: {
            resultType: 'input_required',
            inputRequests: error.inputRequests,
            requestState: error.requestState,
            _meta: { [META.serverInfo]: serverInfoFor(server.info, scope.protocolVersion) },
          },
        };
      }
      // (Fields, not `toJSON`: the error may come from another copy of baremcp.)
      if (isRpcError(error)) return errorResponse(id, error.code, error.message, error.data);
      server.report(`internal error in ${method}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return errorResponse(id, ErrorCode.InternalError, `Internal error while handling ${method}`);
    } finally {
      this.#inFlight.delete(key);
    }
  }

  /** The client-input function for a request; async only for a retry whose state must be verified. */
  #ask(
    method: string,
    params: JsonObject | undefined,
    control: RequestControl,
    scope: RequestScope,
    send: (message: JsonRpcMessage) => void,
  ): AskClient | Promise<AskClient> {
    const server = this.#server;
    if (!scope.modern) {
      return legacyAsk({
        capabilities: scope.client.capabilities,
        request: (m, p, s, t) => this.request(m, p, s, t, send),
        control,
        protocolVersion: scope.protocolVersion,
        timeoutMs: server.inputTimeoutMs,
      });
    }
    const state = params?.requestState;
    const capabilities = scope.client.capabilities;
    const options = async (): Promise<Parameters<typeof mrtrAsk>[0]> => {
      const bind = `${method}:${await digest(salientParams(params))}`;
      const payload = typeof state === 'string' ? await server.requestStates.open(state, bind) : undefined;
      const responses = collectResponses(payload?.responses ?? {}, payload?.pending, params?.inputResponses);
      return { capabilities, responses, codec: server.requestStates, bind, ttlMs: server.requestStateTtlMs };
    };
    // A retry's state is verified before the handler runs; otherwise the work waits for a question.
    if (typeof state === 'string') return options().then(mrtrAsk);
    let ask: Promise<AskClient> | undefined;
    return async (m, p, key) => {
      ask ??= options().then(mrtrAsk);
      return (await ask)(m, p, key);
    };
  }

  /** Where notifications about one request go: its transport stream, else the connection. */
  #notifier(transport: TransportRequestInfo | undefined): (notification: JsonRpcNotification) => void {
    const send = transport?.send;
    if (send === undefined) return (n) => this.notify(n);
    return (n) => {
      if (!this.#closed) send(n);
    };
  }

  async #dispatch(
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    control: RequestControl,
    scope: RequestScope,
    transport: TransportRequestInfo | undefined,
  ): Promise<JsonObject> {
    const server = this.#server;
    if (scope.modern && REMOVED_IN_MODERN.has(method)) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (removed in ${scope.protocolVersion})`);
    }
    switch (method) {
      case 'initialize': {
        const handshake = readInitialize(params);
        this.protocolVersion = handshake.protocolVersion;
        this.client = handshake.client;
        this.#sessionScope = undefined;
        return initializeResult(server.info, server.capabilities(), handshake.protocolVersion, server.instructions);
      }
      case 'server/discover': {
        const result: JsonObject = { supportedVersions: [...SUPPORTED_REVISIONS], capabilities: server.capabilities() };
        if (server.instructions !== undefined) result.instructions = server.instructions;
        return result;
      }
      case 'ping':
        return {};
      case 'subscriptions/listen':
        if (!scope.modern) throw new RpcError(ErrorCode.MethodNotFound, 'Method not found: subscriptions/listen (a 2026-07-28 method)');
        return this.#subscriptions.listen(id, params, control.signal, { kinds: server.listKinds(), knows: (uri) => server.resources.knows(uri) }, this.#notifier(transport));
      case 'logging/setLevel': {
        const level = params?.level;
        if (typeof level !== 'string' || !(LOGGING_LEVELS as readonly string[]).includes(level)) {
          throw new RpcError(ErrorCode.InvalidParams, `logging/setLevel: level must be one of ${LOGGING_LEVELS.join(', ')}`);
        }
        this.logLevel = level as LoggingLevel;
        this.#sessionScope = undefined;
        return {};
      }
    }
    const handler = server.method(method);
    if (handler === undefined) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    const notify = this.#notifier(transport);
    let ask = this.#ask(method, params, control, scope, transport?.send ?? this.#send);
    if (ask instanceof Promise) ask = await ask;
    // A request cancelled before its handler starts never runs.
    if (control.aborted) throw control.reason;
    const meta = params?._meta;
    const ctx = createContext({
      requestId: id,
      method,
      protocolVersion: scope.protocolVersion,
      client: scope.client,
      control,
      meta: typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : undefined,
      logLevel: scope.logLevel,
      notify,
      ask,
    });
    return handler(params, ctx, this);
  }
}
