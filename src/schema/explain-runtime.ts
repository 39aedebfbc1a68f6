/**
 * What the generated error pass (`plan-explain.ts`) calls, and how both error passes end. The
 * generated pass reports each error with its whole locations and message at once (it passes the
 * locations down), where the interpreter (`evaluate.ts`) reports relative locations and prefixes
 * them on the way up; the two give the same list. Where the generated pass hands a subschema to
 * the interpreter (`unevaluated*` it does not unfold, a memoised `$ref`, `propertyNames`, an
 * object that is not plain), the interpreter's errors are taken over here with the locations put in front.
 *
 * Spec: JSON Schema 2020-12 Core §12.3 (output units: `instanceLocation`, `keywordLocation`).
 * @module
 */
import { evaluate, memoised } from './evaluate.js';
import { aboutName } from './keywords-object.js';
import { quote } from './messages.js';
import { escapeToken } from './pointer.js';
import { MAX_ERROR_STEPS, type State, StepLimit } from './state.js';
import type { Plan } from './plan.js';
import type { SchemaError, ValidationResult } from './types.js';

/**
 * The state of one generated error pass (the interpreter's {@link State}): the errors so far (`null` before the first), the
 * limits, the interpreter's memo of errors per `$ref` target and value, the step budget and the
 * verdict-only state the verdicts use.
 */
export type ErrorPass = State;

/** A new error pass for one value. */
export function errorPass(verdicts: State): ErrorPass {
  return {
    errors: null, maxErrors: verdicts.maxErrors, maxDepth: verdicts.maxDepth, memo: null,
    budget: MAX_ERROR_STEPS, verdicts,
  };
}

/**
 * Reports one error: `keyword` failed at `instance` (a JSON Pointer into the value), reached
 * through `keywordLocation`; `tail` is the message after its location, from its `: ` on.
 * Returns `false`.
 */
export function fail(s: ErrorPass, instance: string, keywordLocation: string, keyword: string,
  tail: string): false {
  const e: SchemaError = {
    instanceLocation: instance, keywordLocation, keyword,
    message: (instance === '' ? '/' : instance) + tail,
  };
  const errors = s.errors;
  if (errors === null) s.errors = [e];
  else if (errors.length < s.maxErrors) errors.push(e);
  return false;
}

/**
 * `fail` of `additionalProperties: false` by the property `k`; `rest` is its message after the
 * name's opening quote (`" is not allowed (allowed: …)`, written by the generator).
 */
export function extra(s: ErrorPass, instance: string, keywordLocation: string, k: string,
  rest: string): false {
  return plainKey(k)
    ? fail(s, instance + '/' + k, keywordLocation, 'additionalProperties', ': property "' + k + rest)
    : fail(s, instance + '/' + escapeToken(k), keywordLocation, 'additionalProperties',
      ': property ' + quote(k) + rest.slice(1));
}

