/**
 * Cheap structural limits on decoded JSON, checked before any recursive code (validation,
 * coercion, serialisation) touches a value: `JSON.parse` accepts nesting that would overflow
 * the stack later.
 * @module
 */

/** Default largest nesting depth of a request's `params` (objects and arrays). */
export const DEFAULT_MAX_DEPTH: number = 100;

/**
 * True when `value` nests objects/arrays deeper than `max` levels. Iterative (no recursion), and
 * stops at the first path that is too deep. A scalar has depth 0; `{}` and `[]` have depth 1.
 */
export function exceedsDepth(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [object, number];
    if (depth > max) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
