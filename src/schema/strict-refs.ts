/**
 * `$ref` resolution for the strict-subset checker: local JSON Pointer fragments, whether they
 * resolve in the schema document, and whether following them leads back to where they started
 * (a recursive schema). Remote references are never fetched.
 * Spec: JSON Schema 2020-12 Core §8.2.3 (`$ref`), RFC 6901 (JSON Pointer).
 * @module
 */
import { isObject, type JsonValue } from '../protocol/messages.js';

/** A `$ref` found in a schema: where it sits (`segs`, path segments) and what it says. */
export interface RefSite {
  segs: string[];
  ref: string;
}

/**
 * The JSON Pointer segments of a local `$ref` (`#` is the root, `#/a/b`), decoded per RFC 6901 and
 * URI percent-encoding; undefined for an anchor (`#name`), a remote reference or a bad escape.
 */
export function refPointer(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref.slice(2).split('/')
      .map((s) => decodeURIComponent(s).replaceAll('~1', '/').replaceAll('~0', '~'));
  } catch {
    return undefined;
  }
}

/** True when the JSON Pointer `segs` names a value inside `root` (RFC 6901). */
export function refResolves(root: JsonValue, segs: string[]): boolean {
  let at: JsonValue | undefined = root;
  for (const s of segs) {
    if (isObject(at)) at = Object.hasOwn(at, s) ? at[s] : undefined;
    else if (Array.isArray(at) && /^(0|[1-9]\d*)$/.test(s)) at = at[Number(s)];
    else return false;
    if (at === undefined) return false;
  }
  return true;
}

const within = (outer: string[], inner: string[]): boolean =>
  outer.length <= inner.length && outer.every((s, i) => inner[i] === s);

/** True when following `$ref`s from `site` leads back into the subtree holding `site`. */
export function isRecursiveRef(refs: readonly RefSite[], site: RefSite): boolean {
  const start = refPointer(site.ref);
  if (start === undefined) return false;
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const target = stack.pop() as string[];
    for (const other of refs) {
      if (!within(target, other.segs)) continue;
      if (other === site) return true;
      const next = refPointer(other.ref);
      if (next !== undefined && !seen.has(other.ref)) {
        seen.add(other.ref);
        stack.push(next);
      }
    }
  }
  return false;
}

