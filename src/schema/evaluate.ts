/**
 * The evaluating walker: the interpreter's full walk over the plans, which reports every error
 * (with its locations and a message written for a model to read) when `s.errors` is a list, and
 * records the evaluated properties and items when given an `Evaluated` record, for
 * `unevaluatedProperties`/`unevaluatedItems`. With neither it is a verdict, which is how
 * `verdict.ts` runs the plans its specialised loops do not cover. The assertion keywords are
 * checked by their definitions (`assertion.ts`); the object and array walks are in
 * `evaluate-object.ts` and `evaluate-array.ts`.
 *
 * Errors are built bottom-up: a failing keyword records its location relative to the plan and
 * value it was given, and each applicator on the way back prepends its own segment (`state.ts`).
 * Keywords are checked in a fixed order: `type` (a mismatch ends the plan: the rest would only
 * add noise), the keywords of the value's kind, `enum`, `const`, `$ref`, `allOf`, `anyOf`,
 * `oneOf`, `not`, `if`, then `unevaluated*`.
 *
 * Spec: JSON Schema 2020-12 Core §7.6 (evaluation), §8.2.3 ($ref), §10.2 (in-place
 * applicators), §11 (unevaluated*), §12 (output).
 * @module
 */
import { isObject } from '../protocol/messages.js';
import type { Assertion } from './assertion.js';
import { evaluateArray } from './evaluate-array.js';
import { evaluateObject } from './evaluate-object.js';
import {
  FALSE_MESSAGE, NOT_MESSAGE, anyOfMessage, itemUnevaluated, oneOfManyMessage, oneOfNoneMessage,
  tooDeep,
} from './keywords-logic.js';
import { propertyNotAllowed } from './keywords-object.js';
import { TypeBit, kindOf, typeMessage } from './keywords-type.js';
import { escapeToken } from './pointer.js';
import { FALSE_PLAN, Flag, TRUE_PLAN, type Plan } from './plan.js';
import {
  type Evaluated, discard, mark, mergeEvaluated, newEvaluated, prefix, report, spend, stop,
  type State,
} from './state.js';
import { verdict } from './verdict.js';

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Evaluates `v` (nested `d` levels deep in the whole value) against `p`: reports into
 * `s.errors` when it is a list, records what `p` evaluated into `ev` when it is not null, and
 * returns the verdict.
 */
export function evaluate(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  const f = p.flags;
  if (f === 0) return true;
  if ((f & Flag.False) !== 0) return report(s, 'false', '', FALSE_MESSAGE);
  return (f & Flag.Unevaluated) === 0
    ? evaluateOwn(p, v, d, s, ev) : evaluateWithRest(p, v, d, s, ev);
}

/**
 * A subschema applied to `v`: a verdict by the fastest route when nothing is to be recorded;
 * in the error pass the verdict comes first too, and only a failing subschema is evaluated
 * (one the value passes would report nothing).
 */
export function apply(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  if (ev !== null) return evaluate(p, v, d, s, ev);
  if (s.errors === null) return verdict(p, v, d, s);
  return verdict(p, v, d, s.verdicts) || evaluate(p, v, d, s, null);
}

/** `apply` reporting nothing (the verdict of `not`, `if`, `contains`), recording into `ev`. */
export function quietly(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  if (ev === null) return verdict(p, v, d, s.errors === null ? s : s.verdicts);
  const errors = s.errors;
  if (errors === null) return evaluate(p, v, d, s, ev);
  s.errors = null;
  try {
    return evaluate(p, v, d, s, ev);
  } finally {
    s.errors = errors;
  }
}

/** A child of the value (a property or an item) against `p`; see `childFailed`. */
export function childOk(p: Plan, x: unknown, d: number, s: State): boolean {
  return p !== FALSE_PLAN && apply(p, x, d, s, null);
}

