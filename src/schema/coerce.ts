/**
 * LLM-tolerant argument coercion guided by a tool's JSON Schema: `"5"` for an `integer` becomes
 * `5`, `"urgent"` for an array becomes `["urgent"]`, and every change is reported. A value that
 * already satisfies the schema at a point is left alone, a string is never touched where the
 * declared `type` includes `string`, and nothing is ever coerced toward a type the schema does not
 * declare there. What no rule can fix is left for validation to report.
 *
 * Spec: JSON Schema 2020-12 Core §10 (applicators), Validation §6.1.1 (`type`), §6.5.3
 * (`required`); RFC 6901 (paths); MCP 2025-11-25, Server / Tools (`tools/call` `arguments`).
 * @module
 */
import { isObject, type JsonValue } from '../protocol/messages.js';
import type { JsonSchema } from '../protocol/types.js';
import {
  coerceToType,
  type CoercionRule,
  type RuleOptions,
} from './coerce-rules.js';
import { itemSchemas, propertySchemas, rejectsNull } from './coerce-children.js';
import {
  schemaDocument,
  type NodeView,
  type SchemaDocument,
  type SchemaNode,
} from './coerce-schema.js';
import { escapeToken } from './pointer.js';

export type { CoercionRule } from './coerce-rules.js';
export { formatCoercions } from './coerce-format.js';

/**
 * One change made to the arguments. `path` is a JSON Pointer (RFC 6901) to the place changed
 * (`""` is the whole value); below a value that an earlier coercion parsed or wrapped, it points
 * into that new value (`/tags/0` after `/tags` became an array). `from` is the value found there,
 * `to` the value put in its place (`undefined` when the key was removed), `rule` the rule.
 */
export interface Coercion {
  path: string;
  from: JsonValue;
  to: JsonValue | undefined;
  rule: CoercionRule;
}

/** The coerced value and the list of changes, in document order (a parent before its children). */
export interface CoercionResult {
  /** The input itself when nothing fired; otherwise a copy sharing every unchanged subtree. */
  value: unknown;
  coercions: Coercion[];
}

/** Options of {@link coerceArguments}. */
export interface CoerceOptions {
  /**
   * Allow number and boolean to `string` (rule `to-string`) where the schema declares `string`.
   * (Not named `toString`: that would clash with `Object.prototype.toString` in every literal.)
   * @default false
   */
  coerceToString?: boolean;
  /**
   * Deepest nesting level at which values are coerced: 0 is the arguments value itself, 1 its
   * properties or elements, and so on. Deeper values are left for validation.
   * @default 64
   */
  maxDepth?: number;
  /**
   * Longest string, in UTF-16 code units, that is parsed as a JSON array or object.
   * @default 1048576 (1 MiB)
   */
  maxStringLength?: number;
}

const DEFAULT_MAX_DEPTH = 64;
const DEFAULT_MAX_STRING_LENGTH = 1024 * 1024;
/**
 * Work units per call: one per schema node visited, one per 64 characters handed to `JSON.parse`,
 * {@link COERCION_COST} per coercion made (so at most 10,000 coercions, explored or kept).
 */
const WORK_BUDGET = 1_000_000;
const COERCION_COST = 100;
/** Most `anyOf`/`oneOf` levels explored for one value without descending into it. */
const MAX_IN_PLACE = 16;
/** Groups with more branches than this are left for validation. */
const MAX_BRANCHES = 64;

/** A finished `coerceNode` call, reused when one node meets one value at one path again. */
interface Memo {
  readonly input: unknown;
  readonly output: unknown;
  readonly coercions: readonly Coercion[];
}

interface Walk {
  readonly document: SchemaDocument;
  readonly rules: RuleOptions;
  readonly maxDepth: number;
  /** Per node, per path, filled while exploring branches: keeps recursive `anyOf` polynomial. */
  readonly memo: Map<SchemaNode, Map<string, Memo>>;
  /** How many `anyOf`/`oneOf` explorations are under way (the memo is used only inside one). */
  exploring: number;
  budget: number;
}

function limit(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && value >= 0 ? Math.floor(value) : fallback;
}

