/**
 * The interpreter's verdict: walks the plans (`plan.ts`) and answers valid or invalid, stopping
 * at the first failure. Each plan's `op` picks a loop specialised for its shape (a leaf, a plain
 * object, an array of one kind, an `anyOf`); every other plan, and every plan with
 * `unevaluated*`, is walked by the evaluating walker (`evaluate.ts`) in verdict-only mode. The
 * assertion keywords are checked by their definitions (`assertion.ts`), so the interpreter and
 * the code generator cannot disagree on what a keyword means. It allocates nothing on the way
 * except where a keyword needs a table: `uniqueItems` over many or structured items, and the
 * per-value memo of a recursive or shared plan.
 *
 * The hot paths are written for V8: `if` chains rather than `switch` where they get inlined into
 * a loop, `const enum` ops (inlined as numbers), and `for…in` with an own-property check to walk
 * an object (faster than `Object.keys`). Only own properties count (`__proto__` and
 * `constructor` are plain names) and a property whose value is `undefined` counts as absent.
 *
 * Spec: JSON Schema 2020-12 Core §10 (applicators), Validation §6 (assertions).
 * @module
 */
import { evaluate } from './evaluate.js';
import { uniqueOk } from './keywords-array.js';
import {
  EXCLUSIVE_MAXIMUM, EXCLUSIVE_MINIMUM, MAXIMUM, MINIMUM, MULTIPLE_OF,
} from './keywords-number.js';
import { FORMAT, MAX_LENGTH, MIN_LENGTH, PATTERN } from './keywords-string.js';
import { TypeBit, kindOf } from './keywords-type.js';
import { CONST, ENUM, valuesOk } from './keywords-value.js';
import { Flag, Op, type Plan, alias } from './plan.js';
import type { State } from './state.js';

const hasOwn = Object.prototype.hasOwnProperty;
type Obj = { [key: string]: unknown };

/**
 * True when `v` (nested `d` levels deep in the whole value) is valid against `p`. `s` is a state
 * whose `errors` is null (a verdict reports nothing).
 */
export function verdict(p: Plan, v: unknown, d: number, s: State): boolean {
  // The commonest ops first, here; `run` has them all (and the rest).
  const op = p.op;
  if (op === Op.Flat) return isFlatOk(p, v);
  if (op >= Op.LeafFirst) return leafOk(p, v);
  if (op === Op.Object) {
    return typeof v === 'object' && v !== null && !Array.isArray(v) && plainOk(p, v as Obj, d, s);
  }
  if (op === Op.Array) return Array.isArray(v) && arrayOk(p, v, d, s);
  return run(p, op, v, d, s);
}

/** `verdict` with the op given (the op of a memoised plan is `Op.Memo`; its own is `baseOp`). */
function run(p: Plan, op: number, v: unknown, d: number, s: State): boolean {
  if (op === Op.Flat) return isFlatOk(p, v);
  if (op >= Op.LeafFirst) return leafOk(p, v);
  if (op === Op.Object) {
    return typeof v === 'object' && v !== null && !Array.isArray(v) && plainOk(p, v as Obj, d, s);
  }
  if (op === Op.Array) return Array.isArray(v) && arrayOk(p, v, d, s);
  if (op === Op.AnyOf) {
    const anyOf = p.anyOf;
    for (let i = 0; i < anyOf.length; i++) {
      const b = through(anyOf[i]);
      if (b.op === Op.Flat ? isFlatOk(b, v) : verdict(b, v, d, s)) return true;
    }
    return false;
  }
  if (op === Op.Ref) return verdict(p.ref as Plan, v, d, s);
  if (op === Op.DeepRef) return d <= s.maxDepth && verdict(p.ref as Plan, v, d, s);
  if (op === Op.MemoRef) return memoCall(p.ref as Plan, interpret, v, d, s);
  if (op === Op.Memo) return memoCall(p, base, v, d, s);
  if (op === Op.False) return false;
  // Op.Generic, Op.Evaluate: the evaluating walker, reporting nothing.
  return evaluate(p, v, d, s, null);
}

function base(v: unknown, d: number, s: State, p: Plan): boolean {
  return run(p, p.baseOp, v, d, s);
}

