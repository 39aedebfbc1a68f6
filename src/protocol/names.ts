/**
 * Closed sets of names that baremcp defines (strict profiles, logging levels, protocol revisions,
 * list kinds, content block types, command-line options): the membership test and the one
 * message for a name outside its set. A name that is not in the set is refused, never ignored,
 * and the refusal lists what would have been accepted. Pure code: no I/O.
 * @module
 */

/** True when `value` is a string in `known` (case-sensitive: `'OpenAI'` is not `'openai'`). */
export function isOneOf<T extends string>(value: unknown, known: readonly T[]): value is T {
  return typeof value === 'string' && (known as readonly string[]).includes(value);
}

/** `value` as a person reads it in a message: strings quoted as JSON, others as JSON or text. */
function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The message for a `value` that is not one of `known`, naming the set `what`:
 * `unknown profile "OpenAI" (choose from openai, anthropic, gemini, mcp)`, or for `undefined`
 * `no profile given (choose from openai, anthropic, gemini, mcp)`. Callers prefix where it
 * happened (`findStrictSchemaViolations: …`, `tool "edit": …`).
 */
export function notOneOf(what: string, value: unknown, known: readonly string[]): string {
  const choices = `(choose from ${known.join(', ')})`;
  return value === undefined ? `no ${what} given ${choices}` : `unknown ${what} ${shown(value)} ${choices}`;
}
