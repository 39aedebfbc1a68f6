/**
 * One client's connection to a server, and only what belongs to it: the revision and client that
 * `initialize` recorded (legacy era), the log level, the requests in flight, the server's own
 * requests to the client, and the client's subscriptions (legacy `resources/subscribe` and
 * 2026-07-28 `subscriptions/listen` streams). It sorts each decoded message; requests go through
 * the server's pipeline (`pipeline.ts`), which decides everything else.
 *
 * Spec: JSON-RPC 2.0 §4–6; MCP 2025-11-25, Basic / Lifecycle, Basic / Utilities / Cancellation;
 * MCP 2025-03-26, Basic ("Batching"); MCP 2026-07-28, Basic / Patterns / Subscriptions.
 * @module
 */
import { classify } from '../protocol/classify.js';
import { ErrorCode, errorResponse, RpcError } from '../protocol/errors.js';
import type {
  JsonObject,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcResponse,
  JsonValue,
  RequestId,
} from '../protocol/messages.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import type { ClientInfo, LoggingLevel } from './context.js';
import type { ConnectOptions, SessionChange, SessionSnapshot } from './connect-options.js';
import { sessionScope, type RequestScope, type SessionState } from './era.js';
import { serveBatch } from './batch.js';
import { OutgoingRequests } from './outgoing.js';
import { CANCELLED, type ConnectionPort, type Pipeline } from './pipeline.js';
import { RequestControl } from './request-control.js';
import type { TransportInfo, TransportRequestInfo } from './request-info.js';
import { Subscriptions, type ListKind, type SubscriptionOffer } from './subscriptions.js';

/** What `handle` resolves to: a response, an array of them (a batch), or `null` (nothing to send). */
export type Reply = JsonRpcResponse | JsonRpcResponse[] | null;

/** The lists whose changes are announced (re-exported from subscriptions.ts). */
export type { ListKind } from './subscriptions.js';

export type { ConnectOptions, SessionChange, SessionSnapshot } from './connect-options.js';

/**
 * A client's connection to a server, as a transport drives it: create with `Server.connect`, feed
 * it each decoded message with {@link Connection.handle}, send what it resolves to.
 */
export interface Connection {
  /** A name for this connection, unique in the process. */
  readonly id: string;
  /** The revision negotiated by `initialize`; undefined before it (and on 2026-07-28 use). */
  readonly protocolVersion: string | undefined;
  /** The client's identity and capabilities from the handshake. */
  readonly client: ClientInfo;
  /** True once `notifications/initialized` arrived. */
  readonly initialized: boolean;
  /** Number of requests being handled now. */
  readonly inFlight: number;
  /**
   * Handles one decoded JSON-RPC message (or a batch array) and resolves to its reply.
   * `transport` carries per-request metadata from the transport (e.g. HTTP headers).
   * Never rejects: every fault becomes a JSON-RPC error response.
   */
  handle(message: unknown, transport?: TransportRequestInfo): Promise<Reply>;
  /** Aborts every request in flight and fails pending requests to the client. Safe to call twice. */
  close(): void;
  /** The client's input ended: subscriptions end gracefully, questions to the client fail. */
  inputEnded(): void;
  /** Ends every open `subscriptions/listen` gracefully (each gets its result). */
  endSubscriptions(): void;
  /** The session's state, to store (see {@link SessionSnapshot}). */
  snapshot(): SessionSnapshot;
  /** Takes the session's state from a store (another replica may have changed it). */
  restore(state: SessionSnapshot): void;
  /**
   * Handles a message another replica relayed (see {@link ConnectOptions.onstray}): a response
   * settles the question it answers, `notifications/cancelled` aborts its request; true when it
   * belonged here. Never relays again.
   */
  deliver(message: unknown): boolean;
}

let connectionCount = 0;

/** The reply of a message that gets none (a notification, a response): one shared promise. */
const NOTHING: Promise<null> = Promise.resolve(null);

/**
 * Most URIs one connection may hold legacy `resources/subscribe`s for: a template matches
 * unboundedly many URIs, and each is kept until it is unsubscribed or the connection ends.
 */
export const MAX_RESOURCE_SUBSCRIPTIONS = 1000;

