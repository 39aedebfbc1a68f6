/**
 * Leaf schemas: subschemas that only constrain one scalar (`type`, scalar `enum`/`const`,
 * length, bounds, `pattern`, plus annotations), like most tool parameters. The object and
 * array loops check them inline through `leafOk` instead of calling a compiled closure, which
 * keeps the verdict-only pass fast. Failures are re-checked by the compiled closure, which
 * builds the message, so a leaf only has to agree with it on the verdict.
 *
 * Spec: JSON Schema 2020-12 Validation §6.1–6.3.
 * @module
 */
import { type CompileContext, type SchemaObject, isObject } from './context.js';
import {
  T_ARRAY, T_BOOLEAN, T_INTEGER, T_NULL, T_NUMBER, T_OBJECT, T_STRING, isMultipleOf, parseType,
} from './keywords-scalar.js';

/**
 * A leaf schema reduced to data. Absent bounds are infinite; `values` null means any value.
 * `plain` is true when only `type` constrains the value.
 */
export interface Leaf {
  mask: number;
  plain: boolean;
  values: unknown[] | null;
  minLength: number;
  maxLength: number;
  min: number;
  max: number;
  xmin: number;
  xmax: number;
  mult: number;
  pattern: RegExp | null;
}

const ALL = T_NULL | T_BOOLEAN | T_OBJECT | T_ARRAY | T_NUMBER | T_INTEGER | T_STRING;
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated',
  'readOnly', 'writeOnly', '$comment']);
const LEAF_KEYWORDS = new Set(['type', 'enum', 'const', 'minLength', 'maxLength', 'minimum',
  'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'pattern']);

/**
 * The leaf form of `schema`, or `undefined` when it is not a leaf. Call it only after the
 * schema compiled, so every keyword value is known to be valid. `format` makes a schema a leaf
 * only when formats are not asserted.
 */
export function toLeaf(schema: unknown, ctx: CompileContext): Leaf | undefined {
  if (schema === true) return makeLeaf({}, ALL, undefined);
  if (!isObject(schema)) return undefined;
  for (const k of Object.keys(schema)) {
    if (LEAF_KEYWORDS.has(k) || ANNOTATIONS.has(k) || (k === 'format' && !ctx.formatAssertion)) {
      continue;
    }
    return undefined;
  }
  const hasConst = Object.prototype.hasOwnProperty.call(schema, 'const');
  if (schema.enum !== undefined && hasConst) return undefined;
  const values = hasConst ? [schema.const] : schema.enum;
  if (Array.isArray(values) && values.some((x) => typeof x === 'object' && x !== null)) return undefined;
  const mask = schema.type === undefined ? ALL : parseType(schema, '').mask;
  const regex = typeof schema.pattern === 'string' ? ctx.regex(schema.pattern, '') : undefined;
  return makeLeaf(schema, mask, regex);
}

function makeLeaf(schema: SchemaObject, mask: number, regex: RegExp | undefined): Leaf {
  const num = (k: string, otherwise: number): number =>
    typeof schema[k] === 'number' ? (schema[k] as number) : otherwise;
  const values = Array.isArray(schema.enum) ? schema.enum
    : Object.prototype.hasOwnProperty.call(schema, 'const') ? [schema.const] : null;
  const leaf: Leaf = {
    mask,
    plain: false,
    values,
    minLength: num('minLength', 0),
    maxLength: num('maxLength', Infinity),
    min: num('minimum', -Infinity),
    max: num('maximum', Infinity),
    xmin: num('exclusiveMinimum', -Infinity),
    xmax: num('exclusiveMaximum', Infinity),
    mult: num('multipleOf', 0),
    pattern: regex ?? null,
  };
  leaf.plain = values === null && leaf.minLength === 0 && leaf.maxLength === Infinity &&
    leaf.min === -Infinity && leaf.max === Infinity && leaf.xmin === -Infinity &&
    leaf.xmax === Infinity && leaf.mult === 0 && leaf.pattern === null;
  return leaf;
}

function codePointsBelow(s: string, limit: number): boolean {
  let n = 0;
  for (const _ of s) if (++n >= limit) return false;
  return true;
}

/** The type bit of a value, as `kindOf`, small enough to be inlined. */
function kind(x: unknown): number {
  const t = typeof x;
  if (t === 'string') return T_STRING;
  if (t === 'number') return Number.isInteger(x) ? T_INTEGER : Number.isFinite(x) ? T_NUMBER : 0;
  if (t === 'boolean') return T_BOOLEAN;
  if (t !== 'object') return 0;
  return x === null ? T_NULL : Array.isArray(x) ? T_ARRAY : T_OBJECT;
}

/** True when `x` passes the leaf schema `leaf` (same verdict as the compiled schema). */
export function leafOk(x: unknown, leaf: Leaf): boolean {
  const k = kind(x);
  return (leaf.mask & k) !== 0 && (leaf.plain || constrainedOk(x, k, leaf));
}

function constrainedOk(x: unknown, k: number, leaf: Leaf): boolean {
  if (leaf.values !== null && !leaf.values.includes(x)) return false;
  if (k === T_STRING) {
    const str = x as string;
    const len = str.length;
    if (len < leaf.minLength || (len < 2 * leaf.minLength && codePointsBelow(str, leaf.minLength))) {
      return false;
    }
    if (len > leaf.maxLength && !codePointsBelow(str, leaf.maxLength + 1)) return false;
    return leaf.pattern === null || leaf.pattern.test(str);
  }
  if (k === T_INTEGER || k === T_NUMBER) {
    const n = x as number;
    if (n < leaf.min || n > leaf.max || n <= leaf.xmin || n >= leaf.xmax) return false;
    return leaf.mult === 0 || isMultipleOf(n, leaf.mult);
  }
  return k !== T_OBJECT && k !== T_ARRAY || leaf.values === null;
}
