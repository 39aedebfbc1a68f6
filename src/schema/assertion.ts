/**
 * The shape of an assertion keyword (`minimum`, `pattern`, `enum`, …): one definition per keyword
 * holds everything about it, and every backend is derived from it. `read` checks the keyword's
 * value in the schema and stores it in the plan (the compile-time errors); `test` is the
 * interpreter's check and `js` the same check as JavaScript source for the code generator (a
 * property test holds the two equal); `message` is what a model reads when it fails. The
 * definitions live in `keywords-number.ts`, `keywords-string.ts` and `keywords-value.ts`.
 *
 * Spec: JSON Schema 2020-12 Validation §6 (assertions), §7 (format).
 * @module
 */
import type { ReadContext, SchemaObject } from './context.js';
import type { Plan } from './plan.js';

/** What `Assertion.js` may ask of the code generator. */
export interface Emit {
  /** A name in the generated source for `value` (an object, a function, a number), passed in. */
  constant(value: unknown): string;
  /** A scalar as a source literal, or as a constant when it has none (`undefined`, NaN, ±∞). */
  scalar(value: unknown): string;
}

/** One assertion keyword, defined once for the interpreter, the generator and the messages. */
export interface Assertion {
  /** The keyword: the `keyword` of its errors, whose `keywordLocation` is `/` + it. */
  readonly keyword: string;
  /** Its bit in `Plan.flags` (`Flag`). */
  readonly flag: number;
  /**
   * Checks the keyword's value in `schema` (at document `path`) and stores it in `plan`. Returns
   * true when the keyword is present and can fail (a `minLength` of 0 cannot).
   * @throws {SchemaCompileError} for a value JSON Schema 2020-12 does not allow.
   */
  read(plan: Plan, schema: SchemaObject, path: string, ctx: ReadContext): boolean;
  /**
   * The interpreter's check of `x`, a value of the kind the keyword applies to (a definition
   * may declare that kind: `x: number`; callers check the kind first).
   */
  test(plan: Plan, x: unknown): boolean;
  /** `test` as a JavaScript expression over the identifier `x`, for the generated verdict. */
  js(plan: Plan, x: string, emit: Emit): string;
  /** Why `x` fails `test`, for a model to read: `expected a number >= 1, got 0`. */
  message(plan: Plan, x: unknown): string;
  /**
   * When present, `message(plan, x)` is `head(plan)` followed by `describe(x)` (`messages.ts`):
   * the part that depends only on the schema, which the generated error pass writes once.
   */
  readonly head?: (plan: Plan) => string;
}

/** A finite number as a source literal (`-0` kept). */
export function numberLiteral(n: number): string {
  return Object.is(n, -0) ? '-0' : String(n);
}
