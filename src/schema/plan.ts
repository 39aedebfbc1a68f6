/**
 * Plans: each schema object reduced to one flat record of the same shape, which both backends
 * read: the interpreter (`verdict.ts` for verdicts, `evaluate.ts` for errors and annotations)
 * and the code generator (`plan-codegen.ts`). A plan keeps the document's shape (a `$ref` is an
 * edge to its target's plan), so error locations follow the evaluation path; the interpreter's
 * shortcuts (aliases, memoised shared plans) are chosen per plan by its `op`, without rewriting
 * edges. Every plan has one hidden class, so the interpreter's reads stay monomorphic however
 * many schemas are compiled. The keyword files (`keywords-*.ts`) fill the plans; this file holds
 * their shape, their edges and the choice of the interpreter's entry (`op`).
 *
 * Spec: JSON Schema 2020-12 Core §10 (applicators), Validation §6 (assertions), §7 (format).
 * @module
 */
import type { Assertion } from './assertion.js';
import { TypeBit } from './keywords-type.js';

/** Plan flags: which keywords a plan checks (a `const enum`: inlined as numbers). */
export const enum Flag {
  /** The schema is `false`. */
  False = 1,
  /** `unevaluatedProperties` or `unevaluatedItems` (the evaluating walker runs the plan). */
  Unevaluated = 2,
  Enum = 4,
  Const = 8,
  Minimum = 16,
  Maximum = 32,
  ExclusiveMinimum = 64,
  ExclusiveMaximum = 128,
  MultipleOf = 256,
  MinLength = 512,
  MaxLength = 1024,
  Pattern = 2048,
  Format = 4096,
  /** Object keywords. */
  Object = 8192,
  /** Array keywords. */
  Array = 16384,
  /** In-place applicators (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`). */
  Logic = 32768,
  /** `type`. */
  Type = 65536,
  /** `enum` or `const`. */
  Values = Enum | Const,
  /** Any number keyword. */
  Number = Minimum | Maximum | ExclusiveMinimum | ExclusiveMaximum | MultipleOf,
  /** Any string keyword. */
  String = MinLength | MaxLength | Pattern | Format,
  /** What a string leaf checks beyond its type. */
  StringChecks = String | Values,
  /** What a number leaf checks beyond its type. */
  NumberChecks = Number | Values,
  /** Keywords with subschemas. */
  Subschemas = Object | Array | Logic | Unevaluated,
}

const NO_PLANS: Plan[] = [];
const NO_NAMES: string[] = [];
const NO_REGEXES: RegExp[] = [];
const NO_FLAGS: number[] = [];
const NO_CHECKS: Assertion[] = [];

/**
 * The interpreter's entry for a plan (a `const enum`: the `if` chain in `verdict` compares
 * numbers). Ops from `LeafFirst` on are leaves, which `leafOk` checks without recursion.
 */
export const enum Op {
  /** No value is valid. */
  False = 0,
  /** `unevaluatedProperties`/`unevaluatedItems`: the evaluating walker (`evaluate.ts`) runs it. */
  Evaluate = 1,
  /** `type: object` with only `properties`, `required`, `additionalProperties`, ≤ 8 names. */
  Object = 2,
  /** An `Object` whose subschemas (and `additionalProperties`) are all leaves. */
  Flat = 3,
  /** `type: array` with only `items`, `minItems`, `maxItems`, `uniqueItems`. */
  Array = 4,
  /** Anything else (the evaluating walker, in verdict-only mode). */
  Generic = 5,
  /** Only `anyOf`. */
  AnyOf = 6,
  /** Only a `$ref` to a plan off any recursive loop: that plan's verdict (see `alias`). */
  Ref = 7,
  /** A plan one value may meet many times (`plan-memo.ts`): its verdict, once per value. */
  Memo = 8,
  /** Only a `$ref` into a recursive loop (`refDeep`): the target's verdict, down to `maxDepth`. */
  DeepRef = 9,
  /** A `DeepRef` that needs the memo (`refMemo`): the target's verdict, once per value. */
  MemoRef = 10,
  /** Any value is valid (the schema `true`, or only annotations). */
  True = 11,
  /** Only `type`, `enum`/`const`, number and string keywords. */
  Leaf = 12,
  /** A `Leaf` whose `type` is `string`. */
  String = 13,
  /** A `Leaf` whose `type` is `integer`. */
  Integer = 14,
  /** A `Leaf` whose `type` is `number`. */
  Number = 15,
  /** Exactly `type: boolean`. */
  Boolean = 16,
  /** Only a scalar `const` (no `type`). */
  Const = 17,
  /** The first leaf op. */
  LeafFirst = True,
}

/**
 * One schema object as data. `flags` says which keywords to check; `numberChecks`,
 * `stringChecks` and `valueChecks` list the assertion keywords present (`assertion.ts`), in the
 * order their errors are reported, and the fields after them hold what each keyword read. An
 * absent bound is infinite, an absent list is empty, `types` 0 means any type. Object keys:
 * `keys[i]` is a property (the first `nProps`) or a required-only name, `keyPlans[i]` its
 * subschema (`null` for a required-only name) and `keyFlags[i]` 1 when it is required. `ref` is
 * the `$ref` target; `refDeep` says it leads into a recursive loop (depth limit), `refMemo` that
 * it needs the per-value memo too (`plan-ambiguity.ts`).
 */
