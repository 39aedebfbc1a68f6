/**
 * Compiles a schema document into plans (`plan.ts`) in one walk, checking every keyword value
 * on the way: this is what `compileSchema` runs, so it throws the `SchemaCompileError`s. The
 * closures that write error messages (`validate.ts`) are only compiled when a value first
 * fails, from the same document, which keeps compiling cheap.
 *
 * The walk visits keywords in the order the closures' compiler does, so a broken schema is
 * refused at the same place. `$ref` targets are compiled after the document, and resolved within
 * it only (nothing is fetched). Once every plan is built, `$ref` loops that never descend into
 * the value are refused, `$ref`s into a recursive loop are marked for the depth limit and the
 * per-value memo, and a schema that is only a `$ref` to a non-recursive target is replaced by
 * that target.
 *
 * Spec: JSON Schema 2020-12 Core §8.2.3 ($ref), §9.4.1 (infinite recursion), §10
 * (applicators), §11 (unevaluated*); Validation §6 (keyword values), §7 (format).
 * @module
 */
import {
  type SchemaObject, count, numberValue, own, regexOf, schemaList, schemaMap, stringList,
} from './context.js';
import { isObject } from '../protocol/messages.js';
import { type SchemaIndex, findTarget } from './dereference.js';
import { formatCheck } from './format.js';
import { decimals, parseType } from './keywords-scalar.js';
import { escapeToken } from './pointer.js';
import {
  type ClosureSource, FALSE_PLAN, Flag, Plan, TRUE_PLAN, alias, childrenOf, inPlaceOf, opOf, redirect,
} from './plan.js';
import { analyse } from './ref-graph.js';
import { memoiseShared } from './plan-memo.js';
import { GROUP, G_ARRAY, G_NUMBER, G_OBJECT, G_OTHER, G_STRING, KNOWN } from './vocabulary.js';
import { SchemaCompileError } from './types.js';

/** Compiles one document into plans. Use `compile` once per instance. */
export class PlanCompiler {
  private readonly index: SchemaIndex;
  private readonly strict: boolean;
  private readonly formatAssertion: boolean;
  private readonly closures: ClosureSource;
  private readonly plans = new Map<object, Plan>();
  private readonly all: Plan[] = [];
  private readonly pending: [Plan, SchemaObject, string, string][] = [];
  private refs = 0;
  /** `$ref` targets (plans), and how many `$ref`s were compiled so far (for `Plan.hasRef`). */
  private readonly targets: Plan[] = [];
  private refsSeen = 0;

  /** @param closures compiles the closures of `unevaluated*` schemas when first needed. */
  constructor(
    index: SchemaIndex, strict: boolean, formatAssertion: boolean, closures: ClosureSource,
  ) {
    this.index = index;
    this.strict = strict;
    this.formatAssertion = formatAssertion;
    this.closures = closures;
  }

  /** The plan of the root schema `root`. Throws `SchemaCompileError` for a broken schema. */
  compile(root: unknown, base: string): Plan {
    let plan = this.sub(root, '', base);
    for (let i = 0; i < this.pending.length; i++) {
      const [p, schema, path, at] = this.pending[i];
      if (p.flags === -1) this.fill(p, schema, path, at);
    }
    if (this.refs === 0) {
      this.all.push(...memoiseShared(this.all, plan));
      for (const p of this.all) p.op = opOf(p);
      return plan;
    }
    // Edges other than `$ref` lead into the schema object, so every loop takes a `$ref` whose
    // target holds a `$ref` itself: without one (most documents), there is nothing to analyse.
    if (this.targets.some((t) => t.hasRef)) {
      const loop = analyse(this.all, inPlaceOf, childrenOf);
      if (loop !== undefined) {
        throw new SchemaCompileError(loop, '$ref loop that never descends into the value: ' +
          'evaluating it would recurse forever');
      }
      for (const p of this.all) if (p.ref !== null && p.ref.recursive) p.refMemo = true;
    }
    if (this.all.some((p) => alias(p) !== p)) {
      for (const p of this.all) redirect(p);
      plan = alias(plan);
    }
    this.all.push(...memoiseShared(this.all, plan));
    for (const p of this.all) p.op = opOf(p);
    return plan;
  }

