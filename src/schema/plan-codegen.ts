/**
 * The generated verdict: the plans (`plan.ts`) turned into JavaScript source, one function per
 * object, array or applicator plan with the leaf checks written inline, and compiled with
 * `new Function`. It answers exactly what the interpreter (`verdict.ts`) answers, faster: each
 * property is read by its name (a monomorphic load) instead of through a loop over the plan. The
 * assertion keywords are written by their definitions (`Assertion.js`, next to the interpreter's
 * `Assertion.test`), so the two backends read one definition per keyword.
 *
 * Where `new Function` is refused (Cloudflare Workers, a page under a strict CSP, Node with
 * `--disallow-code-generation-from-strings`) `generateValidate` returns `undefined` and the
 * interpreter runs instead. The source holds no text from the value, and the only text from the
 * schema is property names and scalar `enum`/`const` values, each written with `JSON.stringify`
 * (a JSON string is a JavaScript string literal); patterns, formats and structured values are
 * passed in as constants.
 *
 * Own properties only, as in the interpreter: an object whose prototype is not
 * `Object.prototype` (a class instance, `Object.create(...)`, an object with its own
 * `__proto__` or `constructor` key) is handed to the interpreter; names that `Object.prototype`
 * has (`constructor`, `toString`, `__proto__`, …) are read with an own-property check; and if
 * any other name the schema reads appears on `Object.prototype` (a polluted prototype) the whole
 * value goes to the interpreter. Objects with more than 64 named properties, plans more than 200
 * generated functions deep and `unevaluated*` over too many in-place subschemas
 * (`plan-codegen-unevaluated.ts`) run in the interpreter too.
 * Differences remain outside JSON only: an own property made non-enumerable with
 * `Object.defineProperty` is read here as present, and a Proxy or a getter is read by name here
 * and by enumeration in the interpreter.
 *
 * Spec: JSON Schema 2020-12 Core §10 (applicators), Validation §6 (assertions).
 * @module
 */
import { numberLiteral as num, type Emit } from './assertion.js';
import { deepEqual } from './deep-equal.js';
import {
  containsFailure, duplicate, itemNotAllowed, sizeFailure, uniqueOk,
} from './keywords-array.js';
import { itemUnevaluated, oneOfManyMessage, tooDeep } from './keywords-logic.js';
import { countMessage, propertyNotAllowed } from './keywords-object.js';
import { isMultipleOf } from './keywords-number.js';
import { codePoints } from './keywords-string.js';
import { TypeBit, typeMessage } from './keywords-type.js';
import { valuesOk } from './keywords-value.js';
import { type RestFailure, failedPropsCode, unevaluatedCode } from './plan-codegen-unevaluated.js';
import { FALSE_PLAN, Flag, Op, type Plan, TRUE_PLAN, alias } from './plan.js';
import {
  count, delegate, drop, errorPass, extra, fail, failm, full, memoRef, names, result, summarise,
} from './explain-runtime.js';
import { describe, literal } from './messages.js';
import { ExplainGenerator } from './plan-explain.js';
import { escapeToken } from './pointer.js';
import { spend, type State } from './state.js';
import type { ValidationResult } from './types.js';
import { memoCall, memoVerdict, verdict } from './verdict.js';

/** What a generated `validate` calls around its verdict (`validate.ts` owns them). */
export interface ValidateParts {
  /** The verdict-only state (`errors` null; its memo is cleared after each validation). */
  readonly state: State;
  /** The result of every valid value. */
  readonly valid: ValidationResult;
  /** The interpreter's `validate`, for a value the generated code must not read (see above). */
  readonly interpreted: (value: unknown) => ValidationResult;
}

/** Objects with more names than this are checked by the interpreter (one load per name). */
const MAX_NAMES = 64;
/** Generated functions nested deeper than this (a long `$ref` chain) call the interpreter. */
const MAX_NESTING = 200;

