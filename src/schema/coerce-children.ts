/**
 * Which subschemas apply to one child of a value during coercion: the element schemas of an
 * array position, the property schemas of a key, and whether those refuse `null`. Lookups use
 * own properties only, so keys such as `constructor` or `__proto__` are plain data.
 *
 * Spec: JSON Schema 2020-12 Core §10.3.1 (`prefixItems`, `items`), §10.3.2 (`properties`,
 * `patternProperties`, `additionalProperties`); draft 2019-09 Core §9.3.1 (array `items`,
 * `additionalItems`).
 * @module
 */
import { isObject } from '../protocol/messages.js';
import { own } from './context.js';
import {
  isSchemaNode,
  type NodeView,
  type SchemaDocument,
  type SchemaNode,
} from './coerce-schema.js';

/** The subschemas that apply to array element `index` across the conjuncts (Core §10.3.1). */
export function itemSchemas(view: NodeView, index: number): SchemaNode[] {
  const schemas: SchemaNode[] = [];
  for (const schema of view.conjuncts) {
    const prefix = own(schema, 'prefixItems');
    const items = own(schema, 'items');
    let applied: unknown;
    if (Array.isArray(prefix) && index < prefix.length) {
      applied = prefix[index];
    } else if (Array.isArray(items)) {
      applied = index < items.length ? items[index] : own(schema, 'additionalItems');
    } else {
      applied = items;
    }
    if (isSchemaNode(applied)) schemas.push(applied);
  }
  return schemas;
}

/**
 * The subschemas that apply to property `key` across the conjuncts: `properties`, every matching
 * `patternProperties`, else `additionalProperties` (2020-12 Core §10.3.2). Own properties only.
 */
export function propertySchemas(
  document: SchemaDocument,
  view: NodeView,
  key: string,
): SchemaNode[] {
  const schemas: SchemaNode[] = [];
  const add = (schema: unknown): void => {
    if (isSchemaNode(schema)) schemas.push(schema);
  };
  for (const schema of view.conjuncts) {
    let matched = false;
    const properties = own(schema, 'properties');
    if (isObject(properties) && Object.hasOwn(properties, key)) {
      add(properties[key]);
      matched = true;
    }
    const patterns = own(schema, 'patternProperties');
    if (isObject(patterns)) {
      for (const pattern of Object.keys(patterns)) {
        if (document.regex(pattern)?.test(key) === true) {
          add(patterns[pattern]);
          matched = true;
        }
      }
    }
    if (!matched) add(own(schema, 'additionalProperties'));
  }
  return schemas;
}

/** True when some applicable subschema rejects `null` and none forbids the key outright. */
export function rejectsNull(document: SchemaDocument, schemas: readonly SchemaNode[]): boolean {
  if (schemas.length === 0 || schemas.includes(false)) return false;
  let rejects = false;
  for (const schema of schemas) {
    const accepted = document.accepts(schema, null);
    if (accepted === undefined) return false;
    if (!accepted) rejects = true;
  }
  return rejects;
}
