/**
 * Compiles a schema document into plans (`plan.ts`) in one walk: this is what `compileSchema`
 * runs, so it throws the `SchemaCompileError`s. Each keyword is read by its definition
 * (`keywords-*.ts`), which checks its value; this file walks the document, resolves `$ref`s
 * within it (nothing is fetched) and, once every plan is built, refuses `$ref` loops that never
 * descend into the value, marks `$ref`s into a recursive loop for the depth limit and, where one
 * value may meet the loop twice (`plan-ambiguity.ts`), the per-value memo, and marks shared plans
 * for the memo (`plan-memo.ts`).
 *
 * Spec: JSON Schema 2020-12 Core §8.2.3 ($ref), §9.4.1 (infinite recursion), §10
 * (applicators), §11 (unevaluated*); Validation §6 (keyword values), §7 (format).
 * @module
 */
import { isObject } from '../protocol/messages.js';
import type { Assertion } from './assertion.js';
import { own, type ReadContext, type SchemaObject } from './context.js';
import { type SchemaIndex, type SchemaTarget, dynamicName, findTarget } from './dereference.js';
import { readArray } from './keywords-array.js';
import { readLogic } from './keywords-logic.js';
import { NUMBER_KEYWORDS } from './keywords-number.js';
import { readObject } from './keywords-object.js';
import { STRING_KEYWORDS } from './keywords-string.js';
import { readType } from './keywords-type.js';
import { VALUE_KEYWORDS } from './keywords-value.js';
import { escapeToken } from './pointer.js';
import { FALSE_PLAN, Flag, Plan, TRUE_PLAN, childrenOf, inPlaceOf, opOf } from './plan.js';
import { analyse } from './ref-graph.js';
import { needsMemo } from './plan-ambiguity.js';
import { memoiseShared } from './plan-memo.js';
import { GROUP, G_ARRAY, G_NUMBER, G_OBJECT, G_OTHER, G_STRING, KNOWN } from './vocabulary.js';
import { SchemaCompileError } from './types.js';

const NO_CHECKS: Assertion[] = [];

/**
 * The dynamic scope as far as `$dynamicRef` can see it (Core §7.1, §8.2.3.2): for each anchor
 * name a `$dynamicRef` of the document uses, the `$dynamicAnchor` of the outermost schema
 * resource entered so far that defines it. `key` names it; plans are compiled once per scope.
 */
interface Scope {
  readonly key: string;
  readonly targets: ReadonlyMap<string, SchemaTarget>;
}

const NO_SCOPE: Scope = { key: '', targets: new Map() };
/** Dynamic scopes compiled at most (each compiles the plans it reaches once more). */
const MAX_SCOPES = 64;

/** Compiles one document into plans. Use `compile` once per instance. */
export class PlanCompiler implements ReadContext {
  readonly formatAssertion: boolean;
  private readonly index: SchemaIndex;
  private readonly strict: boolean;
  /** The plans of each scope (one scope, `''`, for a document without `$dynamicRef`). */
  private readonly scopes = new Map<string, Map<object, Plan>>();
  private scope: Scope = NO_SCOPE;
  /** The plans of `scope`. */
  private current: Map<object, Plan>;
  private readonly all: Plan[] = [];
  private readonly pending: [Plan, SchemaObject, string, string, Scope][] = [];
  private refs = 0;
  /** `$ref` targets (plans), and how many `$ref`s were compiled so far (for `Plan.hasRef`). */
  private readonly targets: Plan[] = [];
  private refsSeen = 0;

  constructor(index: SchemaIndex, strict: boolean, formatAssertion: boolean) {
    this.index = index;
    this.strict = strict;
    this.formatAssertion = formatAssertion;
    this.current = this.plansOf(NO_SCOPE);
  }

  /** The plan of the root schema `root`. Throws `SchemaCompileError` for a broken schema. */
  compile(root: unknown, base: string): Plan {
    this.scope = this.enter(NO_SCOPE, isObject(root) ? this.index.baseOf.get(root) ?? base : base);
    this.current = this.plansOf(this.scope);
    const plan = this.sub(root, '', base);
    for (let i = 0; i < this.pending.length; i++) {
      const [p, schema, path, at, scope] = this.pending[i];
      if (p.flags === -1) this.fillIn(scope, p, schema, path, at);
    }
    // Edges other than `$ref` lead into the schema object, so every loop takes a `$ref` whose
    // target holds a `$ref` itself: without one (most documents), there is nothing to analyse.
    if (this.refs > 0 && this.targets.some((t) => t.hasRef)) {
      const loop = analyse(this.all, inPlaceOf, childrenOf);
      if (loop !== undefined) {
        throw new SchemaCompileError(loop, '$ref loop that never descends into the value: ' +
          'evaluating it would recurse forever');
      }
      let deep = false;
      for (const p of this.all) {
        if (p.ref !== null && p.ref.recursive) deep = p.refDeep = true;
      }
      // The memo only where one value may meet a loop's plan twice (most recursive schemas,
      // trees and nested filters, never do).
      if (deep && needsMemo(plan)) for (const p of this.all) p.refMemo = p.refDeep;
    }
    memoiseShared(this.all, plan);
    for (const p of this.all) p.op = opOf(p);
    return plan;
  }

