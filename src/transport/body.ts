/**
 * Reads a request body as UTF-8 text under a byte limit, without buffering past the limit: the
 * declared `Content-Length` is checked first, then the stream is counted as it arrives and
 * cancelled the moment it goes over.
 *
 * Spec: RFC 9110 §15.5.14 (413 Content Too Large); RFC 8259 §8.1 (JSON is UTF-8).
 * @module
 */

/** The outcome of {@link readBody}. */
export type BodyResult =
  | { kind: 'text'; text: string }
  | { kind: 'too-large' }
  | { kind: 'invalid-utf8' }
  | { kind: 'aborted' };

/**
 * Reads `request`'s body.
 * @param maxBytes the largest accepted body, in bytes.
 * @returns the text; `too-large` past `maxBytes`; `invalid-utf8` for bytes that are not UTF-8;
 *   `aborted` when the body stream failed (the client went away).
 */
export async function readBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return { kind: 'too-large' };
  }
  const body = request.body;
  if (body === null) return { kind: 'text', text: '' };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return { kind: 'too-large' };
      }
      chunks.push(value);
    }
  } catch {
    return { kind: 'aborted' };
  }
  return decodeBody(chunks, total);
}

/** Strict UTF-8 (a byte order mark is dropped); reused, since a whole-buffer decode keeps no state. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The text of a body received as `chunks` of `total` bytes in all.
 * @returns the text, or `invalid-utf8` for bytes that are not UTF-8.
 */
export function decodeBody(chunks: readonly Uint8Array[], total: number): BodyResult {
  const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : new Uint8Array(total);
  if (chunks.length !== 1) {
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  try {
    return { kind: 'text', text: UTF8.decode(bytes) };
  } catch {
    return { kind: 'invalid-utf8' };
  }
}
