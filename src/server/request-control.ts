/**
 * Cancellation state of one request in flight, with the `AbortController` made only when a
 * handler first reads its signal (most requests never do), and a cancel that came earlier
 * remembered for it.
 *
 * Spec: MCP 2025-11-25, Basic / Utilities / Cancellation.
 * @module
 */

/** The cancellation state of one request. */
export class RequestControl {
  /** The method of the request. */
  readonly method: string;
  /** True once the request was cancelled, timed out, or its connection closed. */
  aborted = false;
  /** Why it was aborted (undefined while it was not). */
  reason: unknown = undefined;
  /**
   * True once the request was answered: anything its handler still sends about it (progress, a
   * log message, a question to the client) is dropped, since clients drop the connection on a
   * notification for a request they consider done.
   */
  ended = false;
  /** Set once a late message was reported (one diagnostic per request). */
  lateReported = false;
  #controller: AbortController | undefined;

  constructor(method: string) {
    this.method = method;
  }

  /** Aborts the request; later calls are ignored. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.#controller?.abort(reason);
  }

  /** The request's `AbortSignal`, made on first use (already aborted when the request is). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }
}
