/**
 * Newline framing over bytes with a size limit: chunks in, whole lines out. Pure (no streams).
 *
 * The lines a chunk completes are decoded in one call and split as one string (a decode per line
 * costs ten times more); a line that started in an earlier chunk is kept as a list of copies and
 * joined once. A line that grows past the limit is dropped: the buffer reports it once, keeps at
 * most a small head of it (to read the request id cheaply), discards the rest until the next
 * newline, and resumes there. Work is linear in the input.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio (newline-delimited; no newline in a message).
 * @module
 */

/** What {@link LineBuffer.push} yields for each framed line. */
export type Frame =
  | { kind: 'line'; text: string }
  | { kind: 'invalid-utf8' }
  | { kind: 'too-long'; head: string; limit: number };

/** A frame that is not a line: a line that was not UTF-8, or that grew past the limit. */
export type Fault = Exclude<Frame, { kind: 'line' }>;

/** Receives what {@link LineBuffer.feed} frames, in input order. */
export interface LineSink {
  /** A whole line: no newline, no trailing `\r`, no leading BOM; blank lines are skipped. */
  line(text: string): void;
  /** A line that was not UTF-8 or grew past the limit (it is skipped). */
  fault(fault: Fault): void;
}

/** Bytes of an over-long line kept to look for its id. */
const HEAD_BYTES = 1024;
const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Splits a byte stream into lines. */
export class LineBuffer {
  readonly #limit: number;
  /** Copies of the pieces of a line that started in an earlier chunk. */
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
    this.feed(chunk, collect(frames));
    return frames;
  }

  /** Ends the input: returns the last line if it had no newline. */
  end(): Frame[] {
    const frames: Frame[] = [];
    if (this.#size > 0 || this.#discarding) this.#finishCarried(collect(frames));
    return frames;
  }

  /** Appends a chunk and hands the lines it completes to `sink`, in order (no array, no frames). */
  feed(chunk: Uint8Array, sink: LineSink): void {
    let start = 0;
    if (this.#size > 0 || this.#discarding) {
      const newline = chunk.indexOf(NEWLINE);
      if (newline === -1) return this.#carry(chunk);
      this.#carry(chunk.subarray(0, newline));
      this.#finishCarried(sink);
      start = newline + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= start) {
      // Every line of the region is at most as long as the region: one decode when it fits.
      if (last - start <= this.#limit) this.#region(chunk, start, last, sink);
      else this.#lineByLine(chunk, start, last, sink);
      start = last + 1;
    }
    if (start < chunk.length) this.#carry(chunk.subarray(start));
  }

  /** Whole lines in `chunk[start, end)`, none over the limit: decoded at once, split as text. */
  #region(chunk: Uint8Array, start: number, end: number, sink: LineSink): void {
    let text: string;
    try {
      text = decoder.decode(chunk.subarray(start, end));
    } catch {
      // Some line is not UTF-8: find which, line by line.
      return this.#lineByLine(chunk, start, end, sink);
    }
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      emit(text.slice(from, newline), sink);
      from = newline + 1;
    }
    emit(from === 0 ? text : text.slice(from), sink);
  }

  /** Whole lines in `chunk[start, end)`, each decoded and checked against the limit on its own. */
  #lineByLine(chunk: Uint8Array, start: number, end: number, sink: LineSink): void {
    while (start <= end) {
      let newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1 || newline > end) newline = end;
      this.#carry(chunk.subarray(start, newline));
      this.#finishCarried(sink);
      start = newline + 1;
    }
  }

  /** Keeps a piece of the unfinished line (a copy: the caller may reuse the chunk's memory). */
  #carry(piece: Uint8Array): void {
    if (piece.length === 0 || this.#discarding) return;
    if (this.#size + piece.length > this.#limit) {
      const rest = piece.subarray(0, Math.max(0, HEAD_BYTES - this.#size));
      const joined = join(this.#parts, this.#size, rest);
      this.#head = joined.subarray(0, HEAD_BYTES);
      this.#parts = [];
      this.#size = 0;
      this.#discarding = true;
      return;
    }
    this.#parts.push(piece.slice());
    this.#size += piece.length;
  }

  /** Frames the carried line (its newline was just seen, or the input ended). */
  #finishCarried(sink: LineSink): void {
    if (this.#discarding) {
      sink.fault({ kind: 'too-long', head: lenient.decode(this.#head), limit: this.#limit });
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
      return sink.fault({ kind: 'invalid-utf8' });
    }
    emit(text, sink);
  }
}

/** Hands one decoded line to the sink, without a leading BOM or a trailing `\r`; blank: nothing. */
function emit(text: string, sink: LineSink): void {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.charCodeAt(text.length - 1) === 0x0d) text = text.slice(0, -1);
  const first = text.charCodeAt(0);
  // A message starts with `{` or `[`; anything else may be blank (only then is trim paid for).
  if (first !== 0x7b && first !== 0x5b && text.trim().length === 0) return;
  sink.line(text);
}

/** A sink that collects frames into an array ({@link LineBuffer.push}, {@link LineBuffer.end}). */
function collect(frames: Frame[]): LineSink {
  return {
    line: (text) => void frames.push({ kind: 'line', text }),
    fault: (fault) => void frames.push(fault),
  };
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