  /** The plan of the subschema `schema` at document `path` (see `ReadContext`). */
  sub(schema: unknown, path: string, base: string): Plan {
    if (schema === true) return TRUE_PLAN;
    if (schema === false) return FALSE_PLAN;
    if (!isObject(schema)) {
      throw new SchemaCompileError(path, 'a schema must be an object or a boolean');
    }
    const own = this.index.baseOf.get(schema) ?? base;
    // A subschema with `$id` is a resource: entering it may bring `$dynamicAnchor`s into scope.
    const scope = this.index.dynamicNames.size > 0 && Object.prototype.hasOwnProperty.call(schema,
      '$id') ? this.enter(this.scope, own) : this.scope;
    const plans = scope === this.scope ? this.current : this.plansOf(scope);
    let plan = plans.get(schema);
    if (plan === undefined) {
      plan = this.plan(plans, schema, path);
      this.fillIn(scope, plan, schema, path, own);
    } else if (plan.flags === -1) {
      // Met first as a `$ref` target, still pending: compile it now, at its own path.
      this.fillIn(scope, plan, schema, plan.path, own);
    } else if (plan.hasRef) {
      this.refsSeen++; // A subschema met twice: its `$ref`s count for this parent too.
    }
    return plan;
  }

  private plan(plans: Map<object, Plan>, schema: SchemaObject, path: string): Plan {
    const plan = new Plan();
    plan.path = path;
    plan.flags = -1; // Not filled in yet.
    plans.set(schema, plan);
    this.all.push(plan);
    return plan;
  }

  /** The plans compiled in `scope`. */
  private plansOf(scope: Scope): Map<object, Plan> {
    let plans = this.scopes.get(scope.key);
    if (plans === undefined) {
      // Each scope compiles its plans anew: bound them (real documents have one to three).
      if (this.scopes.size >= MAX_SCOPES) {
        throw new SchemaCompileError(this.index.dynamicRef ?? '', `more than ${MAX_SCOPES} ` +
          'dynamic scopes ($dynamicAnchor combinations) to compile $dynamicRef in');
      }
      plans = new Map();
      this.scopes.set(scope.key, plans);
    }
    return plans;
  }

  /** `fill` with `scope` as the current dynamic scope. */
  private fillIn(scope: Scope, plan: Plan, schema: SchemaObject, path: string, base: string): void {
    if (scope === this.scope) {
      this.fill(plan, schema, path, base);
      return;
    }
    const [savedScope, savedPlans] = [this.scope, this.current];
    this.scope = scope;
    this.current = this.plansOf(scope);
    try {
      this.fill(plan, schema, path, base);
    } finally {
      this.scope = savedScope;
      this.current = savedPlans;
    }
  }

  /**
   * `scope` after entering the schema resource `uri`: each name a `$dynamicRef` uses and no outer
   * resource defined, taken from the resource's `$dynamicAnchor`s.
   */
  private enter(scope: Scope, uri: string): Scope {
    let targets: Map<string, SchemaTarget> | undefined;
    for (const name of this.index.dynamicNames) {
      if (scope.targets.has(name)) continue;
      const target = this.index.dynamicAnchors.get(uri + '#' + name);
      if (target === undefined) continue;
      targets ??= new Map(scope.targets);
      targets.set(name, target);
    }
    if (targets === undefined) return scope;
    const key = [...targets].map(([name, t]) => `${name}=${t.base}#${t.path}`).sort().join(' ');
    return { key, targets };
  }

  private fill(plan: Plan, schema: SchemaObject, path: string, base: string): void {
    const refsBefore = this.refsSeen;
    this.fillKeywords(plan, schema, path, base);
    plan.hasRef = this.refsSeen > refsBefore;
  }