export class Plan {
  op: number = Op.True;
  /** The op behind `Op.Memo`. */
  baseOp: number = Op.True;
  /** JSON Pointer of the schema in the document. */
  path = '';
  /** Set by `analyse` (`ref-graph.ts`): the plan lies on a recursive loop. */
  recursive = false;
  /** Set by `memoiseShared`: one value may meet the plan many times; verdicts are memoised. */
  memoised = false;
  /** The schema or a subschema of it (not through `$ref`) has a `$ref`. */
  hasRef = false;
  /** Scratch for `analyse`. */
  order = -1;
  low = -1;
  onStack = false;
  flags = 0;
  /** `type`: the mask of `TypeBit`s, and the names as written (for messages). */
  types = 0;
  typeNames: string[] = NO_NAMES;
  numberChecks: Assertion[] = NO_CHECKS;
  stringChecks: Assertion[] = NO_CHECKS;
  valueChecks: Assertion[] = NO_CHECKS;
  /** `enum`: every value as written, the scalars, the objects and arrays. */
  enumValues: unknown[] | null = null;
  values: unknown[] | null = null;
  objectValues: unknown[] | null = null;
  constValue: unknown = undefined;
  min: number = -Infinity;
  max: number = Infinity;
  xmin: number = -Infinity;
  xmax: number = Infinity;
  mult = 0;
  multDecimals = 0;
  minLength = 0;
  maxLength: number = Infinity;
  pattern: RegExp | null = null;
  format: ((s: string) => boolean) | null = null;
  formatName = '';
  keys: string[] = NO_NAMES;
  keyPlans: (Plan | null)[] = NO_PLANS;
  keyFlags: number[] = NO_FLAGS;
  byName: Map<string, number> | null = null;
  nProps = 0;
  /** `required` as written (errors list missing names in this order). */
  required: string[] = NO_NAMES;
  nRequired = 0;
  patterns: RegExp[] = NO_REGEXES;
  patternSources: string[] = NO_NAMES;
  patternPlans: Plan[] = NO_PLANS;
  additional: Plan | null = null;
  /** `additionalProperties` is present (even `true`): a passing object evaluates every property. */
  allPropsEvaluated = false;
  propertyNames: Plan | null = null;
  minProps = 0;
  maxProps: number = Infinity;
  depNames: string[] = NO_NAMES;
  depNeeds: string[][] = [];
  depSchemaNames: string[] = NO_NAMES;
  depSchemaPlans: Plan[] = NO_PLANS;
  prefix: Plan[] = NO_PLANS;
  items: Plan | null = null;
  /** `items` is present (even `true`): a passing array evaluates every item. */
  allItemsEvaluated = false;
  contains: Plan | null = null;
  /** `minContains` is present (its keyword reports a short count instead of `contains`). */
  minContainsGiven = false;
  minContains = 1;
  maxContains: number = Infinity;
  minItems = 0;
  maxItems: number = Infinity;
  unique = false;
  ref: Plan | null = null;
  /** The keyword `ref` came from: `$ref`, or `$dynamicRef` (resolved in its dynamic scope). */
  refKeyword = '$ref';
  /** The `$ref` leads into a recursive loop: it fails past `maxDepth`. */
  refDeep = false;
  /** A `refDeep` whose target one value may meet more than once: its verdicts are memoised. */
  refMemo = false;
  allOf: Plan[] = NO_PLANS;
  anyOf: Plan[] = NO_PLANS;
  oneOf: Plan[] = NO_PLANS;
  not: Plan | null = null;
  ifPlan: Plan | null = null;
  thenPlan: Plan | null = null;
  elsePlan: Plan | null = null;
  uProps: Plan | null = null;
  uItems: Plan | null = null;
  /** `unevaluatedProperties` / `unevaluatedItems` is present (even `true`). */
  uPropsGiven = false;
  uItemsGiven = false;
  /**
   * The parts of messages that depend only on the schema, written at the first failure
   * (`''` until then): `expected integer, got ` (type), `expected one of "a" or "b", got `
   * (enum), `expected 3, got ` (const), ` (allowed: "a", "b")` (additionalProperties).
   */
  typeHead = '';
  enumHead = '';
  constHead = '';
  allowedText = '';
}

/** The plan of the schema `true` (and of schemas with only annotations). */
export const TRUE_PLAN: Plan = new Plan();
/** The plan of the schema `false`. */
export const FALSE_PLAN: Plan = new Plan();
FALSE_PLAN.flags = Flag.False;
FALSE_PLAN.op = Op.False;

/** True for a plan that is only a `$ref`. */
export function isRefOnly(q: Plan): boolean {
  return q.flags === Flag.Logic && q.ref !== null && q.allOf.length === 0 &&
    q.anyOf.length === 0 && q.oneOf.length === 0 && q.not === null && q.ifPlan === null;
}

