/**
 * Plans: each schema object reduced to one flat record of the same shape, which the
 * verdict-only interpreter (`verdict.ts`) walks. No code is generated (no `eval`, no
 * `new Function`), so this runs in Cloudflare Workers and under a strict CSP; every plan has
 * one hidden class, so the interpreter's reads of the schema side stay monomorphic however many
 * schemas are compiled. `plan-compile.ts` builds the plans; this file holds their shape and the
 * choice of the interpreter's entry (`op`) for each.
 *
 * Spec: JSON Schema 2020-12 Core §10 (applicators), Validation §6 (assertions), §7 (format).
 * @module
 */
import type { SchemaObject } from './context.js';
import { TypeBit } from './keywords-scalar.js';
import type { Fn } from './state.js';

/** Plan flags: which keyword groups a plan checks (a `const enum`: inlined as numbers). */
export const enum Flag {
  /** The schema is `false`. */
  False = 1,
  /** `unevaluatedProperties` or `unevaluatedItems` (the compiled closure runs it). */
  Call = 2,
  /** `enum`. */
  Enum = 4,
  /** `const`. */
  Const = 8,
  /** `minimum` and/or `maximum`. */
  Range = 16,
  /** `exclusiveMinimum`, `exclusiveMaximum` or `multipleOf`. */
  NumberMore = 32,
  /** `minLength` and/or `maxLength`. */
  Length = 64,
  /** `pattern` or an asserted `format`. */
  StringMore = 128,
  /** Object keywords. */
  Object = 256,
  /** Array keywords. */
  Array = 512,
  /** In-place applicators (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`). */
  Logic = 1024,
  /** `type`. */
  Type = 2048,
  /** `enum` or `const`. */
  Values = Enum | Const,
  /** Any number keyword. */
  Number = Range | NumberMore,
  /** Any string keyword. */
  String = Length | StringMore,
  /** What a string leaf checks beyond its type. */
  StringChecks = String | Values,
  /** What a number leaf checks beyond its type. */
  NumberChecks = Number | Values,
}

const NO_PLANS: Plan[] = [];
const NO_NAMES: string[] = [];
const NO_REGEXES: RegExp[] = [];
const NO_FLAGS: number[] = [];

/**
 * The interpreter's entry for a plan (a `const enum`: the `switch` in `verdict` is a jump
 * table). Ops from `LeafFirst` on are leaves, which `leafOk` checks without recursion.
 */
export const enum Op {
  /** No value is valid. */
  False = 0,
  /** Hand the value to the compiled closure (`unevaluated*`). */
  Call = 1,
  /** `type: object` with only `properties`, `required`, `additionalProperties`, ≤ 8 names. */
  Object = 2,
  /** An `Object` whose subschemas (and `additionalProperties`) are all leaves. */
  Flat = 3,
  /** `type: array` with only `items`, `minItems`, `maxItems`, `uniqueItems`. */
  Array = 4,
  /** Anything else. */
  Generic = 5,
  /** Only `anyOf`. */
  AnyOf = 6,
  /** Any value is valid (the schema `true`, or only annotations). */
  True = 7,
  /** Only `type`, `enum`/`const`, number and string keywords. */
  Leaf = 8,
  /** A `Leaf` whose `type` is `string`. */
  String = 9,
  /** A `Leaf` whose `type` is `integer`. */
  Integer = 10,
  /** A `Leaf` whose `type` is `number`. */
  Number = 11,
  /** Exactly `type: boolean`. */
  Boolean = 12,
  /** Only a scalar `const` (no `type`). */
  Const = 13,
  /** The first leaf op. */
  LeafFirst = True,
}

/**
 * One schema object as data. `flags` says which groups to check; an absent bound is infinite,
 * an absent list is empty, `types` 0 means any type. Object keys: `keys[i]` is a property or a
 * required name, `keyPlans[i]` its subschema (`null` for a required name without one) and
 * `keyFlags[i]` 1 when it is required, else 0. `ref` is the `$ref` target; `refMemo` says it
 * lies on a recursive loop (depth limit and per-value memo).
 */