  private fillKeywords(plan: Plan, schema: SchemaObject, path: string, base: string): void {
    let present = 0;
    for (const k in schema) {
      if (!Object.prototype.hasOwnProperty.call(schema, k)) continue;
      present |= GROUP.get(k) ?? 0;
      if (this.strict && !KNOWN.has(k)) {
        throw new SchemaCompileError(`${path}/${escapeToken(k)}`,
          `unknown keyword ${JSON.stringify(k)} (strict mode)`);
      }
    }
    plan.flags = 0;
    if (present === 0) return;
    let flags = 0;
    if ((present & G_OTHER) !== 0) {
      const defs = own(schema, '$defs');
      if (defs !== undefined) {
        if (!isObject(defs)) {
          throw new SchemaCompileError(`${path}/$defs`, '$defs must be an object');
        }
        for (const k of Object.keys(defs)) {
          this.sub(defs[k], `${path}/$defs/${escapeToken(k)}`, base);
        }
      }
      if (readType(plan, schema, path)) flags |= Flag.Type;
    }
    if ((present & G_NUMBER) !== 0) {
      plan.numberChecks = this.assertions(NUMBER_KEYWORDS, plan, schema, path);
    }
    if ((present & G_STRING) !== 0) {
      plan.stringChecks = this.assertions(STRING_KEYWORDS, plan, schema, path);
    }
    if ((present & G_ARRAY) !== 0) flags |= readArray(plan, schema, path, base, this);
    if ((present & G_OBJECT) !== 0) flags |= readObject(plan, schema, path, base, this);
    if ((present & G_OTHER) !== 0) {
      plan.valueChecks = this.assertions(VALUE_KEYWORDS, plan, schema, path);
      flags |= readLogic(plan, schema, path, base, this);
    }
    for (const list of [plan.numberChecks, plan.stringChecks, plan.valueChecks]) {
      for (const a of list) flags |= a.flag;
    }
    plan.flags = flags;
  }

  /** The assertions of `keywords` that `schema` has (and can fail), read into `plan`. */
  private assertions(keywords: readonly Assertion[], plan: Plan, schema: SchemaObject,
    path: string): Assertion[] {
    const present = keywords.filter((a) => a.read(plan, schema, path, this));
    return present.length === 0 ? NO_CHECKS : present;
  }

  /** The plan a `$ref` value points to (see `ReadContext`). */
  ref(ref: unknown, path: string, base: string): Plan {
    if (typeof ref !== 'string') {
      throw new SchemaCompileError(`${path}/$ref`, '$ref must be a string');
    }
    return this.refTo(this.target('$ref', ref, path, base));
  }

  /**
   * The plan a `$dynamicRef` value points to (see `ReadContext`): its `$ref` target, unless that
   * is a `$dynamicAnchor` of the name in the fragment; then the outermost resource in the dynamic
   * scope that defines that `$dynamicAnchor` (Core §8.2.3.2), known here because plans are
   * compiled per scope.
   */
  dynamicRef(ref: unknown, path: string, base: string): Plan {
    if (typeof ref !== 'string') {
      throw new SchemaCompileError(`${path}/$dynamicRef`, '$dynamicRef must be a string');
    }
    let target = this.target('$dynamicRef', ref, path, base);
    const name = dynamicName(ref);
    const schema = target.schema as unknown;
    if (name !== undefined && isObject(schema) && own(schema, '$dynamicAnchor') === name) {
      target = this.scope.targets.get(name) ?? target;
    }
    return this.refTo(target);
  }

  private target(keyword: string, ref: string, path: string, base: string): SchemaTarget {
    const target = findTarget(this.index, ref, base);
    if (target === undefined) {
      throw new SchemaCompileError(`${path}/${keyword}`, `${keyword} ${JSON.stringify(ref)} does ` +
        'not point into this schema; schemas are never fetched, so put the target under $defs');
    }
    return target;
  }

  /** The plan of a `$ref` target (compiled later, in the scope the target's resource gives). */
  private refTo(target: SchemaTarget): Plan {
    this.refs++;
    this.refsSeen++;
    const schema = target.schema as unknown;
    if (typeof schema === 'boolean') return schema ? TRUE_PLAN : FALSE_PLAN;
    const object = schema as SchemaObject;
    const scope = this.index.dynamicNames.size > 0 ? this.enter(this.scope, target.base)
      : this.scope;
    const plans = scope === this.scope ? this.current : this.plansOf(scope);
    let plan = plans.get(object);
    if (plan === undefined) {
      plan = this.plan(plans, object, target.path);
      this.pending.push([plan, object, target.path, target.base, scope]);
    }
    this.targets.push(plan);
    return plan;
  }
}