/** What the generated code calls (passed in; the source names them `R.*`). */
export interface Runtime {
  readonly verdict: typeof verdict;
  readonly memoVerdict: typeof memoVerdict;
  readonly memoCall: typeof memoCall;
  readonly valuesOk: typeof valuesOk;
  readonly uniqueOk: typeof uniqueOk;
  readonly deepEqual: typeof deepEqual;
  readonly isMultipleOf: typeof isMultipleOf;
  readonly codePoints: typeof codePoints;
  readonly hasOwn: (this: unknown, v: PropertyKey) => boolean;
  readonly errorPass: typeof errorPass;
  readonly fail: typeof fail;
  readonly failm: typeof failm;
  readonly describe: typeof describe;
  readonly literal: typeof literal;
  readonly full: typeof full;
  readonly count: typeof count;
  readonly drop: typeof drop;
  readonly extra: typeof extra;
  readonly summarise: typeof summarise;
  readonly delegate: typeof delegate;
  readonly memoRef: typeof memoRef;
  readonly names: typeof names;
  readonly result: typeof result;
  readonly spend: typeof spend;
  readonly typeMessage: typeof typeMessage;
  readonly propertyNotAllowed: typeof propertyNotAllowed;
  readonly countMessage: typeof countMessage;
  readonly sizeFailure: typeof sizeFailure;
  readonly containsFailure: typeof containsFailure;
  readonly duplicate: typeof duplicate;
  readonly itemNotAllowed: typeof itemNotAllowed;
  readonly tooDeep: typeof tooDeep;
  readonly oneOfManyMessage: typeof oneOfManyMessage;
  readonly itemUnevaluated: typeof itemUnevaluated;
  readonly esc: typeof escapeToken;
}

/** The functions the generated code calls. */
export const RUNTIME: Runtime = {
  verdict, memoVerdict, memoCall, valuesOk, uniqueOk, deepEqual, isMultipleOf, codePoints,
  hasOwn: Object.prototype.hasOwnProperty,
  // The error pass (`plan-explain.ts`).
  errorPass, fail, failm, extra, describe, literal, full, count, drop, summarise, delegate, memoRef,
  names, result, spend, typeMessage,
  propertyNotAllowed, countMessage, sizeFailure, containsFailure, duplicate,
  itemNotAllowed, tooDeep, oneOfManyMessage, itemUnevaluated,
  esc: escapeToken,
};

/** Names a plain object inherits: read them with an own-property check. */
function inherited(name: string): boolean {
  return name in Object.prototype;
}

class Generator implements Emit {
  readonly consts: unknown[] = [];
  readonly constIndex = new Map<unknown, number>();
  readonly fns: string[] = [];
  /** Generated verdict functions by plan (`f…`; the error pass's copies are `h…`, see `apart`). */
  fnOf = new Map<Plan, string>();
  readonly onStack = new Set<Plan>();
  /** `unevaluated*` plans too large to unfold (`plan-codegen-unevaluated.ts`). */
  readonly tooLarge = new Set<Plan>();
  /** The functions of `unevaluated*` plans without their `unevaluated*` (for the error pass). */
  ownOf = new Map<Plan, string>();
  /** The prefixes of the names of generated verdict functions and of `ownCheck`'s. */
  private names = ['f', 'g'];
  /** Names read with a plain load: the entry checks that `Object.prototype` has none of them. */
  readonly loaded = new Set<string>();
  temp = 0;

  constant(value: unknown): string {
    let i = this.constIndex.get(value);
    if (i === undefined) {
      i = this.consts.length;
      this.consts.push(value);
      this.constIndex.set(value, i);
    }
    return `c${i}`;
  }

  /** From now on, verdicts go into the error pass's own functions: the verdict's keep their type feedback. */
  apart(): void {
    this.fnOf = new Map();
    this.ownOf = new Map();
    this.names = ['h', 'j'];
  }

  fresh(prefix: string): string {
    return `${prefix}${this.temp++}`;
  }

  /** The interpreter's verdict for `p`. */
  interpret(p: Plan, x: string, d: string): string {
    return `R.verdict(${this.constant(p)},${x},${d},s)`;
  }

  /** A boolean expression: `x` (an identifier) is valid against `p` at depth `d`. */
  check(plan: Plan, x: string, d: string): string {
    const p = alias(plan);
    if (p === TRUE_PLAN || p.op === Op.True) return 'true';
    if (p === FALSE_PLAN || p.op === Op.False) return 'false';
    if (p.memoised) return this.memo(p, x, d);
    if (p.op === Op.DeepRef) return this.ref(p, x, d);
    return this.leaf(p, x) ?? this.call(p, x, d);
  }

  /** The `$ref` of `p` on `x`: into a recursive loop, down to `maxDepth` (and memoised if need be). */
  ref(p: Plan, x: string, d: string): string {
    const target = p.ref as Plan;
    if (p.refMemo) return this.memo(target, x, d);
    const check = this.check(target, x, d);
    return p.refDeep ? `(${d}<=s.maxDepth&&${check})` : check;
  }

