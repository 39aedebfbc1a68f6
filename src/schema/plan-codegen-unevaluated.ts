/**
 * The generated `unevaluatedProperties`/`unevaluatedItems` (`plan-codegen.ts` calls it once the
 * plan's other keywords have passed). What those keywords evaluated is worked out while
 * generating wherever it does not depend on the value: `properties`, `patternProperties`,
 * `additionalProperties`, `prefixItems`, `items` and nested `unevaluated*`, reached through
 * `allOf` and `$ref`, become names, patterns and a count written into the final loop. Only what
 * a branch adds (`anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`, `contains`) is
 * recorded at run time after each branch's verdict (a flag per branch for names, a set for
 * items); where other keywords fail, everything is (`failedPropsCode`). The interpreter
 * (`evaluate.ts`, `evaluateWithRest`) answers the same, and runs instead when the in-place
 * subschemas are too many to unfold (`MAX_UNFOLD`).
 *
 * Spec: JSON Schema 2020-12 Core §11.2 (unevaluatedItems), §11.3 (unevaluatedProperties), §7.7.1
 * (annotations of passing subschemas only).
 * @module
 */
import { FALSE_PLAN, Flag, Plan, TRUE_PLAN, opOf } from './plan.js';

/** What the unevaluated code needs from the generator (`plan-codegen.ts`). */
export interface UnevaluatedEmit {
  /** A name in the generated source for `value`, passed in. */
  constant(value: unknown): string;
  /** A fresh identifier starting with `prefix`. */
  fresh(prefix: string): string;
  /** A boolean expression: the value `x` (an identifier) passes `p` at depth `d`. */
  check(p: Plan, x: string, d: string): string;
  /** `x` has one of the types in the mask `t` (`TypeBit`s). */
  typeOf(t: number, x: string): string;
}

/** In-place subschemas unfolded per plan at most; past it the interpreter runs the plan. */
const MAX_UNFOLD = 200;

/** Thrown when a plan unfolds into more than `MAX_UNFOLD` subschemas. */
class TooLarge extends Error {}

/** What every passing value has evaluated, known while generating. */
interface Known {
  names: Set<string>;
  patterns: RegExp[];
  /** Leading items evaluated (`prefixItems`). */
  items: number;
  all: boolean;
}

/**
 * Unfolds the in-place subschemas of one plan, for properties (`props`) or items. With a `Known`
 * record, what does not depend on the value goes into it; otherwise (inside a branch) it is
 * written as statements on the run-time record: `a` (everything evaluated), `e` (a `Set` of
 * names or indexes), `n` (leading items).
 */
class Unfold {
  private left = MAX_UNFOLD;
  /** The code uses the run-time set `e`, the flag `a`, the count `n`. */
  usesSet = false;
  /** The flags of `names`. */
  private readonly sites: { flag: string; names: string[]; patterns: RegExp[] }[] = [];
  usesAll = false;
  usesCount = false;

  constructor(private readonly g: UnevaluatedEmit, private readonly props: boolean) {}

  /**
   * Statements recording what `q` evaluates on the passing value `x`. With `self`, `q` is the
   * plan being checked: its own `unevaluated*` is the keyword checked, not an annotation.
   */
  gather(q: Plan, known: Known | null, self = false): string {
    if (q === TRUE_PLAN || q === FALSE_PLAN || q.flags === 0) return '';
    if (--this.left < 0) throw new TooLarge();
    let out = '';
    if (this.props) {
      if ((q.uPropsGiven && !self) || ((q.flags & Flag.Object) !== 0 && q.allPropsEvaluated)) {
        return this.all(known);
      }
      if ((q.flags & Flag.Object) !== 0) {
        const names = q.keys.slice(0, q.nProps);
        if (known !== null) {
          for (const k of names) known.names.add(k);
          known.patterns.push(...q.patterns);
        } else {
          out += this.names(names, q.patterns);
        }
        for (let i = 0; i < q.depSchemaNames.length; i++) {
          const key = JSON.stringify(q.depSchemaNames[i]);
          const inner = this.gather(q.depSchemaPlans[i], null);
          if (inner !== '') out += `if(R.hasOwn.call(x,${key})&&x[${key}]!==undefined){${inner}}`;
        }
      }
    } else {
      if ((q.uItemsGiven && !self) || ((q.flags & Flag.Array) !== 0 && q.allItemsEvaluated)) {
        return this.all(known);
      }
      if ((q.flags & Flag.Array) !== 0) {
        const n = q.prefix.length;
        if (n > 0 && known !== null) {
          if (n > known.items) known.items = n;
        } else if (n > 0) {
          this.usesCount = true;
          out += `if(n<${n})n=${n};`;
        }
        if (q.contains !== null) {
          this.usesSet = true;
          const i = this.g.fresh('i');
          const y = this.g.fresh('y');
          out += `for(let ${i}=0;${i}<x.length;${i}++){const ${y}=x[${i}];` +
            `if(${this.g.check(q.contains, y, 'd+1')})e.add(${i});}`;
        }
      }
    }
    if ((q.flags & Flag.Logic) === 0) return out;
    if (q.ref !== null) out += this.gather(q.ref, known);
    for (const x of q.allOf) out += this.gather(x, known);
    // A branch records only when it passes (Core §7.7.1): its verdict first.
    for (const list of [q.anyOf, q.oneOf]) {
      for (const x of list) {
        const inner = this.gather(x, null);
        if (inner !== '') out += `if(${this.g.check(x, 'x', 'd')}){${inner}}`;
      }
    }
    if (q.ifPlan !== null) {
      const passed = this.gather(q.ifPlan, null) +
        (q.thenPlan === null ? '' : this.gather(q.thenPlan, null));
      const failed = q.elsePlan === null ? '' : this.gather(q.elsePlan, null);
      if (passed !== '' || failed !== '') {
        out += `if(${this.g.check(q.ifPlan, 'x', 'd')}){${passed}}else{${failed}}`;
      }
    }
    return out;
  }

