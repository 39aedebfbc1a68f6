/**
 * The number keywords, each defined once (`assertion.ts`): `minimum`, `maximum`,
 * `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, with the exact decimal test that
 * `multipleOf` needs. `NUMBER_KEYWORDS` lists them in the order their errors are reported.
 *
 * Spec: JSON Schema 2020-12 Validation §6.2 (numeric instances).
 * @module
 */
import { numberLiteral, type Assertion } from './assertion.js';
import { numberValue } from './context.js';
import { Flag } from './plan.js';
import { SchemaCompileError } from './types.js';

/** Decimal places of `x` as written in shortest form (`0.0075` has 4, `1e-7` has 7). */
export function decimals(x: number): number {
  const text = String(x);
  const e = text.indexOf('e-');
  if (e !== -1) {
    const dot = text.indexOf('.');
    return Number(text.slice(e + 2)) + (dot === -1 || dot > e ? 0 : e - dot - 1);
  }
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

/**
 * True when `v` is a whole multiple of `m`, counting decimal numbers exactly: 0.0075 is a
 * multiple of 0.0001 although 0.0075 / 0.0001 is 74.99999999999999 in binary floating point.
 */
export function isMultipleOf(v: number, m: number, mDecimals: number = decimals(m)): boolean {
  const q = v / m;
  if (Number.isInteger(q)) return true;
  const d = Math.max(mDecimals, decimals(v));
  if (d > 0 && d <= 20) {
    const scale = 10 ** d;
    const a = Math.round(v * scale);
    const b = Math.round(m * scale);
    if (Number.isSafeInteger(a) && Number.isSafeInteger(b) && b !== 0) return a % b === 0;
  }
  return v % m === 0;
}

/** `minimum` (Validation §6.2.4): `x >= minimum`. */
export const MINIMUM: Assertion = {
  keyword: 'minimum',
  flag: Flag.Minimum,
  read(plan, schema, path) {
    const v = numberValue(schema, 'minimum', path);
    if (v !== undefined) plan.min = v;
    return v !== undefined;
  },
  test: (p, n: number) => n >= p.min,
  js: (p, x) => `${x}>=${numberLiteral(p.min)}`,
  message: (p, n: number) => `expected a number >= ${p.min}, got ${n}`,
};

/** `maximum` (Validation §6.2.2): `x <= maximum`. */
export const MAXIMUM: Assertion = {
  keyword: 'maximum',
  flag: Flag.Maximum,
  read(plan, schema, path) {
    const v = numberValue(schema, 'maximum', path);
    if (v !== undefined) plan.max = v;
    return v !== undefined;
  },
  test: (p, n: number) => n <= p.max,
  js: (p, x) => `${x}<=${numberLiteral(p.max)}`,
  message: (p, n: number) => `expected a number <= ${p.max}, got ${n}`,
};

/** `exclusiveMinimum` (Validation §6.2.5): `x > exclusiveMinimum`. */
export const EXCLUSIVE_MINIMUM: Assertion = {
  keyword: 'exclusiveMinimum',
  flag: Flag.ExclusiveMinimum,
  read(plan, schema, path) {
    const v = numberValue(schema, 'exclusiveMinimum', path);
    if (v !== undefined) plan.xmin = v;
    return v !== undefined;
  },
  test: (p, n: number) => n > p.xmin,
  js: (p, x) => `${x}>${numberLiteral(p.xmin)}`,
  message: (p, n: number) => `expected a number > ${p.xmin}, got ${n}`,
};

/** `exclusiveMaximum` (Validation §6.2.3): `x < exclusiveMaximum`. */
export const EXCLUSIVE_MAXIMUM: Assertion = {
  keyword: 'exclusiveMaximum',
  flag: Flag.ExclusiveMaximum,
  read(plan, schema, path) {
    const v = numberValue(schema, 'exclusiveMaximum', path);
    if (v !== undefined) plan.xmax = v;
    return v !== undefined;
  },
  test: (p, n: number) => n < p.xmax,
  js: (p, x) => `${x}<${numberLiteral(p.xmax)}`,
  message: (p, n: number) => `expected a number < ${p.xmax}, got ${n}`,
};

/** `multipleOf` (Validation §6.2.1): `x / multipleOf` is an integer, decimals counted exactly. */
export const MULTIPLE_OF: Assertion = {
  keyword: 'multipleOf',
  flag: Flag.MultipleOf,
  read(plan, schema, path) {
    const v = numberValue(schema, 'multipleOf', path);
    if (v === undefined) return false;
    if (v <= 0) {
      throw new SchemaCompileError(`${path}/multipleOf`, 'multipleOf must be greater than 0');
    }
    plan.mult = v;
    plan.multDecimals = decimals(v);
    return true;
  },
  test: (p, n: number) => isMultipleOf(n, p.mult, p.multDecimals),
  js: (p, x, emit) => `R.isMultipleOf(${x},${emit.constant(p.mult)},${p.multDecimals})`,
  message: (p, n: number) => `expected a multiple of ${p.mult}, got ${n}`,
};

/** The number keywords, in the order their errors are reported. */
export const NUMBER_KEYWORDS: readonly Assertion[] = [
  MINIMUM, MAXIMUM, EXCLUSIVE_MINIMUM, EXCLUSIVE_MAXIMUM, MULTIPLE_OF,
];