/**
 * Reports a child (a property or an item, at `instance`) that failed `p`, applied by `keyword`:
 * where the schema is `false`, one error (of `falseKeyword`) says `notAllowed`; the child's
 * errors (reported since `m`) are prefixed with its location and the keyword's. The locations
 * are built only here, on a failure.
 */
export function childFailed(s: State, m: number, p: Plan, instance: string, keyword: string,
  notAllowed: string, falseKeyword = 'false'): void {
  if (s.errors === null) return;
  if (p === FALSE_PLAN) report(s, falseKeyword, '', notAllowed);
  prefix(s, m, instance, keyword);
}

/** One assertion for `x` (a value of its kind); a failure is reported. */
function assertion(a: Assertion, p: Plan, x: unknown, s: State): boolean {
  if (a.test(p, x)) return true;
  return s.errors === null ? false : report(s, a.keyword, '/' + a.keyword, a.message(p, x));
}

/** Every assertion of `checks` for `x` (a value of their kind), each failure reported. */
function assertions(checks: readonly Assertion[], p: Plan, x: unknown, s: State): boolean {
  let ok = true;
  for (let i = 0; i < checks.length; i++) {
    if (!assertion(checks[i], p, x, s)) {
      if (s.errors === null) return false;
      ok = false;
    }
  }
  return ok;
}

/** Everything but `unevaluated*`: `type`, the kind's keywords, `enum`/`const`, applicators. */
function evaluateOwn(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  const f = p.flags;
  const k = kindOf(v);
  if ((f & Flag.Type) !== 0 && (p.types & k) === 0) {
    return s.errors === null ? false : report(s, 'type', '/type', typeMessage(p, v));
  }
  let ok = true;
  if (k === TypeBit.Object) {
    if ((f & Flag.Object) !== 0) ok = evaluateObject(p, v as { [key: string]: unknown }, d, s, ev);
  } else if (k === TypeBit.Array) {
    if ((f & Flag.Array) !== 0) ok = evaluateArray(p, v as unknown[], d, s, ev);
  } else if (k === TypeBit.String) {
    ok = assertions(p.stringChecks, p, v, s);
  } else if (k === TypeBit.Integer || k === TypeBit.Number) {
    ok = assertions(p.numberChecks, p, v, s);
  }
  if (!ok && stop(s)) return false;
  const values = p.valueChecks;
  for (let i = 0; i < values.length; i++) {
    if (assertion(values[i], p, v, s)) continue;
    if (stop(s)) return false;
    ok = false;
  }
  if ((f & Flag.Logic) !== 0 && !logic(p, v, d, s, ev)) ok = false;
  return ok;
}

/** `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`: each failure reported, in that order. */
function logic(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  let ok = true;
  if (p.ref !== null && !ref(p, v, d, s, ev)) {
    if (stop(s)) return false;
    ok = false;
  }
  if (p.allOf.length > 0 && !allOf(p, v, d, s, ev)) {
    if (stop(s)) return false;
    ok = false;
  }
  if (p.anyOf.length > 0 && !anyOf(p, v, d, s, ev)) {
    if (stop(s)) return false;
    ok = false;
  }
  if (p.oneOf.length > 0 && !oneOf(p, v, d, s, ev)) {
    if (stop(s)) return false;
    ok = false;
  }
  if (p.not !== null) {
    spend(s);
    if (quietly(p.not, v, d, s, null)) {
      report(s, 'not', '/not', NOT_MESSAGE);
      if (stop(s)) return false;
      ok = false;
    }
  }
  if (p.ifPlan !== null && !ifThenElse(p, v, d, s, ev)) ok = false;
  return ok;
}

/**
 * `$ref`: the target's errors under `/$ref`. Into a recursive loop it fails past `maxDepth` and,
 * where one value may meet the loop more than once (`refMemo`) and nothing is recorded, is
 * memoised per value (errors included), which bounds nested `anyOf`/`oneOf` over recursive
 * schemas. A `$ref` to `true`/`false` is that schema.
 */
