/**
 * One client's connection to a server: the negotiated revision, the client's identity, the
 * requests in flight, and the dispatcher that turns one decoded message into one reply.
 *
 * Spec: JSON-RPC 2.0 §4–6; MCP 2025-11-25, Basic / Lifecycle, Basic / Utilities / Cancellation,
 * Basic / Transports (batches: 2025-03-26 only).
 * @module
 */
import { classify } from '../protocol/classify.js';
import { ErrorCode, RpcError, errorResponse } from '../protocol/errors.js';
import type {
  JsonObject,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcResponse,
  RequestId,
} from '../protocol/messages.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import { createContext, LOGGING_LEVELS, type ClientInfo, type LoggingLevel } from './context.js';
import { initializeResult, readInitialize } from './lifecycle.js';
import type { Server } from './server.js';

/** What `handle` resolves to: a response, an array of them (a batch), or `null` (nothing to send). */
export type Reply = JsonRpcResponse | JsonRpcResponse[] | null;

/** Options for {@link Server.connect}. */
export interface ConnectOptions {
  /**
   * Sends a message the server originates (notifications such as progress and log messages).
   * Default: drop them.
   */
  send?: (message: JsonRpcMessage) => void;
}

/** Marks an abort caused by `notifications/cancelled`: such a request gets no reply. */
const CANCELLED = Symbol('cancelled by the client');

/** Keeps `"1"` and `1` apart as map keys. */
function idKey(id: RequestId): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

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

  readonly #server: Server;
  readonly #send: (message: JsonRpcMessage) => void;
  readonly #inFlight = new Map<string, AbortController>();
  #closed = false;

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
   * Never rejects: every fault becomes a JSON-RPC error response.
   */
  async handle(message: unknown): Promise<Reply> {
    if (Array.isArray(message)) return this.#batch(message);
    return this.#single(message);
  }

  /** Aborts every request in flight; later sends are dropped. Safe to call twice. */
  close(): void {
    this.#closed = true;
    for (const controller of this.#inFlight.values()) controller.abort(new Error('connection closed'));
  }

  /** Sends a server-originated notification unless the connection is closed. */
  notify(notification: JsonRpcNotification): void {
    if (!this.#closed) this.#send(notification);
  }

  async #batch(messages: unknown[]): Promise<Reply> {
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
    const replies = await Promise.all(messages.map((m) => this.#single(m)));
    const list = replies.filter((r): r is JsonRpcResponse => r !== null && !Array.isArray(r));
    return list.length > 0 ? list : null;
  }

  async #single(message: unknown): Promise<JsonRpcResponse | null> {
    const m = classify(message);
    switch (m.kind) {
      case 'invalid':
        return m.reply;
      case 'response':
        return null;
      case 'notification':
        this.#notification(m.method, m.params);
        return null;
      case 'request':
        return this.#request(m.id, m.method, m.params);
    }
  }

  #notification(method: string, params: JsonObject | undefined): void {
    if (method === 'notifications/initialized') {
      this.initialized = true;
    } else if (method === 'notifications/cancelled') {
      const id = params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') {
        this.#inFlight.get(idKey(id))?.abort(CANCELLED);
      }
    }
  }

  async #request(id: RequestId, method: string, params: JsonObject | undefined): Promise<JsonRpcResponse | null> {
    const key = idKey(id);
    if (this.#inFlight.has(key)) {
      return errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight`);
    }
    const controller = new AbortController();
    this.#inFlight.set(key, controller);
    try {
      const result = await this.#dispatch(id, method, params, controller.signal);
      if (controller.signal.reason === CANCELLED) return null;
      return { jsonrpc: '2.0', id, result };
    } catch (error) {
      if (controller.signal.reason === CANCELLED) return null;
      if (error instanceof RpcError) return { jsonrpc: '2.0', id, error: error.toJSON() };
      this.#server.report(`internal error in ${method}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return errorResponse(id, ErrorCode.InternalError, `Internal error while handling ${method}`);
    } finally {
      this.#inFlight.delete(key);
    }
  }

  async #dispatch(id: RequestId, method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<JsonObject> {
    const server = this.#server;
    switch (method) {
      case 'initialize': {
        const handshake = readInitialize(params);
        this.protocolVersion = handshake.protocolVersion;
        this.client = handshake.client;
        return initializeResult(server.info, server.capabilities(), handshake.protocolVersion, server.instructions);
      }
      case 'ping':
        return {};
      case 'logging/setLevel': {
        const level = params?.level;
        if (typeof level !== 'string' || !(LOGGING_LEVELS as readonly string[]).includes(level)) {
          throw new RpcError(ErrorCode.InvalidParams, `logging/setLevel: level must be one of ${LOGGING_LEVELS.join(', ')}`);
        }
        this.logLevel = level as LoggingLevel;
        return {};
      }
    }
    const handler = server.method(method);
    if (handler === undefined) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    const meta = params?._meta;
    const ctx = createContext({
      requestId: id,
      method,
      protocolVersion: this.protocolVersion ?? LATEST_LEGACY_REVISION,
      client: this.client,
      signal,
      meta: typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : undefined,
      logLevel: this.logLevel,
      notify: (n) => this.notify(n),
    });
    return handler(params, ctx, this);
  }
}