/**
 * Coerces loosely typed tool arguments toward `schema` and reports each change. Rules, applied
 * only where the value does not already satisfy the schema at that point and only toward a type
 * declared there: exact JSON number literals to `number` (finite) or `integer` (safe integers
 * only); `"true"`/`"false"` (any case) to `boolean`; a string holding a JSON array or object to
 * it; any other non-null value to a one-element array; `null` for an optional property that does
 * not allow `null` is removed; number or boolean to `string` only with `coerceToString`.
 *
 * The walk follows `properties`, `patternProperties`, `additionalProperties`, `prefixItems`,
 * `items` (and the older array form with `additionalItems`), same-document `$ref` (`#`, JSON
 * Pointers, `$anchor`), `allOf`, `anyOf` and `oneOf`. For `anyOf`/`oneOf` a value that already
 * matches a branch is left alone; otherwise each branch is tried on its own and its result is kept
 * only when exactly one branch accepts its coerced value. A string is never coerced at an
 * `anyOf`/`oneOf` that has a `string` branch.
 *
 * Pure: the input is never mutated (copies are made only along changed paths, and keys such as
 * `__proto__` are defined as plain data); a value that is not JSON comes back as is. Work is
 * bounded by `maxDepth`, `maxStringLength`, a fixed work budget per call (at most 10,000
 * coercions), memoised branch exploration and `$ref` cycle detection; past a bound, values are
 * left alone. Never throws; a schema the validator cannot compile only makes coercion shyer.
 *
 * @example
 * coerceArguments({ type: 'object', properties: { limit: { type: 'integer' } } }, { limit: '5' });
 * // { value: { limit: 5 },
 * //   coercions: [{ path: '/limit', from: '5', to: 5, rule: 'string-to-integer' }] }
 */
export function coerceArguments(
  schema: JsonSchema,
  args: unknown,
  options: CoerceOptions = {},
): CoercionResult {
  const document = schemaDocument(schema);
  if (document.accepts(schema, args) === true) return { value: args, coercions: [] };
  const walk: Walk = {
    document,
    maxDepth: limit(options.maxDepth, DEFAULT_MAX_DEPTH),
    budget: WORK_BUDGET,
    memo: new Map(),
    exploring: 0,
    rules: {
      coerceToString: options.coerceToString === true,
      maxStringLength: limit(options.maxStringLength, DEFAULT_MAX_STRING_LENGTH),
      charge: (cost) => charge(walk, cost),
    },
  };
  const coercions: Coercion[] = [];
  const value = coerceNode(walk, schema, args, '', 0, [], coercions);
  return { value, coercions };
}

function charge(walk: Walk, cost: number): boolean {
  walk.budget -= cost;
  return walk.budget >= 0;
}

/** Coerces `value` against one schema node; `inPlace` lists the nodes already active for it. */
function coerceNode(
  walk: Walk,
  schema: SchemaNode,
  value: unknown,
  path: string,
  depth: number,
  inPlace: readonly SchemaNode[],
  out: Coercion[],
): unknown {
  const node = walk.document.target(schema);
  if (typeof node === 'boolean' || !charge(walk, 1)) return value;
  if (inPlace.length >= MAX_IN_PLACE || inPlace.includes(node)) return value;
  if (walk.exploring === 0) return coerceFresh(walk, node, value, path, depth, inPlace, out);
  let byPath = walk.memo.get(node);
  const memo = byPath?.get(path);
  if (memo !== undefined && memo.input === value) {
    for (const coercion of memo.coercions) out.push(coercion);
    return memo.output;
  }
  const coercions: Coercion[] = [];
  const output = coerceFresh(walk, node, value, path, depth, inPlace, coercions);
  if (byPath === undefined) walk.memo.set(node, (byPath = new Map()));
  byPath.set(path, { input: value, output, coercions });
  for (const coercion of coercions) out.push(coercion);
  return output;
}

