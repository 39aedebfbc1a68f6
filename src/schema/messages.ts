/**
 * Short descriptions of values and lists for validation messages, written for a model that must
 * read the message and fix its call: `got string "ten"`, `one of "a", "b" or "c"`.
 * @module
 */

const MAX_SHOWN = 40;
const MAX_LISTED = 10;

/**
 * `JSON.stringify(s)` for a string, without its cost when nothing needs escaping (no quote,
 * backslash, control character or surrogate).
 */
export function quote(s: string): string {
  return plain(s) ? '"' + s + '"' : JSON.stringify(s);
}

/** A character JSON escapes (a quote, backslash or control character) or a surrogate. */
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * True when `s` needs no escaping in JSON (no quote, backslash, control character or surrogate).
 * (A regular expression: faster than a loop over the characters, for all but the shortest.)
 */
function plain(s: string): boolean {
  return !ESCAPED.test(s);
}

/** A JSON literal, cut to about 40 characters: `"ten"`, `3.5`, `null`, `{…}`. */
export function literal(v: unknown): string {
  if (typeof v === 'string') {
    return v.length > MAX_SHOWN ? quote(v.slice(0, MAX_SHOWN)).slice(0, -1) + '…"' : quote(v);
  }
  if (typeof v === 'object' && v !== null) {
    const text = JSON.stringify(v) ?? String(v);
    return text.length > MAX_SHOWN ? text.slice(0, MAX_SHOWN) + '…' : text;
  }
  return String(v);
}

/** The JSON Schema type name of a value: `integer`, `number`, `string`, `array`, … */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** What a value is, for "got …": `string "ten"`, `number 3.5`, `null`, `array of 3 items`. */
export function describe(v: unknown): string {
  // `typeName(v)`, then `literal(v)` for a scalar, dispatched once.
  if (typeof v === 'string') {
    return v.length <= MAX_SHOWN && plain(v) ? 'string "' + v + '"' : 'string ' + literal(v);
  }
  if (typeof v === 'number') return (Number.isInteger(v) ? 'integer ' : 'number ') + v;
  if (typeof v === 'object') {
    if (v === null) return 'null';
    return Array.isArray(v) ? `array of ${v.length} items` : 'object';
  }
  if (v === undefined) return 'undefined';
  return `${typeof v} ${literal(v)}`;
}

/** Joins words as `a`, `a or b`, `a, b or c`, keeping the first ten. */
export function orList(words: readonly string[]): string {
  const shown = words.length > MAX_LISTED ? words.slice(0, MAX_LISTED) : words;
  const more = words.length > MAX_LISTED ? ` (and ${words.length - MAX_LISTED} more)` : '';
  if (shown.length <= 1) return (shown[0] ?? '') + more;
  return shown.slice(0, -1).join(', ') + ' or ' + shown[shown.length - 1] + more;
}

/** `"a", "b" or "c"` for property names. */
export function quoteList(names: readonly string[]): string {
  return orList(names.map((n) => JSON.stringify(n)));
}
