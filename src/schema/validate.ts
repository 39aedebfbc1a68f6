/**
 * The JSON Schema 2020-12 validator. `compileSchema` checks the schema and turns it into plans
 * (`plan-compile.ts`) that the verdict-only interpreter (`verdict.ts`) walks: a valid value is
 * accepted without building anything. Only an invalid value is walked a second time, by
 * closures compiled here from the same document on the first failure, to collect every error
 * with its locations and a message written for a model to read. A schema that keeps being used
 * gets its verdict as generated JavaScript (`plan-codegen.ts`, `new Function`) where the
 * platform allows it; elsewhere (Cloudflare Workers, a strict CSP) the interpreter keeps running.
 * Validation is pure and reentrant, never mutates the value and imports nothing from Node.
 *
 * Spec: JSON Schema 2020-12 Core and Validation (draft-bhutton-json-schema-01,
 * draft-bhutton-json-schema-validation-01); MCP 2025-11-25, Server / Tools (input and output
 * schemas use 2020-12 by default).
 * @module
 */
import type { JsonSchema } from '../protocol/types.js';
import { isObject } from '../protocol/messages.js';
import { type CompileContext, type SchemaObject, own, regexOf } from './context.js';
import { DEFAULT_BASE, type SchemaIndex, findTarget, indexSchema } from './dereference.js';
import { compileArray } from './keywords-array.js';
import { compileAllOf, compileAnyOf, compileIf, compileNot, compileOneOf } from './keywords-logic.js';
import { compileObject } from './keywords-object.js';
import {
  T_ARRAY, T_INTEGER, T_NUMBER, T_OBJECT, T_STRING, compileConst, compileEnum, compileNumber,
  compileString, parseType,
} from './keywords-scalar.js';
import { type Cell, combine, refFn, typeCheck, unevaluated } from './node.js';
import { escapeToken } from './pointer.js';
import { PlanCompiler } from './plan-compile.js';
import type { ClosureSource } from './plan.js';
import { analyse } from './ref-graph.js';
import { FALSE_FN, type Fn, MAX_ERROR_STEPS, type State, StepLimit, TRUE_FN } from './state.js';
import { verdict } from './verdict.js';
import { generateValidate } from './plan-codegen.js';
import { GROUP, G_ARRAY, G_NUMBER, G_OBJECT, G_OTHER, G_STRING, KNOWN } from './vocabulary.js';
import {
  type CompileOptions, SchemaCompileError, type SchemaError, type ValidationResult, type Validator,
} from './types.js';

const IN_PLACE = /^\/(?:allOf|anyOf|oneOf|not|if|then|else|dependentSchemas)(?:\/|$)/;
const DEFS = /^\/\$defs\//;
/** Validations interpreted before the verdict's code is generated (see `plan-codegen.ts`). */
const TIER_UP = 4;
const hasOwn = Object.prototype.hasOwnProperty;
const VALID: ValidationResult = Object.freeze({
  valid: true,
  errors: Object.freeze([]) as unknown as SchemaError[],
});

class Compiler implements CompileContext {
  readonly formatAssertion: boolean;
  readonly strict: boolean;
  readonly index: SchemaIndex;
  readonly cells = new Map<object, Cell>();
  readonly pending: Cell[] = [];
  current: Cell | undefined;
  refs = 0;

  constructor(index: SchemaIndex, options: CompileOptions) {
    this.index = index;
    this.formatAssertion = options.formatAssertion === true;
    this.strict = options.strict === true;
  }

  regex(source: unknown, path: string): RegExp {
    return regexOf(source, path);
  }

  cell(schema: SchemaObject, path: string, base: string): Cell {
    let cell = this.cells.get(schema);
    if (cell === undefined) {
      cell = {
        schema, base, path, fn: undefined, inPlace: [], children: [], recursive: false,
        order: -1, low: -1, onStack: false,
      };
      this.cells.set(schema, cell);
    }
    return cell;
  }

  sub(schema: unknown, path: string, base: string): Fn {
    if (schema === true) return TRUE_FN;
    if (schema === false) return FALSE_FN;
    if (!isObject(schema)) throw new SchemaCompileError(path, 'a schema must be an object or a boolean');
    const cell = this.cell(schema, path, this.index.baseOf.get(schema) ?? base);
    const parent = this.current;
    if (parent !== undefined) {
      const relative = path.slice(parent.path.length);
      if (IN_PLACE.test(relative)) parent.inPlace.push(cell);
      else if (!DEFS.test(relative)) parent.children.push(cell);
    }
    if (cell.fn === undefined) this.build(cell);
    return cell.fn as Fn;
  }