  /**
   * A call of the function generated for `p` (generated now if need be; a recursive loop calls
   * the functions of its plans), or the interpreter.
   */
  call(p: Plan, x: string, d: string): string {
    const known = this.fnOf.get(p);
    if (known !== undefined) return `${known}(${x},${d},s)`;
    if (p.keys.length > MAX_NAMES || this.onStack.size >= MAX_NESTING ||
      this.tooLarge.has(p)) {
      return this.interpret(p, x, d);
    }
    const name = `${this.names[0]}${this.fnOf.size}`;
    this.fnOf.set(p, name);
    this.onStack.add(p);
    let body = this.body(p);
    if ((p.flags & Flag.Unevaluated) !== 0) {
      const rest = unevaluatedCode(this, p);
      if (rest === undefined) {
        // Too many in-place subschemas to unfold: the interpreter runs this plan. (Calls
        // generated meanwhile that name this function still find it, as an interpreter call.)
        this.tooLarge.add(p);
        body = `return ${this.interpret(p, 'x', 'd')};`;
      } else {
        body += rest;
      }
    }
    this.fns.push(`function ${name}(x,d,s){${body}return true;}`);
    this.onStack.delete(p);
    return `${name}(${x},${d},s)`;
  }

  /**
   * A call of a function checking every keyword of the `unevaluated*` plan `p` except
   * `unevaluated*` (a non-plain object: the interpreter's whole verdict).
   */
  ownCheck(p: Plan, x: string, d: string): string {
    let name = this.ownOf.get(p);
    if (name === undefined) {
      name = `${this.names[1]}${this.ownOf.size}`;
      this.ownOf.set(p, name);
      this.fns.push(`function ${name}(x,d,s){${this.body(p)}return true;}`);
    }
    return `${name}(${x},${d},s)`;
  }

  /** `unevaluated*` of `p` once its other keywords passed (`plan-codegen-unevaluated.ts`). */
  unevaluated(p: Plan, fail: RestFailure): string | undefined {
    return this.tooLarge.has(p) ? undefined : unevaluatedCode(this, p, fail);
  }

  /** `unevaluatedProperties` of `p` after its other keywords failed; `undefined`: not generated. */
  unevaluatedFailed(p: Plan, fail: RestFailure): string | undefined {
    return this.tooLarge.has(p) ? undefined : failedPropsCode(this, p, fail);
  }

  /** A leaf plan (no subschema) as an inline expression; `undefined` for a function. */
  leaf(p: Plan, x: string): string | undefined {
    const f = p.flags;
    switch (p.op) {
      case Op.String:
        return `(typeof ${x}==="string"${this.and(this.stringChecks(p, x))})`;
      case Op.Integer:
        return `(Number.isInteger(${x})${this.and(this.numberChecks(p, x))})`;
      case Op.Number:
        return `(typeof ${x}==="number"&&${x}-${x}===0${this.and(this.numberChecks(p, x))})`;
      case Op.Boolean:
        return `(typeof ${x}==="boolean")`;
      case Op.Const:
        return `(${x}===${this.scalar(p.constValue)})`;
      case Op.Leaf:
        // Only `enum`/`const` (any type), or only `type`.
        if (p.types === 0 && (f & ~Flag.Values) === 0) return `(${this.values(p, x).join('&&')})`;
        if (f === Flag.Type) return `(${this.typeOf(p.types, x)})`;
        return undefined;
      default:
        return undefined;
    }
  }

  /** `x` has one of the types in the mask `t` (non-zero), as `kindOf` reads types. */
  typeOf(t: number, x: string): string {
    const out: string[] = [];
    if ((t & TypeBit.String) !== 0) out.push(`typeof ${x}==="string"`);
    const int = (t & TypeBit.Integer) !== 0;
    if ((t & TypeBit.Number) !== 0) {
      out.push(`(typeof ${x}==="number"&&${x}-${x}===0${int ? '' : `&&!Number.isInteger(${x})`})`);
    } else if (int) {
      out.push(`Number.isInteger(${x})`);
    }
    if ((t & TypeBit.Boolean) !== 0) out.push(`typeof ${x}==="boolean"`);
    if ((t & TypeBit.Null) !== 0) out.push(`${x}===null`);
    if ((t & TypeBit.Array) !== 0) out.push(`Array.isArray(${x})`);
    if ((t & TypeBit.Object) !== 0) out.push(`(typeof ${x}==="object"&&${x}!==null&&!Array.isArray(${x}))`);
    return out.join('||') || 'false';
  }

