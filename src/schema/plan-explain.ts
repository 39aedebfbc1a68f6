/**
 * The generated error pass: the interpreter's evaluating walker (`evaluate.ts`,
 * `evaluate-object.ts`, `evaluate-array.ts`) in its error mode, written out as JavaScript source
 * per plan, next to the generated verdict (`plan-codegen.ts`, which compiles both). Each function
 * explains why a value fails its plan and returns the verdict: it asks verdicts (its own copies,
 * `Generator.apart`) which subschemas fail and explains those, reporting each error whole
 * (`explain-runtime.ts`); `anyOf`/`oneOf` branches, a `$ref`'s target and an array's items are
 * explained without asking first. It mirrors the walker step by step (the order of keywords and
 * of keys, the step budget, the stop on a full list); property tests hold the two equal.
 *
 * Messages come from the keywords' definitions (`Assertion.message`, `typeMessage`, ...); the
 * parts that depend only on the schema (`Assertion.head`, `typeHead`, whole messages such as a
 * missing property's) are computed here, once. A function reached with literal locations (from
 * the root, through properties, `$ref`s and applicators) is a copy for that place, with its
 * locations and its errors' messages written in; a recursive plan, a place under an array item
 * or a property found at run time, and places past the copies' budget take them as arguments.
 * `unevaluatedItems` where other keywords fail, a plan too large to unfold, a memoised `$ref`,
 * `propertyNames` and an object that is not plain are handed to the interpreter.
 *
 * Spec: JSON Schema 2020-12 Core §10 (applicators), §12.3 (output); Validation §6.
 * @module
 */
import type { Assertion, Emit } from './assertion.js';
import { itemNotAllowed } from './keywords-array.js';
import { FALSE_MESSAGE, NOT_MESSAGE, anyOfMessage, oneOfNoneMessage } from './keywords-logic.js';
import { allowed, dependencyMissing, missingRequired, propertyNotAllowed } from './keywords-object.js';
import { TypeBit, typeHead } from './keywords-type.js';
import { escapeToken } from './pointer.js';
import { FALSE_PLAN, Flag, type Plan, TRUE_PLAN, isRefOnly } from './plan.js';
import type { RestFailure } from './plan-codegen-unevaluated.js';

/** What the error pass asks of the verdict's generator (`plan-codegen.ts`). */
export interface VerdictSource extends Emit {
  /** A boolean expression: the value `x` (an identifier) is valid against `p` at depth `d`. */
  check(p: Plan, x: string, d: string): string;
  /** `x` has one of the types in the mask `t`. */
  typeOf(t: number, x: string): string;
  /** A property `name` of the plain object `x`, read with own-property semantics. */
  load(name: string): string;
  /** A fresh identifier starting with `prefix`. */
  fresh(prefix: string): string;
  /** The verdict of every keyword of the `unevaluated*` plan `p` except `unevaluated*`. */
  ownCheck(p: Plan, x: string, d: string): string;
  /** `unevaluated*` of `p` after its other keywords passed; `undefined`: too large to unfold. */
  unevaluated(p: Plan, fail: RestFailure): string | undefined;
  /** `unevaluatedProperties` of `p` after its other keywords failed; `undefined`: not generated. */
  unevaluatedFailed(p: Plan, fail: RestFailure): string | undefined;
}

/** Explain functions nested deeper than this (a long `$ref` chain) hand over to the interpreter. */
const MAX_NESTING = 200;

/**
 * Characters of source that copies of explain functions for one place (`ExplainGenerator.fn`)
 * may take; past it, a function reached from several places takes its locations as arguments.
 */
const MAX_COPIES = 1 << 16;

/**
 * Characters (of its JSON literal) a location written into a copy may take; a longer one (a deep
 * place, long property names) is an argument. Copies written in are not counted against
 * `MAX_COPIES` until they are whole, so a chain of nested places (a `$ref` chain, each copy open
 * while the next is written) would otherwise write locations that grow with the chain into each
 * of its copies: source quadratic in the schema.
 */
const MAX_PLACE = 512;

const lit = (text: string): string => JSON.stringify(text);

/** True when `text` is one JSON string literal. */
function isLiteral(text: string): boolean {
  if (text[0] !== '"') return false;
  try {
    return typeof JSON.parse(text) === 'string';
  } catch {
    return false;
  }
}

