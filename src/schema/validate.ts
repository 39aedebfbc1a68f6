/**
 * The JSON Schema 2020-12 validator. `compileSchema` checks the schema and turns it into plans
 * (`plan-compile.ts`; each keyword is read by its one definition in `keywords-*.ts`) that the
 * interpreter walks for a verdict (`verdict.ts`): a valid value is accepted without building
 * anything. Only an invalid value is walked a second time, by the interpreter's evaluating
 * walker (`evaluate.ts`), to collect every error with its locations and a message written for a
 * model to read. A schema that keeps being used gets its verdict as generated JavaScript
 * (`plan-codegen.ts`, `new Function`) where the platform allows it; elsewhere (Cloudflare
 * Workers, a strict CSP) the interpreter keeps running.
 * Validation is pure and reentrant, never mutates the value and imports nothing from Node.
 *
 * Spec: JSON Schema 2020-12 Core and Validation (draft-bhutton-json-schema-01,
 * draft-bhutton-json-schema-validation-01); MCP 2025-11-25, Server / Tools (input and output
 * schemas use 2020-12 by default).
 * @module
 */
import type { JsonSchema } from '../protocol/types.js';
import { DEFAULT_BASE, indexSchema } from './dereference.js';
import { evaluate } from './evaluate.js';
import { generateValidate } from './plan-codegen.js';
import { PlanCompiler } from './plan-compile.js';
import { cut, tooDeep } from './explain-runtime.js';
import { MAX_ERROR_STEPS, type State } from './state.js';
import { verdict } from './verdict.js';
import {
  type CompileOptions, type SchemaError, type ValidationResult, type Validator,
} from './types.js';

/** Validations interpreted before the verdict's code is generated (see `plan-codegen.ts`). */
const TIER_UP = 4;
const VALID: ValidationResult = Object.freeze({
  valid: true,
  errors: Object.freeze([]) as unknown as SchemaError[],
});

/**
 * Compiles `schema` (JSON Schema 2020-12) once into a `Validator`. `$ref`s are resolved now,
 * within the document only (by JSON Pointer, `$anchor` or `$id`); nothing is ever fetched.
 *
 * `$dynamicRef` is resolved in its dynamic scope, and the 2020-12 meta-schemas are bundled
 * (`meta-schemas.ts`), so a `$ref` to `https://json-schema.org/draft/2020-12/schema` works.
 *
 * Throws `SchemaCompileError` (with `.path`) for a `$ref` outside the document, `$ref` and
 * `$dynamicRef` in one schema object, an invalid keyword value, a `pattern` that is not an
 * ECMAScript regex with the `u` flag, a `$ref` loop that never descends into the value, or an unknown keyword when
 * `options.strict` is set.
 *
 * The plans keep `enum` and `const` values by reference, so do not change `schema` after this
 * call (freeze it, or pass a copy, if it is shared).
 *
 * @example
 * const { validate } = compileSchema({ type: 'object', required: ['path'] });
 * validate({}).errors[0].message; // '/: missing required property "path"'
 */
export function compileSchema(schema: JsonSchema, options: CompileOptions = {}): Validator {
  const index = indexSchema(schema);
  const plan = new PlanCompiler(index, options.strict === true, options.formatAssertion === true)
    .compile(schema, DEFAULT_BASE);
  const maxDepth = options.maxDepth ?? 256;
  const maxErrors = Math.max(1, options.maxErrors ?? 100);
  // The verdict-only pass keeps no per-call data except the memo, whose entries stay true for
  // any call (a verdict depends only on the schema and the value), so one state serves all.
  const fast = { errors: null, maxErrors, maxDepth, memo: null, budget: Infinity } as unknown as State;
  fast.verdicts = fast;
  // The error pass: only an invalid value is walked again, by the evaluating walker, to collect
  // errors (it asks `fast` for the verdicts of the subschemas, to walk only those that fail).
  function invalid(value: unknown): ValidationResult {
    const errors: SchemaError[] = [];
    try {
      evaluate(plan, value, 0,
        { errors, maxErrors, maxDepth, memo: null, budget: MAX_ERROR_STEPS, verdicts: fast }, null);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      cut(errors, e, maxErrors);
    }
    if (fast.memo !== null) fast.memo = null;
    if (errors.length === 0) errors.push(tooDeep());
    for (const e of errors) e.message = `${e.instanceLocation || '/'}: ${e.message}`;
    return { valid: false, errors };
  }

  // By default the first validations are interpreted; once the schema proves to be used, a
  // `validate` generated for this schema alone takes over (compiling stays cheap, a schema
  // validated once never pays for generation, and each schema's code keeps its own type
  // feedback in V8). It replaces `validator.validate` where it can, and the first `validate`
  // (kept by a caller, or on a frozen validator) delegates to it.
  let untilGenerated = options.codegen === false ? Infinity : TIER_UP;
  let generated: ((value: unknown) => ValidationResult) | undefined;
  const tierUp = (): void => {
    untilGenerated = Infinity;
    try {
      generated = generateValidate(plan, { state: fast, valid: VALID, interpreted });
    } catch (e) {
      // A source too long for a string, or too little stack: keep interpreting.
      if (!(e instanceof RangeError)) throw e;
    }
    if (generated === undefined) return;
    try {
      validator.validate = generated;
    } catch {
      // A frozen validator: `validate` delegates instead.
    }
  };

  /** The interpreter's verdict, then its error pass. */
  function interpreted(value: unknown): ValidationResult {
    let valid = false;
    try {
      valid = verdict(plan, value, 0, fast);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
    if (fast.memo !== null) fast.memo = null;
    return valid ? VALID : invalid(value);
  }

  function validate(value: unknown): ValidationResult {
    if (generated !== undefined) return generated(value);
    if (--untilGenerated === 0) {
      tierUp();
      // (`tierUp` assigns `generated`; the compiler's narrowing cannot see that.)
      const now = generated as ((value: unknown) => ValidationResult) | undefined;
      if (now !== undefined) return now(value);
    }
    return interpreted(value);
  }
  const validator: Validator = { validate };
  if (options.codegen === true) tierUp();
  return validator;
}