function ref(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  const target = p.ref as Plan;
  if (target === TRUE_PLAN) return true;
  if (target === FALSE_PLAN) return report(s, 'false', '', FALSE_MESSAGE);
  spend(s);
  if (d > s.maxDepth && p.refDeep) {
    return report(s, p.refKeyword, '/' + p.refKeyword, tooDeep(s.maxDepth));
  }
  const m = mark(s);
  const ok = p.refMemo && ev === null ? memoised(target, v, d, s) : apply(target, v, d, s, ev);
  if (!ok) prefix(s, m, '', '/' + p.refKeyword);
  return ok;
}

/**
 * `apply` remembered per plan and value for one validation: a verdict, or the errors it
 * reported (replayed when met again; a verdict-only entry is computed again to get them).
 */
export function memoised(p: Plan, v: unknown, d: number, s: State): boolean {
  if (s.memo === null) s.memo = new Map();
  let table = s.memo.get(p);
  if (table === undefined) s.memo.set(p, (table = new Map()));
  const hit = table.get(v);
  if (hit === true) return true;
  if (hit !== undefined && s.errors === null) return false;
  if (Array.isArray(hit)) {
    for (const e of hit) report(s, e.keyword, e.keywordLocation, e.message, e.instanceLocation);
    return false;
  }
  const m = mark(s);
  const ok = apply(p, v, d, s, null);
  table.set(v, ok || (s.errors === null ? false : s.errors.slice(m).map((e) => ({ ...e }))));
  return ok;
}

function allOf(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  spend(s);
  let ok = true;
  for (let i = 0; i < p.allOf.length; i++) {
    const m = mark(s);
    if (!apply(p.allOf[i], v, d, s, ev)) {
      prefix(s, m, '', '/allOf/' + i);
      if (stop(s)) return false;
      ok = false;
    }
  }
  return ok;
}

/**
 * `anyOf`: stops at the first passing branch unless `ev` needs every branch's annotations; the
 * error pass explains the branches only when none passes.
 */
function anyOf(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  spend(s);
  const branches = p.anyOf;
  if (ev === null) {
    const q = s.errors === null ? s : s.verdicts;
    for (let i = 0; i < branches.length; i++) if (verdict(branches[i], v, d, q)) return true;
    if (s.errors !== null) explainBranches(s, branches, v, d, '/anyOf/', 'anyOf', anyOfMessage(branches.length));
    return false;
  }
  const m = mark(s);
  let ok = false;
  for (let i = 0; i < branches.length; i++) {
    const branch = newEvaluated();
    const before = mark(s);
    if (apply(branches[i], v, d, s, branch)) {
      ok = true;
      mergeEvaluated(ev, branch);
    } else {
      prefix(s, before, '', '/anyOf/' + i);
    }
  }
  if (ok) {
    discard(s, m);
    return true;
  }
  if (s.errors !== null) summarise(s, m, 'anyOf', anyOfMessage(branches.length));
  return false;
}

/**
 * `oneOf`: stops at the second passing branch; the error pass names the passing branches, or
 * explains every branch when none passes.
 */
function oneOf(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  spend(s);
  const branches = p.oneOf;
  if (ev === null) {
    if (s.errors === null) {
      let n = 0;
      for (let i = 0; i < branches.length; i++) if (verdict(branches[i], v, d, s) && ++n > 1) return false;
      return n === 1;
    }
    const q = s.verdicts;
    const passed: number[] = [];
    for (let i = 0; i < branches.length; i++) if (verdict(branches[i], v, d, q)) passed.push(i);
    if (passed.length === 1) return true;
    if (passed.length > 1) return report(s, 'oneOf', '/oneOf', oneOfManyMessage(passed));
    explainBranches(s, branches, v, d, '/oneOf/', 'oneOf', oneOfNoneMessage(branches.length));
    return false;
  }
  const m = mark(s);
  const passed: number[] = [];
  let kept: Evaluated | null = null;
  for (let i = 0; i < branches.length; i++) {
    const branch = newEvaluated();
    const before = mark(s);
    if (apply(branches[i], v, d, s, branch)) {
      passed.push(i);
      kept = branch;
      if (passed.length > 1 && s.errors === null) return false;
    } else {
      prefix(s, before, '', '/oneOf/' + i);
    }
  }
  if (passed.length === 1) {
    discard(s, m);
    mergeEvaluated(ev, kept as Evaluated);
    return true;
  }
  if (s.errors === null) return false;
  if (passed.length > 1) {
    discard(s, m);
    return report(s, 'oneOf', '/oneOf', oneOfManyMessage(passed));
  }
  summarise(s, m, 'oneOf', oneOfNoneMessage(branches.length));
  return false;
}