  /**
   * `gather` where `q` may fail, as the interpreter's error pass records: nothing past a failed
   * `type`, `q`'s names when its object keywords pass, branches and nested `unevaluated*` when
   * they pass (`root`: `q` is the plan checked).
   */
  failed(q: Plan, root = false): string {
    if (q === TRUE_PLAN || q === FALSE_PLAN || q.flags === 0) return '';
    if (--this.left < 0) throw new TooLarge();
    if (!root && (q.flags & Flag.Unevaluated) !== 0) {
      const inner = this.gather(q, null);
      return inner === '' ? '' : `if(${this.g.check(q, 'x', 'd')}){${inner}}`;
    }
    let out = '';
    if ((q.flags & Flag.Object) !== 0) {
      const inner = q.allPropsEvaluated ? this.all(null) : this.names(q.keys.slice(0, q.nProps), q.patterns);
      // (Its verdict passes a value that is not an object: nothing the final loop reads.)
      if (inner !== '') out += `if(${this.g.check(objectOnly(q), 'x', 'd')}){${inner}}`;
    }
    if ((q.flags & Flag.Logic) !== 0) {
      if (q.ref !== null) out += this.failed(q.ref);
      for (const x of q.allOf) out += this.failed(x);
      for (const x of q.anyOf) {
        const inner = this.gather(x, null);
        if (inner !== '') out += `if(${this.g.check(x, 'x', 'd')}){${inner}}`;
      }
      if (q.ifPlan !== null) {
        const passed = this.gather(q.ifPlan, null) + (q.thenPlan === null ? '' : this.failed(q.thenPlan));
        const failed = q.elsePlan === null ? '' : this.failed(q.elsePlan);
        if (passed !== '' || failed !== '') {
          out += `if(${this.g.check(q.ifPlan, 'x', 'd')}){${passed}}else{${failed}}`;
        }
      }
    }
    if (out === '' || (q.flags & Flag.Type) === 0) return out;
    return `if(${this.g.typeOf(q.types, 'x')}){${out}}`;
  }

  private all(known: Known | null): string {
    if (known !== null) {
      known.all = true;
      return '';
    }
    this.usesAll = true;
    return 'a=true;';
  }

  /** A run-time record of a passing branch's names and patterns: a flag, read by `recorded`. */
  private names(names: string[], patterns: RegExp[]): string {
    if (names.length === 0 && patterns.length === 0) return '';
    const flag = this.g.fresh('r');
    this.sites.push({ flag, names, patterns });
    return `${flag}=true;`;
  }

  /** Declares the flags of `names`. */
  flags(): string {
    return this.sites.length === 0 ? '' : `let ${this.sites.map((r) => `${r.flag}=false`).join(',')};`;
  }

  /** Tests, one per flag, that `k` was recorded. */
  recorded(k: string): string[] {
    return this.sites.map((r) => `${r.flag}&&(${[...r.names.map((n) => `${k}===${JSON.stringify(n)}`),
      ...r.patterns.map((re) => `${this.g.constant(re)}.test(${k})`)].join('||')})`);
  }
}

/**
 * What the code does with a property or item that `unevaluated*` fails: `k`/`i` names its key or
 * index and `y` its value. The verdict returns `false`; the error pass reports.
 */
export interface RestFailure {
  prop(k: string, y: string): string;
  item(i: string, y: string): string;
}

const objectOnlyOf = new WeakMap<Plan, Plan>();

/** `q`'s object keywords alone: its verdict is `evaluateObject`'s, which decides what `q` records. */
function objectOnly(q: Plan): Plan {
  let c = objectOnlyOf.get(q);
  if (c !== undefined) return c;
  c = Object.assign(new Plan(), q);
  c.flags = Flag.Object;
  c.types = 0;
  c.numberChecks = c.stringChecks = c.valueChecks = [];
  c.ref = c.not = c.ifPlan = c.thenPlan = c.elsePlan = c.uProps = c.uItems = null;
  c.allOf = c.anyOf = c.oneOf = [];
  c.uPropsGiven = c.uItemsGiven = c.memoised = c.recursive = false;
  c.op = opOf(c);
  objectOnlyOf.set(q, c);
  return c;
}