function coerceFresh(
  walk: Walk,
  node: Exclude<SchemaNode, boolean>,
  value: unknown,
  path: string,
  depth: number,
  inPlace: readonly SchemaNode[],
  out: Coercion[],
): unknown {
  const view = walk.document.view(node);
  let current = value;
  if (view.types !== undefined) {
    const changed = coerceToType(view.types, current, walk.rules);
    if (changed !== undefined && charge(walk, COERCION_COST)) {
      out.push({
        path,
        from: current as JsonValue,
        to: changed.value as JsonValue,
        rule: changed.rule,
      });
      current = changed.value;
    }
  }
  if (depth < walk.maxDepth) {
    if (Array.isArray(current)) {
      current = coerceItems(walk, view, current, path, depth, out);
    } else if (isObject(current)) {
      current = coerceProperties(walk, view, current, path, depth, out);
    }
  }
  if (view.groups.length > 0) {
    const active = [...inPlace, node];
    for (const group of view.groups) {
      current = coerceGroup(walk, group, current, path, depth, active, out);
    }
  }
  return current;
}

function coerceItems(
  walk: Walk,
  view: NodeView,
  array: readonly unknown[],
  path: string,
  depth: number,
  out: Coercion[],
): unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < array.length && walk.budget > 0; index++) {
    const original = array[index];
    const schema = walk.document.conjunction(itemSchemas(view, index));
    const item = coerceNode(walk, schema, original, `${path}/${index}`, depth + 1, [], out);
    if (item !== original) {
      copy ??= array.slice();
      copy[index] = item;
    }
  }
  return copy ?? (array as unknown[]);
}

function coerceProperties(
  walk: Walk,
  view: NodeView,
  object: { readonly [key: string]: unknown },
  path: string,
  depth: number,
  out: Coercion[],
): { [key: string]: unknown } {
  const keys = Object.keys(object);
  let entries: [string, unknown][] | undefined; // started at the first change
  for (let index = 0; index < keys.length && walk.budget > 0; index++) {
    const key = keys[index] as string;
    const original = object[key];
    const schemas = propertySchemas(walk.document, view, key);
    const childPath = `${path}/${escapeToken(key)}`;
    let child = original;
    const removed =
      original === null &&
      !view.required.has(key) &&
      rejectsNull(walk.document, schemas) &&
      charge(walk, COERCION_COST);
    if (removed) {
      out.push({ path: childPath, from: null, to: undefined, rule: 'null-removed' });
    } else {
      const schema = walk.document.conjunction(schemas);
      child = coerceNode(walk, schema, child, childPath, depth + 1, [], out);
    }
    if (entries === undefined && (removed || child !== original)) {
      entries = keys.slice(0, index).map((name): [string, unknown] => [name, object[name]]);
    }
    if (entries !== undefined && !removed) entries.push([key, child]);
  }
  if (entries === undefined) return object;
  const copy: { [key: string]: unknown } = {};
  for (const [key, value] of entries) {
    // defineProperty, not assignment: a `__proto__` key stays an own data property.
    Object.defineProperty(copy, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return copy;
}

/** `anyOf`/`oneOf`: keep a value that matches a branch; else adopt the one branch that accepts. */
function coerceGroup(
  walk: Walk,
  group: readonly SchemaNode[],
  value: unknown,
  path: string,
  depth: number,
  inPlace: readonly SchemaNode[],
  out: Coercion[],
): unknown {
  const { document } = walk;
  if (group.length === 0 || group.length > MAX_BRANCHES) return value;
  for (const branch of group) if (document.accepts(branch, value) !== false) return value;
  if (
    typeof value === 'string' &&
    group.some((branch) => document.view(branch).types?.has('string'))
  ) {
    return value;
  }
  let winner: { value: unknown; coercions: Coercion[] } | undefined;
  let ambiguous = false;
  walk.exploring++;
  for (const branch of group) {
    const trial: Coercion[] = [];
    const result = coerceNode(walk, branch, value, path, depth, inPlace, trial);
    if (trial.length === 0 || document.accepts(branch, result) !== true) continue;
    ambiguous = winner !== undefined;
    if (ambiguous) break; // two branches accept
    winner = { value: result, coercions: trial };
  }
  walk.exploring--;
  if (ambiguous || winner === undefined) return value;
  for (const coercion of winner.coercions) out.push(coercion);
  return winner.value;
}