  private sub(schema: unknown, path: string, base: string): Plan {
    if (schema === true) return TRUE_PLAN;
    if (schema === false) return FALSE_PLAN;
    if (!isObject(schema)) {
      throw new SchemaCompileError(path, 'a schema must be an object or a boolean');
    }
    let plan = this.plans.get(schema);
    if (plan === undefined) {
      plan = this.plan(schema, path);
      this.fill(plan, schema, path, this.index.baseOf.get(schema) ?? base);
    } else if (plan.flags === -1) {
      // Met first as a `$ref` target, still pending: compile it now, at its own path.
      this.fill(plan, schema, plan.path, this.index.baseOf.get(schema) ?? base);
    } else if (plan.hasRef) {
      this.refsSeen++; // A subschema met twice: its `$ref`s count for this parent too.
    }
    return plan;
  }

  private plan(schema: SchemaObject, path: string): Plan {
    const plan = new Plan();
    plan.path = path;
    plan.flags = -1; // Not filled in yet.
    this.plans.set(schema, plan);
    this.all.push(plan);
    return plan;
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
      if (own(schema, 'type') !== undefined) {
        plan.types = parseType(schema, path).mask;
        flags |= Flag.Type;
      }
    }
    if ((present & G_NUMBER) !== 0) flags |= this.numbers(plan, schema, path);
    if ((present & G_STRING) !== 0) flags |= this.strings(plan, schema, path);
    if ((present & G_ARRAY) !== 0) flags |= this.arrays(plan, schema, path, base);
    if ((present & G_OBJECT) !== 0) flags |= this.objects(plan, schema, path, base);
    if ((present & G_OTHER) !== 0) flags |= this.others(plan, schema, path, base);
    plan.flags = flags;
  }

  private numbers(plan: Plan, schema: SchemaObject, path: string): number {
    const min = numberValue(schema, 'minimum', path);
    const max = numberValue(schema, 'maximum', path);
    const xmin = numberValue(schema, 'exclusiveMinimum', path);
    const xmax = numberValue(schema, 'exclusiveMaximum', path);
    const mult = numberValue(schema, 'multipleOf', path);
    if (mult !== undefined && mult <= 0) {
      throw new SchemaCompileError(`${path}/multipleOf`, 'multipleOf must be greater than 0');
    }
    let flags = 0;
    if (min !== undefined || max !== undefined) {
      plan.min = min ?? -Infinity;
      plan.max = max ?? Infinity;
      flags |= Flag.Range;
    }
    if (xmin !== undefined || xmax !== undefined || mult !== undefined) {
      plan.xmin = xmin ?? -Infinity;
      plan.xmax = xmax ?? Infinity;
      if (mult !== undefined) {
        plan.mult = mult;
        plan.multDecimals = decimals(mult);
      }
      flags |= Flag.NumberMore;
    }
    return flags;
  }

  private strings(plan: Plan, schema: SchemaObject, path: string): number {
    const minLength = count(schema, 'minLength', path);
    const maxLength = count(schema, 'maxLength', path);
    const source = own(schema, 'pattern');
    const pattern = source === undefined ? null : regexOf(source, `${path}/pattern`);
    const format = own(schema, 'format');
    if (format !== undefined && typeof format !== 'string') {
      throw new SchemaCompileError(`${path}/format`, 'format must be a string');
    }
    let flags = 0;
    if (minLength !== undefined || maxLength !== undefined) {
      plan.minLength = minLength ?? 0;
      plan.maxLength = maxLength ?? Infinity;
      flags |= Flag.Length;
    }
    plan.pattern = pattern;
    if (this.formatAssertion && format !== undefined) plan.format = formatCheck(format) ?? null;
    if (plan.pattern !== null || plan.format !== null) flags |= Flag.StringMore;
    return flags;
  }

  private arrays(plan: Plan, schema: SchemaObject, path: string, base: string): number {
    const prefix = schemaList(schema, 'prefixItems', path);
    if (prefix !== undefined) {
      plan.prefix = prefix.map((x, i) => this.sub(x, `${path}/prefixItems/${i}`, base));
    }
    const items = own(schema, 'items');
    if (Array.isArray(items)) {
      throw new SchemaCompileError(`${path}/items`,
        'items must be a schema in JSON Schema 2020-12; write a tuple as prefixItems');
    }
    if (items !== undefined && items !== true) plan.items = this.sub(items, `${path}/items`, base);
    const contains = own(schema, 'contains');
    if (contains !== undefined) plan.contains = this.sub(contains, `${path}/contains`, base);
    plan.minContains = count(schema, 'minContains', path) ?? 1;
    plan.maxContains = count(schema, 'maxContains', path) ?? Infinity;
    plan.minItems = count(schema, 'minItems', path) ?? 0;
    plan.maxItems = count(schema, 'maxItems', path) ?? Infinity;
    const unique = own(schema, 'uniqueItems');
    if (unique !== undefined && typeof unique !== 'boolean') {
      throw new SchemaCompileError(`${path}/uniqueItems`, 'uniqueItems must be a boolean');
    }
    plan.unique = unique === true;
    return plan.prefix.length > 0 || plan.items !== null || plan.contains !== null ||
      plan.minItems !== 0 || plan.maxItems !== Infinity || plan.unique ? Flag.Array : 0;
  }

  private objects(plan: Plan, schema: SchemaObject, path: string, base: string): number {
    const props = schemaMap(schema, 'properties', path);
    const names = props === undefined ? [] : Object.keys(props);
    const propPlans = names.map((n) =>
      this.sub(props?.[n], `${path}/properties/${escapeToken(n)}`, base));
    const patternMap = schemaMap(schema, 'patternProperties', path);
    if (patternMap !== undefined) {
      const sources = Object.keys(patternMap);
      plan.patterns = sources.map((p) => regexOf(p, `${path}/patternProperties/${escapeToken(p)}`));
      plan.patternPlans = sources.map((p) =>
        this.sub(patternMap[p], `${path}/patternProperties/${escapeToken(p)}`, base));
    }
    const additional = own(schema, 'additionalProperties');
    if (additional !== undefined && additional !== true) {
      plan.additional = this.sub(additional, `${path}/additionalProperties`, base);
    }
    const propertyNames = own(schema, 'propertyNames');
    if (propertyNames !== undefined && propertyNames !== true) {
      plan.propertyNames = this.sub(propertyNames, `${path}/propertyNames`, base);
    }
    const requiredValue = own(schema, 'required');
    const required = requiredValue === undefined
      ? [] : stringList(requiredValue, `${path}/required`, 'required');
    plan.minProps = count(schema, 'minProperties', path) ?? 0;
    plan.maxProps = count(schema, 'maxProperties', path) ?? Infinity;
    const depRequired = schemaMap(schema, 'dependentRequired', path);
    if (depRequired !== undefined) {
      plan.depNames = Object.keys(depRequired);
      plan.depNeeds = plan.depNames.map((k) => stringList(depRequired[k],
        `${path}/dependentRequired/${escapeToken(k)}`, 'each dependentRequired value'));
    }
    const depSchemas = schemaMap(schema, 'dependentSchemas', path);
    if (depSchemas !== undefined) {
      plan.depSchemaNames = Object.keys(depSchemas);
      plan.depSchemaPlans = plan.depSchemaNames.map((k) =>
        this.sub(depSchemas[k], `${path}/dependentSchemas/${escapeToken(k)}`, base));
    }
    const keys = names.concat(required.filter((r) => !names.includes(r)));
    plan.keys = keys;
    plan.keyPlans = keys.map((_, i) => (i < names.length ? propPlans[i] : null));
    plan.keyFlags = keys.map((k) => (required.includes(k) ? 1 : 0));
    plan.nRequired = required.length;
    if (keys.length > 8) plan.byName = new Map(keys.map((k, i): [string, number] => [k, i]));
    return keys.length > 0 || patternMap !== undefined || additional !== undefined ||
      propertyNames !== undefined || plan.minProps !== 0 || plan.maxProps !== Infinity ||
      depRequired !== undefined || depSchemas !== undefined ? Flag.Object : 0;
  }

  private others(plan: Plan, schema: SchemaObject, path: string, base: string): number {
    let flags = 0;
    const values = own(schema, 'enum');
    if (values !== undefined) {
      if (!Array.isArray(values)) {
        throw new SchemaCompileError(`${path}/enum`, 'enum must be an array');
      }
      plan.values = values.filter((x) => typeof x !== 'object' || x === null);
      plan.objectValues = values.filter((x) => typeof x === 'object' && x !== null);
      flags |= Flag.Enum;
    }
    if (Object.prototype.hasOwnProperty.call(schema, 'const')) {
      plan.hasConst = true;
      plan.constValue = schema.const;
      flags |= Flag.Const;
    }
    const ref = own(schema, '$ref');
    if (ref !== undefined) plan.ref = this.ref(ref, path, base);
    const allOf = schemaList(schema, 'allOf', path);
    if (allOf !== undefined) {
      plan.allOf = allOf.map((x, i) => this.sub(x, `${path}/allOf/${i}`, base));
    }
    const anyOf = schemaList(schema, 'anyOf', path);
    if (anyOf !== undefined) {
      plan.anyOf = anyOf.map((x, i) => this.sub(x, `${path}/anyOf/${i}`, base));
    }
    const oneOf = schemaList(schema, 'oneOf', path);
    if (oneOf !== undefined) {
      plan.oneOf = oneOf.map((x, i) => this.sub(x, `${path}/oneOf/${i}`, base));
    }
    const not = own(schema, 'not');
    if (not !== undefined) plan.not = this.sub(not, `${path}/not`, base);
    const cond = own(schema, 'if');
    if (cond !== undefined) {
      plan.ifPlan = this.sub(cond, `${path}/if`, base);
      const then = own(schema, 'then');
      if (then !== undefined) plan.thenPlan = this.sub(then, `${path}/then`, base);
      const otherwise = own(schema, 'else');
      if (otherwise !== undefined) plan.elsePlan = this.sub(otherwise, `${path}/else`, base);
    }
    if (plan.ref !== null || allOf !== undefined || anyOf !== undefined || oneOf !== undefined ||
      not !== undefined || cond !== undefined) {
      flags |= Flag.Logic;
    }
    const uProps = own(schema, 'unevaluatedProperties');
    const uItems = own(schema, 'unevaluatedItems');
    if (uProps !== undefined || uItems !== undefined) {
      if (uProps !== undefined && uProps !== true) {
        plan.uProps = this.sub(uProps, `${path}/unevaluatedProperties`, base);
      }
      if (uItems !== undefined && uItems !== true) {
        plan.uItems = this.sub(uItems, `${path}/unevaluatedItems`, base);
      }
      plan.schema = schema;
      plan.closures = this.closures;
      flags |= Flag.Call;
    }
    return flags;
  }

  private ref(ref: unknown, path: string, base: string): Plan {
    if (typeof ref !== 'string') {
      throw new SchemaCompileError(`${path}/$ref`, '$ref must be a string');
    }
    const target = findTarget(this.index, ref, base);
    if (target === undefined) {
      throw new SchemaCompileError(`${path}/$ref`, `$ref ${JSON.stringify(ref)} does not point ` +
        'into this schema; schemas are never fetched, so put the target under $defs');
    }
    this.refs++;
    this.refsSeen++;
    const schema = target.schema as unknown;
    if (typeof schema === 'boolean') return schema ? TRUE_PLAN : FALSE_PLAN;
    const object = schema as SchemaObject;
    let plan = this.plans.get(object);
    if (plan === undefined) {
      plan = this.plan(object, target.path);
      this.pending.push([plan, object, target.path, target.base]);
    }
    this.targets.push(plan);
    return plan;
  }
}
