/**
 * `enum` and `const`, each defined once (`assertion.ts`): they apply to a value of any type.
 * Scalars compare with SameValueZero (`NaN` matches `NaN`, `0` matches `-0`), objects and arrays
 * structurally (`deep-equal.ts`). `VALUE_KEYWORDS` lists them in the order their errors are
 * reported.
 *
 * Spec: JSON Schema 2020-12 Validation §6.1.2 (enum), §6.1.3 (const); Core §4.2.2 (equality).
 * @module
 */
import type { Assertion, Emit } from './assertion.js';
import { own } from './context.js';
import { deepEqual } from './deep-equal.js';
import { describe, literal, orList } from './messages.js';
import { Flag, type Plan } from './plan.js';
import { SchemaCompileError } from './types.js';

/** Scalar `enum` lists up to this long are generated as `===` chains; longer ones use a `Set`. */
const MAX_INLINE_VALUES = 16;

const isStructured = (v: unknown): boolean => typeof v === 'object' && v !== null;

/** A scalar with a source literal (so that `===` against it is SameValueZero). */
const hasLiteral = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'boolean' || v === null ||
  (typeof v === 'number' && Number.isFinite(v));

/** `enum` (Validation §6.1.2): equal to one of the listed values. */
export const ENUM: Assertion = {
  keyword: 'enum',
  flag: Flag.Enum,
  read(plan, schema, path) {
    const values = own(schema, 'enum');
    if (values === undefined) return false;
    if (!Array.isArray(values)) {
      throw new SchemaCompileError(`${path}/enum`, 'enum must be an array');
    }
    plan.enumValues = values;
    plan.values = values.filter((x) => !isStructured(x));
    plan.objectValues = values.filter(isStructured);
    return true;
  },
  test(p, v) {
    if (isStructured(v)) {
      const objects = p.objectValues as unknown[];
      for (let i = 0; i < objects.length; i++) if (deepEqual(objects[i], v)) return true;
      return false;
    }
    // As `Set.prototype.has` (SameValueZero): `===`, but NaN matches NaN.
    const values = p.values as unknown[];
    if (v !== v) return values.includes(v);
    for (let i = 0; i < values.length; i++) if (values[i] === v) return true;
    return false;
  },
  js(p, x, emit) {
    const values = p.values as unknown[];
    if ((p.objectValues as unknown[]).length > 0 || !values.every(hasLiteral)) {
      return `R.valuesOk(${emit.constant(p)},${x},${Flag.Enum})`;
    }
    return values.length <= MAX_INLINE_VALUES
      ? `(${values.map((v) => `${x}===${emit.scalar(v)}`).join('||') || 'false'})`
      : `${emit.constant(new Set(values))}.has(${x})`;
  },
  head(p) {
    if (p.enumHead === '') {
      p.enumHead = `expected one of ${orList((p.enumValues as unknown[]).map((x) => literal(x)))}, got `;
    }
    return p.enumHead;
  },
  message: (p, v) => ENUM_HEAD(p) + describe(v),
};

/** `const` (Validation §6.1.3): equal to the value. */
export const CONST: Assertion = {
  keyword: 'const',
  flag: Flag.Const,
  read(plan, schema) {
    if (!Object.prototype.hasOwnProperty.call(schema, 'const')) return false;
    plan.constValue = schema.const;
    return true;
  },
  test: (p, v) => (isStructured(p.constValue) ? deepEqual(p.constValue, v) : v === p.constValue),
  js: (p, x, emit: Emit) => (hasLiteral(p.constValue)
    ? `${x}===${emit.scalar(p.constValue)}`
    : `R.valuesOk(${emit.constant(p)},${x},${Flag.Const})`),
  head(p) {
    if (p.constHead === '') p.constHead = `expected ${literal(p.constValue)}, got `;
    return p.constHead;
  },
  message: (p, v) => CONST_HEAD(p) + describe(v),
};

const ENUM_HEAD = (p: Plan): string => (ENUM.head as (p: Plan) => string)(p);
const CONST_HEAD = (p: Plan): string => (CONST.head as (p: Plan) => string)(p);

/** `enum` and `const`, in the order their errors are reported. */
export const VALUE_KEYWORDS: readonly Assertion[] = [ENUM, CONST];

/**
 * The `enum` (`Flag.Enum` in `f`) and `const` (`Flag.Const`) checks of plan `p`, each by its
 * definition's `test`: for the interpreter (with `p.flags`) and for values the generated code
 * cannot compare inline (structured or non-finite).
 */
export function valuesOk(p: Plan, v: unknown, f: number): boolean {
  return ((f & Flag.Enum) === 0 || ENUM.test(p, v)) && ((f & Flag.Const) === 0 || CONST.test(p, v));
}
