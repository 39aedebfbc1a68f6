/**
 * The server's own requests to a legacy client (elicitation, sampling, roots): ids, time-outs,
 * cancellation, and matching the client's responses to them.
 *
 * Spec: MCP 2025-11-25, Client / Elicitation, Sampling, Roots; Basic / Utilities / Cancellation.
 * @module
 */
import { RpcError } from '../protocol/errors.js';
import type { JsonObject, JsonRpcMessage, JsonValue, RequestId } from '../protocol/messages.js';

/** Keeps `"1"` and `1` apart as map keys. */
export function idKey(id: RequestId): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

interface Pending {
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

/** The server-to-client requests of one connection that still wait for a response. */
export class OutgoingRequests {
  readonly #pending = new Map<string, Pending>();
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
    const key = idKey(id);
    return new Promise<JsonObject>((resolve, reject) => {
      const cancel = (reason: string): void => {
        if (!this.#pending.delete(key)) return;
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
      this.#pending.set(key, {
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
    const key = idKey(id);
    const pending = this.#pending.get(key);
    if (pending === undefined) return false;
    this.#pending.delete(key);
    if (error !== undefined) {
      pending.reject(
        new RpcError(Number(error.code), `the client answered with an error: ${String(error.message)}`, error.data as JsonValue),
      );
    } else {
      pending.resolve(result ?? {});
    }
    return true;
  }

  /** Rejects every waiting request (the connection closed). */
  rejectAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
