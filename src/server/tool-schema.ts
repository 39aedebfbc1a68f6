/**
 * A tool's `inputSchema` and `outputSchema` as the server serves them: a JSON Schema literal
 * exactly as written, or a validation library's schema (zod, valibot, arktype: anything that
 * implements Standard Schema and Standard JSON Schema) converted once to JSON Schema 2020-12.
 * The library schema is kept beside the served one, so that its own `validate` runs after
 * baremcp's validator (refinements and transforms apply).
 *
 * Spec: MCP 2025-11-25, Server / Tools (`inputSchema` with `"type": "object"` at the root) and
 * "JSON Schema Usage" (2020-12 by default; `$schema` may name it); MCP 2026-07-28, Server / Tools
 * (`outputSchema` may be any JSON Schema); Standard Schema v1 and Standard JSON Schema v1.
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import { findUnknownKeywords } from '../schema/keyword-lint.js';
import {
  isStandardSchema, standardToJsonSchema, StandardSchemaError, type StandardSchemaWithJson,
} from '../schema/standard-schema.js';

/** A tool schema as an author may give it: a JSON Schema literal or a library schema. */
export type ToolSchema = JsonObject | StandardSchemaWithJson;

/** The library schemas of a checked tool, by role (absent for a JSON Schema literal). */
export interface LibrarySchemas {
  input?: StandardSchemaWithJson;
  output?: StandardSchemaWithJson;
}

const LIBRARY = new WeakMap<object, LibrarySchemas>();

/** Records the library schemas of checked tool `tool` (see {@link librarySchemas}). */
export function keepLibrarySchemas(tool: object, schemas: LibrarySchemas): void {
  if (schemas.input !== undefined || schemas.output !== undefined) LIBRARY.set(tool, schemas);
}

/** The library schemas a checked tool was defined with; undefined for JSON Schema literals. */
export function librarySchemas(tool: object): LibrarySchemas | undefined {
  return LIBRARY.get(tool);
}

/**
 * One warning line per keyword of a tool's served schemas that is probably misspelled
 * (`requried`, `minLenght`): JSON Schema ignores unknown keywords, so nothing would check it.
 * Other unknown keywords give no line here (`baremcp check` lists them).
 */
export function misspelledKeywords(tool: { name: string; inputSchema: JsonObject; outputSchema?: JsonObject }): string[] {
  const lines: string[] = [];
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    for (const found of findUnknownKeywords(tool[field])) {
      if (found.suggestion === undefined) continue;
      lines.push(
        `tool "${tool.name}": ${field}.${found.path} is not a JSON Schema keyword: did you mean ` +
          `"${found.suggestion}"? (an unknown keyword is ignored, so nothing checks it)`,
      );
    }
  }
  return lines;
}

const DIALECT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const LIBRARIES = 'zod 4.2+, arktype 2, valibot through toStandardJsonSchema';

/** A short name for a value that JSON cannot hold: `a function`, `a Date instance`, ... */
function kindOf(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object' && value !== null) {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name} instance` : 'an object with a prototype';
  }
  return typeof value === 'number' ? String(value) : `a ${typeof value}`;
}

/**
 * The first place in `value` that a JSON Schema literal cannot hold, as `<what> at <pointer>`:
 * a function, a symbol, a bigint, a non-finite number, an instance of a class, or a cycle.
 * `undefined` members are ignored (JSON leaves them out). Undefined when `value` is plain JSON.
 */
export function notJsonLiteral(value: unknown): string | undefined {
  const ancestors = new Set<object>();
  const clean = new Set<object>();
  const visit = (node: unknown, path: string): string | undefined => {
    const at = path === '' ? '/' : path;
    if (node === null || node === undefined || typeof node === 'string' || typeof node === 'boolean') {
      return undefined;
    }
    if (typeof node === 'number') return Number.isFinite(node) ? undefined : `${kindOf(node)} at ${at}`;
    if (typeof node !== 'object') return `${kindOf(node)} at ${at}`;
    if (clean.has(node)) return undefined;
    if (ancestors.has(node)) return `a cycle at ${at}`;
    const proto = Object.getPrototypeOf(node) as unknown;
    if (!Array.isArray(node) && proto !== Object.prototype && proto !== null) return `${kindOf(node)} at ${at}`;
    ancestors.add(node);
    for (const [key, child] of Object.entries(node)) {
      const found = visit(child, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (found !== undefined) return found;
    }
    ancestors.delete(node);
    clean.add(node);
    return undefined;
  };
  return visit(value, '');
}

/**
 * The JSON Schema served for `schema` (a tool's `field`), and the library schema behind it if any.
 * @throws {Error} (the caller wraps it in a `ToolDefinitionError`; the message names the tool and
 *   the field) for an unusable library schema (no `~standard.jsonSchema`: how to get one), anything
 *   else that is not a JSON Schema object, an `inputSchema` without `"type": "object"` at its
 *   root, or a `$schema` naming another dialect than 2020-12.
 */
export function servedSchema(
  tool: string,
  field: 'inputSchema' | 'outputSchema',
  schema: unknown,
): { schema: JsonObject; library?: StandardSchemaWithJson } {
  let served: JsonObject;
  let library: StandardSchemaWithJson | undefined;
  if (isStandardSchema(schema)) {
    try {
      served = standardToJsonSchema(schema, field === 'inputSchema' ? 'input' : 'output');
    } catch (error) {
      if (!(error instanceof StandardSchemaError)) throw error;
      throw new Error(`tool "${tool}": ${field}: ${error.message}`);
    }
    library = schema as StandardSchemaWithJson;
  } else {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new Error(`tool "${tool}": ${field} must be a JSON Schema object`);
    }
    const bad = notJsonLiteral(schema);
    if (bad !== undefined) {
      throw new Error(
        `tool "${tool}": ${field} is not a JSON Schema literal (${bad}); write the schema as a ` +
          `plain JSON object, or give a schema from a library with "~standard.jsonSchema" (${LIBRARIES})`,
      );
    }
    served = schema as JsonObject;
  }
  // An outputSchema may have any root (MCP 2026-07-28); older revisions get it wrapped.
  if (field === 'inputSchema' && served.type !== 'object') {
    const what = library === undefined ? '' : ` (the ${library['~standard'].vendor} schema converts to "type": ${JSON.stringify(served.type ?? null)}; use an object schema)`;
    throw new Error(
      `tool "${tool}": ${field} must have "type": "object" at its root (MCP 2025-11-25, Server / Tools)${what}`,
    );
  }
  if (Object.prototype.hasOwnProperty.call(served, '$schema')) {
    const dialect = served.$schema;
    if (!(typeof dialect === 'string' && DIALECT_2020_12.test(dialect))) {
      throw new Error(
        `tool "${tool}": ${field} declares "$schema": ${JSON.stringify(dialect)}; baremcp serves ` +
          'JSON Schema 2020-12 only (remove "$schema" and write the schema in 2020-12)',
      );
    }
  }
  return library === undefined ? { schema: served } : { schema: served, library };
}
