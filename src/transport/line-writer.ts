/**
 * The output half of the stdio transport: messages in, lines out, in order, with backpressure.
 *
 * Lines are gathered and written once per turn of the event loop (one write call for the many
 * replies a turn completes), or at once when they add up to {@link FLUSH_CHARS}; a write the stream
 * refuses (`write()` returned false) holds everything back until `drain`. The stdio session makes
 * every line with `jsonLine` (json-line.ts), so each reader splits and parses it the same way.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio.
 * @module
 */
import type { Writable } from 'node:stream';
import { writeProtocol } from './stdout-guard.js';

/** Characters of lines gathered before they are written without waiting for the next turn. */
const FLUSH_CHARS = 64 * 1024;

/** Writes JSON lines to one stream. */
export class LineWriter {
  readonly #output: Writable;
  readonly #onFlow: () => void;
  #lines: string[] = [];
  #chars = 0;
  #scheduled = false;
  #waitingForDrain = false;
  /** Set by {@link end} or {@link discard}: later lines are dropped. */
  #sealed = false;
  readonly #flush = (): void => this.flush();

  /**
   * @param output where lines go (written through {@link writeProtocol}: past the stdout guard).
   * @param onFlow called when {@link waitingForDrain} changes: a write had to wait, or the output
   *   drained.
   */
  constructor(output: Writable, onFlow: () => void) {
    this.#output = output;
    this.#onFlow = onFlow;
  }

  /** True while a write waits for the output's `drain` (the caller should stop producing). */
  get waitingForDrain(): boolean {
    return this.#waitingForDrain;
  }

  /** Queues one line of JSON text (without its newline). Dropped once the writer is sealed. */
  write(json: string): void {
    if (this.#sealed) return;
    this.#lines.push(json, '\n');
    this.#chars += json.length + 1;
    // Replies of synchronous tools can complete many at a time in one turn: write them out once
    // they add up, so that backpressure (drain) is seen before more requests start.
    if (this.#chars >= FLUSH_CHARS) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flush);
    }
  }

  /** Writes the queued lines now, in one call. */
  flush(): void {
    this.#scheduled = false;
    if (this.#lines.length === 0) return;
    const lines = this.#lines;
    const data = lines.length === 2 ? (lines[0] as string) + '\n' : lines.join('');
    this.#lines = [];
    this.#chars = 0;
    if (!writeProtocol(this.#output, data) && !this.#waitingForDrain) {
      this.#waitingForDrain = true;
      this.#output.once('drain', () => {
        this.#waitingForDrain = false;
        this.#onFlow();
      });
      this.#onFlow();
    }
  }

  /** Writes what is queued, drops later lines, and calls `done` once all of it has been written. */
  end(done: () => void): void {
    this.flush();
    this.#sealed = true;
    // A zero-length write calls back once everything queued before it has been flushed.
    writeProtocol(this.#output, '', () => done());
  }

  /** Drops what is queued and every later line (the output failed). */
  discard(): void {
    this.#sealed = true;
    this.#lines = [];
    this.#chars = 0;
  }
}
