/**
 * Compilers for the keywords that look at one value alone: `type`, `enum`, `const`, the number
 * keywords and the string keywords (including `format`).
 *
 * Spec: JSON Schema 2020-12 Validation §6.1 (type, enum, const), §6.2 (numbers), §6.3 (strings),
 * §7 (format).
 * @module
 */
import { type CompileContext, type SchemaObject, count, numberValue, own } from './context.js';
import { deepEqual } from './deep-equal.js';
import { formatCheck } from './format.js';
import { describe, literal, orList } from './messages.js';
import { type Fn, type State, report } from './state.js';
import { SchemaCompileError } from './types.js';

/** Bits of a `type` mask (a `const enum`: inlined as numbers). `Number` also admits integers. */
export const enum TypeBit {
  Null = 1,
  Boolean = 2,
  Object = 4,
  Array = 8,
  Number = 16,
  Integer = 32,
  String = 64,
}
/** Type bit of `null`. */
export const T_NULL: number = TypeBit.Null;
/** Type bit of booleans. */
export const T_BOOLEAN: number = TypeBit.Boolean;
/** Type bit of objects. */
export const T_OBJECT: number = TypeBit.Object;
/** Type bit of arrays. */
export const T_ARRAY: number = TypeBit.Array;
/** Type bit of numbers that are not integers. */
export const T_NUMBER: number = TypeBit.Number;
/** Type bit of integers. */
export const T_INTEGER: number = TypeBit.Integer;
/** Type bit of strings. */
export const T_STRING: number = TypeBit.String;

const TYPE_BITS: { readonly [name: string]: number } = {
  null: T_NULL,
  boolean: T_BOOLEAN,
  object: T_OBJECT,
  array: T_ARRAY,
  number: T_NUMBER | T_INTEGER,
  integer: T_INTEGER,
  string: T_STRING,
};

/** The type bit of a value (`T_INTEGER` for whole numbers); 0 for non-JSON values. */
export function kindOf(v: unknown): number {
  switch (typeof v) {
    case 'string':
      return T_STRING;
    case 'number':
      return Number.isInteger(v) ? T_INTEGER : Number.isFinite(v) ? T_NUMBER : 0;
    case 'boolean':
      return T_BOOLEAN;
    case 'object':
      return v === null ? T_NULL : Array.isArray(v) ? T_ARRAY : T_OBJECT;
    default:
      return 0;
  }
}

/** Reads `type` (a name or a non-empty array of names) into a mask and its display names. */
export function parseType(schema: SchemaObject, path: string): { mask: number; names: string[] } {
  const value = own(schema, 'type');
  const names = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(names) || names.length === 0) {
    throw new SchemaCompileError(`${path}/type`, 'type must be a type name or an array of them');
  }
  let mask = 0;
  for (const name of names) {
    const bit = typeof name === 'string' ? TYPE_BITS[name] : undefined;
    if (bit === undefined || !Object.prototype.hasOwnProperty.call(TYPE_BITS, name)) {
      throw new SchemaCompileError(
        `${path}/type`,
        `unknown type ${JSON.stringify(name)}; use null, boolean, object, array, number, integer or string`,
      );
    }
    mask |= bit;
  }
  return { mask, names: names as string[] };
}

/** Reports a `type` failure: `expected integer, got string "ten"`. */
export function typeFail(s: State, names: readonly string[], v: unknown): false {
  return report(s, 'type', '/type', `expected ${orList(names)}, got ${describe(v)}`);
}

/** Compiles `enum` (JSON Schema 2020-12 Validation §6.1.2). */
export function compileEnum(schema: SchemaObject, path: string): Fn {
  const values = own(schema, 'enum');
  if (!Array.isArray(values)) throw new SchemaCompileError(`${path}/enum`, 'enum must be an array');
  const scalars = new Set<unknown>();
  const objects: unknown[] = [];
  for (const x of values) {
    if (typeof x === 'object' && x !== null) objects.push(x);
    else scalars.add(x);
  }
  let shown: string | undefined; // Written on the first failure: compiling stays cheap.
  return (v, s) => {
    if (typeof v === 'object' && v !== null) {
      for (const x of objects) if (deepEqual(x, v)) return true;
    } else if (scalars.has(v)) {
      return true;
    }
    if (s.errors === null) return false;
    shown ??= orList(values.map((x) => literal(x)));
    return report(s, 'enum', '/enum', `expected one of ${shown}, got ${describe(v)}`);
  };
}

/** Compiles `const` (JSON Schema 2020-12 Validation §6.1.3). */
export function compileConst(schema: SchemaObject): Fn {
  const value = own(schema, 'const');
  const fail = (v: unknown, s: State): false =>
    report(s, 'const', '/const', `expected ${literal(value)}, got ${describe(v)}`);
  if (typeof value !== 'object' || value === null) return (v, s) => v === value || fail(v, s);
  return (v, s) => deepEqual(value, v) || fail(v, s);
}

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

