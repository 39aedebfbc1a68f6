/**
 * The value-level rules of argument coercion: which string is a number, an integer, a boolean,
 * a JSON array or a JSON object, and what a value becomes toward a set of declared types.
 * Schema traversal lives in `coerce.ts`; this file only looks at one value and one `type`.
 *
 * Spec: JSON Schema 2020-12 Validation §6.1.1 (`type`); RFC 8259 §6 (number grammar).
 * @module
 */
import { isObject } from '../protocol/messages.js';

/** A primitive type name of JSON Schema (2020-12 Validation §6.1.1). */
export type TypeName = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string';

/**
 * The rule that changed a value. Each names its source and target shape:
 * - `string-to-number`: `"2.5"` to `2.5` (exact JSON number literal, finite);
 * - `string-to-integer`: `"5"` to `5` (exact JSON number literal denoting a safe integer);
 * - `string-to-boolean`: `"true"`/`"false"`, any letter case, to the boolean;
 * - `json-string-to-array`: a string holding a JSON array, to that array;
 * - `value-to-array`: any other non-null value, to a one-element array;
 * - `json-string-to-object`: a string holding a JSON object, to that object;
 * - `null-removed`: `null` for an optional property that does not allow `null`: the key is removed;
 * - `to-string`: a number or boolean to its JSON text (only with the `coerceToString` option).
 */
export type CoercionRule =
  | 'string-to-number'
  | 'string-to-integer'
  | 'string-to-boolean'
  | 'json-string-to-array'
  | 'value-to-array'
  | 'json-string-to-object'
  | 'null-removed'
  | 'to-string';

/** What the value-level rules may do; the walker in `coerce.ts` fills it from `CoerceOptions`. */
export interface RuleOptions {
  /** Allow number and boolean to string. */
  readonly coerceToString: boolean;
  /** Longest string (UTF-16 code units) handed to `JSON.parse`. */
  readonly maxStringLength: number;
  /** Called with a cost before each `JSON.parse`; returns false when the work budget is spent. */
  readonly charge: (cost: number) => boolean;
}

/** RFC 8259 §6 number grammar, anchored: no whitespace, no `+`, no leading zeros, no hex. */
const NUMBER_LITERAL = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
const BOOLEAN_LITERAL = /^(?:true|false)$/i; // no `u` flag: only ASCII letters fold

/** The JSON type of a value as JSON Schema sees it; `undefined` for values JSON cannot carry. */
export function jsonType(value: unknown): TypeName | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isFinite(value) ? (Number.isInteger(value) ? 'integer' : 'number') : undefined;
    case 'object':
      if (Array.isArray(value)) return 'array';
      return isObject(value) ? 'object' : undefined;
    default:
      return undefined;
  }
}

/** True when a value of this JSON type satisfies `type` (an integer satisfies `number`). */
export function typeAccepts(types: ReadonlySet<TypeName>, value: unknown): boolean {
  const type = jsonType(value);
  if (type === undefined) return false;
  if (types.has(type)) return true;
  return type === 'integer' && types.has('number');
}

/**
 * The number a string denotes when it is exactly a JSON number literal and finite after
 * conversion; otherwise `undefined`. `"1e400"`, `" 5"`, `"0x10"`, `"1,000"` and `"+1"` give
 * `undefined`.
 */
export function numberLiteral(text: string): number | undefined {
  if (!NUMBER_LITERAL.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The integer a string denotes when it is a JSON number literal whose exact value is an integer
 * within ±(2^53 − 1); otherwise `undefined`. `"5.0"` and `"1e3"` qualify; `"0.99999999999999999"`
 * (which `Number` rounds to 1) and `"9007199254740993"` (not exactly representable) do not.
 */
export function integerLiteral(text: string): number | undefined {
  const match = NUMBER_LITERAL.exec(text);
  if (match === null) return undefined;
  const [, , whole = '', fraction = '', exponent = '0'] = match;
  const digits = whole + fraction;
  if (!/[1-9]/.test(digits)) return 0; // zero, whatever the sign and exponent
  const shift = Number(exponent);
  if (!(Math.abs(shift) <= 400)) return undefined; // never a nonzero safe integer in practice
  // Once the exponent moves the decimal point to `point`, every digit after it must be zero.
  const point = whole.length + shift;
  if (/[1-9]/.test(digits.slice(Math.max(point, 0)))) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Returned by {@link parseJsonText} for text too long to parse: such a string is left alone. */
const TOO_LONG: unique symbol = Symbol('too long');

/**
 * `JSON.parse` of a string that starts (after JSON whitespace) with `open`: the parsed value,
 * `undefined` when it does not start so or does not parse, `TOO_LONG` past `maxStringLength`.
 */
function parseJsonText(text: string, open: '[' | '{', options: RuleOptions): unknown {
  const start = /^[\t\n\r ]*/.exec(text)?.[0].length ?? 0;
  if (text[start] !== open) return undefined;
  if (text.length > options.maxStringLength || !options.charge(1 + (text.length >> 6)))
    return TOO_LONG;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A value changed by one rule. */
export interface RuleResult {
  readonly value: unknown;
  readonly rule: CoercionRule;
}

/**
 * Applies the first rule that moves `value` toward one of `types`, in this order: integer,
 * number, boolean, JSON array, JSON object, one-element array, then (with `coerceToString`) string.
 * Returns `undefined` when none applies. Never touches a string when `types` has `string`.
 */
export function coerceToType(
  types: ReadonlySet<TypeName>,
  value: unknown,
  options: RuleOptions,
): RuleResult | undefined {
  if (typeAccepts(types, value)) return undefined;
  if (typeof value === 'string') {
    if (types.has('integer')) {
      const number = integerLiteral(value);
      if (number !== undefined) return { value: number, rule: 'string-to-integer' };
    }
    if (types.has('number')) {
      const number = numberLiteral(value);
      if (number !== undefined) return { value: number, rule: 'string-to-number' };
    }
    if (types.has('boolean') && BOOLEAN_LITERAL.test(value)) {
      return { value: value.toLowerCase() === 'true', rule: 'string-to-boolean' };
    }
    if (types.has('array')) {
      const parsed = parseJsonText(value, '[', options);
      if (Array.isArray(parsed)) return { value: parsed, rule: 'json-string-to-array' };
      if (parsed === TOO_LONG) return undefined;
    }
    if (types.has('object')) {
      const parsed = parseJsonText(value, '{', options);
      if (isObject(parsed)) return { value: parsed, rule: 'json-string-to-object' };
      if (parsed === TOO_LONG) return undefined;
    }
  }
  const type = jsonType(value);
  if (type === undefined || type === 'null' || type === 'array') return undefined;
  if (types.has('array')) return { value: [value], rule: 'value-to-array' };
  if (
    options.coerceToString &&
    types.has('string') &&
    (type === 'boolean' || type === 'integer' || type === 'number')
  ) {
    return { value: JSON.stringify(value), rule: 'to-string' };
  }
  return undefined;
}