/**
 * The error pass of an `anyOf`/`oneOf` that no branch passes: each branch's errors (under
 * `at` + its index), after one error for `keyword` that says so.
 */
function explainBranches(s: State, branches: readonly Plan[], v: unknown, d: number, at: string,
  keyword: string, message: string): void {
  const m = mark(s);
  for (let i = 0; i < branches.length; i++) {
    const before = mark(s);
    evaluate(branches[i], v, d, s, null);
    prefix(s, before, '', at + i);
  }
  summarise(s, m, keyword, message);
}

/** Puts one error for `keyword` before the errors of its branches (reported since `m`). */
function summarise(s: State, m: number, keyword: string, message: string): void {
  const errors = s.errors;
  if (errors === null) return;
  errors.splice(m, 0, { instanceLocation: '', keywordLocation: '/' + keyword, keyword, message });
  if (errors.length > s.maxErrors) errors.length = s.maxErrors;
}

/** `if`/`then`/`else`: `then` must pass when `if` does, else `else` (each only when present). */
function ifThenElse(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  spend(s);
  const branch = ev === null ? null : newEvaluated();
  const passed = quietly(p.ifPlan as Plan, v, d, s, branch);
  if (passed && ev !== null) mergeEvaluated(ev, branch as Evaluated);
  const next = passed ? p.thenPlan : p.elsePlan;
  if (next === null) return true;
  const m = mark(s);
  if (apply(next, v, d, s, ev)) return true;
  prefix(s, m, '', passed ? '/then' : '/else');
  return false;
}

/**
 * A plan with `unevaluatedProperties`/`unevaluatedItems` (Core §11.2, §11.3): its other
 * keywords record what they evaluated, then every property or item none of them evaluated is
 * checked against the `unevaluated*` schema.
 */
function evaluateWithRest(p: Plan, v: unknown, d: number, s: State, ev: Evaluated | null): boolean {
  const local = newEvaluated();
  let ok = evaluateOwn(p, v, d, s, local);
  if (!ok && stop(s)) return false;
  const uProps = p.uProps;
  if (uProps !== null && isObject(v) && !local.allProps) {
    for (const k in v) {
      if (!hasOwn.call(v, k) || v[k] === undefined || local.props?.has(k) === true) continue;
      const m = mark(s);
      if (childOk(uProps, v[k], d + 1, s)) continue;
      childFailed(s, m, uProps, '/' + escapeToken(k), '/unevaluatedProperties',
        propertyNotAllowed(k), 'unevaluatedProperties');
      if (stop(s)) return false;
      ok = false;
    }
  }
  const uItems = p.uItems;
  if (uItems !== null && Array.isArray(v) && !local.allItems) {
    for (let i = local.items; i < v.length; i++) {
      if (local.itemSet?.has(i) === true) continue;
      const m = mark(s);
      if (childOk(uItems, v[i], d + 1, s)) continue;
      childFailed(s, m, uItems, '/' + i, '/unevaluatedItems', itemUnevaluated(i), 'unevaluatedItems');
      if (stop(s)) return false;
      ok = false;
    }
  }
  if (ok && ev !== null) {
    mergeEvaluated(ev, local);
    if (p.uPropsGiven) ev.allProps = true;
    if (p.uItemsGiven) ev.allItems = true;
  }
  return ok;
}
