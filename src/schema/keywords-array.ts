/**
 * Compiler for the array keywords, fused into one check per schema: `prefixItems`, `items`,
 * `contains` (with `minContains`, `maxContains`), `minItems`, `maxItems` and `uniqueItems`.
 *
 * Spec: JSON Schema 2020-12 Core §10.3.1 (array applicators); Validation §6.4.
 * @module
 */
import { type CompileContext, type SchemaObject, count, own, schemaList } from './context.js';
import { canonicalKey } from './deep-equal.js';
import { FALSE_FN, type Fn, type State, mark, prefix, quiet, report, stop } from './state.js';
import { typeFail } from './keywords-scalar.js';
import { SchemaCompileError } from './types.js';

function child(fn: Fn, x: unknown, s: State, d: number, i: number, kw: string): boolean {
  const m = mark(s);
  if (fn === FALSE_FN) {
    report(s, 'false', '', `item ${i} is not allowed here`);
  } else if (fn(x, s, d, null)) {
    return true;
  }
  prefix(s, m, '/' + i, kw);
  return false;
}

/**
 * `uniqueItems`: false (and reports the first repeated pair) when two items of `a` are equal;
 * items nested deeper than `s.maxDepth - d` levels fail instead of being compared.
 */
export function duplicates(a: readonly unknown[], s: State, d: number): boolean {
  const scalars = new Map<unknown, number>();
  const objects = new Map<string, number>();
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    let first: number | undefined;
    if (typeof x === 'object' && x !== null) {
      const key = canonicalKey(x, s.maxDepth - d);
      if (key === undefined) {
        return report(s, 'uniqueItems', '/uniqueItems',
          `item ${i} is nested deeper than ${s.maxDepth} levels`, '/' + i);
      }
      first = objects.get(key);
      if (first === undefined) objects.set(key, i);
    } else {
      first = scalars.get(x);
      if (first === undefined) scalars.set(x, i);
    }
    if (first !== undefined) {
      return report(s, 'uniqueItems', '/uniqueItems',
        `items ${first} and ${i} are equal; every item must be unique`);
    }
  }
  return true;
}

/**
 * Compiles the array keywords of `schema` into one check, or `undefined` when it has none. With
 * `guard` (the `type` names), the check first fails any value that is not an array.
 */
export function compileArray(
  schema: SchemaObject, path: string, base: string, ctx: CompileContext, guard?: readonly string[],
): Fn | undefined {
  const prefixSchemas = schemaList(schema, 'prefixItems', path) ?? [];
  const prefixFns = prefixSchemas.map((x, i) => ctx.sub(x, `${path}/prefixItems/${i}`, base));
  const itemsSchema = own(schema, 'items');
  if (Array.isArray(itemsSchema)) {
    throw new SchemaCompileError(`${path}/items`,
      'items must be a schema in JSON Schema 2020-12; write a tuple as prefixItems');
  }
  const items = itemsSchema === undefined || itemsSchema === true
    ? undefined
    : ctx.sub(itemsSchema, `${path}/items`, base);
  const containsSchema = own(schema, 'contains');
  const contains = containsSchema === undefined
    ? undefined
    : ctx.sub(containsSchema, `${path}/contains`, base);
  const minContainsValue = count(schema, 'minContains', path);
  const minContains = minContainsValue ?? 1;
  const maxContains = count(schema, 'maxContains', path) ?? Infinity;
  const minItems = count(schema, 'minItems', path) ?? 0;
  const maxItems = count(schema, 'maxItems', path) ?? Infinity;
  const uniqueValue = own(schema, 'uniqueItems');
  if (uniqueValue !== undefined && typeof uniqueValue !== 'boolean') {
    throw new SchemaCompileError(`${path}/uniqueItems`, 'uniqueItems must be a boolean');
  }
  const unique = uniqueValue === true;
  const evaluatesAll = itemsSchema !== undefined;
  const p = prefixFns.length;
  if (p === 0 && items === undefined && contains === undefined && minItems === 0 &&
    maxItems === Infinity && !unique && !evaluatesAll) {
    return undefined;
  }
  const containsKeyword = minContainsValue === undefined ? 'contains' : 'minContains';

  const full: Fn = (v, s, d, ev) => {
    if (guard !== undefined && !Array.isArray(v)) return typeFail(s, guard, v);
    const a = v as unknown[];
    const n = a.length;
    let ok = true;
    if (n < minItems || n > maxItems) {
      if (stop(s)) return false;
      ok = n < minItems
        ? report(s, 'minItems', '/minItems', `expected at least ${minItems} items, got ${n}`)
        : report(s, 'maxItems', '/maxItems', `expected at most ${maxItems} items, got ${n}`);
    }
    const shared = n < p ? n : p;
    for (let i = 0; i < shared; i++) {
      if (!child(prefixFns[i], a[i], s, d + 1, i, '/prefixItems/' + i)) {
        if (stop(s)) return false;
        ok = false;
      }
    }
    if (items !== undefined) {
      for (let i = p; i < n; i++) {
        if (!child(items, a[i], s, d + 1, i, '/items')) {
          if (stop(s)) return false;
          ok = false;
        }
      }
    }
    let matched: Set<number> | null = null;
    if (contains !== undefined) {
      let matches = 0;
      if (ev !== null) matched = new Set();
      const enough = maxContains === Infinity && matched === null ? minContains : Infinity;
      for (let i = 0; i < n && matches < enough; i++) {
        if (quiet(contains, a[i], s, d + 1, null)) {
          matches++;
          if (matched !== null) matched.add(i);
        }
      }
      if (matches < minContains || matches > maxContains) {
        if (stop(s)) return false;
        ok = matches < minContains
          ? report(s, containsKeyword, '/' + containsKeyword,
            `expected at least ${minContains} items matching the "contains" schema, got ${matches}`)
          : report(s, 'maxContains', '/maxContains',
            `expected at most ${maxContains} items matching the "contains" schema, got ${matches}`);
      }
    }
    if (unique && n > 1 && !duplicates(a, s, d)) {
      if (stop(s)) return false;
      ok = false;
    }
    if (ev !== null && ok) {
      if (evaluatesAll) ev.allItems = true;
      else if (!ev.allItems) {
        if (shared > ev.items) ev.items = shared;
        if (matched !== null && matched.size > 0) {
          if (ev.itemSet === null) ev.itemSet = matched;
          else for (const i of matched) ev.itemSet.add(i);
        }
      }
    }
    return ok;
  };
  return full;
}
