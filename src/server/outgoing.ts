/**
 * The server's own requests to a legacy client (elicitation, sampling, roots): ids, time-outs,
 * cancellation, and matching the client's responses to them.
 *
 * Spec: MCP 2025-11-25, Client / Elicitation, Sampling, Roots; Basic / Utilities / Cancellation.
 * @module
 */
import { RpcError } from '../protocol/errors.js';
import type { JsonObject, JsonRpcMessage, JsonValue, RequestId } from '../protocol/messages.js';

interface Pending {
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

/** The server-to-client requests of one connection that still wait for a response. */
export class OutgoingRequests {
  /** By id: a Map keeps `"1"` and `1` apart (SameValueZero), as JSON-RPC does. */
  readonly #pending = new Map<RequestId, Pending>();
  readonly #prefix: string;
  #next = 0;

  /** @param prefix of the request ids (`baremcp-1`, `baremcp-2`, ...). */
  constructor(prefix = 'baremcp-') {
    this.#prefix = prefix;
  }

  /**
   * Sends a request with `send` and resolves to the client's result. Rejects on an error
   * response, on `timeoutMs`, or when `signal` aborts; the last two also send
   * `notifications/cancelled` for it (unless `open()` says the connection is gone).
   */
  request(
    method: string,
    params: JsonObject,
    signal: AbortSignal,
    timeoutMs: number,
    send: (message: JsonRpcMessage) => void,
    open: () => boolean,
  ): Promise<JsonObject> {
    const id = `${this.#prefix}${++this.#next}`;
    return new Promise<JsonObject>((resolve, reject) => {
      const cancel = (reason: string): void => {
        if (!this.#pending.delete(id)) return;
        cleanup();
        if (open()) send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
        reject(new Error(`${method} ${reason}`));
      };
      const timer = setTimeout(() => cancel(`timed out after ${timeoutMs} ms`), timeoutMs);
      const onAbort = (): void => cancel('was cancelled');
      const cleanup = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        resolve: (result) => {
          cleanup();
          resolve(result);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      });
      send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Settles the request `id` with the client's response; false when none was waiting. */
  settle(id: RequestId, result: JsonObject | undefined, error: JsonObject | undefined): boolean {
    const pending = this.#pending.get(id);
    if (pending === undefined) return false;
    this.#pending.delete(id);
    if (error !== undefined) {
      pending.reject(
        new RpcError(Number(error.code), `the client answered with an error: ${String(error.message)}`, error.data as JsonValue),
      );
    } else {
      pending.resolve(result ?? {});
    }
    return true;
  }

  /**
   * Rejects every waiting request with an `Error` of `message` (the connection closed). The error
   * is made only when a request waits: closing an idle connection allocates nothing.
   */
  rejectAll(message: string): void {
    if (this.#pending.size === 0) return;
    const error = new Error(message);
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