  build(cell: Cell): void {
    const saved = this.current;
    this.current = cell;
    cell.fn = (v, s, d, ev) => (cell.fn as Fn)(v, s, d, ev);
    cell.fn = this.node(cell.schema, cell.path, cell.base);
    this.current = saved;
  }

  node(schema: SchemaObject, path: string, base: string): Fn {
    let present = 0;
    for (const k of Object.keys(schema)) {
      present |= GROUP.get(k) ?? 0;
      if (this.strict && !KNOWN.has(k)) {
        throw new SchemaCompileError(`${path}/${escapeToken(k)}`, `unknown keyword ${JSON.stringify(k)} (strict mode)`);
      }
    }
    if (present === 0) return TRUE_FN;
    const defs = own(schema, '$defs');
    if (defs !== undefined) {
      if (!isObject(defs)) throw new SchemaCompileError(`${path}/$defs`, '$defs must be an object');
      for (const k of Object.keys(defs)) this.sub(defs[k], `${path}/$defs/${escapeToken(k)}`, base);
    }
    const { mask, names } = own(schema, 'type') === undefined ? { mask: 0, names: [] } : parseType(schema, path);
    // With a single type, that type's keyword group checks the type itself (one call less).
    const only = (bits: number): string[] | undefined => (mask === bits ? names : undefined);
    const groups = [
      (present & G_NUMBER) === 0 ? undefined
        : compileNumber(schema, path, only(T_INTEGER) ?? only(T_NUMBER | T_INTEGER), mask === T_INTEGER),
      (present & G_STRING) === 0 ? undefined : compileString(schema, path, this, only(T_STRING)),
      (present & G_ARRAY) === 0 ? undefined : compileArray(schema, path, base, this, only(T_ARRAY)),
      (present & G_OBJECT) === 0 ? undefined : compileObject(schema, path, base, this, only(T_OBJECT)),
    ];
    const rest: Fn[] = [];
    if ((present & G_OTHER) !== 0) {
      if (own(schema, 'enum') !== undefined) rest.push(compileEnum(schema, path));
      if (hasOwn.call(schema, 'const')) rest.push(compileConst(schema));
      const ref = own(schema, '$ref');
      if (ref !== undefined) rest.push(this.ref(ref, path, base));
      for (const compile of [compileAllOf, compileAnyOf, compileOneOf, compileNot, compileIf]) {
        const fn = compile(schema, path, base, this);
        if (fn !== undefined) rest.push(fn);
      }
    }
    const inner = combine(typeCheck(mask, names, groups), rest);
    const props = own(schema, 'unevaluatedProperties');
    const items = own(schema, 'unevaluatedItems');
    if (props === undefined && items === undefined) return inner;
    return unevaluated(inner, props, items, path, base, this);
  }

  ref(ref: unknown, path: string, base: string): Fn {
    if (typeof ref !== 'string') throw new SchemaCompileError(`${path}/$ref`, '$ref must be a string');
    const target = findTarget(this.index, ref, base);
    if (target === undefined) {
      throw new SchemaCompileError(`${path}/$ref`, `$ref ${JSON.stringify(ref)} does not point ` +
        'into this schema; schemas are never fetched, so put the target under $defs');
    }
    this.refs++;
    if (typeof target.schema === 'boolean') return target.schema ? TRUE_FN : FALSE_FN;
    const cell = this.cell(target.schema, target.path, target.base);
    (this.current as Cell).inPlace.push(cell);
    if (cell.fn === undefined) this.pending.push(cell);
    return refFn(cell);
  }

  finish(): void {
    for (let i = 0; i < this.pending.length; i++) {
      if (this.pending[i].fn === undefined) this.build(this.pending[i]);
    }
    if (this.refs === 0) return;
    const loop = analyse([...this.cells.values()], (n) => n.inPlace, (n) => n.children);
    if (loop !== undefined) {
      throw new SchemaCompileError(loop, '$ref loop that never descends into the value: ' +
        'evaluating it would recurse forever');
    }
  }
}

/**
 * The closures of one document, compiled on first use: by the error pass, and by the
 * interpreter for schemas with `unevaluatedProperties`/`unevaluatedItems`. The plan compiler
 * has already checked the document, so compiling it again here does not throw.
 */
