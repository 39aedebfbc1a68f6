/**
 * Cheap structural limits on decoded JSON, checked before any recursive code (validation,
 * coercion, serialisation) touches a value: `JSON.parse` accepts nesting that would overflow
 * the stack later.
 * @module
 */

/** Default largest nesting depth of a request's `params` (objects and arrays). */
export const DEFAULT_MAX_DEPTH: number = 100;

/**
 * True when `value` nests objects/arrays deeper than `max` levels. A scalar has depth 0; `{}` and
 * `[]` have depth 1. Recursion is bounded by `max` (it stops one level past it), and nothing is
 * allocated.
 */
export function exceedsDepth(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  try {
    return tooDeep(value, max);
  } catch {
    // A limit set so high that checking it overflows the stack: the value is too deep to use.
    return true;
  }
}

function tooDeep(node: object, budget: number): boolean {
  if (budget <= 0) return true;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (typeof child === 'object' && child !== null && tooDeep(child, budget - 1)) return true;
    }
    return false;
  }
  for (const key in node) {
    if (!Object.prototype.hasOwnProperty.call(node, key)) continue;
    const child: unknown = (node as { [key: string]: unknown })[key];
    if (typeof child === 'object' && child !== null && tooDeep(child, budget - 1)) return true;
  }
  return false;
}
