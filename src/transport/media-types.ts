/**
 * Content negotiation of the Streamable HTTP transport: what an `Accept` header admits and whether
 * a `Content-Type` is JSON; and {@link memo}, which remembers the reading of a header value that
 * clients send alike on every request. Pure: no `node:` module.
 *
 * Spec: RFC 9110 §12.5.1 (Accept), §8.3 (Content-Type); MCP 2025-11-25, Basic / Transports
 * ("Sending Messages to the Server": the POST's `Accept`).
 * @module
 */

/** Most values one {@link memo} keeps; a full table starts afresh. */
const MEMO_SIZE = 64;

/**
 * `read(value)`, remembered: clients send the same few `Accept` and `Host` values on every request,
 * so each is read once. The table is bounded (cleared at {@link MEMO_SIZE}); `read` should return
 * a frozen value, since every caller with that value shares it.
 */
export function memo<T>(read: (value: string) => T): (value: string) => T {
  const table = new Map<string, T>();
  return (value) => {
    let result = table.get(value);
    if (result === undefined && !table.has(value)) {
      if (table.size >= MEMO_SIZE) table.clear();
      result = read(value);
      table.set(value, result);
    }
    return result as T;
  };
}

/** One media range of an `Accept` header, with its quality. */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

const parseAccept = memo((accept: string): readonly MediaRange[] => {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';');
    const [type = '', subtype = ''] = range.trim().toLowerCase().split('/');
    if (type === '' || subtype === '') continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q' && value !== undefined) q = Number(value.trim());
    }
    ranges.push(Object.freeze({ type, subtype, q: Number.isFinite(q) ? q : 0 }));
  }
  return Object.freeze(ranges);
});

/**
 * True when an `Accept` header value admits `mediaType` (exact, `type/*` or `*\/*`, with q > 0).
 * A missing header admits nothing: MCP clients MUST send one.
 */
export function accepts(accept: string | null, mediaType: string): boolean {
  return acceptsAll(accept, [mediaType]);
}

/** True when `range` admits `mediaType` (`type/subtype`, lower case). */
function admits(range: MediaRange, mediaType: string): boolean {
  if (range.q <= 0) return false;
  if (range.type === '*') return true;
  const slash = mediaType.indexOf('/');
  return (
    range.type === mediaType.slice(0, slash) &&
    (range.subtype === '*' || range.subtype === mediaType.slice(slash + 1))
  );
}

/**
 * True when an `Accept` header value admits every one of `mediaTypes` (see {@link accepts}); the
 * header is parsed once.
 */
export function acceptsAll(accept: string | null, mediaTypes: readonly string[]): boolean {
  if (accept === null) return false;
  const ranges = parseAccept(accept);
  return mediaTypes.every((mediaType) => ranges.some((range) => admits(range, mediaType)));
}

/** True when a `Content-Type` header value is `application/json` (any parameters, any case). */
export function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  if (contentType === 'application/json') return true;
  return contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}
