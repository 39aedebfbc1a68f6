/**
 * The evaluating walker's array walk (`evaluate.ts`): the array keywords of one plan
 * (`keywords-array.ts`) checked together, every failure reported, and the evaluated items
 * recorded for `unevaluatedItems`.
 *
 * Spec: JSON Schema 2020-12 Core §10.3.1 (array applicators), §11.2 (unevaluatedItems);
 * Validation §6.4 (array assertions).
 * @module
 */
import { childFailed, childOk, quietly } from './evaluate.js';
import {
  containsError, duplicates, itemNotAllowed, sizeError, uniqueOk,
} from './keywords-array.js';
import type { Plan } from './plan.js';
import { type Evaluated, mark, stop, type State } from './state.js';

/** The array keywords of `p` for the array `a`; records into `ev` when `a` passes. */
export function evaluateArray(p: Plan, a: unknown[], d: number, s: State,
  ev: Evaluated | null): boolean {
  const n = a.length;
  let ok = true;
  if (n < p.minItems || n > p.maxItems) {
    if (stop(s)) return false;
    ok = sizeError(p, n, s);
  }
  const prefix = p.prefix;
  const shared = n < prefix.length ? n : prefix.length;
  for (let i = 0; i < shared; i++) {
    const m = mark(s);
    if (!childOk(prefix[i], a[i], d + 1, s)) {
      childFailed(s, m, prefix[i], '/' + i, '/prefixItems/' + i, itemNotAllowed(i));
      if (stop(s)) return false;
      ok = false;
    }
  }
  const items = p.items;
  if (items !== null) {
    for (let i = prefix.length; i < n; i++) {
      const m = mark(s);
      if (!childOk(items, a[i], d + 1, s)) {
        childFailed(s, m, items, '/' + i, '/items', itemNotAllowed(i));
        if (stop(s)) return false;
        ok = false;
      }
    }
  }
  let matched: Set<number> | null = null;
  const contains = p.contains;
  if (contains !== null) {
    let matches = 0;
    if (ev !== null) matched = new Set();
    const enough = p.maxContains === Infinity && matched === null ? p.minContains : Infinity;
    for (let i = 0; i < n && matches < enough; i++) {
      if (quietly(contains, a[i], d + 1, s, null)) {
        matches++;
        if (matched !== null) matched.add(i);
      }
    }
    if (matches < p.minContains || matches > p.maxContains) {
      if (stop(s)) return false;
      ok = containsError(p, matches, s);
    }
  }
  if (p.unique && n > 1 && !(s.errors === null ? uniqueOk(a, d, s) : duplicates(a, s, d))) {
    if (stop(s)) return false;
    ok = false;
  }
  if (ev !== null && ok) {
    if (p.allItemsEvaluated) ev.allItems = true;
    else if (!ev.allItems) {
      if (shared > ev.items) ev.items = shared;
      if (matched !== null && matched.size > 0) {
        if (ev.itemSet === null) ev.itemSet = matched;
        else for (const i of matched) ev.itemSet.add(i);
      }
    }
  }
  return ok;
}