export class Plan {
  op: number = Op.True;
  /** JSON Pointer of the schema in the document. */
  path = '';
  /** Set by `analyse` (`ref-graph.ts`): the plan lies on a recursive loop. */
  recursive = false;
  /** The schema or a subschema of it (not through `$ref`) has a `$ref`. */
  hasRef = false;
  /** Scratch for `analyse`. */
  order = -1;
  low = -1;
  onStack = false;
  /** The schema object, for `Op.Call`, whose closure `closures` compiles on first use. */
  schema: SchemaObject | null = null;
  closures: ClosureSource | null = null;
  flags = 0;
  types = 0;
  call: Fn | null = null;
  values: unknown[] | null = null;
  objectValues: unknown[] | null = null;
  hasConst = false;
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
  keys: string[] = NO_NAMES;
  keyPlans: (Plan | null)[] = NO_PLANS;
  keyFlags: number[] = NO_FLAGS;
  byName: Map<string, number> | null = null;
  nRequired = 0;
  patterns: RegExp[] = NO_REGEXES;
  patternPlans: Plan[] = NO_PLANS;
  additional: Plan | null = null;
  propertyNames: Plan | null = null;
  minProps = 0;
  maxProps: number = Infinity;
  depNames: string[] = NO_NAMES;
  depNeeds: string[][] = [];
  depSchemaNames: string[] = NO_NAMES;
  depSchemaPlans: Plan[] = NO_PLANS;
  prefix: Plan[] = NO_PLANS;
  items: Plan | null = null;
  contains: Plan | null = null;
  minContains = 1;
  maxContains: number = Infinity;
  minItems = 0;
  maxItems: number = Infinity;
  unique = false;
  ref: Plan | null = null;
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
}

/** Compiles the closure of a schema object on demand (`validate.ts`: the error pass). */
export interface ClosureSource {
  /** The compiled closure of `schema`, an object of the document that was compiled. */
  fnOf(schema: SchemaObject): Fn;
}

/** The plan of the schema `true` (and of schemas with only annotations). */
export const TRUE_PLAN: Plan = new Plan();
/** The plan of the schema `false`. */
export const FALSE_PLAN: Plan = new Plan();
FALSE_PLAN.flags = Flag.False;
FALSE_PLAN.op = Op.False;

/**
 * The interpreter's entry for `plan`: a specialised loop when one fits, else the generic one.
 * Call it once every plan has its flags (an `Op.Flat` depends on its subschemas' flags).
 */
export function opOf(plan: Plan): number {
  const f = plan.flags;
  if (f === 0) return Op.True;
  if ((f & Flag.False) !== 0) return Op.False;
  if ((f & Flag.Call) !== 0) return Op.Call;
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
      x === null || (x.flags & (Flag.Object | Flag.Array | Flag.Logic | Flag.Call)) === 0;
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
  if ((p.flags & (Flag.Object | Flag.Array | Flag.Call)) === 0) return [];
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

/** A plan that is only a `$ref` to a non-recursive target stands for that target. */
export function alias(p: Plan): Plan {
  let q = p;
  for (let n = 0; n < 64 && q.flags === Flag.Logic && q.ref !== null && !q.refMemo &&
    q.allOf.length === 0 && q.anyOf.length === 0 && q.oneOf.length === 0 && q.not === null &&
    q.ifPlan === null; n++) {
    q = q.ref;
  }
  return q;
}

/**
 * Replaces, in place, every subschema reference of `p` by `f` of it: the lists (never a shared
 * empty one is written), the single subschemas, and `ref` unless it is memoised.
 */
export function mapSubschemas(p: Plan, f: (x: Plan) => Plan): void {
  const one = (x: Plan | null): Plan | null => (x === null ? null : f(x));
  for (const list of [p.keyPlans, p.patternPlans, p.depSchemaPlans, p.prefix, p.allOf, p.anyOf, p.oneOf]) {
    for (let i = 0; i < list.length; i++) list[i] = one(list[i]) as Plan;
  }
  p.additional = one(p.additional);
  p.propertyNames = one(p.propertyNames);
  p.items = one(p.items);
  p.contains = one(p.contains);
  p.not = one(p.not);
  p.ifPlan = one(p.ifPlan);
  p.thenPlan = one(p.thenPlan);
  p.elsePlan = one(p.elsePlan);
  p.uProps = one(p.uProps);
  p.uItems = one(p.uItems);
  if (p.ref !== null && !p.refMemo) p.ref = f(p.ref);
}

/** Points every subschema reference of `p` past aliases (see `alias`). */
export function redirect(p: Plan): void {
  mapSubschemas(p, alias);
}
