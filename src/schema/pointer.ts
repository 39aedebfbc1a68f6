/**
 * JSON Pointer (RFC 6901) helpers: escaping one reference token, joining tokens into a pointer,
 * splitting a pointer back into tokens, and reading a pointer out of a URI fragment.
 *
 * Spec: RFC 6901 §3–6; JSON Schema 2020-12 Core §9.2.1 (pointer fragments in `$ref`).
 * @module
 */

/**
 * Escapes one reference token: `~` becomes `~0`, then `/` becomes `~1` (RFC 6901 §3).
 * @example escapeToken('a/b~c') === 'a~1b~0c'
 */
export function escapeToken(token: string): string {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c === 0x7e || c === 0x2f) return token.replace(/~/g, '~0').replace(/\//g, '~1');
  }
  return token;
}

/** Reverses `escapeToken`: `~1` becomes `/`, then `~0` becomes `~` (RFC 6901 §4). */
export function unescapeToken(token: string): string {
  if (token.indexOf('~') === -1) return token;
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Joins reference tokens into a JSON Pointer; `[]` gives `''` (the whole document).
 * Numbers (array indexes) are written in decimal.
 */
export function encodePointer(tokens: readonly (string | number)[]): string {
  let out = '';
  for (const t of tokens) out += '/' + (typeof t === 'number' ? String(t) : escapeToken(t));
  return out;
}

/**
 * Splits a JSON Pointer into unescaped reference tokens. Returns `undefined` when the string is
 * not a pointer: non-empty without a leading `/`, or with a `~` not followed by `0` or `1`.
 */
export function decodePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (pointer[0] !== '/' || /~(?![01])/.test(pointer)) return undefined;
  return pointer.slice(1).split('/').map(unescapeToken);
}

/**
 * Reads the JSON Pointer in a URI fragment (the part after `#`, without the `#`), undoing
 * percent-encoding first (RFC 6901 §6). Returns `undefined` when it is not a valid pointer.
 */
export function decodeFragmentPointer(fragment: string): string[] | undefined {
  let text: string;
  try {
    text = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  return decodePointer(text);
}
