/**
 * A Server-Sent Events stream of JSON-RPC messages as a web `ReadableStream` of UTF-8 bytes: one
 * `event: message` per message, comment lines as keep-alives, and a bound on what may wait unread
 * (a consumer that falls that far behind loses the stream instead of the server's memory).
 * A stream that may stay quiet starts with a comment line (`startWithComment`), so that its first
 * bytes leave at once on every runtime (Bun and some proxies hold the response head until the body
 * has bytes, and Bun cuts a connection that stays silent for 10 s).
 *
 * Spec: HTML Living Standard, Server-sent events §9.2.5 (event stream format); MCP 2025-11-25,
 * Basic / Transports ("Streamable HTTP"); MCP 2026-07-28, Basic / Transports / Streamable HTTP
 * ("Receiving Messages": keep-alive comments, `X-Accel-Buffering: no").
 * @module
 */
import type { JsonRpcMessage } from '../protocol/messages.js';

/**
 * The default interval of keep-alive comments, in milliseconds: under the shortest idle time-out
 * of the runtimes and proxies in front of a stream (Bun: 10 s, counted in 4 s ticks, so it may
 * fire after 8 s; nginx `proxy_read_timeout`: 60 s).
 */
export const DEFAULT_KEEP_ALIVE_MS = 5_000;

/** Options for {@link SseStream}. */
export interface SseOptions {
  /**
   * Interval of `:` comment lines while the stream is open, in milliseconds; 0 for none.
   * @default 0
   */
  keepAliveMs?: number;
  /**
   * Write a comment line at once, before any message: for a stream that may stay quiet (the
   * standalone GET stream), so that its response starts on every runtime.
   * @default false
   */
  startWithComment?: boolean;
  /**
   * Largest number of bytes queued and not yet read by the consumer; past it the stream is
   * closed with an error.
   * @default 16777216 (16 MiB)
   */
  maxBufferedBytes?: number;
  /**
   * Called once when the stream ends other than by {@link SseStream.close}: the consumer went
   * away or fell behind.
   */
  onabort?: () => void;
}

const encoder = new TextEncoder();

/** The response headers of an SSE stream. */
export function sseHeaders(): Record<string, string> {
  return {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  };
}

/** One SSE stream; write with {@link send}, end with {@link close}. */
export class SseStream {
  /** The bytes to send as the response body. */
  readonly readable: ReadableStream<Uint8Array>;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #open = true;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #maxBuffered: number;
  readonly #onabort: (() => void) | undefined;

  constructor(options: SseOptions = {}) {
    this.#maxBuffered = options.maxBufferedBytes ?? 16 * 1024 * 1024;
    this.#onabort = options.onabort;
    this.readable = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#abort(),
      },
      // The queue is measured in bytes; enqueue never blocks, so the limit is checked by hand.
      { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
    );
    if (options.startWithComment === true) this.comment();
    const every = options.keepAliveMs ?? 0;
    if (every > 0) {
      this.#timer = setInterval(() => this.comment(), every);
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /** True until the stream is closed or aborted. */
  get open(): boolean {
    return this.#open;
  }

  /**
   * Writes one message (or a batch, as one event), with the event id `id` when given (a
   * resumable stream's; see `event-store.ts`). Returns false when the stream is closed or the
   * message cannot be serialised (a `BigInt`, a cycle): such a message is dropped.
   */
  send(message: JsonRpcMessage | JsonRpcMessage[], id?: string): boolean {
    let data: string;
    try {
      data = JSON.stringify(message);
    } catch {
      return false;
    }
    return this.#write(`${id === undefined ? '' : `id: ${id}\n`}event: message\ndata: ${data}\n\n`);
  }

  /** Writes a comment line (ignored by clients; keeps idle connections alive). */
  comment(text = ''): boolean {
    return this.#write(`:${text.replace(/[\r\n]+/g, ' ')}\n\n`);
  }

  /** Ends the stream after what was written; safe to call twice. */
  close(): void {
    if (!this.#open) return;
    this.#stop();
    try {
      this.#controller?.close();
    } catch {
      // Already cancelled by the consumer.
    }
  }

  #write(text: string): boolean {
    const controller = this.#controller;
    if (!this.#open || controller === undefined) return false;
    const bytes = encoder.encode(text);
    const desired = controller.desiredSize ?? 0;
    if (desired - bytes.byteLength < -this.#maxBuffered) {
      controller.error(new Error('SSE consumer fell too far behind'));
      this.#abort();
      return false;
    }
    controller.enqueue(bytes);
    return true;
  }

  #stop(): void {
    this.#open = false;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #abort(): void {
    if (!this.#open) return;
    this.#stop();
    this.#onabort?.();
  }
}
