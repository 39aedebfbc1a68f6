/**
 * The closures that tie a schema object's keyword checks together: the `type` dispatch, the
 * sequence of checks (stopping after a type mismatch), the `unevaluatedProperties` /
 * `unevaluatedItems` wrapper, and `$ref` calls with their depth limit and per-value memo.
 *
 * Spec: JSON Schema 2020-12 Core §7.6 (evaluation), §8.2.3 ($ref), §11 (unevaluated*).
 * @module
 */
import { isObject } from '../protocol/messages.js';
import type { CompileContext, SchemaObject } from './context.js';
import {
  T_ARRAY, T_BOOLEAN, T_INTEGER, T_NULL, T_NUMBER, T_OBJECT, T_STRING, kindOf, typeFail,
} from './keywords-scalar.js';
import { escapeToken } from './pointer.js';
import type { GraphNode } from './ref-graph.js';
import {
  FALSE_FN, type Fn, type MemoEntry, type State, TRUE_FN, mark, mergeEvaluated, newEvaluated,
  prefix, report, spend, stop,
} from './state.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** A compiled schema object: its closure and its place in the reference graph. */
export interface Cell extends GraphNode {
  /** Subschemas applied to the same value (allOf, anyOf, oneOf, not, if, then, else, $ref…). */
  inPlace: Cell[];
  /** Subschemas applied to a child of the value (properties, items, …). */
  children: Cell[];
  schema: SchemaObject;
  base: string;
  fn: Fn | undefined;
}

/** The `type` check, merged with the single type's keyword group when there is one. */
export function typeCheck(mask: number, names: string[], groups: (Fn | undefined)[]): Fn | undefined {
  const [num, str, arr, obj] = groups;
  switch (mask) {
    case T_OBJECT:
      return obj ?? ((v, s) => (typeof v === 'object' && v !== null && !Array.isArray(v)) || typeFail(s, names, v));
    case T_STRING:
      return str ?? ((v, s) => typeof v === 'string' || typeFail(s, names, v));
    case T_INTEGER:
      return num ?? ((v, s) => Number.isInteger(v) || typeFail(s, names, v));
    case T_NUMBER | T_INTEGER:
      return num ?? ((v, s) => Number.isFinite(v) || typeFail(s, names, v));
    case T_ARRAY:
      return arr ?? ((v, s) => Array.isArray(v) || typeFail(s, names, v));
    case T_BOOLEAN:
      return (v, s) => typeof v === 'boolean' || typeFail(s, names, v);
    case T_NULL:
      return (v, s) => v === null || typeFail(s, names, v);
  }
  if (mask === 0 && groups.every((g) => g === undefined)) return undefined;
  return (v, s, d, ev) => {
    const kind = kindOf(v);
    if (mask !== 0 && (mask & kind) === 0) return typeFail(s, names, v);
    const group = kind === T_STRING ? str : kind === T_OBJECT ? obj : kind === T_ARRAY ? arr
      : kind === T_INTEGER || kind === T_NUMBER ? num : undefined;
    return group === undefined || group(v, s, d, ev);
  };
}

/** Runs `first` (the type check) and then `rest`; after a type mismatch the rest is skipped. */
export function combine(first: Fn | undefined, rest: Fn[]): Fn {
  if (first === undefined) {
    if (rest.length === 0) return TRUE_FN;
    if (rest.length === 1) return rest[0];
  } else if (rest.length === 0) {
    return first;
  }
  const fns = rest;
  return (v, s, d, ev) => {
    let ok = true;
    if (first !== undefined) {
      const m = mark(s);
      if (!first(v, s, d, ev)) {
        // After a type mismatch the other keywords only add noise.
        if (stop(s) || s.errors?.[m]?.keywordLocation === '/type') return false;
        ok = false;
      }
    }
    for (let i = 0; i < fns.length; i++) {
      if (!fns[i](v, s, d, ev)) {
        if (stop(s)) return false;
        ok = false;
      }
    }
    return ok;
  };
}

/** Wraps `inner` with `unevaluatedProperties` / `unevaluatedItems` (Core §11.2, §11.3). */
export function unevaluated(inner: Fn, props: unknown, items: unknown, path: string, base: string,
  ctx: CompileContext): Fn {
  const uProps = props === undefined || props === true
    ? undefined : ctx.sub(props, `${path}/unevaluatedProperties`, base);
  const uItems = items === undefined || items === true
    ? undefined : ctx.sub(items, `${path}/unevaluatedItems`, base);
  return (v, s, d, ev) => {
    const local = newEvaluated();
    let ok = inner(v, s, d, local);
    if (!ok && stop(s)) return false;
    if (uProps !== undefined && isObject(v) && !local.allProps) {
      for (const k in v) {
        if (!hasOwn.call(v, k) || v[k] === undefined || local.props?.has(k) === true) continue;
        const m = mark(s);
        if (uProps === FALSE_FN) {
          report(s, 'unevaluatedProperties', '', `property ${JSON.stringify(k)} is not allowed`);
        } else if (uProps(v[k], s, d + 1, null)) {
          continue;
        }
        prefix(s, m, '/' + escapeToken(k), '/unevaluatedProperties');
        if (stop(s)) return false;
        ok = false;
      }
    }
    if (uItems !== undefined && Array.isArray(v) && !local.allItems) {
      for (let i = local.items; i < v.length; i++) {
        if (local.itemSet?.has(i) === true) continue;
        const m = mark(s);
        if (uItems === FALSE_FN) {
          report(s, 'unevaluatedItems', '', `item ${i} is not allowed: no schema describes it`);
        } else if (uItems(v[i], s, d + 1, null)) {
          continue;
        }
        prefix(s, m, '/' + i, '/unevaluatedItems');
        if (stop(s)) return false;
        ok = false;
      }
    }
    if (ok && ev !== null) {
      mergeEvaluated(ev, local);
      if (props !== undefined) ev.allProps = true;
      if (items !== undefined) ev.allItems = true;
    }
    return ok;
  };
}

function memoCall(cell: Cell, fn: Fn, v: unknown, s: State, d: number): boolean {
  if (s.memo === null) s.memo = new Map();
  let table = s.memo.get(cell);
  if (table === undefined) s.memo.set(cell, (table = new Map<unknown, MemoEntry>()));
  const hit = table.get(v);
  if (hit === true) return true;
  if (hit !== undefined && s.errors === null) return false;
  if (Array.isArray(hit)) {
    for (const e of hit) report(s, e.keyword, e.keywordLocation, e.message, e.instanceLocation);
    return false;
  }
  const m = mark(s);
  const ok = fn(v, s, d, null);
  table.set(v, ok || (s.errors === null ? false : s.errors.slice(m).map((e) => ({ ...e }))));
  return ok;
}

/**
 * A `$ref` call: into a recursive target, fails past `maxDepth` and memoises per value (which
 * bounds the cost of nested anyOf/oneOf over recursive schemas); prefixes `/$ref` to error
 * locations. A non-recursive target is as deep as the schema, so it needs no depth limit.
 */
export function refFn(cell: Cell): Fn {
  return (v, s, d, ev) => {
    spend(s);
    if (d > s.maxDepth && cell.recursive) {
      return report(s, '$ref', '/$ref', `value nested deeper than ${s.maxDepth} levels`);
    }
    const fn = cell.fn as Fn;
    const m = mark(s);
    const ok = cell.recursive && ev === null ? memoCall(cell, fn, v, s, d) : fn(v, s, d, ev);
    if (!ok) prefix(s, m, '', '/$ref');
    return ok;
  };
}
