/**
 * Newline framing over bytes with a size limit: chunks in, whole lines out. Pure (no streams).
 *
 * A line that grows past the limit is dropped: the buffer reports it once, keeps at most a small
 * head of it (to read the request id cheaply), discards the rest until the next newline, and
 * resumes there. Work is linear in the input: chunks are kept in a list and joined once per line.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio (newline-delimited; messages contain no newline).
 * @module
 */

/** What {@link LineBuffer.push} yields for each framed line. */
export type Frame =
  | { kind: 'line'; text: string }
  | { kind: 'invalid-utf8' }
  | { kind: 'too-long'; head: string; limit: number };

/** Bytes of an over-long line kept to look for its id. */
const HEAD_BYTES = 1024;
const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Splits a byte stream into lines. */
export class LineBuffer {
  readonly #limit: number;
  #parts: Uint8Array[] = [];
  #size = 0;
  #discarding = false;
  #head: Uint8Array | undefined;

  /** @param maxLineBytes the largest line accepted, in bytes (without its newline). */
  constructor(maxLineBytes: number) {
    this.#limit = maxLineBytes;
  }

  /** Bytes held for the current, unfinished line. */
  get buffered(): number {
    return this.#size;
  }

  /** Appends a chunk and returns the frames it completes, in order. */
  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#append(chunk.subarray(start, end));
      if (newline === -1) break;
      this.#finish(frames);
      start = newline + 1;
    }
    return frames;
  }

  /** Ends the input: returns the last line if it had no newline. */
  end(): Frame[] {
    const frames: Frame[] = [];
    if (this.#size > 0 || this.#discarding) this.#finish(frames);
    return frames;
  }

  #append(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.#discarding) return;
    if (this.#size + piece.length > this.#limit) {
      const joined = join(this.#parts, this.#size, piece.subarray(0, Math.max(0, HEAD_BYTES - this.#size)));
      this.#head = joined.subarray(0, HEAD_BYTES);
      this.#parts = [];
      this.#size = 0;
      this.#discarding = true;
      return;
    }
    // Copy: the caller may reuse the chunk's memory.
    this.#parts.push(piece.slice());
    this.#size += piece.length;
  }

  #finish(frames: Frame[]): void {
    if (this.#discarding) {
      frames.push({ kind: 'too-long', head: lenient.decode(this.#head), limit: this.#limit });
      this.#discarding = false;
      this.#head = undefined;
      return;
    }
    const bytes = join(this.#parts, this.#size);
    this.#parts = [];
    this.#size = 0;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      frames.push({ kind: 'invalid-utf8' });
      return;
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim().length === 0) return;
    frames.push({ kind: 'line', text });
  }
}

function join(parts: Uint8Array[], size: number, extra?: Uint8Array): Uint8Array {
  if (parts.length === 1 && extra === undefined) return parts[0] as Uint8Array;
  const out = new Uint8Array(size + (extra?.length ?? 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  if (extra !== undefined) out.set(extra, offset);
  return out;
}
