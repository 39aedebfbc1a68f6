/**
 * The client end of a JSON-RPC connection over any message pipe: request ids, replies matched to
 * requests, time-outs, cancellation, progress callbacks, the notifications received, and answers
 * to the server's own requests. Pure: the pipe (in-memory or a process's stdio) is supplied.
 *
 * Spec: JSON-RPC 2.0 §4–6; MCP 2025-11-25, Basic / Utilities / Cancellation, Progress.
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import {
  isObject,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonValue,
} from '../protocol/messages.js';
import type { ClientRequestHandler, RequestOptions } from './types.js';

/** What {@link Peer} needs from its pipe and its owner. */
export interface PeerOptions {
  /** Sends one message to the server. */
  send(message: JsonRpcMessage): void;
  /** Default milliseconds to wait for a reply; 0 for no limit. */
  timeoutMs: number;
  /** Answers to the server's requests, by method. */
  handlers: { readonly [method: string]: ClientRequestHandler };
  /** Called with each notification as it arrives. */
  onNotification?: (notification: JsonRpcNotification) => void;
}

interface Pending {
  method: string;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

/** The client side of one connection. */
export class Peer {
  /** Every notification received, oldest first. */
  readonly notifications: JsonRpcNotification[] = [];
  readonly #options: PeerOptions;
  readonly #pending = new Map<number, Pending>();
  readonly #progress = new Map<string, NonNullable<RequestOptions['onProgress']>>();
  #nextId = 1;
  #closed: Error | undefined;

  constructor(options: PeerOptions) {
    this.#options = options;
  }

  /** True once {@link fail} was called. */
  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /**
   * Sends a request and resolves to its `result`.
   * @throws {RpcError} (as a rejection) for an error reply; an `Error` on time-out, cancel or
   *   close.
   */
  request(
    method: string,
    params: JsonObject | undefined,
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    const id = this.#nextId++;
    let sent = params;
    let token: string | undefined;
    if (options.onProgress !== undefined || options.meta !== undefined) {
      const meta: JsonObject = {
        ...(isObject(params?._meta) ? (params._meta as JsonObject) : {}),
        ...options.meta,
      };
      if (options.onProgress !== undefined) {
        token = `progress-${id}`;
        meta.progressToken = token;
        this.#progress.set(token, options.onProgress);
      }
      sent = { ...params, _meta: meta };
    }
    const signal = options.signal;
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs;
    return new Promise<JsonObject>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const cleanup = (): void => {
        this.#pending.delete(id);
        if (token !== undefined) this.#progress.delete(token);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const cancel = (reason: string, error: Error): void => {
        if (!this.#pending.has(id)) return;
        cleanup();
        this.#send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason },
        });
        reject(error);
      };
      const onAbort = (): void => {
        const reason: unknown = signal?.reason;
        cancel(
          'cancelled by the client',
          reason instanceof Error ? reason : new Error(`${method} was cancelled`),
        );
      };
      if (signal?.aborted === true) {
        reject(
          signal.reason instanceof Error ? signal.reason : new Error(`${method} was cancelled`),
        );
        return;
      }
      this.#pending.set(id, {
        method,
        resolve: (result) => {
          cleanup();
          resolve(result);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs > 0) {
        timer = setTimeout(
          () =>
            cancel(
              `timed out after ${timeoutMs} ms`,
              new Error(`no reply to ${method} within ${timeoutMs} ms`),
            ),
          timeoutMs,
        );
      }
      try {
        this.#options.send(
          sent === undefined
            ? { jsonrpc: '2.0', id, method }
            : { jsonrpc: '2.0', id, method, params: sent },
        );
      } catch (error) {
        // E.g. params JSON cannot carry (a BigInt, a cycle): this request fails, the client
        // lives on.
        this.#pending.get(id)?.reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Sends a notification (dropped once closed). */
  notify(method: string, params?: JsonObject): void {
    if (this.#closed !== undefined) return;
    this.#send(
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
    );
  }

  /** Rejects the request `id` with `error` (e.g. its reply could not be decoded). */
  failRequest(id: unknown, error: Error): void {
    if (typeof id === 'number') this.#pending.get(id)?.reject(error);
  }

  /**
   * Takes one message from the server: a reply settles its request, a notification is kept (and
   * routed to its progress callback), a request is answered from the handlers. Anything else
   * is ignored. Never throws.
   */
  receive(message: unknown): void {
    if (Array.isArray(message)) {
      for (const item of message) this.receive(item);
      return;
    }
    if (!isObject(message)) return;
    if (typeof message.method === 'string') {
      if (Object.prototype.hasOwnProperty.call(message, 'id'))
        void this.#answer(message.id as JsonValue, message.method, message.params);
      else this.#notification(message as unknown as JsonRpcNotification);
      return;
    }
    if (typeof message.id !== 'number') return;
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    if (isObject(message.error)) {
      const e = message.error;
      pending.reject(new RpcError(Number(e.code), String(e.message), e.data as JsonValue));
    } else {
      pending.resolve(isObject(message.result) ? (message.result as JsonObject) : {});
    }
  }

  /** Marks the peer closed and rejects every pending request with `error`. Safe to call twice. */
  fail(error: Error): void {
    this.#closed ??= error;
    for (const pending of [...this.#pending.values()]) pending.reject(error);
  }

  /** Sends a message that needs no reply; a failure to send it is not the caller's to handle. */
  #send(message: JsonRpcMessage): void {
    try {
      this.#options.send(message);
    } catch {
      // The pipe is gone: requests in flight fail through the transport's own close.
    }
  }

  #notification(notification: JsonRpcNotification): void {
    this.notifications.push(notification);
    if (notification.method === 'notifications/progress') {
      const params = notification.params ?? {};
      const callback = this.#progress.get(String(params.progressToken));
      if (callback !== undefined && typeof params.progress === 'number') {
        const update: { progress: number; total?: number; message?: string } = {
          progress: params.progress,
        };
        if (typeof params.total === 'number') update.total = params.total;
        if (typeof params.message === 'string') update.message = params.message;
        callback(update);
      }
    }
    this.#options.onNotification?.(notification);
  }

  async #answer(id: JsonValue, method: string, params: unknown): Promise<void> {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const handler = Object.prototype.hasOwnProperty.call(this.#options.handlers, method)
      ? this.#options.handlers[method]
      : undefined;
    let reply: JsonRpcMessage;
    if (handler !== undefined) {
      try {
        const result = await handler(isObject(params) ? (params as JsonObject) : {});
        reply = { jsonrpc: '2.0', id, result: isObject(result) ? result : {} };
      } catch (error) {
        reply = {
          jsonrpc: '2.0',
          id,
          error:
            error instanceof RpcError
              ? error.toJSON()
              : {
                  code: ErrorCode.InternalError,
                  message: error instanceof Error ? error.message : String(error),
                },
        };
      }
    } else if (method === 'ping') {
      reply = { jsonrpc: '2.0', id, result: {} };
    } else {
      reply = {
        jsonrpc: '2.0',
        id,
        error: {
          code: ErrorCode.MethodNotFound,
          message: `Method not found: ${method} (the test client has no handler for it)`,
        },
      };
    }
    if (this.#closed === undefined) this.#send(reply);
  }
}
