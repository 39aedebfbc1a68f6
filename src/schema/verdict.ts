/**
 * The verdict-only interpreter: walks the plans (`plan.ts`) and answers valid or invalid,
 * stopping at the first failure. It allocates nothing on the way (no error objects, no arrays,
 * no closures) except where a keyword needs a table: `uniqueItems` over many or structured
 * items, and the per-value memo of a `$ref` into a recursive loop. Its verdict is the compiled
 * closures' verdict; only an invalid value is walked again, by the closures, to collect the
 * errors. Schemas with `unevaluatedProperties`/`unevaluatedItems` are handed to their closure.
 *
 * The hot paths are written for V8: one function per plan shape, `if` chains rather than
 * `switch` where they get inlined into a loop, `const enum` ops (inlined as numbers), and
 * `for…in` with an own-property check to walk an object (faster than `Object.keys`, and any
 * keyed read of a named property is megamorphic in an interpreter).
 *
 * Only own properties count (`__proto__` and `constructor` are plain names) and a property
 * whose value is `undefined` counts as absent, as in the closures.
 *
 * Spec: JSON Schema 2020-12 Core §10 (applicators), Validation §6 (assertions).
 * @module
 */
import type { SchemaObject } from './context.js';
import { deepEqual } from './deep-equal.js';
import { duplicates } from './keywords-array.js';
import { TypeBit, codePoints, isMultipleOf } from './keywords-scalar.js';
import { type ClosureSource, Flag, Op, type Plan } from './plan.js';
import type { State } from './state.js';

const hasOwn = Object.prototype.hasOwnProperty;
type Obj = { [key: string]: unknown };

/**
 * True when `v` (nested `d` levels deep in the whole value) is valid against `p`. `s` is the
 * verdict-only state (`errors` null) handed to closures for the parts that run compiled.
 */
export function verdict(p: Plan, v: unknown, d: number, s: State): boolean {
  const op = p.op;
  if (op === Op.Flat) return isFlatOk(p, v);
  if (op >= Op.LeafFirst) return leafOk(p, v);
  if (op === Op.Object) {
    return typeof v === 'object' && v !== null && !Array.isArray(v) && plainOk(p, v as Obj, d, s);
  }
  if (op === Op.Array) return Array.isArray(v) && arrayOk(p, v, d, s);
  if (op === Op.AnyOf) {
    const anyOf = p.anyOf;
    for (let i = 0; i < anyOf.length; i++) {
      const b = anyOf[i];
      if (b.op === Op.Flat ? isFlatOk(b, v) : verdict(b, v, d, s)) return true;
    }
    return false;
  }
  if (op === Op.Generic) return generic(p, v, d, s);
  if (op === Op.False) return false;
  // Op.Call: `unevaluated*`, run by the compiled closure.
  const fn = p.call ?? (p.call = (p.closures as ClosureSource).fnOf(p.schema as SchemaObject));
  return fn(v, s, d, null);
}

/** The type bit of `v` (`TypeBit.Integer` for whole numbers); 0 for values JSON cannot hold. */
function kindOf(v: unknown): number {
  if (typeof v === 'string') return TypeBit.String;
  if (typeof v === 'object') {
    return v === null ? TypeBit.Null : Array.isArray(v) ? TypeBit.Array : TypeBit.Object;
  }
  if (typeof v === 'number') {
    return Number.isInteger(v) ? TypeBit.Integer : v - v === 0 ? TypeBit.Number : 0;
  }
  return typeof v === 'boolean' ? TypeBit.Boolean : 0;
}

/**
 * `verdict` for the leaf ops (no subschema, so no recursion). Kept small so that the object
 * and array loops inline it; the keyword checks are in `stringOk` and `numberOk`.
 */