/**
 * `verdict` for the leaf ops (no subschema, so no recursion). Kept small so that the object
 * and array loops inline it.
 */
export function leafOk(p: Plan, v: unknown): boolean {
  // An if-chain, commonest first: V8 runs it faster than a `switch` once inlined in a loop.
  const op = p.op;
  if (op === Op.String) {
    return typeof v === 'string' && ((p.flags & Flag.StringChecks) === 0 || stringChecksOk(p, v));
  }
  if (op === Op.Integer) {
    return Number.isInteger(v) &&
      ((p.flags & Flag.NumberChecks) === 0 || numberChecksOk(p, v as number));
  }
  if (op === Op.Const) return v === p.constValue;
  if (op === Op.True) return true;
  if (op === Op.Boolean) return typeof v === 'boolean';
  return otherLeafOk(p, v);
}

/** `leafOk` for the rarer leaf ops. */
function otherLeafOk(p: Plan, v: unknown): boolean {
  switch (p.op) {
    case Op.Number:
      return typeof v === 'number' && v - v === 0 &&
        ((p.flags & Flag.NumberChecks) === 0 || numberChecksOk(p, v));
    case Op.False:
      return false;
    default:
      return anyLeafOk(p, v);
  }
}

/** `leafOk` for `Op.Leaf`: any `type` (or none) with any scalar keywords. */
function anyLeafOk(p: Plan, v: unknown): boolean {
  const k = kindOf(v);
  const t = p.types;
  if (t !== 0 && (t & k) === 0) return false;
  if (k === TypeBit.String) return stringChecksOk(p, v as string);
  if (k === TypeBit.Integer || k === TypeBit.Number) return numberChecksOk(p, v as number);
  return (p.flags & Flag.Values) === 0 || valuesOk(p, v, p.flags);
}

// The assertion keywords a plan has (its `flags`), each checked by its definition's `test`:
// `NUMBER_KEYWORDS`, `STRING_KEYWORDS` and `VALUE_KEYWORDS` written out (a test holds them equal),
// so that V8 inlines each test where a loop over the lists would call through one megamorphic site.

/** The number keywords and `enum`/`const` of `p` for a number. */
export function numberChecksOk(p: Plan, n: number): boolean {
  const f = p.flags;
  return ((f & Flag.Minimum) === 0 || MINIMUM.test(p, n)) &&
    ((f & Flag.Maximum) === 0 || MAXIMUM.test(p, n)) &&
    ((f & Flag.ExclusiveMinimum) === 0 || EXCLUSIVE_MINIMUM.test(p, n)) &&
    ((f & Flag.ExclusiveMaximum) === 0 || EXCLUSIVE_MAXIMUM.test(p, n)) &&
    ((f & Flag.MultipleOf) === 0 || MULTIPLE_OF.test(p, n)) &&
    ((f & Flag.Enum) === 0 || ENUM.test(p, n)) &&
    ((f & Flag.Const) === 0 || CONST.test(p, n));
}

/** The string keywords and `enum`/`const` of `p` for a string. */
export function stringChecksOk(p: Plan, s: string): boolean {
  const f = p.flags;
  return ((f & Flag.MinLength) === 0 || MIN_LENGTH.test(p, s)) &&
    ((f & Flag.MaxLength) === 0 || MAX_LENGTH.test(p, s)) &&
    ((f & Flag.Pattern) === 0 || PATTERN.test(p, s)) &&
    ((f & Flag.Format) === 0 || FORMAT.test(p, s)) &&
    ((f & Flag.Enum) === 0 || ENUM.test(p, s)) &&
    ((f & Flag.Const) === 0 || CONST.test(p, s));
}

/** The plan `p` stands for when it is an alias (`Op.Ref`): checked once, inline, in the loops. */
function through(p: Plan): Plan {
  return p.op === Op.Ref ? alias(p) : p;
}

/** `verdict` for an `Op.Flat` plan. */
function isFlatOk(p: Plan, v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && flatOk(p, v as Obj);
}

/**
 * The object walk of an `Op.Flat` plan (`properties`, `required`, `additionalProperties` only,
 * at most 8 names, every subschema a leaf), so the loop calls nothing that it does not inline.
 */
