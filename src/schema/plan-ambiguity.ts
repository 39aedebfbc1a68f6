/**
 * Decides whether the `$ref`s into recursive loops need the per-value memo. A recursive schema
 * costs time linear in the value as long as each part of the value meets each plan of a loop at
 * most once; it turns exponential when two evaluation paths can bring one plan to one part of the
 * value (`anyOf: [{properties: {c: {$ref: '#'}}}, {properties: {c: {$ref: '#'}}}]` doubles per
 * level). The memo (a table per plan and value, `verdict.ts`) bounds that, at a price on every
 * node of a tree, so it is kept only where such paths exist.
 *
 * The search runs two evaluations side by side over the same part of a value: from the root,
 * each applies in-place subschemas (allOf, anyOf, oneOf, not, if, then, else, dependentSchemas,
 * $ref) and both descend together along child edges whose steps can reach the same part (the
 * same property name, a name and "any property", an index and "any item"). A plan of a recursive
 * loop that both reach after their paths differ is met twice by one part of some value. In-place
 * loops are refused before this runs, so the in-place edges form a graph without cycles.
 *
 * Spec: JSON Schema 2020-12 Core §9.4.1 (recursion), §10 (applicators).
 * @module
 */
import { type Plan, childStepsOf, inPlaceOf } from './plan.js';

/** Steps the search takes at most; past it, every loop is taken to need the memo. */
const MAX_WORK = 1_000_000;

/** A child edge (`childStepsOf`) of a plan in an in-place closure: its source, index, step, target. */
type Edge = [Plan, number, string, Plan];

/** Every plan reachable from a plan through in-place edges (itself included), with its count of paths (1, or 2 for more). */
type Closure = Map<Plan, number>;

/** The child edges of a closure, by step: names and indexes by their step, the wildcards apart. */
interface Edges {
  all: Edge[];
  byStep: Map<string, Edge[]>;
  anyProperty: Edge[];
  anyItem: Edge[];
  properties: Edge[];
  indexes: Edge[];
}

function edgesOf(c: Closure): Edges {
  const e: Edges = { all: [], byStep: new Map(), anyProperty: [], anyItem: [], properties: [], indexes: [] };
  for (const p of c.keys()) {
    const steps = childStepsOf(p);
    for (let i = 0; i < steps.length; i++) {
      const [step, target] = steps[i];
      const edge: Edge = [p, i, step, target];
      e.all.push(edge);
      if (step === '*') e.anyProperty.push(edge);
      else if (step === '[]') e.anyItem.push(edge);
      else {
        let list = e.byStep.get(step);
        if (list === undefined) e.byStep.set(step, (list = []));
        list.push(edge);
        if (step.startsWith('p:')) e.properties.push(edge);
        else if (step.startsWith('i:')) e.indexes.push(edge);
      }
    }
  }
  return e;
}

/** The edges of `e` whose step may lead to the same part of a value as `step`. */
function matching(e: Edges, step: string): Edge[][] {
  if (step === '*') return [e.anyProperty, e.properties];
  if (step === '[]') return [e.anyItem, e.indexes];
  const same = e.byStep.get(step) ?? [];
  if (step.startsWith('p:')) return [same, e.anyProperty];
  if (step.startsWith('i:')) return [same, e.anyItem];
  return [same];
}

/**
 * True when some plan of a recursive loop (`Plan.recursive`) can be evaluated twice on one part
 * of one value, starting from `root`.
 */
export function needsMemo(root: Plan): boolean {
  const closures = new Map<Plan, Closure>();
  const closure = (p: Plan): Closure => {
    let c = closures.get(p);
    if (c !== undefined) return c;
    c = new Map([[p, 1]]);
    for (const x of inPlaceOf(p)) {
      for (const [q, n] of closure(x)) c.set(q, Math.min(2, (c.get(q) ?? 0) + n));
    }
    closures.set(p, c);
    return c;
  };
  const edges = new Map<Plan, Edges>();
  const edgesFrom = (p: Plan): Edges => {
    let e = edges.get(p);
    if (e === undefined) edges.set(p, (e = edgesOf(closure(p))));
    return e;
  };
  const ids = new Map<Plan, number>();
  const id = (p: Plan): number => {
    let n = ids.get(p);
    if (n === undefined) ids.set(p, (n = ids.size));
    return n;
  };
  // A state: two evaluations at one part of a value, at plans `a` and `b`, whose paths differ
  // (`apart`) or not (then a === b).
  const seen = new Set<string>();
  const queue: [Plan, Plan, boolean][] = [];
  const visit = (a: Plan, b: Plan, apart: boolean): void => {
    const key = `${id(a)},${id(b)},${apart ? 1 : 0}`;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push([a, b, apart]);
  };
  let work = 0;
  visit(root, root, false);
  while (queue.length > 0) {
    const [a, b, apart] = queue.pop() as [Plan, Plan, boolean];
    const ca = closure(a);
    const cb = a === b ? ca : closure(b);
    for (const [p, n] of ca) {
      if (p.recursive && (apart ? cb.has(p) : n > 1)) return true;
    }
    const eb = edgesFrom(b);
    for (const [p, i, step, target] of edgesFrom(a).all) {
      for (const list of matching(eb, step)) {
        work += list.length;
        if (work > MAX_WORK) return true;
        for (const [q, j, , other] of list) {
          visit(target, other, apart || p !== q || i !== j || (ca.get(p) as number) > 1);
        }
      }
    }
  }
  return false;
}
