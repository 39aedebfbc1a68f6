/**
 * An `outputSchema` whose root is not `"type": "object"`, for the revisions that require one.
 * MCP 2026-07-28 allows any JSON Schema as `outputSchema` and any JSON value as
 * `structuredContent`; 2025-06-18 and 2025-11-25 require an object schema and an object value.
 * For those, the schema is served wrapped as `{ type: "object", properties: { result: <schema> },
 * required: ["result"] }` and the value as `{ result: <value> }`, as the MCP TypeScript SDK v2
 * does, so that one tool serves both eras.
 *
 * Spec: MCP 2026-07-28, Server / Tools (`Tool.outputSchema`: "any valid JSON Schema 2020-12";
 * `CallToolResult.structuredContent`: "any JSON value"); MCP 2025-11-25, Server / Tools
 * (`outputSchema` "restricted to type: object at the root level"); JSON Schema 2020-12 Core
 * §8.2.1 (`$id` and the base URI), §8.2.3.1 (`$ref`).
 * @module
 */
import { isObject, type JsonObject, type JsonValue } from '../protocol/messages.js';
import { atLeast } from '../protocol/revisions.js';

/** The first revision whose `outputSchema` may have any root and `structuredContent` any value. */
export const ANY_OUTPUT_SINCE = '2026-07-28';

/** Keywords whose value is data, not a schema: a `$ref` inside is a value, never rewritten. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords whose value maps names to schemas: the names are not keywords. */
const NAME_MAPS: ReadonlySet<string> = new Set([
  'properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas',
]);

/** Whether `schema` is served wrapped to revisions before 2026-07-28: its root is not an object. */
export function wrapsOutput(schema: JsonObject): boolean {
  return schema.type !== 'object';
}

/** Whether an `$id` sets a new base URI (a fragment-only `$id` does not). */
function newBase(id: unknown): boolean {
  return id !== undefined && !(typeof id === 'string' && id.startsWith('#'));
}

/**
 * `schema` moved under `properties.result`: every same-document `$ref` (`#`, `#/...`) is
 * rewritten to point into its new place, except inside a subschema that sets its own base with
 * `$id` (its references resolve against that base, which did not move).
 */
function moved(node: unknown, nameMap: boolean): JsonValue {
  if (Array.isArray(node)) return node.map((item) => moved(item, false));
  if (!isObject(node)) return node as JsonValue;
  if (!nameMap && newBase(node.$id)) return node as JsonObject;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (nameMap) out[key] = moved(value, false);
    else if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) {
      out[key] = value === '#' ? '#/properties/result' : `#/properties/result${value.slice(1)}`;
    } else if (DATA_KEYWORDS.has(key)) out[key] = value as JsonValue;
    else out[key] = moved(value, NAME_MAPS.has(key));
  }
  return out;
}

/**
 * The `outputSchema` served under `revision`: as written from 2026-07-28 on, and for an object
 * root; otherwise wrapped as `{ type: "object", properties: { result }, required: ["result"] }`
 * (a `$schema` stays at the root).
 */
export function servedOutputSchema(schema: JsonObject, revision: string): JsonObject {
  if (atLeast(revision, ANY_OUTPUT_SINCE) || !wrapsOutput(schema)) return schema;
  const { $schema, ...rest } = schema;
  const result = newBase(schema.$id) ? rest : (moved(rest, false) as JsonObject);
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: 'object',
    properties: { result },
    required: ['result'],
  };
}

/**
 * `structuredContent` as sent under `revision`: as returned from 2026-07-28 on; before, wrapped as
 * `{ result: value }` when the tool's `outputSchema` is wrapped or the value is not an object.
 */
export function servedStructuredContent(
  value: JsonValue,
  outputSchema: JsonObject | undefined,
  revision: string,
): JsonValue {
  if (atLeast(revision, ANY_OUTPUT_SINCE)) return value;
  const wrap = (outputSchema !== undefined && wrapsOutput(outputSchema)) || !isObject(value);
  return wrap ? { result: value } : value;
}