/** `a` (a string expression) followed by the text `b`, folded into a literal that ends `a`. */
function cat(a: string, b: string): string {
  if (b === '') return a;
  if (isLiteral(a)) return lit(JSON.parse(a) + b);
  const plus = a.lastIndexOf('+"');
  if (plus !== -1 && isLiteral(a.slice(plus + 1))) {
    return `${a.slice(0, plus)}+${lit(JSON.parse(a.slice(plus + 1)) + b)}`;
  }
  return `${a}+${lit(b)}`;
}

/** `a` (a string expression) followed by the string expression `b` (which may start `"/"+`). */
function join(a: string, b: string): string {
  if (a === '""') return b;
  return b.startsWith('"/"+') ? `${cat(a, '/')}+${b.slice(4)}` : `${a}+${b}`;
}

/** True when `collect` may explain the branches: none is shared (`memoised`). */
function collects(list: readonly Plan[]): boolean {
  return list.every((q) => !q.memoised);
}

/** `type: array`, `items`, sizes only: explaining it costs what its verdict does. */
function isItemsOnly(q: Plan): boolean {
  return q.flags === (Flag.Type | Flag.Array) && q.types === TypeBit.Array && !q.memoised &&
    q.items !== null && q.prefix.length === 0 && q.contains === null && !q.unique;
}

/** True for a plan with no subschema: explained inline where it is applied. */
function isLeaf(p: Plan): boolean {
  return (p.flags & Flag.Subschemas) === 0;
}

/**
 * A message: `head` (text) followed by the string expression `rest` (or nothing), as written
 * for an error at the instance location `at`.
 */
interface Message {
  head: string;
  rest: string | null;
}

/**
 * Writes the explain functions. In the source, `E` is the error pass (`ErrorPass`), `s` the
 * verdict-only state the verdicts use; a function's instance and keyword locations are `at` and
 * `kw`, and the root's are literals.
 */
export class ExplainGenerator {
  readonly fns: string[] = [];
  /** Per plan, its functions by place (`at` and `kw` as written in, or the parameters'). */
  private readonly fnOf = new Map<Plan, Map<string, string>>();
  private readonly ownOf = new Map<Plan, Map<string, string>>();
  /** Plans whose function is being written: reached again (recursion), they take parameters. */
  private readonly open = new Map<Plan, number>();
  private named = 0;
  private copied = 0;
  private depth = 0;

  constructor(private readonly g: VerdictSource) {}

  /** Statements that explain the failure of the root plan `p` on `x`, at depth 0. */
  root(p: Plan, x: string): string {
    if (p === FALSE_PLAN || p === TRUE_PLAN || isLeaf(p)) return this.explain(p, x, '0', '""', '""');
    const name = `xr`;
    this.fns.push(`function ${name}(x,d,E){${this.body(p, '""', '""')}}`);
    return `${name}(${x},0,E);`;
  }

  /** Statements that explain the failure of `p` on `x` (an identifier) at depth `d`. */
  explain(p: Plan, x: string, d: string, at: string, kw: string): string {
    if (p === FALSE_PLAN) return this.fail(at, kw, 'false', { head: FALSE_MESSAGE, rest: null });
    if (p === TRUE_PLAN) return '';
    if (isLeaf(p)) return this.leaf(p, x, at, kw);
    return `${this.fn(p, at, kw)}(${x},${d},E,${at},${kw});`;
  }

  /** A statement that reports one error (`R.fail`, or `R.failm` with the whole message). */
  private fail(at: string, kw: string, keyword: string, m: Message): string {
    if (isLiteral(at)) {
      const where = JSON.parse(at) as string;
      const head = lit(`${where === '' ? '/' : where}: ${m.head}`);
      return `R.failm(E,${at},${kw},${lit(keyword)},${m.rest === null ? head : `${head}+${m.rest}`});`;
    }
    const body = m.rest === null ? lit(`: ${m.head}`) : `${lit(`: ${m.head}`)}+${m.rest}`;
    return `R.fail(E,${at},${kw},${lit(keyword)},${body});`;
  }

