/**
 * The schema side of argument coercion: a read-only view of one schema document that resolves
 * same-document `$ref`s (with the validator's resolver, `dereference.ts`), flattens what a node applies in place (`$ref`, `allOf`), intersects the
 * declared `type`s, and answers "does this subschema accept this value" with the in-house
 * validator. Everything is computed lazily and cached per schema object.
 *
 * Spec: JSON Schema 2020-12 Core §8.2.3 (`$ref`), §10.2.1 (`allOf`, `anyOf`, `oneOf`),
 * §10.3 (child applicators); RFC 6901 (JSON Pointer); RFC 3986 §3.5 (fragments).
 * @module
 */
import type { JsonSchema } from '../protocol/types.js';
import type { JsonValue } from '../protocol/messages.js';
import { compileSchema } from './validate.js';
import type { TypeName } from './coerce-rules.js';
import { isObject } from '../protocol/messages.js';
import { type SchemaObject, own } from './context.js';
import { type SchemaIndex, indexSchema, resolveRef } from './dereference.js';

/** A schema: an object or a boolean (2020-12 Core §4.3.2). */
export type SchemaNode = SchemaObject | boolean;

/** What a node applies to the value in place, flattened through `$ref` and `allOf`. */
export interface NodeView {
  /** The node itself and every schema object it reaches through `$ref` and `allOf`. */
  readonly conjuncts: readonly SchemaObject[];
  /** The intersection of every declared `type`, or `undefined` when none declares one. */
  readonly types: ReadonlySet<TypeName> | undefined;
  /** The union of every `required` list. */
  readonly required: ReadonlySet<string>;
  /** Each `anyOf` and `oneOf` list found among the conjuncts. */
  readonly groups: readonly (readonly SchemaNode[])[];
}

const TYPE_NAMES: ReadonlySet<string> = new Set([
  'null',
  'boolean',
  'object',
  'array',
  'number',
  'integer',
  'string',
]);
/** Keywords that do not constrain a value: a node with only these and `$ref` is its target. */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  '$ref',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
/** Longest chain of bare `$ref`s followed by {@link SchemaDocument.target}. */
const MAX_REF_HOPS = 32;
/** Most conjuncts one node may flatten to (a guard against `allOf` fan-out). */
const MAX_CONJUNCTS = 64;
/** Base URI given to the root when a subschema is validated through a wrapper document. */
const ROOT_ID = 'urn:baremcp:coerce:root';

/** True for a value usable as a schema: an object or a boolean. */
export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'boolean' || isObject(value);
}

function intersectTypes(
  a: ReadonlySet<TypeName> | undefined,
  b: ReadonlySet<TypeName>,
): Set<TypeName> {
  if (a === undefined) return new Set(b);
  const out = new Set<TypeName>();
  for (const type of a) {
    if (b.has(type)) out.add(type);
    else if (type === 'integer' && b.has('number')) out.add('integer');
    else if (type === 'number' && b.has('integer')) out.add('integer');
  }
  return out;
}

function declaredTypes(schema: SchemaObject): ReadonlySet<TypeName> | undefined {
  const type = own(schema, 'type');
  const list = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  if (list === undefined) return undefined;
  return new Set(
    list.filter((name): name is TypeName => typeof name === 'string' && TYPE_NAMES.has(name)),
  );
}

/** Cache of {@link SchemaDocument.conjunction} nodes: one level per member, keyed by identity. */
type ConjunctionTrie = WeakMap<object, { next: ConjunctionTrie; node?: SchemaObject }>;

/** A compiled check for one subschema, or `undefined` when it could not be compiled. */
type Check = ((value: unknown) => boolean | undefined) | undefined;

/** One schema document, with its caches. Obtain it with {@link schemaDocument}. */
export class SchemaDocument {
  readonly root: SchemaNode;
  #indexed: SchemaIndex | undefined;
  /** JSON Pointers of `$ref` targets the index does not list (under an unknown keyword). */
  readonly #targetPaths = new WeakMap<object, string>();
  readonly #views = new WeakMap<object, NodeView>();
  readonly #checks = new WeakMap<object, Check>();
  readonly #regexes = new Map<string, RegExp | undefined>();
  readonly #targets = new WeakMap<object, SchemaNode>();
  readonly #conjunctions: ConjunctionTrie = new WeakMap();

  constructor(root: SchemaNode) {
    this.root = root;
  }