/** True for a plan that is only a `$ref` to a plan off any recursive loop, never memoised. */
function isAlias(q: Plan): boolean {
  return isRefOnly(q) && !q.refDeep && !q.memoised;
}

/** The plan `p` stands for: past any chain of aliases (`Op.Ref`). */
export function alias(p: Plan): Plan {
  let q = p;
  for (let n = 0; n < 64 && isAlias(q); n++) q = q.ref as Plan;
  return q;
}

/**
 * The interpreter's entry for `plan`: a specialised loop when one fits, else the generic one.
 * Call it once every plan has its flags (an `Op.Flat` depends on its subschemas' flags) and
 * `memoised` is set.
 */
export function opOf(plan: Plan): number {
  const op = baseOpOf(plan);
  plan.baseOp = op;
  return plan.memoised ? Op.Memo : op;
}

function baseOpOf(plan: Plan): number {
  const f = plan.flags;
  if (f === 0) return Op.True;
  if ((f & Flag.False) !== 0) return Op.False;
  if ((f & Flag.Unevaluated) !== 0) return Op.Evaluate;
  if (isAlias(plan)) return Op.Ref;
  if (isRefOnly(plan) && plan.refDeep) return plan.refMemo ? Op.MemoRef : Op.DeepRef;
  if (f === Flag.Const && (typeof plan.constValue !== 'object' || plan.constValue === null)) {
    return Op.Const;
  }
  if (f === Flag.Logic && plan.ref === null && plan.allOf.length === 0 && plan.oneOf.length === 0 &&
    plan.not === null && plan.ifPlan === null) {
    return Op.AnyOf;
  }
  if ((f & (Flag.Object | Flag.Array | Flag.Logic)) === 0) {
    switch (plan.types) {
      case TypeBit.String:
        return Op.String;
      case TypeBit.Integer:
        return Op.Integer;
      case TypeBit.Number | TypeBit.Integer:
        return Op.Number;
      case TypeBit.Boolean:
        return f === Flag.Type ? Op.Boolean : Op.Leaf;
      default:
        return Op.Leaf;
    }
  }
  if ((f & ~(Flag.Type | Flag.Object)) === 0 && plan.types === TypeBit.Object &&
    plan.patterns.length === 0 &&
    plan.propertyNames === null && plan.minProps === 0 && plan.maxProps === Infinity &&
    plan.depNames.length === 0 && plan.depSchemaNames.length === 0 && plan.byName === null) {
    const leaf = (x: Plan | null): boolean =>
      x === null || ((x.flags & Flag.Subschemas) === 0 && !x.memoised);
    return plan.keyPlans.every(leaf) && leaf(plan.additional) ? Op.Flat : Op.Object;
  }
  if ((f & ~(Flag.Type | Flag.Array)) === 0 && plan.types === TypeBit.Array &&
    plan.prefix.length === 0 &&
    plan.contains === null) {
    return Op.Array;
  }
  return Op.Generic;
}

const NO_EDGES: Plan[] = [];

/** Adds `x` to `out` unless it is the shared `true`/`false` plan (which has no edges). */
function edge(out: Plan[], x: Plan | null): void {
  if (x !== null && x !== TRUE_PLAN && x !== FALSE_PLAN) out.push(x);
}

/** Subschemas applied to the same value (Core §10.2), for the loop analysis. */
export function inPlaceOf(p: Plan): Plan[] {
  if ((p.flags & (Flag.Logic | Flag.Object)) === 0) return NO_EDGES;
  const out: Plan[] = [];
  for (const list of [p.allOf, p.anyOf, p.oneOf, p.depSchemaPlans]) {
    for (const x of list) edge(out, x);
  }
  for (const x of [p.ref, p.not, p.ifPlan, p.thenPlan, p.elsePlan]) edge(out, x);
  return out;
}

/**
 * Subschemas applied to parts of the value (Core §10.3, §11), each with its step: edges with
 * equal steps may reach the same part (`p:<name>` a property, `*` any property, `name` the
 * property names, `i:<n>` an array position, `[]` any item). The shared `true`/`false` plans
 * are left out.
 */
export function childStepsOf(p: Plan): [string, Plan][] {
  if ((p.flags & (Flag.Object | Flag.Array | Flag.Unevaluated)) === 0) return [];
  const out: [string, Plan][] = [];
  const add = (step: string, x: Plan | null): void => {
    if (x !== null && x !== TRUE_PLAN && x !== FALSE_PLAN) out.push([step, x]);
  };
  for (let i = 0; i < p.keyPlans.length; i++) add(`p:${p.keys[i]}`, p.keyPlans[i] ?? null);
  for (const x of p.patternPlans) add('*', x);
  add('*', p.additional);
  add('*', p.uProps);
  add('name', p.propertyNames);
  for (let i = 0; i < p.prefix.length; i++) add(`i:${i}`, p.prefix[i] ?? null);
  add('[]', p.items);
  add('[]', p.contains);
  add('[]', p.uItems);
  return out;
}

/** Subschemas applied to parts of the value (Core §10.3, §11), for the loop analysis. */
export function childrenOf(p: Plan): Plan[] {
  return childStepsOf(p).map(([, x]) => x);
}