  and(checks: string[]): string {
    return checks.length === 0 ? '' : `&&${checks.join('&&')}`;
  }

  /** A scalar as a literal, or as a constant when it has no literal (`undefined`, NaN, ±∞). */
  scalar(v: unknown): string {
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) return JSON.stringify(v);
    if (typeof v === 'number' && Number.isFinite(v)) return num(v);
    return this.constant(v);
  }

  /** `enum`/`const` for the value `x`: their definitions' checks. */
  values(p: Plan, x: string): string[] {
    return p.valueChecks.map((a) => a.js(p, x, this));
  }

  /** Number keywords, then `enum`/`const`, for a number `x`. */
  numberChecks(p: Plan, x: string): string[] {
    return [...p.numberChecks.map((a) => a.js(p, x, this)), ...this.values(p, x)];
  }

  /** String keywords, then `enum`/`const`, for a string `x`. */
  stringChecks(p: Plan, x: string): string[] {
    return [...p.stringChecks.map((a) => a.js(p, x, this)), ...this.values(p, x)];
  }

  /** The statements of `p`'s function: `return false` on the first failure. */
  body(p: Plan): string {
    const f = p.flags;
    const t = p.types;
    const allows = (bit: number): boolean => t === 0 || (t & bit) !== 0;
    const fail = (checks: string[]): string => (checks.length === 0 ? '' : `if(!(${checks.join('&&')}))return false;`);
    let out = '';
    if (t === TypeBit.Object) {
      // An array is not a plain object: the prototype test in `object` hands it to the
      // interpreter, which fails it (one test less on the common path).
      out += `if(typeof x!=="object"||x===null)return false;${this.object(p, f)}`;
    } else if (t === TypeBit.Array) {
      out += `if(!Array.isArray(x))return false;${this.array(p, f)}`;
    } else if (t !== 0 || (f & ~Flag.Logic) !== 0) {
      // The value's kind, as the interpreter's `kindOf` reads it, with that kind's keywords.
      const other = t !== 0 ? 'return false;' : fail(this.values(p, 'x'));
      const numberBranch = (bit: number): string =>
        allows(bit) ? fail(this.numberChecks(p, 'x')) : 'return false;';
      out += 'if(typeof x==="string"){';
      out += allows(TypeBit.String) ? fail(this.stringChecks(p, 'x')) : 'return false;';
      out += '}else if(typeof x==="number"){';
      out += `if(Number.isInteger(x)){${numberBranch(TypeBit.Integer)}}`;
      out += `else if(x-x===0){${numberBranch(TypeBit.Number)}}else{${other}}`;
      out += '}else if(typeof x==="object"){';
      out += `if(x===null){${allows(TypeBit.Null) ? fail(this.values(p, 'x')) : 'return false;'}}`;
      out += `else if(Array.isArray(x)){${allows(TypeBit.Array) ? this.array(p, f) : 'return false;'}}`;
      out += `else{${allows(TypeBit.Object) ? this.object(p, f) : 'return false;'}}`;
      out += '}else if(typeof x==="boolean"){';
      out += allows(TypeBit.Boolean) ? fail(this.values(p, 'x')) : 'return false;';
      out += `}else{${other}}`;
    }
    if ((f & Flag.Logic) !== 0) out += this.logic(p);
    return out;
  }

  /** A property read with own-property semantics for a plain object `x`. */
  load(name: string): string {
    const key = JSON.stringify(name);
    if (inherited(name)) return `(R.hasOwn.call(x,${key})?x[${key}]:undefined)`;
    this.loaded.add(name);
    return `x[${key}]`;
  }

  /** Object keywords (`objectOk` and `objectRest`), for a non-null, non-array object `x`. */
  object(p: Plan, f: number): string {
    // Only a plain object (prototype Object.prototype) runs here; reading `constructor` first
    // lets V8 fold the prototype test into the map checks of the loads that follow.
    let out = `if(x.constructor!==Object||Object.getPrototypeOf(x)!==P)return ${this.interpret(p, 'x', 'd')};`;
    out += this.values(p, 'x').map((c) => `if(!(${c}))return false;`).join('');
    if ((f & Flag.Object) === 0) return out;
    const loads = new Map<string, string>();
    const read = (name: string): string => {
      let v = loads.get(name);
      if (v === undefined) {
        v = this.fresh('y');
        loads.set(name, v);
        out += `const ${v}=${this.load(name)};`;
      }
      return v;
    };
    const named = new Set<string>();
    for (let i = 0; i < p.keys.length; i++) {
      const name = p.keys[i];
      const sub = p.keyPlans[i];
      const y = read(name);
      if (p.keyFlags[i] === 1) out += `if(${y}===undefined)return false;`;
      if (sub !== null) {
        named.add(name);
        const check = this.check(sub, y, 'd+1');
        if (check !== 'true') out += `if(${y}!==undefined&&!${check})return false;`;
      }
    }
    const additional = p.additional;
    const patterns = p.patterns;
    const counts = p.minProps > 0 || p.maxProps < Infinity;
    if (additional !== null || patterns.length > 0 || p.propertyNames !== null || counts) {
      const k = this.fresh('k');
      const y = this.fresh('y');
      const known = [...named].map((n) => `${k}===${JSON.stringify(n)}`).join('||') || 'false';
      let loop = `if(!R.hasOwn.call(x,${k}))continue;const ${y}=x[${k}];if(${y}===undefined)continue;`;
      if (counts) loop += 'n++;';
      if (patterns.length > 0) {
        const m = this.fresh('m');
        loop += `let ${m}=${known};`;
        for (let j = 0; j < patterns.length; j++) {
          loop += `if(${this.constant(patterns[j])}.test(${k})){${m}=true;` +
            `if(!${this.check(p.patternPlans[j], y, 'd+1')})return false;}`;
        }
        if (additional !== null) loop += `if(!${m}&&!${this.check(additional, y, 'd+1')})return false;`;
      } else if (additional !== null) {
        loop += `if(!(${known})&&!${this.check(additional, y, 'd+1')})return false;`;
      }
      if (p.propertyNames !== null) loop += `if(!${this.check(p.propertyNames, k, 'd+1')})return false;`;
      out += `${counts ? 'let n=0;' : ''}for(const ${k} in x){${loop}}`;
      if (p.minProps > 0) out += `if(n<${p.minProps})return false;`;
      if (p.maxProps < Infinity) out += `if(n>${p.maxProps})return false;`;
    }
    // (`read` appends a declaration to `out`: call it before appending the test that uses it.)
    for (let i = 0; i < p.depNames.length; i++) {
      if (p.depNeeds[i].length === 0) continue;
      const name = read(p.depNames[i]);
      const needs = p.depNeeds[i].map((n) => `${read(n)}!==undefined`).join('&&');
      out += `if(${name}!==undefined&&!(${needs}))return false;`;
    }
    for (let i = 0; i < p.depSchemaNames.length; i++) {
      const name = read(p.depSchemaNames[i]);
      const check = this.check(p.depSchemaPlans[i], 'x', 'd');
      out += `if(${name}!==undefined&&!${check})return false;`;
    }
    return out;
  }

  /** Array keywords (`arrayOk` and `arrayRest`), for an array `x`. */
  array(p: Plan, f: number): string {
    let out = this.values(p, 'x').map((c) => `if(!(${c}))return false;`).join('');
    if ((f & Flag.Array) === 0) return out;
    out += 'const n=x.length;';
    if (p.minItems > 0) out += `if(n<${p.minItems})return false;`;
    if (p.maxItems < Infinity) out += `if(n>${p.maxItems})return false;`;
    if (p.items !== null) {
      const i = this.fresh('i');
      const y = this.fresh('y');
      const check = this.check(p.items, y, 'd+1');
      if (check !== 'true') {
        out += `for(let ${i}=${p.prefix.length};${i}<n;${i}++){const ${y}=x[${i}];if(!${check})return false;}`;
      }
    }
    if (p.unique) out += 'if(n>1&&!R.uniqueOk(x,d,s))return false;';
    for (let j = 0; j < p.prefix.length; j++) {
      const y = this.fresh('y');
      const check = this.check(p.prefix[j], y, 'd+1');
      if (check !== 'true') out += `if(n>${j}){const ${y}=x[${j}];if(!${check})return false;}`;
    }
    if (p.contains !== null) {
      const enough = p.maxContains === Infinity ? p.minContains : Infinity;
      // (Not `c`: the constants are `c0`, `c1`, …)
      const c = this.fresh('t');
      const i = this.fresh('i');
      const y = this.fresh('y');
      out += `let ${c}=0;for(let ${i}=0;${i}<n${enough === Infinity ? '' : `&&${c}<${enough}`};${i}++){` +
        `const ${y}=x[${i}];if(${this.check(p.contains, y, 'd+1')})${c}++;}`;
      out += `if(${c}<${p.minContains})return false;`;
      if (p.maxContains < Infinity) out += `if(${c}>${p.maxContains})return false;`;
    }
    return out;
  }

  /**
   * A memoised verdict of `p` on `x` (a `$ref` into a recursive loop, or a shared plan:
   * `plan-memo.ts`): its generated function when there is one, else the interpreter's.
   */
  memo(p: Plan, x: string, d: string): string {
    const call = this.call(p, x, d);
    const name = this.fnOf.get(p);
    return name !== undefined && call === `${name}(${x},${d},s)`
      ? `R.memoCall(${this.constant(p)},${name},${x},${d},s)`
      : `R.memoVerdict(${this.constant(p)},${x},${d},s)`;
  }

  /** `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, on the same value. */
  logic(p: Plan): string {
    let out = '';
    if (p.ref !== null) out += `if(!${this.ref(p, 'x', 'd')})return false;`;
    for (const x of p.allOf) out += `if(!${this.check(x, 'x', 'd')})return false;`;
    if (p.anyOf.length > 0) out += `if(!(${p.anyOf.map((x) => this.check(x, 'x', 'd')).join('||')}))return false;`;
    if (p.oneOf.length > 0) {
      const n = this.fresh('o');
      out += `let ${n}=0;`;
      for (const x of p.oneOf) out += `if(${this.check(x, 'x', 'd')}&&++${n}>1)return false;`;
      out += `if(${n}!==1)return false;`;
    }
    if (p.not !== null) out += `if(${this.check(p.not, 'x', 'd')})return false;`;
    if (p.ifPlan !== null) {
      const then = p.thenPlan === null ? 'true' : this.check(p.thenPlan, 'x', 'd');
      const otherwise = p.elsePlan === null ? 'true' : this.check(p.elsePlan, 'x', 'd');
      out += `if(!(${this.check(p.ifPlan, 'x', 'd')}?${then}:${otherwise}))return false;`;
    }
    return out;
  }
}