  /**
   * The name of the explain function of `p` (a non-leaf plan; `own`: an `unevaluated*` plan
   * without its `unevaluated*`, as `evaluateOwn`) applied at `at` and `kw` (string expressions),
   * written now if need be. Where a location is a literal, the function is a copy for that place
   * with the location written in (so that an error's locations and message are literals or one
   * concatenation), unless `p` is being written already (a recursive plan) or the copies took
   * `MAX_COPIES` characters; otherwise the location is the function's parameter.
   */
  private fn(p: Plan, at: string, kw: string, own = false): string {
    const map = own ? this.ownOf : this.fnOf;
    const copy = this.copied < MAX_COPIES && this.depth < MAX_NESTING && !this.open.has(p);
    const a = copy && at.length <= MAX_PLACE && isLiteral(at) ? at : 'at';
    const k = copy && kw.length <= MAX_PLACE && isLiteral(kw) ? kw : 'kw';
    let places = map.get(p);
    if (places === undefined) map.set(p, places = new Map());
    const place = `${a}\0${k}`;
    let name = places.get(place);
    if (name !== undefined) return name;
    name = `x${own ? 'o' : ''}${this.named++}`;
    places.set(place, name);
    let body: string;
    if (this.depth >= MAX_NESTING && !own) {
      body = `return R.delegate(${this.g.constant(p)},x,d,E,at,kw);`;
    } else {
      this.depth++;
      this.open.set(p, (this.open.get(p) ?? 0) + 1);
      body = this.body(p, a, k, own);
      const left = (this.open.get(p) as number) - 1;
      if (left === 0) this.open.delete(p);
      else this.open.set(p, left);
      this.depth--;
    }
    if (a !== 'at' || k !== 'kw') this.copied += body.length;
    this.fns.push(`function ${name}(x,d,E,at,kw){${body}}`);
    return name;
  }

  /**
   * The message of `a` failed by `x`. Where it shows the number `x` last, or the string `x` once
   * (as `literal`), the text around it is written here, from the message of a stand-in value.
   */
  private message(a: Assertion, p: Plan, x: string): Message {
    if (a.head !== undefined) return { head: a.head(p), rest: `R.describe(${x})` };
    if (p.numberChecks.includes(a)) {
      const text = a.message(p, NaN);
      if (text.endsWith('NaN')) return { head: text.slice(0, -3), rest: x };
    } else if (p.stringChecks.includes(a)) {
      const text = a.message(p, '\0');
      const at = text.indexOf('"\\u0000"');
      if (at !== -1 && at === text.lastIndexOf('"\\u0000"')) {
        return { head: text.slice(0, at), rest: cat(`R.literal(${x})`, text.slice(at + 8)) };
      }
    }
    return { head: '', rest: `${this.g.constant(a)}.message(${this.g.constant(p)},${x})` };
  }

  /** The failure of a leaf plan, inline: `type`, then its kind's keywords, then enum/const. */
  private leaf(p: Plan, x: string, at: string, kw: string): string {
    const checks = this.kindChecks(p, x, at, kw, false) + this.values(p, x, at, kw, false);
    if ((p.flags & Flag.Type) === 0) return checks;
    const type = this.fail(at, cat(kw, '/type'), 'type', { head: typeHead(p), rest: `R.describe(${x})` });
    return `if(!(${this.g.typeOf(p.types, x)})){${type}}${checks === '' ? '' : `else{${checks}}`}`;
  }

  /** The string or number keywords of `p` for `x`, each failure reported (`track`: in `ok`). */
  private kindChecks(p: Plan, x: string, at: string, kw: string, track: boolean): string {
    const one = (checks: readonly Assertion[]): string => checks.map((a) =>
      `if(!(${a.js(p, x, this.g)})){${this.fail(at, cat(kw, '/' + a.keyword), a.keyword, this.message(a, p, x))}` +
      `${track ? 'ok=false;' : ''}}`).join('');
    const out: string[] = [];
    const t = p.types;
    const allows = (bit: number): boolean => t === 0 || (t & bit) !== 0;
    // After `type`, a single kind needs no test of its own.
    if (p.stringChecks.length > 0 && allows(TypeBit.String)) {
      out.push(t === TypeBit.String ? one(p.stringChecks) : `if(typeof ${x}==="string"){${one(p.stringChecks)}}`);
    }
    if (p.numberChecks.length > 0 && allows(TypeBit.Number | TypeBit.Integer)) {
      const only = t === TypeBit.Integer || t === (TypeBit.Number | TypeBit.Integer);
      out.push(only ? one(p.numberChecks) : `if(typeof ${x}==="number"&&${x}-${x}===0){${one(p.numberChecks)}}`);
    }
    return out.length === 1 ? out[0] : out.join('else ');
  }

