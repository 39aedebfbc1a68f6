/**
 * Analysis of the graph of compiled subschemas once every `$ref` is resolved: finds `$ref`
 * loops that never descend into the value (they would recurse forever, so the schema is
 * refused), and the schemas that sit on a recursive loop (their results are memoised per value,
 * which keeps nested `anyOf`/`oneOf` over recursive schemas linear instead of exponential).
 *
 * Spec: JSON Schema 2020-12 Core §9.4.1 (guarding against infinite recursion).
 * @module
 */

/** A node of the graph: a compiled schema object and its outgoing edges. */
export interface GraphNode {
  /** JSON Pointer of the schema in the document. */
  path: string;
  /** Subschemas applied to the same value (allOf, anyOf, oneOf, not, if, then, else, $ref…). */
  inPlace: GraphNode[];
  /** Subschemas applied to a child of the value (properties, items, …). */
  children: GraphNode[];
  /** Set by `analyse`: the node lies on a loop of the graph. */
  recursive: boolean;
}

/**
 * Strongly connected components (Tarjan, iterative so that deep graphs cannot overflow the
 * stack) of the graph restricted to `edges`. Returns the components with a loop in them.
 */
function loops(nodes: readonly GraphNode[], edges: (n: GraphNode) => GraphNode[]): GraphNode[][] {
  const index = new Map<GraphNode, number>();
  const low = new Map<GraphNode, number>();
  const onStack = new Set<GraphNode>();
  const stack: GraphNode[] = [];
  const found: GraphNode[][] = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: [GraphNode, number, GraphNode[]][] = [[start, 0, edges(start)]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, i, out] = frame;
      if (i < out.length) {
        frame[1]++;
        const next = out[i];
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter++);
          stack.push(next);
          onStack.add(next);
          work.push([next, 0, edges(next)]);
        } else if (onStack.has(next)) {
          low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent) as number, low.get(node) as number));
      }
      if (low.get(node) === index.get(node)) {
        const component: GraphNode[] = [];
        let member: GraphNode;
        do {
          member = stack.pop() as GraphNode;
          onStack.delete(member);
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
 */
export function analyse(nodes: readonly GraphNode[]): string | undefined {
  const inPlaceLoops = loops(nodes, (n) => n.inPlace);
  if (inPlaceLoops.length > 0) {
    return inPlaceLoops[0].map((n) => n.path).sort()[0];
  }
  for (const component of loops(nodes, (n) => n.inPlace.concat(n.children))) {
    for (const n of component) n.recursive = true;
  }
  return undefined;
}