/** The server's side of a connection (internal: transports see the {@link Connection} interface). */
export class ServerConnection implements Connection, ConnectionPort {
  /** A name for this connection, unique in the process. */
  readonly id: string = `connection-${++connectionCount}`;
  /** Transport facts that hold for every request of the connection. */
  readonly transport: TransportInfo;
  /** Called once by {@link close}; the server uses it to forget the connection. */
  onclose: (() => void) | undefined = undefined;
  /** {@link notify}, bound once. */
  get notifyOnConnection(): (notification: JsonRpcNotification) => void {
    return (this.#notifyBound ??= (n) => this.notify(n));
  }
  #notifyBound: ((notification: JsonRpcNotification) => void) | undefined;

  readonly #pipeline: Pipeline;
  readonly #send: (message: JsonRpcMessage) => void;
  readonly #onchange: ((change: SessionChange) => void) | undefined;
  readonly #onstray: ((message: JsonRpcMessage) => void) | undefined;
  /**
   * Requests in flight by id: a Map tells `1` from `"1"` (SameValueZero), as JSON-RPC does, so
   * the id itself is the key.
   */
  readonly #inFlight = new Map<RequestId, RequestControl>();
  // Made on first use: a 2026-07-28 POST's connection serves one request and needs neither.
  #outgoingRequests: OutgoingRequests | undefined;
  #openSubscriptions: Subscriptions | undefined;
  readonly #requestIdPrefix: string | undefined;
  /** URIs of legacy `resources/subscribe`; made on first use, like the two above. */
  #resourceUris: Set<string> | undefined;
  #state: SessionState = { protocolVersion: undefined, client: { capabilities: {} }, logLevel: undefined };
  #initialized = false;
  /** The scope of plain legacy requests, rebuilt when the handshake or the log level changes. */
  #plainScope: RequestScope | undefined;
  #closed = false;

  constructor(pipeline: Pipeline, options: ConnectOptions = {}) {
    this.#pipeline = pipeline;
    this.#send = options.send ?? (() => {});
    this.#onchange = options.onchange;
    this.#onstray = options.onstray;
    this.#requestIdPrefix = options.requestIdPrefix;
    // A copy that gets a key: Object.assign, not a spread (see `shapeResult` in result.ts).
    const given = options.transport;
    this.transport = given === undefined ? { connectionId: this.id } : Object.assign({}, given, { connectionId: this.id });
  }

  get #outgoing(): OutgoingRequests {
    return (this.#outgoingRequests ??= new OutgoingRequests(this.#requestIdPrefix));
  }

  get #subscriptions(): Subscriptions {
    return (this.#openSubscriptions ??= new Subscriptions());
  }

  get #resources(): Set<string> {
    return (this.#resourceUris ??= new Set());
  }

  /** The revision negotiated by `initialize`; undefined before it. */
  get protocolVersion(): string | undefined {
    return this.#state.protocolVersion;
  }

  /** The client's identity and capabilities from the handshake. */
  get client(): ClientInfo {
    return this.#state.client;
  }

  /** True once `notifications/initialized` arrived. */
  get initialized(): boolean {
    return this.#initialized;
  }

  /** The handshake state (for the pipeline). */
  get state(): SessionState {
    return this.#state;
  }

  /** True until {@link close}. */
  get open(): boolean {
    return !this.#closed;
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
  handle(message: unknown, transport?: TransportRequestInfo): Promise<Reply> {
    // Not an async function: a single request's promise is the pipeline's own (one, not three).
    try {
      if (Array.isArray(message)) return this.#batch(message, transport);
      return this.#single(message, transport);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Aborts every request in flight and fails pending requests to the client. Safe to call twice. */
  close(): void {
    if (!this.#closed) this.onclose?.();
    this.#closed = true;
    // An idle connection (every stateless POST's, at its end) allocates no error.
    for (const controller of this.#inFlight.values()) controller.abort(new Error('connection closed'));
    this.#outgoingRequests?.rejectAll('connection closed');
  }

  /**
   * The client's input ended (stdio end of input): subscriptions end gracefully and questions
   * waiting for the client's answer fail at once, since none can come.
   */
  inputEnded(): void {
    this.#subscriptions.endAll();
    this.#outgoingRequests?.rejectAll('the client closed its input before answering');
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
    if (this.#initialized) this.notify({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` });
    this.#subscriptions.listChanged(kind);
  }

  /**
   * Sends `notifications/resources/updated` for `uri`: once when this legacy connection subscribed
   * to it, and on every 2026-07-28 subscription whose `resourceSubscriptions` lists it.
   */
  resourceUpdated(uri: string): void {
    if (this.#resourceUris?.has(uri) === true) this.notify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
    this.#subscriptions.resourceUpdated(uri);
  }

  /** Sends `notification` on this connection's subscriptions whose `key` agreed value `matches`. */
  notifySubscribers(key: string, matches: (agreed: JsonValue) => boolean, notification: JsonRpcNotification): void {
    this.#subscriptions.publish(key, matches, notification);
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

  /** The scope of a plain legacy request on this connection (cached). */
  plainScope(): RequestScope {
    return (this.#plainScope ??= sessionScope(this.#state));
  }

  /** Records the `initialize` handshake. */
  handshake(protocolVersion: string, client: ClientInfo): void {
    this.#state = { ...this.#state, protocolVersion, client };
    this.#plainScope = undefined;
  }

  /** Records the level of `logging/setLevel`. */
  setLogLevel(level: LoggingLevel): void {
    this.#state = { ...this.#state, logLevel: level };
    this.#plainScope = undefined;
    this.#onchange?.({ kind: 'logLevel', level });
  }

  /**
   * Records a legacy `resources/subscribe` (`on`) or `resources/unsubscribe`.
   * @throws {RpcError} `-32602` for a new URI once {@link MAX_RESOURCE_SUBSCRIPTIONS} are held.
   */
  subscribe(uri: string, on: boolean): void {
    if (!on) {
      this.#resources.delete(uri);
      this.#onchange?.({ kind: 'subscribe', uri, on });
      return;
    }
    if (!this.#resources.has(uri) && this.#resources.size >= MAX_RESOURCE_SUBSCRIPTIONS) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `resources/subscribe: this session holds ${MAX_RESOURCE_SUBSCRIPTIONS} subscriptions, the most it may; unsubscribe from one first`,
      );
    }
    this.#resources.add(uri);
    this.#onchange?.({ kind: 'subscribe', uri, on });
  }

  /** The session's state, to store. */
  snapshot(): SessionSnapshot {
    const { protocolVersion, client, logLevel } = this.#state;
    return { protocolVersion, client, logLevel, initialized: this.#initialized, resourceSubscriptions: this.#resourceUris === undefined ? [] : [...this.#resourceUris] };
  }

  /** Takes the session's state from a store. */
  restore(state: SessionSnapshot): void {
    this.#state = { protocolVersion: state.protocolVersion, client: state.client, logLevel: state.logLevel };
    this.#plainScope = undefined;
    this.#initialized = state.initialized;
    this.#resourceUris?.clear();
    for (const uri of state.resourceSubscriptions.slice(0, MAX_RESOURCE_SUBSCRIPTIONS)) {
      this.#resources.add(uri);
    }
  }

  /** Handles a message another replica relayed; true when it belonged here. */
  deliver(message: unknown): boolean {
    const m = classify(message);
    if (m.kind === 'response') return this.#outgoing.settle(m.id, m.result, m.error);
    if (m.kind === 'notification' && m.method === 'notifications/cancelled') return this.#cancel(m.params);
    return false;
  }

  /** Serves `subscriptions/listen` on this connection (see `Subscriptions.listen`). */
  listen(
    id: RequestId,
    params: JsonObject | undefined,
    signal: AbortSignal,
    offer: SubscriptionOffer,
    notify: (notification: JsonRpcNotification) => void,
  ): Promise<JsonObject> {
    return this.#subscriptions.listen(id, params, signal, offer, notify);
  }

  async #batch(messages: unknown[], transport: TransportRequestInfo | undefined): Promise<Reply> {
    if (messages.length === 0) {
      return errorResponse(undefined, ErrorCode.InvalidRequest, 'Invalid Request: empty batch');
    }
    const revision = this.#state.protocolVersion;
    if (revision !== '2025-03-26') {
      return errorResponse(
        undefined,
        ErrorCode.InvalidRequest,
        `Invalid Request: batches are only part of protocol revision 2025-03-26 (this connection uses ${revision ?? LATEST_LEGACY_REVISION})`,
      );
    }
    return serveBatch(messages, this.#pipeline.batch, (m) => this.#single(m, transport), (line) => this.#pipeline.report(line));
  }

  /** One message (not a batch); throws only where a stray-message hook throws. */
  #single(message: unknown, transport: TransportRequestInfo | undefined): Promise<JsonRpcResponse | null> {
    const m = classify(message);
    switch (m.kind) {
      case 'invalid':
        return Promise.resolve(m.reply);
      case 'response':
        if (!this.#outgoing.settle(m.id, m.result, m.error)) this.#onstray?.(message as JsonRpcMessage);
        return NOTHING;
      case 'notification':
        this.#notification(m.method, m.params, message);
        return NOTHING;
      case 'request':
        return this.#request(m.id, m.method, m.params, transport);
    }
  }

  #notification(method: string, params: JsonObject | undefined, message: unknown): void {
    if (method === 'notifications/initialized') {
      if (!this.#initialized) this.#onchange?.({ kind: 'initialized' });
      this.#initialized = true;
    } else if (method === 'notifications/cancelled') {
      if (!this.#cancel(params)) this.#onstray?.(message as JsonRpcMessage);
    }
  }

  /** Aborts the request `params.requestId` names; false when it is not in flight here. */
  #cancel(params: JsonObject | undefined): boolean {
    const id = params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const control = this.#inFlight.get(id);
    if (control === undefined) return false;
    // The client MUST NOT cancel initialize (MCP 2025-11-25, Cancellation): it is answered anyway.
    if (control.method !== 'initialize') control.abort(CANCELLED);
    return true;
  }

  #request(
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    transport: TransportRequestInfo | undefined,
  ): Promise<JsonRpcResponse | null> {
    if (this.#inFlight.has(id)) {
      return Promise.resolve(
        errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight`),
      );
    }
    const control = new RequestControl(method);
    this.#inFlight.set(id, control);
    // The pipeline marks the control ended and calls `ended` once the response is decided.
    return this.#pipeline.serve(this, id, method, params, control, transport);
  }

  /** The request `id` was answered (called by the pipeline): it is no longer in flight. */
  ended(id: RequestId): void {
    // While a request is in flight its id is refused to any other: the entry is its own.
    this.#inFlight.delete(id);
  }
}