  /** `enum`/`const` of `p` for `x`; in a function (`track`), a full list ends it. */
  private values(p: Plan, x: string, at: string, kw: string, track: boolean): string {
    return p.valueChecks.map((a) =>
      `if(!(${a.js(p, x, this.g)})){${this.fail(at, cat(kw, '/' + a.keyword), a.keyword, this.message(a, p, x))}` +
      `${track ? 'if(R.full(E))return false;ok=false;' : ''}}`).join('');
  }

  /**
   * The body of the explain function of `p`, as `evaluate` in the error mode (`own`: without
   * `unevaluated*`, as `evaluateOwn`).
   */
  private body(p: Plan, at: string, kw: string, own = false): string {
    if (!own && (p.flags & Flag.Unevaluated) !== 0) return this.unevaluated(p, at, kw);
    if (isRefOnly(p) && !p.refMemo && p.ref !== TRUE_PLAN && p.ref !== FALSE_PLAN) {
      // Only a `$ref`: its target's explanation, without asking its verdict again (a caller
      // that collects branches, `collect`, may call it on a passing value: the target says so).
      // Into a recursive loop, past `maxDepth` the `$ref` fails.
      const target = p.ref as Plan;
      const ref = cat(kw, '/' + p.refKeyword);
      const deep = p.refDeep
        ? `if(d>E.maxDepth){${this.fail(at, ref, p.refKeyword, { head: '', rest: 'R.tooDeep(E.maxDepth)' })}return false;}` : '';
      return isLeaf(target)
        ? `const s=S;R.spend(E);${deep}if(${this.g.check(target, 'x', 'd')})return true;${this.explain(target, 'x', 'd', at, ref)}return false;`
        : `R.spend(E);${deep}return ${this.fn(target, at, ref)}(x,d,E,${at},${ref});`;
    }
    const f = p.flags;
    let out = 'const s=S;let ok=true;';
    if ((f & Flag.Type) !== 0) {
      const type = this.fail(at, cat(kw, '/type'), 'type', { head: typeHead(p), rest: 'R.describe(x)' });
      out += `if(!(${this.g.typeOf(p.types, 'x')})){${type}return false;}`;
    }
    const t = p.types;
    const allows = (bit: number): boolean => t === 0 || (t & bit) !== 0;
    const kinds: string[] = [];
    if ((f & Flag.Object) !== 0 && allows(TypeBit.Object)) {
      kinds.push(t === TypeBit.Object ? `{${this.object(p, at, kw)}}`
        : `if(typeof x==="object"&&x!==null&&!Array.isArray(x)){${this.object(p, at, kw)}}`);
    }
    if ((f & Flag.Array) !== 0 && allows(TypeBit.Array)) {
      kinds.push(t === TypeBit.Array ? `{${this.array(p, at, kw)}}` : `if(Array.isArray(x)){${this.array(p, at, kw)}}`);
    }
    const scalars = this.kindChecks(p, 'x', at, kw, true);
    if (scalars !== '') kinds.push(scalars);
    if (kinds.length > 0) out += `${kinds.join('else ')}if(!ok&&R.full(E))return false;`;
    out += this.values(p, 'x', at, kw, true);
    if ((f & Flag.Logic) !== 0) out += this.logic(p, at, kw);
    return `${out}return ok;`;
  }