/**
 * Compiles the number keywords into one check, or `undefined` when there are none. With `guard`
 * (the `type` names), the check first fails any value that is not a number (an integer when
 * `integer` is set), reporting a `type` error.
 */
export function compileNumber(
  schema: SchemaObject, path: string, guard?: readonly string[], integer = false,
): Fn | undefined {
  const min = numberValue(schema, 'minimum', path);
  const max = numberValue(schema, 'maximum', path);
  const exMin = numberValue(schema, 'exclusiveMinimum', path);
  const exMax = numberValue(schema, 'exclusiveMaximum', path);
  const mult = numberValue(schema, 'multipleOf', path);
  if (mult !== undefined && mult <= 0) {
    throw new SchemaCompileError(`${path}/multipleOf`, 'multipleOf must be greater than 0');
  }
  if (min === undefined && max === undefined && exMin === undefined && exMax === undefined) {
    if (mult === undefined) return undefined;
  }
  const lo = min ?? -Infinity;
  const hi = max ?? Infinity;
  const xlo = exMin ?? -Infinity;
  const xhi = exMax ?? Infinity;
  const md = mult === undefined ? 0 : decimals(mult);
  return (v, s) => {
    if (guard !== undefined && !(integer ? Number.isInteger(v) : Number.isFinite(v))) {
      return typeFail(s, guard, v);
    }
    const n = v as number;
    if (n >= lo && n <= hi && n > xlo && n < xhi && (mult === undefined || isMultipleOf(n, mult, md))) {
      return true;
    }
    if (s.errors === null) return false;
    const got = `, got ${n}`;
    if (n < lo) report(s, 'minimum', '/minimum', `expected a number >= ${lo}${got}`);
    if (n > hi) report(s, 'maximum', '/maximum', `expected a number <= ${hi}${got}`);
    if (n <= xlo) report(s, 'exclusiveMinimum', '/exclusiveMinimum', `expected a number > ${xlo}${got}`);
    if (n >= xhi) report(s, 'exclusiveMaximum', '/exclusiveMaximum', `expected a number < ${xhi}${got}`);
    if (mult !== undefined && !isMultipleOf(n, mult, md)) {
      report(s, 'multipleOf', '/multipleOf', `expected a multiple of ${mult}${got}`);
    }
    return false;
  };
}

/** Length of `s` in Unicode code points (a surrogate pair counts once), as JSON Schema counts. */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * Compiles the string keywords into one check, or `undefined` when there are none. With `guard`
 * (the `type` names), the check first fails any value that is not a string.
 */
export function compileString(
  schema: SchemaObject, path: string, ctx: CompileContext, guard?: readonly string[],
): Fn | undefined {
  const minLength = count(schema, 'minLength', path) ?? 0;
  const maxLength = count(schema, 'maxLength', path) ?? Infinity;
  const source = own(schema, 'pattern');
  const pattern = source === undefined ? undefined : ctx.regex(source, `${path}/pattern`);
  const formatName = own(schema, 'format');
  if (formatName !== undefined && typeof formatName !== 'string') {
    throw new SchemaCompileError(`${path}/format`, 'format must be a string');
  }
  const format = ctx.formatAssertion && formatName !== undefined ? formatCheck(formatName) : undefined;
  if (minLength === 0 && maxLength === Infinity && pattern === undefined && format === undefined) {
    return undefined;
  }
  return (v, s) => {
    if (guard !== undefined && typeof v !== 'string') return typeFail(s, guard, v);
    const str = v as string;
    let ok = true;
    // UTF-16 length bounds the code-point count from above and twice it from below.
    const len = str.length;
    if (len < minLength || (len < 2 * minLength && codePoints(str) < minLength)) {
      if (s.errors === null) return false;
      ok = report(s, 'minLength', '/minLength',
        `expected a string of at least ${minLength} characters, got ${codePoints(str)}`);
    }
    if (len > maxLength && codePoints(str) > maxLength) {
      if (s.errors === null) return false;
      ok = report(s, 'maxLength', '/maxLength',
        `expected a string of at most ${maxLength} characters, got ${codePoints(str)}`);
    }
    if (pattern !== undefined && !pattern.test(str)) {
      if (s.errors === null) return false;
      ok = report(s, 'pattern', '/pattern', `string ${literal(str)} does not match the pattern /${pattern.source}/`);
    }
    if (format !== undefined && !format(str)) {
      if (s.errors === null) return false;
      ok = report(s, 'format', '/format', `expected a ${formatName} string, got ${literal(str)}`);
    }
    return ok;
  };
}
