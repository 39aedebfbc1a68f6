/**
 * Analysis of the graph of compiled subschemas once every `$ref` is resolved: finds `$ref`
 * loops that never descend into the value (they would recurse forever, so the schema is
 * refused), and the schemas that sit on a recursive loop (their results are memoised per value,
 * which keeps nested `anyOf`/`oneOf` over recursive schemas linear instead of exponential).
 *
 * Spec: JSON Schema 2020-12 Core §9.4.1 (guarding against infinite recursion).
 * @module
 */

/** A node of the graph: a compiled schema object (its edges are given to `analyse`). */
export interface GraphNode {
  /** JSON Pointer of the schema in the document. */
  path: string;
  /** Set by `analyse`: the node lies on a loop of the graph. */
  recursive: boolean;
  /** Scratch for `analyse`: visit order (-1: not visited), lowest reachable order, on stack. */
  order: number;
  low: number;
  onStack: boolean;
}

/**
 * Strongly connected components (Tarjan, iterative so that deep graphs cannot overflow the
 * stack) of the graph with the given edges, which must stay within `nodes`. Returns the
 * components with a loop in them.
 */
function loops<N extends GraphNode>(nodes: readonly N[], edges: (n: N) => N[]): N[][] {
  for (const n of nodes) {
    n.order = -1;
    n.onStack = false;
  }
  const stack: N[] = [];
  const found: N[][] = [];
  const work: N[] = [];
  const outs: N[][] = [];
  const next: number[] = [];
  let counter = 0;
  const enter = (n: N): void => {
    n.order = n.low = counter++;
    n.onStack = true;
    stack.push(n);
    work.push(n);
    outs.push(edges(n));
    next.push(0);
  };
  for (const start of nodes) {
    if (start.order !== -1) continue;
    enter(start);
    while (work.length > 0) {
      const top = work.length - 1;
      const node = work[top];
      const out = outs[top];
      if (next[top] < out.length) {
        const to = out[next[top]++];
        if (to.order === -1) enter(to);
        else if (to.onStack && to.order < node.low) node.low = to.order;
        continue;
      }
      work.pop();
      outs.pop();
      next.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1];
        if (node.low < parent.low) parent.low = node.low;
      }
      if (node.low === node.order) {
        const component: N[] = [];
        let member: N;
        do {
          member = stack.pop() as N;
          member.onStack = false;
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || out.includes(node)) found.push(component);
      }
    }
  }
  return found;
}

/**
 * Marks the nodes that lie on a loop as `recursive`, and returns the path of one node of an
 * in-place loop (a loop made only of in-place edges), or `undefined` when there is none.
 * `inPlace` gives a node's subschemas applied to the same value (allOf, anyOf, oneOf, not, if,
 * then, else, dependentSchemas, $ref), `children` those applied to a part of it; both must stay
 * within `nodes`.
 */
export function analyse<N extends GraphNode>(
  nodes: readonly N[], inPlace: (n: N) => N[], children: (n: N) => N[],
): string | undefined {
  // Most documents have no loop at all: then there is no in-place loop either.
  const all = loops(nodes, (n) => inPlace(n).concat(children(n)));
  if (all.length === 0) return undefined;
  const inPlaceLoops = loops(nodes, inPlace);
  if (inPlaceLoops.length > 0) {
    return inPlaceLoops[0].map((n) => n.path).sort()[0];
  }
  for (const component of all) {
    for (const n of component) n.recursive = true;
  }
  return undefined;
}