  /**
   * An `unevaluated*` plan: when its other keywords pass (the common mistake: a property no
   * subschema allows), only `unevaluated*` fails, and the generated loop reports each property
   * or item it fails, as `evaluateWithRest` does; otherwise (or for an object that is not plain,
   * or a plan too large to unfold) the interpreter explains the whole plan.
   */
  private unevaluated(p: Plan, at: string, kw: string): string {
    const delegate = `return R.delegate(${this.g.constant(p)},x,d,E,${at},${kw});`;
    const rest = (q: Plan, y: string, where: string, keyword: string, message: string): string => {
      const kl = cat(kw, '/' + keyword);
      const report = q === FALSE_PLAN
        ? this.fail(where, kl, keyword, { head: '', rest: message })
        : this.explain(q, y, 'd+1', where, kl);
      return `${report}if(R.full(E))return false;ok=false;`;
    };
    const fail: RestFailure = {
      prop: (k, y) => rest(p.uProps as Plan, y, join(at, `"/"+R.esc(${k})`), 'unevaluatedProperties',
        `R.propertyNotAllowed(${k})`),
      item: (i, y) => rest(p.uItems as Plan, y, join(at, `"/"+${i}`), 'unevaluatedItems',
        `R.itemUnevaluated(${i})`),
    };
    const code = this.g.unevaluated(p, fail);
    if (code === undefined) return delegate;
    // Other keywords failed too: their errors, then (unless the list is full) every property
    // that what passed left unevaluated, as `evaluateWithRest`.
    // (Explaining them answers whether they pass: no verdict first.)
    const failed = this.depth >= MAX_NESTING ? undefined : this.g.unevaluatedFailed(p, fail);
    const own = failed === undefined ? `if(!${this.g.ownCheck(p, 'x', 'd')})${delegate}`
      : `if(!${this.fn(p, at, kw, true)}(x,d,E,${at},${kw})){if(R.full(E))return false;ok=false;${failed}return ok;}`;
    return 'const s=S;let ok=true;' +
      `if(typeof x==="object"&&x!==null&&!Array.isArray(x)&&(x.constructor!==Object||Object.getPrototypeOf(x)!==P))${delegate}` +
      `${own}${code}return ok;`;
  }

  /**
   * A failing subschema `q` applied to `y` at depth `d`: explained, then a full list ends the
   * function. `notAllowed` is the message where `q` is `false` and applies to a part of the value
   * (a property, an item); in place, `false` says so itself.
   */
  private child(q: Plan, y: string, d: string, at: string, kw: string, notAllowed?: Message): string {
    const report = q === FALSE_PLAN && notAllowed !== undefined
      ? this.fail(at, kw, 'false', notAllowed) : this.explain(q, y, d, at, kw);
    return `${report}if(R.full(E))return false;ok=false;`;
  }

  /** `if (verdict fails) explain` for the subschema `q` on `y` (see `child`). */
  private guarded(q: Plan, y: string, d: string, at: string, kw: string, notAllowed?: Message): string {
    if (q === TRUE_PLAN) return '';
    if (isItemsOnly(q)) {
      // Its explanation asks each item's verdict, as its verdict would: no verdict first.
      return `if(!${this.fn(q, at, kw)}(${y},${d},E,${at},${kw})){if(R.full(E))return false;ok=false;}`;
    }
    const explained = this.child(q, y, d, at, kw, notAllowed);
    return q === FALSE_PLAN ? explained : `if(!${this.g.check(q, y, d)}){${explained}}`;
  }