/** A character that a JSON Pointer or a JSON string escapes, or a surrogate. */
const UNPLAIN_KEY = /[\u0000-\u001f"/\\~\ud800-\udfff]/;

/**
 * True when `k` is written as is in a JSON Pointer and in a JSON string: no `/`, `~`, `"`, `\\`,
 * control character or surrogate.
 */
function plainKey(k: string): boolean {
  return !UNPLAIN_KEY.test(k);
}

/** `fail` with the whole message (its location included), written by the generator. */
export function failm(s: ErrorPass, instance: string, keywordLocation: string, keyword: string,
  message: string): false {
  const e: SchemaError = { instanceLocation: instance, keywordLocation, keyword, message };
  const errors = s.errors;
  if (errors === null) s.errors = [e];
  else if (errors.length < s.maxErrors) errors.push(e);
  return false;
}

/** True when the list of errors is full: a failing check then returns at once. */
export function full(s: ErrorPass): boolean {
  return s.errors !== null && s.errors.length >= s.maxErrors;
}

/** Number of errors reported so far. */
export function count(s: ErrorPass): number {
  return s.errors === null ? 0 : s.errors.length;
}

/**
 * Puts one error for `keyword` (at `instance`, `keywordLocation`) before the errors reported
 * since `m` (its branches'), as `anyOf` and `oneOf` do.
 */
export function summarise(s: ErrorPass, m: number, instance: string, keywordLocation: string,
  keyword: string, body: string): void {
  const e: SchemaError = {
    instanceLocation: instance, keywordLocation, keyword,
    message: (instance === '' ? '/' : instance) + ': ' + body,
  };
  const errors = s.errors;
  if (errors === null) {
    s.errors = [e];
    return;
  }
  // As `errors.splice(m, 0, e)`, without its cost: there are few errors after `m`.
  errors.push(e);
  for (let i = errors.length - 1; i > m; i--) errors[i] = errors[i - 1];
  errors[m] = e;
  if (errors.length > s.maxErrors) errors.length = s.maxErrors;
}

/** Drops the errors reported since `m` (a value of `count`): a branch that passed after all. */
export function drop(s: ErrorPass, m: number): void {
  if (s.errors !== null && s.errors.length > m) s.errors.length = m;
}

/**
 * Runs `run` with an interpreter state that shares `s`'s limits, budget and memo, and takes
 * over its errors: locations after `instance` and `keywordLocation`, messages given their
 * location (and rewritten by `rewrite`, as `propertyNames` does).
 */
function interpret(s: ErrorPass, instance: string, keywordLocation: string,
  run: (t: State) => boolean, rewrite?: (message: string) => string): boolean {
  const list: SchemaError[] = [];
  const t: State = {
    errors: list, maxErrors: Math.max(0, s.maxErrors - count(s)), maxDepth: s.maxDepth,
    memo: s.memo, budget: s.budget, verdicts: s.verdicts,
  };
  try {
    return run(t);
  } finally {
    s.budget = t.budget;
    s.memo = t.memo;
    for (const e of list) {
      const at = instance + e.instanceLocation;
      const message = rewrite === undefined ? e.message : rewrite(e.message);
      const out = { instanceLocation: at, keywordLocation: keywordLocation + e.keywordLocation,
        keyword: e.keyword, message: (at === '' ? '/' : at) + ': ' + message };
      if (s.errors === null) s.errors = [out];
      else s.errors.push(out);
    }
  }
}

/** The interpreter's error pass of `p` on `v` (which fails it), at the given locations. */
export function delegate(p: Plan, v: unknown, d: number, s: ErrorPass, instance: string,
  keywordLocation: string): boolean {
  return interpret(s, instance, keywordLocation, (t) => evaluate(p, v, d, t, null));
}

/** A memoised `$ref` to `target` (`Plan.refMemo`), by the interpreter, at the given locations. */
export function memoRef(target: Plan, v: unknown, d: number, s: ErrorPass, instance: string,
  keywordLocation: string): boolean {
  return interpret(s, instance, keywordLocation, (t) => memoised(target, v, d, t));
}

/** `propertyNames` (`p`) failed by the name `k` of the object at `instance`. */
export function names(p: Plan, k: string, d: number, s: ErrorPass, instance: string,
  keywordLocation: string): void {
  interpret(s, instance, keywordLocation + '/propertyNames', (t) => evaluate(p, k, d, t, null),
    (message) => aboutName(k, message));
}

/** The errors of an error pass that ended with `thrown` (a `RangeError`): one more says why. */
export function cut(errors: SchemaError[], thrown: RangeError, maxErrors: number): void {
  if (thrown instanceof StepLimit) {
    // The verdict (invalid) stands; only the list of reasons is cut short.
    if (errors.length >= maxErrors) errors.length = maxErrors - 1;
    errors.push({ instanceLocation: '', keywordLocation: '', keyword: 'maxSteps',
      message: `more reasons not listed (the schema's nested applicators took over ${MAX_ERROR_STEPS} steps to explain)` });
  } else {
    errors.push(tooDeep());
  }
}

/** The error of a value nested too deeply for the stack (its message without location). */
export function tooDeep(): SchemaError {
  return { instanceLocation: '', keywordLocation: '', keyword: 'maxDepth',
    message: 'value nested too deeply to validate' };
}

/** The result of a generated error pass (`thrown`: the `RangeError` that ended it, if any). */
export function result(s: ErrorPass, thrown: RangeError | undefined): ValidationResult {
  const errors = s.errors ?? [];
  if (thrown !== undefined) {
    cut(errors, thrown, s.maxErrors);
    locate(errors[errors.length - 1]);
  }
  if (errors.length === 0) errors.push(locate(tooDeep()));
  return { valid: false, errors };
}

/** `e` (at the root) with its message given its location. */
function locate(e: SchemaError): SchemaError {
  e.message = `/: ${e.message}`;
  return e;
}
