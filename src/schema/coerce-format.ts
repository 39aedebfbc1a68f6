/**
 * The one-line stderr report of the coercions made to one `tools/call`'s arguments.
 *
 * Spec: RFC 6901 (paths shown as JSON Pointers); MCP 2025-11-25, Server / Utilities / Logging
 * (servers log to stderr on stdio, never stdout).
 * @module
 */
import type { JsonValue } from '../protocol/messages.js';
import type { Coercion } from './coerce.js';

/** Coercions shown by {@link formatCoercions} before it summarises the rest. */
const MAX_SHOWN = 20;
/** Characters of a value shown by {@link formatCoercions}. */
const MAX_VALUE_CHARS = 60;

function showValue(value: JsonValue): string {
  let text: string;
  if (typeof value === 'string') {
    const head = value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value;
    text = JSON.stringify(head);
  } else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
    if (text.length > MAX_VALUE_CHARS) text = `${text.slice(0, MAX_VALUE_CHARS)}…`;
  }
  return text;
}

/** Control characters and line separators escaped, so that a key cannot break the line. */
function oneLine(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * One line describing a call's coercions, for stderr:
 * `coerced /limit "5" -> 5 (string-to-integer); /tags "urgent" -> ["urgent"] (value-to-array)`.
 * The whole arguments value is shown as `(root)`, a removed key as `(removed)`; values are cut at
 * 60 characters and after 20 coercions the rest are counted (`; and 3 more`). Returns `''` when
 * the list is empty. The result never contains a line break.
 */
export function formatCoercions(coercions: readonly Coercion[]): string {
  if (coercions.length === 0) return '';
  const shown = coercions.slice(0, MAX_SHOWN).map((coercion) => {
    const where = coercion.path === '' ? '(root)' : coercion.path;
    const to = coercion.to === undefined ? '(removed)' : showValue(coercion.to);
    return `${where} ${showValue(coercion.from)} -> ${to} (${coercion.rule})`;
  });
  const rest = coercions.length > MAX_SHOWN ? `; and ${coercions.length - MAX_SHOWN} more` : '';
  return oneLine(`coerced ${shown.join('; ')}${rest}`);
}
