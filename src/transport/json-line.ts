/**
 * JSON text that every common line reader reads back as the same single message.
 *
 * `JSON.stringify` already escapes U+0000–U+001F (so `\n`, `\r`, `\v`, `\f` and U+001C–U+001E
 * never appear raw), and pairs of surrogates come out as the character they encode. Two kinds of
 * valid JavaScript strings still come out in a form some reader splits or rejects:
 * - U+0085 (NEL), U+2028 and U+2029 are written raw, and Python's `str.splitlines()` ends a line
 *   at each of them: escaped here as `\u0085`, `\u2028`, `\u2029` (the same string once parsed).
 * - A lone surrogate (half of a pair) is written as an escape such as `\ud800`; Rust's serde_json
 *   rejects the whole message ("lone leading surrogate in hex escape"), Go's encoding/json reads
 *   U+FFFD, Python and Java keep the lone half. No UTF-8 reader can hold it, so it is replaced by
 *   `\ufffd` (U+FFFD), which every reader reads alike: what encoding the string as UTF-8 does.
 *   An `id` is the exception: it is the client's own, echoed exactly (a client that sent a lone
 *   surrogate in an id can read one back), so {@link jsonLine} keeps its escape as written.
 * What stays different between readers is size, not text: see SECURITY.md (Go's bufio.Scanner
 * refuses lines over 64 KiB unless given a larger buffer; serde_json's default depth is 128).
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio ("Messages are delimited by newlines, and MUST
 * NOT contain embedded newlines"); RFC 8259 §7 (any character may be escaped), §8.2.
 * @module
 */

/** A raw line separator some reader splits on, or the escape of a surrogate (always lone here). */
const RISKY = /[\u0085\u2028\u2029]|\\ud[89a-f]/;
const SEPARATORS = /[\u0085\u2028\u2029]/g;
/** `\udXXX` after an even run of backslashes (an odd run: the backslash itself is escaped). */
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * False when `json` surely holds nothing {@link RISKY} matches: four `indexOf` scans, about half
 * the time of the regular expression on a typical reply (and a one-byte string cannot hold
 * U+2028 or U+2029 at all). True is only "maybe": `\\ud` not followed by a surrogate's digit.
 */
function mayBeRisky(json: string): boolean {
  return (
    json.indexOf('\\ud') !== -1 ||
    json.indexOf('\u0085') !== -1 ||
    json.indexOf('\u2028') !== -1 ||
    json.indexOf('\u2029') !== -1
  );
}

const escapeSeparator = (c: string): string =>
  c === '\u0085' ? '\\u0085' : c === '\u2028' ? '\\u2028' : '\\u2029';

/**
 * Makes `JSON.stringify` output (one message, or several lines of them) safe for every line
 * reader: escapes U+0085, U+2028 and U+2029, and replaces lone-surrogate escapes by `\ufffd`.
 * Returns `json` itself, unchanged, when there is nothing to do (the usual case: one scan).
 * @param json text produced by `JSON.stringify` (lowercase `\udXXX` escapes for lone surrogates).
 */
export function lineSafe(json: string): string {
  if (!RISKY.test(json)) return json;
  return json.replace(SEPARATORS, escapeSeparator).replace(LONE_SURROGATE, '$1\\ufffd');
}

/** A string with a lone surrogate (`isWellFormed` where the runtime has it). */
function illFormed(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const wellFormed = (value as { isWellFormed?: () => boolean }).isWellFormed;
  return wellFormed === undefined ? /[\ud800-\udfff]/.test(value) && encodeURIComponentFails(value) : !wellFormed.call(value);
}

function encodeURIComponentFails(value: string): boolean {
  try {
    encodeURIComponent(value);
    return false;
  } catch {
    return true;
  }
}

/** A placeholder no client value can equal (it holds NULs, which a JSON line never carries raw). */
const mark = (n: number): string => `\u0000baremcp-echo-${n}\u0000`;

/** The client's correlation values a message carries: its `id`, a progress notification's token. */
function echoed(message: unknown): { id?: unknown; token?: unknown } {
  if (typeof message !== 'object' || message === null) return {};
  const m = message as { id?: unknown; params?: { progressToken?: unknown } };
  return { id: m.id, token: m.params?.progressToken };
}

/**
 * One message (or a batch of them) as one line of JSON text that is {@link lineSafe}, except the
 * client's own correlation values, echoed exactly as sent, lone surrogates included: a response's
 * string `id` and a progress notification's `progressToken`.
 * @throws what `JSON.stringify` throws for a value JSON cannot carry.
 */
export function jsonLine(message: unknown): string {
  const json = JSON.stringify(message);
  if (!mayBeRisky(json) || !RISKY.test(json)) return json;
  const items = Array.isArray(message) ? message : [message];
  if (!items.some((m) => { const e = echoed(m); return illFormed(e.id) || illFormed(e.token); })) return lineSafe(json);
  const kept: string[] = [];
  const keep = (value: string): string => {
    kept.push(JSON.stringify(value).replace(SEPARATORS, escapeSeparator));
    return mark(kept.length - 1);
  };
  const marked = items.map((m) => {
    const { id, token } = echoed(m);
    let out = m as { id?: unknown; params?: object };
    if (illFormed(id)) out = { ...out, id: keep(id) };
    if (illFormed(token)) out = { ...out, params: { ...out.params, progressToken: keep(token) } };
    return out;
  });
  let safe = lineSafe(JSON.stringify(Array.isArray(message) ? marked : marked[0]));
  kept.forEach((value, n) => {
    safe = safe.replace(JSON.stringify(mark(n)), () => value);
  });
  return safe;
}
