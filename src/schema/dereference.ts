/**
 * The one `$ref` resolver: a walk over a schema document that finds every schema resource
 * (`$id`), every anchor (`$anchor`, `$dynamicAnchor`) and the base URI and document path of every
 * subschema, and `findTarget`/`resolveRef` that resolve a `$ref` against them without fetching
 * anything. The validator, argument coercion, the strict-subset checker and the server's
 * integer guard all resolve through it. When a `$ref` names a 2020-12 meta-schema, the bundled
 * meta-schemas (`meta-schemas.ts`) are indexed too, each under its own `$id`.
 *
 * Spec: JSON Schema 2020-12 Core §8.2 (base URI, `$id`, `$anchor`), §9.2 (resolving a `$ref`
 * against the schema's base URI), §9.4.2 (identifiers inside unknown keywords are not identifiers).
 * @module
 */
import { isObject } from '../protocol/messages.js';
import type { JsonSchema } from '../protocol/types.js';
import { META_SCHEMAS, META_SCHEMA_PREFIX } from './meta-schemas.js';
import { decodeFragmentPointer, escapeToken } from './pointer.js';
import { SchemaCompileError } from './types.js';
import { resolveUri, splitFragment } from './uri.js';

/** The base URI given to a root schema that has no `$id`. */
export const DEFAULT_BASE = 'baremcp:/schema';

/** Deepest subschema nesting accepted; deeper (or cyclic) schema objects are refused. */
export const MAX_SCHEMA_DEPTH = 512;

/** A schema found in the document: the schema, its JSON Pointer from the root, its base URI. */
export interface SchemaTarget {
  schema: JsonSchema;
  path: string;
  base: string;
}

/** Options of {@link indexSchema}. */
export interface IndexOptions {
  /**
   * Never throw: an invalid `$id` or anchor is skipped, and the walk stops below
   * `MAX_SCHEMA_DEPTH` and at a cycle of objects. For tools that read a schema without
   * compiling it (coercion, the strict-subset checker), which must not fail on a broken one.
   * @default false
   */
  lenient?: boolean;
}

/** What the walk learned about a document. Keys of the maps are absolute URIs. */
export interface SchemaIndex {
  /** Each schema resource, by its URI without fragment (the root included). */
  resources: Map<string, SchemaTarget>;
  /** Each `$anchor` and `$dynamicAnchor`, by `uri#name`. */
  anchors: Map<string, SchemaTarget>;
  /** Each `$dynamicAnchor` only, by `uri#name` (the dynamic scope looks only at these). */
  dynamicAnchors: Map<string, SchemaTarget>;
  /** The anchor names `$dynamicRef` fragments name (`#meta` gives `meta`). */
  dynamicNames: Set<string>;
  /** The base URI (without fragment) of every schema object. */
  baseOf: Map<object, string>;
  /** The JSON Pointer (from the document root) of every schema object. */
  pathOf: Map<object, string>;
  /** Path of the first `$dynamicRef` seen, if any. */
  dynamicRef: string | undefined;
  /** A `$ref` or `$dynamicRef` names a bundled meta-schema (`meta-schemas.ts`). */
  metaRef: boolean;
}

const ONE = 1;
const MANY = 2;
const MAP = 3;
/** Keywords whose value holds subschemas: one, an array of them, or an object of them. */
const SUBSCHEMA_KEYWORDS = new Map<string, number>([
  ['additionalProperties', ONE], ['propertyNames', ONE], ['items', ONE], ['contains', ONE],
  ['not', ONE], ['if', ONE], ['then', ONE], ['else', ONE], ['unevaluatedItems', ONE],
  ['unevaluatedProperties', ONE], ['contentSchema', ONE], ['prefixItems', MANY], ['allOf', MANY],
  ['anyOf', MANY], ['oneOf', MANY], ['$defs', MAP], ['properties', MAP],
  ['patternProperties', MAP], ['dependentSchemas', MAP],
  // `definitions` is not a 2020-12 keyword, but generated tool schemas use it for `$defs`.
  ['definitions', MAP],
]);
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Walks `root` once and indexes its resources, anchors, base URIs and paths.
 * Throws `SchemaCompileError` for an `$id` or `$anchor` that is not a valid identifier, and for
 * a schema nested deeper than `MAX_SCHEMA_DEPTH` (which also catches cyclic objects), unless
 * `options.lenient` is set.
 */
export function indexSchema(root: JsonSchema, options: IndexOptions = {}): SchemaIndex {
  const index: SchemaIndex = {
    resources: new Map(),
    anchors: new Map(),
    baseOf: new Map(),
    pathOf: new Map(),
    dynamicRef: undefined,
    dynamicAnchors: new Map(),
    dynamicNames: new Set(),
    metaRef: false,
  };
  index.resources.set(DEFAULT_BASE, { schema: root, path: '', base: DEFAULT_BASE });
  const fail = options.lenient === true
    ? (): boolean => false
    : (path: string, message: string): never => {
      throw new SchemaCompileError(path, message);
    };
  walk(index, root, '', DEFAULT_BASE, 0, new Set(), fail);
  // The meta-schemas only when a `$ref` names one (they reference one another: walked together).
  if (index.metaRef) {
    for (const meta of META_SCHEMAS) {
      const id = (meta as { $id: string }).$id;
      if (!index.resources.has(id)) walk(index, meta, id, DEFAULT_BASE, 0, new Set(), fail);
    }
  }
  return index;
}

/** Throws a `SchemaCompileError` at `path`, or (lenient) returns false: skip what is wrong. */
type Fail = (path: string, message: string) => boolean;

