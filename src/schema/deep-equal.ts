/**
 * Structural equality of JSON values, as `const`, `enum` and `uniqueItems` need it: numbers are
 * equal when mathematically equal (`1` equals `1.0`, `0` equals `-0`), strings by code units,
 * arrays item by item, objects by their own enumerable keys regardless of order.
 *
 * Spec: JSON Schema 2020-12 Core §4.2.2 (instance equality).
 * @module
 */

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * True when `a` and `b` are equal JSON values (JSON Schema 2020-12 Core §4.2.2). Recursion stops
 * at the shallower of the two values, so comparing against a schema constant is bounded by the
 * constant's depth. Only own enumerable keys count; `__proto__` is an ordinary key.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const aArray = Array.isArray(a);
  if (aArray !== Array.isArray(b)) return false;
  if (aArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!deepEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) {
    if (!hasOwn.call(y, k) || !deepEqual(x[k], y[k])) return false;
  }
  return true;
}

/**
 * A string that is the same for two values exactly when `deepEqual` holds for them, so that
 * `uniqueItems` can use a `Set` instead of comparing every pair. Object keys are sorted.
 * Returns `undefined` when the value is nested deeper than `depth` levels.
 */
export function canonicalKey(value: unknown, depth: number): string | undefined {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'string' ? JSON.stringify(value) : String(value);
  }
  if (depth <= 0) return undefined;
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      const k = canonicalKey(value[i], depth - 1);
      if (k === undefined) return undefined;
      out += (i === 0 ? '' : ',') + k;
    }
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = canonicalKey(record[keys[i]], depth - 1);
    if (k === undefined) return undefined;
    out += (i === 0 ? '' : ',') + JSON.stringify(keys[i]) + ':' + k;
  }
  return out + '}';
}
