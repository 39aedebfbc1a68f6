/**
 * `$ref`s for the strict-subset checker: where each one leads (resolved by the one resolver,
 * `dereference.ts`: JSON Pointers, anchors, `$id` bases; remote references are never fetched),
 * and whether following them leads back to where they started (a recursive schema).
 * Spec: JSON Schema 2020-12 Core §8.2.3 (`$ref`), RFC 6901 (JSON Pointer).
 * @module
 */
import { type SchemaIndex, resolveRef } from './dereference.js';
import { decodePointer } from './pointer.js';

/**
 * A `$ref` found in a schema: where it sits (`segs`, path segments), what it says, and the path
 * segments of its target (`undefined` when it does not resolve within the document).
 */
export interface RefSite {
  segs: string[];
  ref: string;
  target: string[] | undefined;
}

/**
 * The path segments of the schema that `ref`, written in the schema object `from`, points to;
 * `undefined` when it points outside the document or at something that is not a schema.
 */
export function refTarget(index: SchemaIndex, ref: string, from: object): string[] | undefined {
  const target = resolveRef(index, ref, from);
  return target === undefined ? undefined : decodePointer(target.path);
}

const within = (outer: string[], inner: string[]): boolean =>
  outer.length <= inner.length && outer.every((s, i) => inner[i] === s);

/** True when following `$ref`s from `site` leads back into the subtree holding `site`. */
export function isRecursiveRef(refs: readonly RefSite[], site: RefSite): boolean {
  if (site.target === undefined) return false;
  const seen = new Set<RefSite>();
  const stack = [site.target];
  while (stack.length > 0) {
    const target = stack.pop() as string[];
    for (const other of refs) {
      if (!within(target, other.segs)) continue;
      if (other === site) return true;
      if (other.target !== undefined && !seen.has(other)) {
        seen.add(other);
        stack.push(other.target);
      }
    }
  }
  return false;
}