  /** The object keywords (`evaluateObject`), for a non-null, non-array object `x`. */
  private object(p: Plan, at: string, kw: string): string {
    const cp = this.g.constant(p);
    let out = `if(x.constructor!==Object||Object.getPrototypeOf(x)!==P)return R.delegate(${cp},x,d,E,${at},${kw});`;
    const counts = p.minProps > 0 || p.maxProps < Infinity;
    const rest = p.additional !== null || p.patterns.length > 0;
    let loop = 'if(!R.hasOwn.call(x,k))continue;const y=x[k];if(y===undefined)continue;';
    if (counts) loop += 'n++;';
    if (p.propertyNames !== null) {
      loop += `if(!${this.g.check(p.propertyNames, 'k', 'd+1')}){R.names(${this.g.constant(p.propertyNames)},k,d+1,E,${at},${kw});if(R.full(E))return false;ok=false;}`;
    }
    if (rest) loop += 'let m=false;';
    if (p.keys.length > 0) {
      let cases = '';
      for (let i = 0; i < p.keys.length; i++) {
        const name = p.keys[i];
        const sub = p.keyPlans[i];
        cases += `case ${lit(name)}:`;
        if (p.keyFlags[i] === 1) cases += 'seen++;';
        if (sub !== null) {
          if (rest && i < p.nProps) cases += 'm=true;';
          cases += this.guarded(sub, 'y', 'd+1', cat(at, '/' + escapeToken(name)),
            cat(kw, '/properties/' + escapeToken(name)), { head: propertyNotAllowed(name), rest: null });
        }
        cases += 'break;';
      }
      loop += `switch(k){${cases}}`;
    }
    if (rest) {
      const where = join(at, '"/"+R.esc(k)');
      const notAllowed = { head: '', rest: 'R.propertyNotAllowed(k)' };
      for (let j = 0; j < p.patterns.length; j++) {
        const q = p.patternPlans[j];
        loop += `if(${this.g.constant(p.patterns[j])}.test(k)){m=true;` +
          `${this.guarded(q, 'y', 'd+1', where, cat(kw, '/patternProperties/' + escapeToken(p.patternSources[j])), notAllowed)}}`;
      }
      const additional = p.additional;
      if (additional === FALSE_PLAN) {
        loop += `if(!m){if(R.full(E))return false;R.extra(E,${at},${cat(kw, '/additionalProperties')},k,` +
          `${lit(`" is not allowed${allowed(p)}`)});ok=false;}`;
      } else if (additional !== null) {
        loop += `if(!m){${this.guarded(additional, 'y', 'd+1', where, cat(kw, '/additionalProperties'), notAllowed)}}`;
      }
    }
    const present = (name: string): string => `${this.g.load(name)}!==undefined`;
    let required = '';
    for (const r of p.required) {
      required += `if(!(${present(r)})){if(R.full(E))return false;` +
        `${this.fail(at, cat(kw, '/required'), 'required', { head: missingRequired(r), rest: null })}ok=false;}`;
    }
    const walk = `let seen=0${counts ? ',n=0' : ''};for(const k in x){${loop}}` +
      (p.nRequired > 0 ? `if(seen!==${p.nRequired}){${required}}` : '');
    const single = rest || counts || p.propertyNames !== null ? '' : this.singleFailure(p, at, kw, required);
    out += single === '' ? walk : `${single}else{${walk}}`;
    if (counts) {
      out += `if(n<${p.minProps}||n>${p.maxProps}){if(R.full(E))return false;const w=n<${p.minProps}?"minProperties":"maxProperties";` +
        `R.fail(E,${at},${join(kw, '"/"+w')},w,": "+R.countMessage(${cp},n));ok=false;}`;
    }
    for (let i = 0; i < p.depNames.length; i++) {
      const name = p.depNames[i];
      const kl = cat(kw, '/dependentRequired/' + escapeToken(name));
      const needs = p.depNeeds[i].map((r) => `if(!(${present(r)})){if(R.full(E))return false;` +
        `${this.fail(at, kl, 'dependentRequired', { head: dependencyMissing(r, name), rest: null })}ok=false;}`);
      if (needs.length > 0) out += `if(${present(name)}){${needs.join('')}}`;
    }
    for (let i = 0; i < p.depSchemaNames.length; i++) {
      const name = p.depSchemaNames[i];
      const q = p.depSchemaPlans[i];
      if (q === TRUE_PLAN) continue;
      const explained = this.child(q, 'x', 'd', at, cat(kw, '/dependentSchemas/' + escapeToken(name)));
      out += `if(${present(name)}${q === FALSE_PLAN ? '' : `&&!${this.g.check(q, 'x', 'd')}`}){${explained}}`;
    }
    return out;
  }

  /**
   * For an object with only `properties` and `required`: the properties read by name, in the
   * schema's order; when at most one fails, its errors and then the missing names are the
   * walk's (the order of the value's keys matters only between two failing properties). Returns
   * a statement that ends with an `if` whose `else` the caller gives the walk, or `''`;
   * `required` holds the checks of the missing names.
   */
  private singleFailure(p: Plan, at: string, kw: string, required: string): string {
    const f = this.g.fresh('u');
    const label = this.g.fresh('L');
    const ys: string[] = [];
    let find = '';
    let explain = '';
    for (let i = 0; i < p.nProps; i++) {
      const sub = p.keyPlans[i];
      if (sub === null || sub === TRUE_PLAN) continue;
      const name = p.keys[i];
      const y = this.g.fresh('y');
      ys.push(y);
      const fails = sub === FALSE_PLAN ? 'true' : `!${this.g.check(sub, y, 'd+1')}`;
      find += `${y}=${this.g.load(name)};if(${y}!==undefined&&${fails}){if(${f}!==-1){${f}=-2;break ${label};}${f}=${i};}`;
      explain += `case ${i}:${this.child(sub, y, 'd+1', cat(at, '/' + escapeToken(name)),
        cat(kw, '/properties/' + escapeToken(name)), { head: propertyNotAllowed(name), rest: null })}break;`;
    }
    if (find === '') return '';
    return `let ${f}=-1,${ys.join(',')};${label}:{${find}}if(${f}!==-2){switch(${f}){${explain}}${required}}`;
  }