class Closures implements ClosureSource {
  private readonly schema: JsonSchema;
  private readonly index: SchemaIndex;
  private readonly options: CompileOptions;
  private compiler: Compiler | undefined;
  private rootFn: Fn | undefined;

  constructor(schema: JsonSchema, index: SchemaIndex, options: CompileOptions) {
    this.schema = schema;
    this.index = index;
    this.options = options;
  }

  private compile(): Compiler {
    if (this.compiler === undefined) {
      const compiler = new Compiler(this.index, this.options);
      this.rootFn = compiler.sub(this.schema, '', DEFAULT_BASE);
      compiler.finish();
      this.compiler = compiler;
    }
    return this.compiler;
  }

  root(): Fn {
    this.compile();
    return this.rootFn as Fn;
  }

  fnOf(schema: SchemaObject): Fn {
    return this.compile().cells.get(schema)?.fn ?? TRUE_FN;
  }
}

/**
 * Compiles `schema` (JSON Schema 2020-12) once into a `Validator`. `$ref`s are resolved now,
 * within the document only (by JSON Pointer, `$anchor` or `$id`); nothing is ever fetched.
 *
 * Throws `SchemaCompileError` (with `.path`) for a `$ref` outside the document, `$dynamicRef`
 * (not supported), an invalid keyword value, a `pattern` that is not an ECMAScript regex with
 * the `u` flag, a `$ref` loop that never descends into the value, or an unknown keyword when
 * `options.strict` is set.
 *
 * The message-writing part is compiled from `schema` when a value first fails, so do not
 * change `schema` after this call (freeze it, or pass a copy, if it is shared).
 *
 * @example
 * const { validate } = compileSchema({ type: 'object', required: ['path'] });
 * validate({}).errors[0].message; // '/: missing required property "path"'
 */
export function compileSchema(schema: JsonSchema, options: CompileOptions = {}): Validator {
  const index = indexSchema(schema);
  if (index.dynamicRef !== undefined) {
    throw new SchemaCompileError(index.dynamicRef, '$dynamicRef is not supported; use $ref');
  }
  const closures = new Closures(schema, index, options);
  const plan = new PlanCompiler(index, options.strict === true, options.formatAssertion === true,
    closures).compile(schema, DEFAULT_BASE);
  const maxDepth = options.maxDepth ?? 256;
  const maxErrors = Math.max(1, options.maxErrors ?? 100);
  // The verdict-only pass keeps no per-call data except the memo, whose entries stay true for
  // any call (a verdict depends only on the schema and the value), so one state serves all.
  const fast: State = { errors: null, maxErrors, maxDepth, memo: null, budget: Infinity };
  // The error pass: only an invalid value is walked again, by the closures, to collect errors.
  function invalid(value: unknown): ValidationResult {
    const errors: SchemaError[] = [];
    try {
      closures.root()(value, { errors, maxErrors, maxDepth, memo: null, budget: MAX_ERROR_STEPS }, 0, null);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      if (e instanceof StepLimit) {
        // The verdict (invalid) stands; only the list of reasons is cut short.
        if (errors.length >= maxErrors) errors.length = maxErrors - 1;
        errors.push({ instanceLocation: '', keywordLocation: '', keyword: 'maxSteps',
          message: `more reasons not listed (the schema's nested applicators took over ${MAX_ERROR_STEPS} steps to explain)` });
      } else {
        errors.push({ instanceLocation: '', keywordLocation: '', keyword: 'maxDepth',
          message: 'value nested too deeply to validate' });
      }
    }
    if (errors.length === 0) {
      errors.push({ instanceLocation: '', keywordLocation: '', keyword: 'maxDepth',
        message: 'value nested too deeply to validate' });
    }
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
      generated = generateValidate(plan, { state: fast, valid: VALID, invalid });
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

  function validate(value: unknown): ValidationResult {
    if (generated !== undefined) return generated(value);
    if (--untilGenerated === 0) {
      tierUp();
      // (`tierUp` assigns `generated`; the compiler's narrowing cannot see that.)
      const now = generated as ((value: unknown) => ValidationResult) | undefined;
      if (now !== undefined) return now(value);
    }
    let valid = false;
    try {
      valid = verdict(plan, value, 0, fast);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
    if (fast.memo !== null) fast.memo = null;
    return valid ? VALID : invalid(value);
  }
  const validator: Validator = { validate };
  if (options.codegen === true) tierUp();
  return validator;
}