function leafOk(p: Plan, v: unknown): boolean {
  // An if-chain, commonest first: V8 runs it faster than a `switch` once inlined in a loop.
  const op = p.op;
  if (op === Op.String) {
    return typeof v === 'string' &&
      ((p.flags & Flag.StringChecks) === 0 || stringOk(p, v, p.flags));
  }
  if (op === Op.Integer) {
    return Number.isInteger(v) &&
      ((p.flags & Flag.NumberChecks) === 0 || numberOk(p, v as number, p.flags));
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
        ((p.flags & Flag.NumberChecks) === 0 || numberOk(p, v, p.flags));
    case Op.False:
      return false;
    default:
      return anyLeafOk(p, v, p.flags);
  }
}

/** `leafOk` for `Op.Leaf`: any `type` (or none) with any scalar keywords. */
function anyLeafOk(p: Plan, v: unknown, f: number): boolean {
  const k = kindOf(v);
  const t = p.types;
  if (t !== 0 && (t & k) === 0) return false;
  if (k === TypeBit.String) return (f & Flag.StringChecks) === 0 || stringOk(p, v as string, f);
  if (k === TypeBit.Integer || k === TypeBit.Number) {
    return (f & Flag.NumberChecks) === 0 || numberOk(p, v as number, f);
  }
  return (f & Flag.Values) === 0 || valuesOk(p, v, f);
}

function generic(p: Plan, v: unknown, d: number, s: State): boolean {
  const f = p.flags;
  const k = kindOf(v);
  const t = p.types;
  if (t !== 0 && (t & k) === 0) return false;
  switch (k) {
    case TypeBit.Object:
      if ((f & Flag.Values) !== 0 && !valuesOk(p, v, f)) return false;
      if ((f & Flag.Object) !== 0 &&
        !(objectOk(p, v as Obj, d, s) && objectRest(p, v as Obj, d, s))) {
        return false;
      }
      break;
    case TypeBit.Array:
      if ((f & Flag.Values) !== 0 && !valuesOk(p, v, f)) return false;
      if ((f & Flag.Array) !== 0 &&
        !(arrayOk(p, v as unknown[], d, s) && arrayRest(p, v as unknown[], d, s))) {
        return false;
      }
      break;
    case TypeBit.String:
      if ((f & Flag.StringChecks) !== 0 && !stringOk(p, v as string, f)) return false;
      break;
    case TypeBit.Integer:
    case TypeBit.Number:
      if ((f & Flag.NumberChecks) !== 0 && !numberOk(p, v as number, f)) return false;
      break;
    default:
      if ((f & Flag.Values) !== 0 && !valuesOk(p, v, f)) return false;
  }
  return (f & Flag.Logic) === 0 || logicOk(p, v, d, s);
}

/** `enum` and `const` (flags `f`) for any value. */
export function valuesOk(p: Plan, v: unknown, f: number): boolean {
  if ((f & Flag.Const) !== 0 && !(typeof p.constValue === 'object' && p.constValue !== null
    ? deepEqual(p.constValue, v) : v === p.constValue)) {
    return false;
  }
  if ((f & Flag.Enum) === 0) return true;
  if (typeof v !== 'object' || v === null) {
    // As `Set.prototype.has` (SameValueZero): `===` but NaN matches NaN.
    const values = p.values as unknown[];
    if (v !== v) return values.includes(v);
    for (let i = 0; i < values.length; i++) if (values[i] === v) return true;
    return false;
  }
  const objects = p.objectValues as unknown[];
  for (let i = 0; i < objects.length; i++) if (deepEqual(objects[i], v)) return true;
  return false;
}

/** Number keywords and `enum`/`const` for a number `n`. */
function numberOk(p: Plan, n: number, f: number): boolean {
  if ((f & Flag.Range) !== 0 && !(n >= p.min && n <= p.max)) return false;
  if ((f & Flag.NumberMore) !== 0 && !(n > p.xmin && n < p.xmax &&
    (p.mult === 0 || isMultipleOf(n, p.mult, p.multDecimals)))) {
    return false;
  }
  return (f & Flag.Values) === 0 || valuesOk(p, n, f);
}