/** True when `failed` can unfold `q`: no loop, sharing, `oneOf` or `dependentSchemas`. */
function simple(q: Plan, depth = 0): boolean {
  if (q === TRUE_PLAN || q === FALSE_PLAN) return true;
  if (depth > 0 && (q.flags & Flag.Unevaluated) !== 0) return true;
  if (depth > 32 || q.recursive || q.memoised || q.depSchemaNames.length > 0 || q.refDeep ||
    q.oneOf.length > 0) return false;
  const next = [q.ref, ...q.allOf, q.thenPlan, q.elsePlan];
  return next.every((x) => x === null || simple(x, depth + 1));
}

/**
 * `p`'s `unevaluatedProperties` on `x` after its other keywords failed (`Unfold.failed`), each
 * failure written by `fail`; `undefined` when not `simple`, too large or with `unevaluatedItems`.
 */
export function failedPropsCode(g: UnevaluatedEmit, p: Plan, fail: RestFailure): string | undefined {
  if (p.uItems !== null || p.uProps === null || !simple(p)) return undefined;
  try {
    const u = new Unfold(g, true);
    const gathered = u.failed(p, true);
    return `if(typeof x==="object"&&x!==null&&!Array.isArray(x)){${propsLoop(g, u, null, gathered, p.uProps, fail)}}`;
  } catch (error) {
    if (error instanceof TooLarge) return undefined;
    throw error;
  }
}

const VERDICT: RestFailure = { prop: () => 'return false;', item: () => 'return false;' };

/**
 * Statements checking `p`'s `unevaluatedProperties` and `unevaluatedItems` on `x` (any value;
 * a non-array object is plain, as `plan-codegen.ts` makes sure) once its other keywords passed,
 * `return false` on the first failure (or `fail`'s statements); `undefined` when the plan is too
 * large to unfold (the interpreter runs it).
 */
export function unevaluatedCode(g: UnevaluatedEmit, p: Plan,
  fail: RestFailure = VERDICT): string | undefined {
  try {
    let out = '';
    if (p.uProps !== null) {
      const code = props(g, p, p.uProps, fail);
      if (code !== '') out += `if(typeof x==="object"&&x!==null&&!Array.isArray(x)){${code}}`;
    }
    if (p.uItems !== null) {
      const code = items(g, p, p.uItems, fail);
      if (code !== '') out += `if(Array.isArray(x)){${code}}`;
    }
    return out;
  } catch (error) {
    if (error instanceof TooLarge) return undefined;
    throw error;
  }
}

function props(g: UnevaluatedEmit, p: Plan, rest: Plan, fail: RestFailure): string {
  const known: Known = { names: new Set(), patterns: [], items: 0, all: false };
  const u = new Unfold(g, true);
  const gathered = u.gather(p, known, true);
  return known.all ? '' : propsLoop(g, u, known, gathered, rest, fail);
}

/** The loop over the properties not evaluated (`known`, or recorded at run time by `u`). */
function propsLoop(g: UnevaluatedEmit, u: Unfold, known: Known | null, gathered: string, rest: Plan,
  fail: RestFailure): string {
  const k = g.fresh('u');
  const y = g.fresh('y');
  const tests = known === null ? [] : [...known.names].map((n) => `${k}===${JSON.stringify(n)}`);
  for (const re of known?.patterns ?? []) tests.push(`${g.constant(re)}.test(${k})`);
  tests.push(...u.recorded(k));
  const skip = tests.length === 0 ? '' : `if(${tests.join('||')})continue;`;
  const loop = `for(const ${k} in x){if(!R.hasOwn.call(x,${k}))continue;const ${y}=x[${k}];` +
    `if(${y}===undefined)continue;${skip}if(!${g.check(rest, y, 'd+1')}){${fail.prop(k, y)}}}`;
  return u.flags() + (u.usesAll ? 'let a=false;' : '') +
    gathered + (u.usesAll ? `if(!a){${loop}}` : loop);
}

function items(g: UnevaluatedEmit, p: Plan, rest: Plan, fail: RestFailure): string {
  const known: Known = { names: new Set(), patterns: [], items: 0, all: false };
  const u = new Unfold(g, false);
  const gathered = u.gather(p, known, true);
  if (known.all) return '';
  const i = g.fresh('u');
  const y = g.fresh('y');
  const skip = u.usesSet ? `if(e.has(${i}))continue;` : '';
  const loop = `for(let ${i}=n;${i}<x.length;${i}++){${skip}` +
    `const ${y}=x[${i}];if(!${g.check(rest, y, 'd+1')}){${fail.item(i, y)}}}`;
  return `let n=${known.items};` + (u.usesSet ? 'const e=new Set();' : '') +
    (u.usesAll ? 'let a=false;' : '') + gathered + (u.usesAll ? `if(!a){${loop}}` : loop);
}
