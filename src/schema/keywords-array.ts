/**
 * The array keywords: `prefixItems`, `items`, `contains` (with `minContains`, `maxContains`),
 * `minItems`, `maxItems` and `uniqueItems`, read once into a plan, with their messages and the
 * `uniqueItems` comparison. The walks over an array (one per backend: `verdict.ts`,
 * `evaluate-array.ts`, `plan-codegen.ts`) check them together, so that a value is walked once.
 *
 * Spec: JSON Schema 2020-12 Core §10.3.1 (array applicators); Validation §6.4.
 * @module
 */
import { count, own, schemaList, type ReadContext, type SchemaObject } from './context.js';
import { canonicalKey } from './deep-equal.js';
import { Flag, type Plan } from './plan.js';
import { report, type State } from './state.js';
import { SchemaCompileError } from './types.js';

/**
 * Reads the array keywords of `schema` into `plan`; returns `Flag.Array` when there is one.
 * @throws {SchemaCompileError} for a value JSON Schema 2020-12 does not allow there.
 */
export function readArray(plan: Plan, schema: SchemaObject, path: string, base: string,
  ctx: ReadContext): number {
  const prefix = schemaList(schema, 'prefixItems', path);
  if (prefix !== undefined) {
    plan.prefix = prefix.map((x, i) => ctx.sub(x, `${path}/prefixItems/${i}`, base));
  }
  const items = own(schema, 'items');
  if (Array.isArray(items)) {
    throw new SchemaCompileError(`${path}/items`,
      'items must be a schema in JSON Schema 2020-12; write a tuple as prefixItems');
  }
  if (items !== undefined && items !== true) plan.items = ctx.sub(items, `${path}/items`, base);
  plan.allItemsEvaluated = items !== undefined;
  const contains = own(schema, 'contains');
  if (contains !== undefined) plan.contains = ctx.sub(contains, `${path}/contains`, base);
  const minContains = count(schema, 'minContains', path);
  plan.minContainsGiven = minContains !== undefined;
  plan.minContains = minContains ?? 1;
  plan.maxContains = count(schema, 'maxContains', path) ?? Infinity;
  plan.minItems = count(schema, 'minItems', path) ?? 0;
  plan.maxItems = count(schema, 'maxItems', path) ?? Infinity;
  const unique = own(schema, 'uniqueItems');
  if (unique !== undefined && typeof unique !== 'boolean') {
    throw new SchemaCompileError(`${path}/uniqueItems`, 'uniqueItems must be a boolean');
  }
  plan.unique = unique === true;
  // (`items: true` checks nothing but evaluates every item, as `unevaluatedItems` needs to know.)
  return plan.prefix.length > 0 || items !== undefined || plan.contains !== null ||
    plan.minItems !== 0 || plan.maxItems !== Infinity || plan.unique ? Flag.Array : 0;
}

/** The keyword of `minItems`/`maxItems` that an array of `n` items fails, and its message. */
export function sizeFailure(p: Plan, n: number): [keyword: string, message: string] {
  return n < p.minItems
    ? ['minItems', `expected at least ${p.minItems} items, got ${n}`]
    : ['maxItems', `expected at most ${p.maxItems} items, got ${n}`];
}

/** Reports the `minItems`/`maxItems` failure of an array of `n` items. */
export function sizeError(p: Plan, n: number, s: State): false {
  const [keyword, message] = sizeFailure(p, n);
  return report(s, keyword, '/' + keyword, message);
}

/**
 * The keyword of `contains` (or `minContains`) / `maxContains` that `matches` matching items
 * fail, and its message.
 */
export function containsFailure(p: Plan, matches: number): [keyword: string, message: string] {
  if (matches < p.minContains) {
    return [p.minContainsGiven ? 'minContains' : 'contains',
      `expected at least ${p.minContains} items matching the "contains" schema, got ${matches}`];
  }
  return ['maxContains',
    `expected at most ${p.maxContains} items matching the "contains" schema, got ${matches}`];
}

/** Reports the `contains` failure of `matches` matching items. */
export function containsError(p: Plan, matches: number, s: State): false {
  const [keyword, message] = containsFailure(p, matches);
  return report(s, keyword, '/' + keyword, message);
}

/** The message of an item where the schema is `false` (a `prefixItems` or `items` entry). */
export function itemNotAllowed(i: number): string {
  return `item ${i} is not allowed here`;
}

/**
 * `uniqueItems` (Validation §6.4.3): the first repeated pair of `a` (nested `d` levels deep in
 * the value), as the instance location ('') and the message; an item nested deeper than
 * `maxDepth - d` levels is reported (at its location) instead of compared. Undefined when every
 * item is unique.
 */
export function duplicate(a: readonly unknown[], maxDepth: number,
  d: number): [instance: string, message: string] | undefined {
  const scalars = new Map<unknown, number>();
  const objects = new Map<string, number>();
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    let first: number | undefined;
    if (typeof x === 'object' && x !== null) {
      const key = canonicalKey(x, maxDepth - d);
      if (key === undefined) return ['/' + i, `item ${i} is nested deeper than ${maxDepth} levels`];
      first = objects.get(key);
      if (first === undefined) objects.set(key, i);
    } else {
      first = scalars.get(x);
      if (first === undefined) scalars.set(x, i);
    }
    if (first !== undefined) return ['', `items ${first} and ${i} are equal; every item must be unique`];
  }
  return undefined;
}

/** `uniqueItems`: false, reporting the failure (`duplicate`), when two items of `a` are equal. */
export function duplicates(a: readonly unknown[], s: State, d: number): boolean {
  const found = duplicate(a, s.maxDepth, d);
  return found === undefined || report(s, 'uniqueItems', '/uniqueItems', found[1], found[0]);
}

/** `uniqueItems` for a verdict: pairwise for a few scalars (no table), else `duplicates`. */
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