/**
 * Generates `validate` for the schema whose plan is `root` (after `analyse`, `memoiseShared`): the
 * verdict as code, then `parts.valid` or the generated error pass (`plan-explain.ts`); a
 * `RangeError` (the stack ran out) counts as invalid. Returns `undefined` when the platform refuses code generation from
 * strings (an `EvalError`); the caller then keeps the interpreter. Any other error (a generator
 * bug) throws.
 */
export function generateValidate(root: Plan, parts: ValidateParts): ((value: unknown) => ValidationResult) | undefined {
  const g = new Generator();
  const entry = g.check(root, 'x', 'd');
  g.apart();
  const explainer = new ExplainGenerator(g);
  const why = explainer.root(root, 'x');
  // A polluted Object.prototype would answer plain loads: hand the value to the interpreter.
  const polluted = [...g.loaded].map((n) => `P[${JSON.stringify(n)}]!==undefined`).join('||');
  const source = [
    '"use strict";',
    'const P=Object.prototype,S=V.state,VALID=V.valid,interpreted=V.interpreted;',
    ...g.consts.map((_, i) => `const c${i}=C[${i}];`),
    ...g.fns,
    ...explainer.fns,
    `function explain(x){const s=S,E=R.errorPass(S);let t;` +
      `try{${why}}catch(e){if(!(e instanceof RangeError))throw e;t=e;}` +
      'if(S.memo!==null)S.memo=null;return R.result(E,t);}',
    `function verdict(x,d,s){return ${entry};}`,
    `return function validate(x){${polluted === '' ? '' : `if(${polluted})return interpreted(x);`}` +
      'let ok=false;try{ok=verdict(x,0,S);}catch(e){if(!(e instanceof RangeError))throw e;}' +
      'if(S.memo!==null)S.memo=null;return ok?VALID:explain(x);};',
  ].join('\n');
  type Make = (R: typeof RUNTIME, C: unknown[], V: ValidateParts) => (value: unknown) => ValidationResult;
  let make: Make;
  try {
    make = new Function('R', 'C', 'V', source) as Make;
  } catch (error) {
    // Refused code generation is an EvalError (Workers, CSP, --disallow-code-generation-from-
    // strings); anything else, such as a SyntaxError, is a bug here and must not hide.
    if (error instanceof EvalError) return undefined;
    throw error;
  }
  return make(RUNTIME, g.consts, parts);
}