function flatOk(p: Plan, o: Obj): boolean {
  const keys = p.keys;
  const nKeys = keys.length;
  const keyPlans = p.keyPlans;
  const additional = p.additional;
  let seen = 0;
  // Values usually list their properties in the schema's order: look after the last match first.
  let next = 0;
  for (const key in o) {
    if (!hasOwn.call(o, key)) continue;
    const x = o[key];
    if (x === undefined) continue;
    let i = next;
    if (i >= nKeys || keys[i] !== key) {
      i = 0;
      while (i < nKeys && keys[i] !== key) i++;
    }
    let sub: Plan | null = null;
    if (i < nKeys) {
      next = i + 1;
      seen += p.keyFlags[i];
      sub = keyPlans[i];
    }
    if (sub === null) {
      if (additional === null) continue;
      sub = additional;
    }
    if (!leafOk(sub, x)) return false;
  }
  return seen === p.nRequired;
}

/**
 * The object walk of an `Op.Object` plan: like `flatOk`, but a subschema may be anything.
 */
function plainOk(p: Plan, o: Obj, d: number, s: State): boolean {
  const keys = p.keys;
  const nKeys = keys.length;
  const keyPlans = p.keyPlans;
  const additional = p.additional;
  let seen = 0;
  let next = 0;
  for (const key in o) {
    if (!hasOwn.call(o, key)) continue;
    const x = o[key];
    if (x === undefined) continue;
    let i = next;
    if (i >= nKeys || keys[i] !== key) {
      i = 0;
      while (i < nKeys && keys[i] !== key) i++;
    }
    const sub = i < nKeys ? keyPlans[i] : null;
    if (sub !== null) {
      const q = through(sub);
      next = i + 1;
      seen += p.keyFlags[i];
      const op = q.op;
      if (!(op >= Op.LeafFirst ? leafOk(q, x) : op === Op.Flat ? isFlatOk(q, x)
        : verdict(q, x, d + 1, s))) {
        return false;
      }
    } else {
      if (i < nKeys) {
        next = i + 1;
        seen += p.keyFlags[i];
      }
      if (additional !== null && !verdict(additional, x, d + 1, s)) return false;
    }
  }
  return seen === p.nRequired;
}

/** The array walk of an `Op.Array` plan: `items`, `minItems`, `maxItems`, `uniqueItems`. */
function arrayOk(p: Plan, a: unknown[], d: number, s: State): boolean {
  const n = a.length;
  if (n < p.minItems || n > p.maxItems) return false;
  const items = p.items === null ? null : through(p.items);
  if (items !== null) {
    if (items.op >= Op.LeafFirst) {
      for (let i = 0; i < n; i++) if (!leafOk(items, a[i])) return false;
    } else if (items.op === Op.Flat) {
      for (let i = 0; i < n; i++) if (!isFlatOk(items, a[i])) return false;
    } else {
      for (let i = 0; i < n; i++) if (!verdict(items, a[i], d + 1, s)) return false;
    }
  }
  return !p.unique || n < 2 || uniqueOk(a, d, s);
}

/**
 * `verdict` through a `$ref` into a recursive loop: fails past `maxDepth`, and remembers each
 * verdict per target and value for the rest of the validation, which keeps nested
 * `anyOf`/`oneOf` over recursive schemas linear instead of exponential.
 */
export function memoVerdict(p: Plan, v: unknown, d: number, s: State): boolean {
  return memoCall(p, interpret, v, d, s);
}

function interpret(v: unknown, d: number, s: State, p: Plan): boolean {
  return verdict(p, v, d, s);
}

/**
 * `memoVerdict` with the verdict of `p` computed by `fn` (the generated code's function for
 * `p`, or the interpreter): past `maxDepth` false, else once per plan and value. An entry the
 * error pass left (its errors) counts as invalid.
 */
export function memoCall(
  p: Plan, fn: (v: unknown, d: number, s: State, p: Plan) => boolean, v: unknown, d: number, s: State,
): boolean {
  if (d > s.maxDepth) return false;
  let memo = s.memo;
  if (memo === null) s.memo = memo = new Map();
  let table = memo.get(p);
  if (table === undefined) memo.set(p, (table = new Map()));
  const hit = table.get(v);
  if (hit !== undefined) return hit === true;
  const ok = fn(v, d, s, p);
  table.set(v, ok);
  return ok;
}