  /** The array keywords (`evaluateArray`), for an array `x`. */
  private array(p: Plan, at: string, kw: string): string {
    const cp = this.g.constant(p);
    let out = 'const n=x.length;';
    if (p.minItems > 0 || p.maxItems < Infinity) {
      out += `if(n<${p.minItems}||n>${p.maxItems}){if(R.full(E))return false;const w=R.sizeFailure(${cp},n);` +
        `R.fail(E,${at},${join(kw, '"/"+w[0]')},w[0],": "+w[1]);ok=false;}`;
    }
    for (let j = 0; j < p.prefix.length; j++) {
      const y = this.g.fresh('y');
      const step = this.guarded(p.prefix[j], y, 'd+1', cat(at, '/' + j), cat(kw, '/prefixItems/' + j),
        { head: itemNotAllowed(j), rest: null });
      if (step !== '') out += `if(n>${j}){const ${y}=x[${j}];${step}}`;
    }
    if (p.items !== null && p.items !== TRUE_PLAN) {
      const y = this.g.fresh('y');
      const i = this.g.fresh('i');
      out += `for(let ${i}=${p.prefix.length};${i}<n;${i}++){const ${y}=x[${i}];` +
        `${this.guarded(p.items, y, 'd+1', join(at, `"/"+${i}`), cat(kw, '/items'), { head: '', rest: `R.itemNotAllowed(${i})` })}}`;
    }
    if (p.contains !== null) {
      const enough = p.maxContains === Infinity ? p.minContains : Infinity;
      const c = this.g.fresh('t');
      const i = this.g.fresh('i');
      const y = this.g.fresh('y');
      out += `let ${c}=0;for(let ${i}=0;${i}<n${enough === Infinity ? '' : `&&${c}<${enough}`};${i}++){` +
        `const ${y}=x[${i}];if(${this.g.check(p.contains, y, 'd+1')})${c}++;}`;
      out += `if(${c}<${p.minContains}||${c}>${p.maxContains}){if(R.full(E))return false;` +
        `const w=R.containsFailure(${cp},${c});R.fail(E,${at},${join(kw, '"/"+w[0]')},w[0],": "+w[1]);ok=false;}`;
    }
    if (p.unique) {
      out += 'if(n>1){const w=R.duplicate(x,E.maxDepth,d);if(w!==undefined){' +
        `R.fail(E,${join(at, 'w[0]')},${cat(kw, '/uniqueItems')},"uniqueItems",": "+w[1]);if(R.full(E))return false;ok=false;}}`;
    }
    return out;
  }