function walk(index: SchemaIndex, schema: unknown, path: string, base: string, depth: number,
  active: Set<object>, fail: Fail): void {
  if (!isObject(schema)) return;
  if (depth > MAX_SCHEMA_DEPTH) {
    fail(path, `schema nested deeper than ${MAX_SCHEMA_DEPTH} levels (or cyclic)`);
    return;
  }
  // A schema object reused in several places is walked once per base URI: without this, reuse
  // nested in applicators (`anyOf: [s, s]` around `anyOf: [s, s]` ...) would take exponential time.
  if (active.has(schema)) {
    fail(path, 'this schema object contains itself (a cycle of JavaScript objects); use $ref');
    return;
  }
  if (index.baseOf.get(schema) === base) return;
  const id = hasOwn.call(schema, '$id') ? schema.$id : undefined;
  if (id !== undefined) {
    const [uri, fragment] = typeof id === 'string' ? splitFragment(resolveUri(id, base)) : ['', ''];
    if (typeof id !== 'string') fail(path + '/$id', '$id must be a string');
    else if (fragment !== '') fail(path + '/$id', '$id must not have a fragment; use $anchor');
    else {
      base = uri;
      index.resources.set(uri, { schema: schema as JsonSchema, path, base: uri });
    }
  }
  index.baseOf.set(schema, base);
  index.pathOf.set(schema, path);
  for (const kw of ['$anchor', '$dynamicAnchor']) {
    if (!hasOwn.call(schema, kw)) continue;
    const name = schema[kw];
    if (typeof name !== 'string' || !ANCHOR.test(name)) {
      fail(path + '/' + kw, `${kw} must be a name like "node" (letters, digits, -, _, .)`);
      continue;
    }
    const target = { schema: schema as JsonSchema, path, base };
    index.anchors.set(base + '#' + name, target);
    if (kw === '$dynamicAnchor') index.dynamicAnchors.set(base + '#' + name, target);
  }
  for (const kw of ['$ref', '$dynamicRef']) {
    const ref = hasOwn.call(schema, kw) ? schema[kw] : undefined;
    if (typeof ref !== 'string') continue;
    if (ref.includes(META_SCHEMA_PREFIX)) index.metaRef = true;
    if (kw === '$ref') continue;
    if (index.dynamicRef === undefined) index.dynamicRef = path + '/$dynamicRef';
    const name = dynamicName(ref);
    if (name !== undefined) index.dynamicNames.add(name);
  }
  active.add(schema);
  for (const kw in schema) {
    const kind = SUBSCHEMA_KEYWORDS.get(kw);
    if (kind === undefined || !hasOwn.call(schema, kw)) continue;
    const value = schema[kw];
    if (kind === ONE) {
      walk(index, value, path + '/' + kw, base, depth + 1, active, fail);
    } else if (kind === MANY) {
      if (!Array.isArray(value)) continue;
      for (let i = 0; i < value.length; i++) {
        walk(index, value[i], `${path}/${kw}/${i}`, base, depth + 1, active, fail);
      }
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        walk(index, value[key], `${path}/${kw}/${escapeToken(key)}`, base, depth + 1, active, fail);
      }
    }
  }
  active.delete(schema);
}

/**
 * The anchor name in the fragment of a `$dynamicRef` value (`meta` for `…#meta`), or `undefined`
 * when the fragment is empty or a JSON Pointer (then `$dynamicRef` is a plain `$ref`).
 */
export function dynamicName(ref: string): string | undefined {
  const hash = ref.indexOf('#');
  if (hash < 0 || hash === ref.length - 1 || ref[hash + 1] === '/') return undefined;
  try {
    return decodeURIComponent(ref.slice(hash + 1));
  } catch {
    return undefined;
  }
}

/**
 * Finds the schema a `$ref` (or `$dynamicRef`) value points to, resolved against `base`
 * (JSON Schema 2020-12 Core §8.2.3). A fragment is either a JSON Pointer, walked in the
 * resource's JSON (so it may point into `$defs`, `definitions` or any other location), or an
 * anchor name. Returns `undefined` when the target is not in this document.
 */
export function findTarget(index: SchemaIndex, ref: string, base: string): SchemaTarget | undefined {
  // `#…` keeps the base (which never has a fragment): the common case needs no URI parsing.
  const [uri, fragment] = ref[0] === '#' ? [base, ref.slice(1)] : splitFragment(resolveUri(ref, base));
  const resource = index.resources.get(uri);
  if (fragment !== '' && fragment[0] !== '/') {
    let name = fragment;
    try {
      name = decodeURIComponent(fragment);
    } catch {
      return undefined;
    }
    return index.anchors.get(uri + '#' + name);
  }
  if (resource === undefined) return undefined;
  const tokens = decodeFragmentPointer(fragment);
  if (tokens === undefined) return undefined;
  let node: unknown = resource.schema;
  let path = resource.path;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= node.length) return undefined;
      node = node[Number(token)];
    } else if (isObject(node) && hasOwn.call(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
    path += '/' + escapeToken(token);
  }
  if (typeof node !== 'boolean' && !isObject(node)) return undefined;
  const known = typeof node === 'object' ? index.pathOf.get(node) : undefined;
  const knownBase = typeof node === 'object' ? index.baseOf.get(node) : undefined;
  return { schema: node as JsonSchema, path: known ?? path, base: knownBase ?? uri };
}

/**
 * Resolves the `$ref` value `ref` written in the schema object `from` (against `from`'s base URI;
 * the document's when `from` was not indexed). Returns `undefined` when the target is not in this
 * document.
 */
export function resolveRef(index: SchemaIndex, ref: string,
  from: object): SchemaTarget | undefined {
  return findTarget(index, ref, index.baseOf.get(from) ?? DEFAULT_BASE);
}