/** String keywords and `enum`/`const` for a string. */
function stringOk(p: Plan, str: string, f: number): boolean {
  if ((f & Flag.Length) !== 0) {
    // UTF-16 length bounds the code-point count from above and twice it from below.
    const len = str.length;
    const min = p.minLength;
    if (len < min || (len < 2 * min && codePoints(str) < min)) return false;
    if (len > p.maxLength && codePoints(str) > p.maxLength) return false;
  }
  if ((f & Flag.StringMore) !== 0) {
    if (p.pattern !== null && !p.pattern.test(str)) return false;
    if (p.format !== null && !p.format(str)) return false;
  }
  if ((f & Flag.Values) === 0) return true;
  if ((f & Flag.Const) === 0) {
    const values = p.values as unknown[];
    for (let i = 0; i < values.length; i++) if (values[i] === str) return true;
    return false;
  }
  return valuesOk(p, str, f);
}

/** `verdict` for an `Op.Flat` plan. */
function isFlatOk(p: Plan, v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && flatOk(p, v as Obj);
}

/**
 * `objectOk` for an `Op.Flat` plan: like `plainOk`, but every subschema is a leaf, so the loop
 * calls nothing that it does not inline.
 */
function flatOk(p: Plan, o: Obj): boolean {
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
 * `objectOk` for an `Op.Object` plan: `properties`, `required` and `additionalProperties` only,
 * at most 8 names, so the loop has nothing else to test.
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
      next = i + 1;
      seen += p.keyFlags[i];
      const op = sub.op;
      if (!(op >= Op.LeafFirst ? leafOk(sub, x) : op === Op.Flat ? isFlatOk(sub, x)
        : verdict(sub, x, d + 1, s))) {
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

/**
 * `properties`, `required`, `additionalProperties`, `patternProperties`, `propertyNames`,
 * `minProperties`, `maxProperties`: one walk over the own keys. Leaf subschemas are checked
 * inline (no call).
 */
function objectOk(p: Plan, o: Obj, d: number, s: State): boolean {
  const keys = p.keys;
  const nKeys = keys.length;
  const byName = p.byName;
  const keyPlans = p.keyPlans;
  const additional = p.additional;
  const nPatterns = p.patterns.length;
  const propertyNames = p.propertyNames;
  let seen = 0;
  let n = 0;
  // Values usually list their properties in the schema's order: look after the last match first.
  let next = 0;
  for (const key in o) {
    if (!hasOwn.call(o, key)) continue;
    const x = o[key];
    if (x === undefined) continue;
    n++;
    let i = next;
    if (byName !== null) {
      i = byName.get(key) ?? -1;
    } else if (i >= nKeys || keys[i] !== key) {
      i = 0;
      while (i < nKeys && keys[i] !== key) i++;
      if (i === nKeys) i = -1;
    }
    let matched = false;
    if (i !== -1) {
      next = i + 1;
      seen += p.keyFlags[i];
      const sub = keyPlans[i];
      if (sub !== null) {
        matched = true;
        if (!(sub.op >= Op.LeafFirst ? leafOk(sub, x) : verdict(sub, x, d + 1, s))) return false;
      }
    }
    for (let j = 0; j < nPatterns; j++) {
      if (!p.patterns[j].test(key)) continue;
      matched = true;
      if (!verdict(p.patternPlans[j], x, d + 1, s)) return false;
    }
    if (!matched && additional !== null && !verdict(additional, x, d + 1, s)) return false;
    if (propertyNames !== null && !verdict(propertyNames, key, d + 1, s)) return false;
  }
  return seen === p.nRequired && n >= p.minProps && n <= p.maxProps;
}

/** `dependentRequired` and `dependentSchemas`, after `objectOk`. */
function objectRest(p: Plan, o: Obj, d: number, s: State): boolean {
  for (let i = 0; i < p.depNames.length; i++) {
    if (!present(o, p.depNames[i])) continue;
    const needs = p.depNeeds[i];
    for (let j = 0; j < needs.length; j++) if (!present(o, needs[j])) return false;
  }
  for (let i = 0; i < p.depSchemaNames.length; i++) {
    if (present(o, p.depSchemaNames[i]) && !verdict(p.depSchemaPlans[i], o, d, s)) return false;
  }
  return true;
}

function present(o: Obj, k: string): boolean {
  return o[k] !== undefined && hasOwn.call(o, k);
}

/** `items`, `minItems`, `maxItems`, `uniqueItems`. Leaf items are checked inline. */
function arrayOk(p: Plan, a: unknown[], d: number, s: State): boolean {
  const n = a.length;
  if (n < p.minItems || n > p.maxItems) return false;
  const items = p.items;
  if (items !== null) {
    const start = p.prefix.length;
    if (items.op >= Op.LeafFirst) {
      for (let i = start; i < n; i++) if (!leafOk(items, a[i])) return false;
    } else if (items.op === Op.Flat) {
      for (let i = start; i < n; i++) if (!isFlatOk(items, a[i])) return false;
    } else {
      for (let i = start; i < n; i++) if (!verdict(items, a[i], d + 1, s)) return false;
    }
  }
  return !p.unique || n < 2 || uniqueOk(a, d, s);
}

/** `prefixItems` and `contains` (with `minContains`, `maxContains`), after `arrayOk`. */
function arrayRest(p: Plan, a: unknown[], d: number, s: State): boolean {
  const n = a.length;
  const prefix = p.prefix;
  const shared = n < prefix.length ? n : prefix.length;
  for (let i = 0; i < shared; i++) if (!verdict(prefix[i], a[i], d + 1, s)) return false;
  const contains = p.contains;
  if (contains !== null) {
    const enough = p.maxContains === Infinity ? p.minContains : Infinity;
    let matches = 0;
    for (let i = 0; i < n && matches < enough; i++) {
      if (verdict(contains, a[i], d + 1, s)) matches++;
    }
    if (matches < p.minContains || matches > p.maxContains) return false;
  }
  return true;
}

/** `uniqueItems`: pairwise for a few scalars (no table), else the closures' hashing check. */
export function uniqueOk(a: unknown[], d: number, s: State): boolean {
  const n = a.length;
  if (n > 16) return duplicates(a, s, d);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    if (typeof x === 'object' && x !== null) return duplicates(a, s, d);
    for (let j = 0; j < i; j++) {
      const y = a[j];
      if (x === y || (x !== x && y !== y)) return false;
    }
  }
  return true;
}

function logicOk(p: Plan, v: unknown, d: number, s: State): boolean {
  const ref = p.ref;
  if (ref !== null && !(p.refMemo ? memoVerdict(ref, v, d, s) : verdict(ref, v, d, s))) {
    return false;
  }
  const allOf = p.allOf;
  for (let i = 0; i < allOf.length; i++) if (!verdict(allOf[i], v, d, s)) return false;
  const anyOf = p.anyOf;
  if (anyOf.length > 0) {
    let i = 0;
    while (i < anyOf.length && !verdict(anyOf[i], v, d, s)) i++;
    if (i === anyOf.length) return false;
  }
  const oneOf = p.oneOf;
  if (oneOf.length > 0) {
    let passed = 0;
    for (let i = 0; i < oneOf.length; i++) {
      if (verdict(oneOf[i], v, d, s) && ++passed > 1) return false;
    }
    if (passed !== 1) return false;
  }
  if (p.not !== null && verdict(p.not, v, d, s)) return false;
  if (p.ifPlan !== null) {
    const next = verdict(p.ifPlan, v, d, s) ? p.thenPlan : p.elsePlan;
    if (next !== null && !verdict(next, v, d, s)) return false;
  }
  return true;
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
 * `p`, or the interpreter): past `maxDepth` false, else once per target and value.
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