  /** `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if` (`logic` in `evaluate.ts`). */
  private logic(p: Plan, at: string, kw: string): string {
    let out = '';
    const target = p.ref;
    if (target === FALSE_PLAN) {
      out += `${this.fail(at, kw, 'false', { head: FALSE_MESSAGE, rest: null })}if(R.full(E))return false;ok=false;`;
    } else if (target !== null && target !== TRUE_PLAN) {
      out += 'R.spend(E);';
      const ref = cat(kw, '/' + p.refKeyword);
      const deep = p.refDeep
        ? `if(d>E.maxDepth){${this.fail(at, ref, p.refKeyword, { head: '', rest: 'R.tooDeep(E.maxDepth)' })}if(R.full(E))return false;ok=false;}else ` : '';
      if (p.refMemo) {
        out += `${deep}if(!R.memoRef(${this.g.constant(target)},x,d,E,${at},${ref})){if(R.full(E))return false;ok=false;}`;
      } else {
        out += `${deep}if(!${this.g.check(target, 'x', 'd')}){${this.child(target, 'x', 'd', at, ref)}}`;
      }
    }
    if (p.allOf.length > 0) {
      out += 'R.spend(E);';
      p.allOf.forEach((q, i) => {
        out += this.guarded(q, 'x', 'd', at, cat(kw, `/allOf/${i}`));
      });
    }
    if (p.anyOf.length > 0 && collects(p.anyOf)) {
      out += `R.spend(E);${this.collect(p.anyOf, at, kw, 'anyOf')}`;
    } else if (p.anyOf.length > 0) {
      out += 'R.spend(E);';
      const passes = p.anyOf.map((q) => this.g.check(q, 'x', 'd')).join('||');
      out += `if(!(${passes})){${this.branches(p.anyOf, at, kw, 'anyOf', anyOfMessage(p.anyOf.length))}if(R.full(E))return false;ok=false;}`;
    }
    if (p.oneOf.length > 0 && collects(p.oneOf)) {
      out += `R.spend(E);${this.collect(p.oneOf, at, kw, 'oneOf')}`;
    } else if (p.oneOf.length > 0) {
      out += 'R.spend(E);';
      const o = this.g.fresh('o');
      out += `{const ${o}=[];` + p.oneOf.map((q, i) => `if(${this.g.check(q, 'x', 'd')})${o}.push(${i});`).join('') +
        `if(${o}.length!==1){if(${o}.length>1)R.fail(E,${at},${cat(kw, '/oneOf')},"oneOf",": "+R.oneOfManyMessage(${o}));` +
        `else{${this.branches(p.oneOf, at, kw, 'oneOf', oneOfNoneMessage(p.oneOf.length))}}if(R.full(E))return false;ok=false;}}`;
    }
    if (p.not !== null) {
      out += `R.spend(E);if(${this.g.check(p.not, 'x', 'd')}){${this.fail(at, cat(kw, '/not'), 'not', { head: NOT_MESSAGE, rest: null })}` +
        'if(R.full(E))return false;ok=false;}';
    }
    if (p.ifPlan !== null) {
      out += 'R.spend(E);';
      const branch = (q: Plan | null, word: string): string => {
        if (q === null || q === TRUE_PLAN) return '';
        const explained = `${this.explain(q, 'x', 'd', at, cat(kw, `/${word}`))}ok=false;`;
        return q === FALSE_PLAN ? explained : `if(!${this.g.check(q, 'x', 'd')}){${explained}}`;
      };
      out += `if(${this.g.check(p.ifPlan, 'x', 'd')}){${branch(p.thenPlan, 'then')}}else{${branch(p.elsePlan, 'else')}}`;
    }
    return out;
  }

  /**
   * `anyOf`/`oneOf` in one pass: each branch explained; a passing one drops the errors since `m`
   * (and ends `anyOf`); when none passes, `R.summarise` puts one error before the branches'.
   */
  private collect(list: readonly Plan[], at: string, kw: string, keyword: 'anyOf' | 'oneOf'): string {
    const m = this.g.fresh('m');
    const label = this.g.fresh('L');
    const any = keyword === 'anyOf';
    const o = this.g.fresh('o');
    const passed = (i: number): string => (any ? `R.drop(E,${m});break ${label};` : `(${o}??=[]).push(${i});`);
    let out = `const ${m}=R.count(E);${any ? '' : `let ${o}=null;`}`;
    list.forEach((q, i) => {
      const where = cat(kw, `/${keyword}/${i}`);
      // (A leaf, `true` or `false` is checked inline, then explained.)
      out += isLeaf(q) ? `if(${this.g.check(q, 'x', 'd')}){${passed(i)}}else{${this.explain(q, 'x', 'd', at, where)}}`
        : `if(${this.fn(q, at, where)}(x,d,E,${at},${where})){${passed(i)}}`;
    });
    const none = `R.summarise(E,${m},${at},${cat(kw, '/' + keyword)},"${keyword}",` +
      `${lit(any ? anyOfMessage(list.length) : oneOfNoneMessage(list.length))});if(R.full(E))return false;ok=false;`;
    if (any) return `${label}:{${out}${none}}`;
    return `{${out}if(${o}===null){${none}}else{R.drop(E,${m});if(${o}.length>1){` +
      `R.fail(E,${at},${cat(kw, '/oneOf')},"oneOf",": "+R.oneOfManyMessage(${o}));if(R.full(E))return false;ok=false;}}}`;
  }

  /** Every branch of a failed `anyOf`/`oneOf` explained, after one error that says so. */
  private branches(list: readonly Plan[], at: string, kw: string, keyword: string, message: string): string {
    const m = this.g.fresh('m');
    let out = `const ${m}=R.count(E);`;
    list.forEach((q, i) => {
      out += this.explain(q, 'x', 'd', at, cat(kw, `/${keyword}/${i}`));
    });
    return `${out}R.summarise(E,${m},${at},${cat(kw, '/' + keyword)},"${keyword}",${lit(message)});`;
  }
}
