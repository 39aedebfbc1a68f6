/**
 * Bounds the cost of shared subschemas. A subschema reached through several in-place
 * applicators (`anyOf`, `oneOf`, `allOf`, `not`, `if`, `$ref`, or one schema object reused) is
 * evaluated once per path on the same value: nested, that doubles per level (`anyOf: [{$ref: d},
 * {$ref: d}]` thirty levels deep is 2^30 evaluations). After the loop analysis, `memoiseShared`
 * counts, for each plan, how many times it can be evaluated on one value, and marks every
 * non-leaf plan that can be evaluated more than `SHARED_LIMIT` times as `memoised`: both
 * backends then decide it once per value and validation (`Op.Memo`, as a `$ref` into a recursive
 * loop is), and the count starts again from 1 below it. The error pass has a step budget instead.
 *
 * The count: the root 1; through an in-place edge a plan adds its parent's count; through child
 * edges (`properties`, `items`, …) the counts of edges with the same step (the same property
 * name, the same array position kind) add up and the largest step wins. Recursive plans are
 * memoised at their `$ref`s already and count 1.
 *
 * Spec: JSON Schema 2020-12 Core §10.2 (in-place applicators).
 * @module
 */
import { Flag, type Plan, childStepsOf, childrenOf, inPlaceOf } from './plan.js';

/** Evaluations of one plan on one value above which its verdict is memoised. */
const SHARED_LIMIT = 8;

/** True for a plan with no subschema (cheap to evaluate again). */
function isLeaf(p: Plan): boolean {
  return (p.flags & Flag.Subschemas) === 0;
}

/**
 * Marks as `memoised` the plans among `all` (every plan of a document, `root` first reachable)
 * that one value could meet more than `SHARED_LIMIT` times; most documents have none.
 */
export function memoiseShared(all: readonly Plan[], root: Plan): void {
  // Depth-first post-order over the non-recursive plans gives a topological order (reversed).
  const order: Plan[] = [];
  const state = new Map<Plan, number>();
  const visit = (start: Plan): void => {
    const stack: [Plan, Plan[], number][] = [];
    const push = (p: Plan): void => {
      if (p.recursive || state.has(p)) return;
      state.set(p, 1);
      stack.push([p, [...inPlaceOf(p), ...childrenOf(p)], 0]);
    };
    push(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top[2] < top[1].length) push(top[1][top[2]++]);
      else {
        order.push(top[0]);
        stack.pop();
      }
    }
  };
  visit(root);
  for (const p of all) visit(p);

  const inPlace = new Map<Plan, number>();
  const children = new Map<Plan, Map<string, number>>();
  const count = (p: Plan): number => {
    if (p === root || p.recursive) return 1;
    let steps = 0;
    for (const n of children.get(p)?.values() ?? []) steps = Math.max(steps, n);
    return Math.max(1, Math.min(2 ** 30, (inPlace.get(p) ?? 0) + steps));
  };
  for (let i = order.length - 1; i >= 0; i--) {
    const p = order[i];
    let n = count(p);
    if (n > SHARED_LIMIT && !isLeaf(p)) {
      p.memoised = true;
      n = 1;
    }
    for (const x of inPlaceOf(p)) inPlace.set(x, (inPlace.get(x) ?? 0) + n);
    for (const [step, x] of childStepsOf(p)) {
      let byStep = children.get(x);
      if (byStep === undefined) children.set(x, (byStep = new Map()));
      byStep.set(step, (byStep.get(step) ?? 0) + n);
    }
  }
}
