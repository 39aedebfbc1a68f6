/**
 * Reads a range of lines from an open file without loading more than needed: forward for the
 * whole file, `head` and `startLine`/`endLine`, backward from the end for `tail`. Output is capped
 * in bytes and cut at whole lines; lines are split on LF (a CR before it stays in the text).
 * Reading is bounded too: a forward read scans at most `maxScanBytes` looking for its first line,
 * and a tail read at most the output cap and one chunk.
 * @module
 */
import type { FileHandle } from 'node:fs/promises';

/** Bytes read per `read` call. */
const CHUNK_BYTES = 64 * 1024;
/** Bytes read per `read` call while skipping lines before the first one wanted. */
const SKIP_CHUNK_BYTES = 1024 * 1024;
const LF = 0x0a;

/** The bytes of the lines read, with their 1-based numbers when known. */
export interface LineSlice {
  /** The bytes of lines `firstLine`..`lastLine`, each with its line ending. */
  bytes: Uint8Array;
  /** Number of the first line returned; `undefined` for a tail that did not reach the start. */
  firstLine: number | undefined;
  /** Number of the last line returned (same rule as `firstLine`). */
  lastLine: number | undefined;
  /** Lines in the whole file, when the read reached both its start and its end. */
  totalLines: number | undefined;
  /** True when the byte cap stopped the read before the range requested was complete. */
  truncated: boolean;
  /** True when the only line returned was longer than the cap and was cut inside. */
  lineCut: boolean;
  /**
   * Set when a forward read gave up looking for line `start` after `maxScanBytes`: the number of
   * the line it was in (so lines `start` and later begin past the scan limit).
   */
  scanStoppedIn?: number;
}

/** Length of the longest prefix of `bytes`, at most `max`, that splits no UTF-8 character. */
function utf8Prefix(bytes: Uint8Array, max: number): number {
  let end = Math.min(max, bytes.length);
  if (end === bytes.length) return end;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return end;
}

/**
 * Reads lines `start`..`end` (1-based, inclusive; `end` may be `Infinity`) going forward from the
 * file's start, returning at most `maxBytes` bytes. The read stops at line `end`, at the cap, or at
 * the end of the file; `signal` is checked between chunks. `size` (the file's size in bytes)
 * tells whether anything follows line `end`. When line `start` has not begun within the first
 * `maxScanBytes` bytes, the read stops there with `scanStoppedIn` set and nothing returned.
 */
export async function readLinesForward(
  file: FileHandle,
  size: number,
  start: number,
  end: number,
  maxBytes: number,
  signal: AbortSignal | undefined,
  maxScanBytes: number = Infinity,
): Promise<LineSlice> {
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let pending: Uint8Array[] = []; // the current line, while it is in range
  let pendingBytes = 0;
  let line = 1;
  let position = 0;
  let atLineStart = true;
  let keptCount = 0; // whole lines in `kept`
  const slice = (truncated: boolean, lineCut: boolean, totalLines?: number): LineSlice => ({
    bytes: concat(kept, keptBytes),
    firstLine: keptCount === 0 ? undefined : start,
    lastLine: keptCount === 0 ? undefined : start + keptCount - 1,
    totalLines,
    truncated,
    lineCut,
  });
  for (;;) {
    signal?.throwIfAborted();
    // Until line `start` begins, no more than `maxScanBytes` in all are read.
    const length = line < start ? Math.min(SKIP_CHUNK_BYTES, maxScanBytes - position) : CHUNK_BYTES;
    if (length <= 0) {
      if (position >= size) break; // the whole file was scanned, exactly to the limit
      return { ...slice(false, false), scanStoppedIn: line };
    }
    const buffer = new Uint8Array(length);
    const { bytesRead } = await file.read(buffer, 0, length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(LF, from);
      const to = newline === -1 ? chunk.length : newline + 1;
      atLineStart = newline !== -1;
      if (line >= start) {
        pending.push(chunk.subarray(from, to));
        pendingBytes += to - from;
        if (keptBytes + pendingBytes > maxBytes) {
          if (keptCount > 0) return slice(true, false);
          const whole = concat(pending, pendingBytes);
          kept.push(whole.subarray(0, utf8Prefix(whole, maxBytes)));
          keptBytes = kept[0]!.length;
          keptCount = 1;
          return slice(true, true);
        }
        if (newline !== -1) {
          kept.push(...pending);
          keptBytes += pendingBytes;
          keptCount++;
          pending = [];
          pendingBytes = 0;
        }
      }
      from = to;
      if (newline !== -1) {
        if (line === end) {
          const more = to < chunk.length || position < size;
          return slice(false, false, more ? undefined : line);
        }
        line++;
      }
    }
  }
  if (pendingBytes > 0) {
    kept.push(...pending);
    keptBytes += pendingBytes;
    keptCount++;
  }
  const totalLines = position === 0 ? 0 : atLineStart ? line - 1 : line;
  return slice(false, false, totalLines);
}

/**
 * Reads the last `count` lines by going backward from the end in chunks, returning at most
 * `maxBytes` bytes (whole lines, unless a single last line is longer than the cap). Line numbers
 * are known only when the read reached the start of the file.
 */
export async function readLinesTail(
  file: FileHandle,
  size: number,
  count: number,
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<LineSlice> {
  const chunks: Uint8Array[] = [];
  let collected = 0;
  let position = size;
  let newlines = 0;
  // Line breaks to pass before the first wanted line; one more when the file ends in LF.
  let needed = count;
  while (position > 0 && collected <= maxBytes) {
    signal?.throwIfAborted();
    const length = Math.min(CHUNK_BYTES, position);
    position -= length;
    const buffer = new Uint8Array(length);
    await file.read(buffer, 0, length, position);
    if (position + length === size && buffer[length - 1] === LF) needed++;
    chunks.unshift(buffer);
    collected += length;
    for (const byte of buffer) if (byte === LF) newlines++;
    if (newlines >= needed) break;
  }
  const suffix = concat(chunks, collected);
  // Start just after the `needed`-th LF from the end, or at the start of what was read.
  let start = 0;
  let seen = 0;
  for (let index = suffix.length - 1; index >= 0; index--) {
    if (suffix[index] === LF && ++seen === needed) {
      start = index + 1;
      break;
    }
  }
  const foundStart = seen === needed || position === 0;
  let truncated = !foundStart;
  let lineCut = false;
  if (suffix.length - start > maxBytes) {
    truncated = true;
    const newline = suffix.indexOf(LF, suffix.length - maxBytes - 1);
    if (newline !== -1 && newline < suffix.length - 1) {
      start = newline + 1;
    } else {
      lineCut = true; // one line longer than the cap: keep its end, on a character boundary
      start = suffix.length - maxBytes;
      while (start < suffix.length && (suffix[start]! & 0xc0) === 0x80) start++;
    }
  }
  const bytes = suffix.subarray(start);
  if (position !== 0 || lineCut) {
    return {
      bytes,
      firstLine: undefined,
      lastLine: undefined,
      totalLines: undefined,
      truncated,
      lineCut,
    };
  }
  // The read covered the file's start, so line numbers can be counted.
  const endsInLf = size > 0 && suffix[suffix.length - 1] === LF;
  let before = 0;
  for (let index = 0; index < start; index++) if (suffix[index] === LF) before++;
  let total = 0;
  for (const byte of suffix) if (byte === LF) total++;
  if (size > 0 && !endsInLf) total++;
  const returned = total - before;
  return {
    bytes,
    firstLine: returned === 0 ? undefined : before + 1,
    lastLine: returned === 0 ? undefined : total,
    totalLines: total,
    truncated,
    lineCut,
  };
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
