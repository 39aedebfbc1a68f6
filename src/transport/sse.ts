/**
 * A Server-Sent Events stream of JSON-RPC messages, as a web `ReadableStream` of UTF-8 bytes or
 * written straight to a node:http response: one
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

/**
 * Where the bytes of an {@link SseStream} go when a node:http response takes them directly (see
 * {@link SseStream.attach}); the fetch handler reads {@link SseStream.readable} instead.
 */
export interface SseSink {
  /** Writes `text` (UTF-8); returns the bytes the sink now holds unsent. */
  write(text: string): number;
  /** Ends the response after what was written. */
  end(): void;
  /** Drops the response at once (the consumer fell too far behind). */
  fail(): void;
}

/** Bytes a stream queues before its consumer counts as behind (the web stream's high-water mark). */
const HIGH_WATER_BYTES = 64 * 1024;

/**
 * One SSE stream; write with {@link send}, end with {@link close}. Its consumer is either a web
 * `ReadableStream` ({@link readable}, made on first use) or a node:http response
 * ({@link attach}, no web stream); what is written before either takes it waits in a queue.
 */
export class SseStream {
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #readable: ReadableStream<Uint8Array> | undefined;
  #sink: SseSink | undefined;
  /** Text written before a consumer took the stream, and its length. */
  #queued: string[] | undefined = [];
  #queuedBytes = 0;
  /** True once closed by {@link close} (the consumer still gets what was queued). */
  #closed = false;
  /** True once the consumer fell too far behind. */
  #failed = false;
  #open = true;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #maxBuffered: number;
  readonly #onabort: (() => void) | undefined;

  constructor(options: SseOptions = {}) {
    this.#maxBuffered = options.maxBufferedBytes ?? 16 * 1024 * 1024;
    this.#onabort = options.onabort;
    if (options.startWithComment === true) this.comment();
    const every = options.keepAliveMs ?? 0;
    if (every > 0) {
      this.#timer = setInterval(() => this.comment(), every);
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /**
   * The bytes to send as a web response body (made on first read; the stream then has no other
   * consumer). Cancelling it is the consumer going away.
   */
  get readable(): ReadableStream<Uint8Array> {
    if (this.#readable !== undefined) return this.#readable;
    const queued = this.#take();
    this.#readable = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          if (this.#failed) {
            controller.error(new Error('SSE consumer fell too far behind'));
            return;
          }
          for (const text of queued) controller.enqueue(encoder.encode(text));
          if (this.#closed) controller.close();
          else this.#controller = controller;
        },
        cancel: () => this.#abort(),
      },
      // The queue is measured in bytes; enqueue never blocks, so the limit is checked by hand.
      { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
    );
    return this.#readable;
  }

  /**
   * Hands the stream to a node:http response: what was queued is written at once, the rest as it
   * comes. Call {@link cancel} when the response closes before the stream ended.
   */
  attach(sink: SseSink): void {
    const queued = this.#take();
    if (this.#failed) {
      sink.fail();
      return;
    }
    this.#sink = sink;
    for (const text of queued) sink.write(text);
    if (this.#closed) sink.end();
  }

  /** The consumer went away (a node:http response closed early); as cancelling {@link readable}. */
  cancel(): void {
    this.#abort();
  }

  /** What was queued before a consumer took the stream; the queue is gone afterwards. */
  #take(): string[] {
    const queued = this.#queued ?? [];
    this.#queued = undefined;
    this.#queuedBytes = 0;
    return queued;
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
    this.#closed = true;
    this.#sink?.end();
    try {
      this.#controller?.close();
    } catch {
      // Already cancelled by the consumer.
    }
  }

  #write(text: string): boolean {
    if (!this.#open) return false;
    const limit = HIGH_WATER_BYTES + this.#maxBuffered;
    const sink = this.#sink;
    if (sink !== undefined) {
      if (sink.write(text) > limit) this.#fail();
      return this.#open;
    }
    const controller = this.#controller;
    if (controller === undefined) {
      const queued = this.#queued;
      if (queued === undefined) return false;
      // Before a consumer: UTF-16 length, at most a third of the UTF-8 bytes off.
      this.#queuedBytes += text.length;
      if (this.#queuedBytes > limit) {
        this.#fail();
        return false;
      }
      queued.push(text);
      return true;
    }
    const bytes = encoder.encode(text);
    const desired = controller.desiredSize ?? 0;
    if (desired - bytes.byteLength < -this.#maxBuffered) {
      this.#fail();
      return false;
    }
    controller.enqueue(bytes);
    return true;
  }

  /** The consumer fell too far behind: its stream fails, and the stream ends (`onabort`). */
  #fail(): void {
    this.#failed = true;
    this.#queued = undefined;
    this.#controller?.error(new Error('SSE consumer fell too far behind'));
    this.#sink?.fail();
    this.#abort();
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