  /** The document's resources, anchors, base URIs and paths (indexed once, never throwing). */
  #index(): SchemaIndex {
    this.#indexed ??= indexSchema(this.root as JsonSchema, { lenient: true });
    return this.#indexed;
  }

  /**
   * Resolves the `$ref` value `ref` written in the schema object `from` within this document
   * (JSON Pointers, anchors, `$id` bases: JSON Schema 2020-12 Core §8.2). Anything that points
   * outside the document resolves to `undefined`.
   */
  resolve(ref: string, from: SchemaObject): SchemaNode | undefined {
    const target = resolveRef(this.#index(), ref, from);
    if (target === undefined) return undefined;
    if (typeof target.schema === 'object') this.#targetPaths.set(target.schema, target.path);
    return target.schema;
  }

  /**
   * The node a bare `$ref` (a node whose other keywords are annotations) stands for, followed
   * through chains; any other node is its own target. Lets every `$ref` to one definition share
   * one cache entry, so recursive schemas are walked once per value, not once per path to it.
   */
  target(node: SchemaNode): SchemaNode {
    if (typeof node === 'boolean') return node;
    const cached = this.#targets.get(node);
    if (cached !== undefined) return cached;
    let current: SchemaNode = node;
    for (let hop = 0; hop < MAX_REF_HOPS && typeof current === 'object'; hop++) {
      const ref = own(current, '$ref');
      if (typeof ref !== 'string') break;
      if (Object.keys(current).some((key) => !ANNOTATIONS.has(key))) break;
      const next = this.resolve(ref, current);
      if (next === undefined || next === node) break;
      current = next;
    }
    this.#targets.set(node, current);
    return current;
  }

  /**
   * One node standing for all of `nodes` at once (an `allOf` of them, cached by identity), so
   * that a property described by several conjuncts gets the intersection of their `type`s.
   * `true` members are dropped; a `false` member makes the whole `false`.
   */
  conjunction(nodes: readonly SchemaNode[]): SchemaNode {
    const members = nodes.filter((node) => node !== true);
    if (members.includes(false)) return false;
    if (members.length === 0) return true;
    if (members.length === 1) return members[0] as SchemaNode;
    let level = this.#conjunctions;
    let entry: { next: ConjunctionTrie; node?: SchemaObject } | undefined;
    for (const member of members as SchemaObject[]) {
      entry = level.get(member);
      if (entry === undefined) level.set(member, (entry = { next: new WeakMap() }));
      level = entry.next;
    }
    const last = entry as { next: ConjunctionTrie; node?: SchemaObject };
    last.node ??= { allOf: members };
    return last.node;
  }

  /** The flattened view of `node` (cached). Boolean schemas have no conjuncts. */
  view(node: SchemaNode): NodeView {
    if (typeof node === 'boolean') {
      return { conjuncts: [], types: undefined, required: new Set(), groups: [] };
    }
    const cached = this.#views.get(node);
    if (cached !== undefined) return cached;
    const conjuncts: SchemaObject[] = [];
    const seen = new Set<SchemaObject>();
    const visit = (schema: SchemaNode | undefined): void => {
      if (schema === undefined || typeof schema === 'boolean' || seen.has(schema)) return;
      if (conjuncts.length >= MAX_CONJUNCTS) return;
      seen.add(schema);
      conjuncts.push(schema);
      const ref = own(schema, '$ref');
      if (typeof ref === 'string') visit(this.resolve(ref, schema));
      const allOf = own(schema, 'allOf');
      if (Array.isArray(allOf)) for (const item of allOf) if (isSchemaNode(item)) visit(item);
    };
    visit(node);
    let types: Set<TypeName> | undefined;
    const required = new Set<string>();
    const groups: SchemaNode[][] = [];
    for (const schema of conjuncts) {
      const declared = declaredTypes(schema);
      if (declared !== undefined) types = intersectTypes(types, declared);
      const list = own(schema, 'required');
      if (Array.isArray(list)) {
        for (const name of list) if (typeof name === 'string') required.add(name);
      }
      for (const keyword of ['anyOf', 'oneOf']) {
        const branches = own(schema, keyword);
        if (Array.isArray(branches)) groups.push(branches.filter(isSchemaNode));
      }
    }
    const view: NodeView = { conjuncts, types, required, groups };
    this.#views.set(node, view);
    return view;
  }

  /** The `patternProperties` expression for `pattern` (`u` flag), or undefined if invalid. */
  regex(pattern: string): RegExp | undefined {
    if (this.#regexes.has(pattern)) return this.#regexes.get(pattern);
    let compiled: RegExp | undefined;
    try {
      compiled = new RegExp(pattern, 'u');
    } catch {
      compiled = undefined;
    }
    this.#regexes.set(pattern, compiled);
    return compiled;
  }

  /**
   * Whether `node` accepts `value` per the in-house validator: `true`, `false`, or `undefined`
   * when the subschema could not be compiled (an unresolvable `$ref`, say). A subschema other
   * than the root is validated through a wrapper whose `$ref` points at it inside the root, so
   * its own `$ref`s resolve against the whole document.
   */
  accepts(node: SchemaNode, value: unknown): boolean | undefined {
    if (typeof node === 'boolean') return node;
    let check = this.#checks.get(node);
    if (!this.#checks.has(node)) {
      check = this.#compile(node);
      this.#checks.set(node, check);
    }
    return check === undefined ? undefined : check(value);
  }

  #compile(node: SchemaObject): Check {
    let schema: JsonSchema;
    if (node === this.root) {
      schema = node as JsonSchema;
    } else {
      const pointer = this.#index().pathOf.get(node) ?? this.#targetPaths.get(node);
      if (pointer === undefined || typeof this.root === 'boolean') return undefined;
      const ownId = own(this.root, '$id');
      const id =
        typeof ownId === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(ownId)
          ? ownId.replace(/#$/, '')
          : ROOT_ID;
      const fragment = pointer.split('/').map(encodeURIComponent).join('/');
      const embedded = { ...(this.root as { [keyword: string]: JsonValue }), $id: id };
      schema = { $defs: { root: embedded }, $ref: `${id}#${fragment}` };
    }
    try {
      const validator = compileSchema(schema);
      return (value: unknown) => {
        try {
          return validator.validate(value).valid;
        } catch {
          return undefined;
        }
      };
    } catch {
      return undefined;
    }
  }
}

const documents = new WeakMap<object, SchemaDocument>();

/** The cached {@link SchemaDocument} for a root schema (one per root object). */
export function schemaDocument(root: JsonSchema): SchemaDocument {
  if (typeof root === 'boolean') return new SchemaDocument(root);
  let document = documents.get(root);
  if (document === undefined) {
    document = new SchemaDocument(root);
    documents.set(root, document);
  }
  return document;
}
