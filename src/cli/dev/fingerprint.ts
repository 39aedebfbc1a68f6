/**
 * What `baremcp dev` compares between two versions of a definition (a tool, prompt, resource or
 * resource template): its shape (every field but the code of its functions) and its code (the
 * source text of each function). A definition whose shape is unchanged keeps its place in the
 * server and runs the new version's functions; one whose shape changed is registered anew.
 * @module
 */

/** A definition's fields, described for comparison. */
export interface Fingerprint {
  /** Canonical text of each top-level field; a function is its source text. */
  fields: Map<string, string>;
  /** Canonical text of the whole definition with every function as one marker. */
  shape: string;
  /**
   * True when a field holds an object that is neither plain nor an array (a class instance,
   * such as a schema library's object): its contents cannot be compared, so the definition is
   * registered anew on every reload.
   */
  opaque: boolean;
}

const FUNCTION = '\u0192';

/** Describes `definition` (see {@link Fingerprint}). */
export function fingerprint(definition: object): Fingerprint {
  const state = { opaque: false };
  const fields = new Map<string, string>();
  const shape: string[] = [];
  for (const key of Object.keys(definition).sort()) {
    const value = (definition as Record<string, unknown>)[key];
    if (value === undefined) continue;
    fields.set(key, canonical(value, true, state));
    shape.push(`${JSON.stringify(key)}:${canonical(value, false, state)}`);
  }
  return { fields, shape: `{${shape.join(',')}}`, opaque: state.opaque };
}

/** The top-level fields whose text differs between `before` and `after`, in sorted order. */
export function changedFields(before: Fingerprint, after: Fingerprint): string[] {
  const keys = new Set([...before.fields.keys(), ...after.fields.keys()]);
  return [...keys].sort().filter((key) => before.fields.get(key) !== after.fields.get(key));
}

/** True for `{}`-made objects and `Object.create(null)`. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * JSON-like text of `value` with sorted keys; functions as their source (`source`) or a marker;
 * a class instance as its constructor's name, and `state.opaque` set. Cycles are cut.
 */
function canonical(value: unknown, source: boolean, state: { opaque: boolean },
  seen: Set<object> = new Set()): string {
  if (typeof value === 'function') return source ? `${FUNCTION}${String(value)}` : FUNCTION;
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
  }
  if (seen.has(value)) return '[cycle]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((v) => canonical(v, source, state, seen)).join(',')}]`;
    if (!isPlainObject(value)) {
      state.opaque = true;
      return `[${(value as object).constructor?.name ?? 'object'}]`;
    }
    const parts = Object.keys(value).sort().filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k], source, state, seen)}`);
    return `{${parts.join(',')}}`;
  } finally {
    seen.delete(value);
  }
}
