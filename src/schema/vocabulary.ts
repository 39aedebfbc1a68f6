/**
 * The keywords of JSON Schema 2020-12 as the compilers sort them: every keyword the dialect
 * defines (so that `strict` can refuse the others), and the group of each keyword that asserts
 * or applies, so that a schema object only runs the keyword compilers it needs.
 *
 * Spec: JSON Schema 2020-12 Core §8–10 (core and applicator vocabularies), Validation §6–9
 * (validation, format, content and meta-data vocabularies).
 * @module
 */

/** Every keyword of JSON Schema 2020-12 (Core §8–10, Validation §6–9); `strict` refuses others. */
export const KNOWN: ReadonlySet<string> = new Set([
  '$schema', '$id', '$anchor', '$dynamicAnchor', '$ref', '$dynamicRef', '$defs', '$comment',
  '$vocabulary', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas',
  'prefixItems', 'items', 'contains', 'properties', 'patternProperties', 'additionalProperties',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'type', 'enum', 'const',
  'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength',
  'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains',
  'maxProperties', 'minProperties', 'required', 'dependentRequired', 'format', 'contentEncoding',
  'contentMediaType', 'contentSchema', 'title', 'description', 'default', 'deprecated', 'readOnly',
  'writeOnly', 'examples',
]);
/** Keyword group bits: which keyword compilers a schema object needs. */
export const G_NUMBER = 1;
/** Keyword group: string keywords. */
export const G_STRING = 2;
/** Keyword group: array keywords. */
export const G_ARRAY = 4;
/** Keyword group: object keywords. */
export const G_OBJECT = 8;
/** Keyword group: everything else that asserts or applies (`type`, `enum`, `$ref`, `allOf`…). */
export const G_OTHER = 16;
/** The group of each keyword that asserts or applies; annotations have none. */
export const GROUP: ReadonlyMap<string, number> = new Map<string, number>([
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']
    .map((k): [string, number] => [k, G_NUMBER]),
  ...['minLength', 'maxLength', 'pattern', 'format'].map((k): [string, number] => [k, G_STRING]),
  ...['prefixItems', 'items', 'contains', 'minContains', 'maxContains', 'minItems', 'maxItems',
    'uniqueItems'].map((k): [string, number] => [k, G_ARRAY]),
  ...['properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'required',
    'minProperties', 'maxProperties', 'dependentRequired', 'dependentSchemas']
    .map((k): [string, number] => [k, G_OBJECT]),
  ...['$defs', 'type', 'enum', 'const', '$ref', '$dynamicRef', 'allOf', 'anyOf', 'oneOf', 'not',
    'if', 'unevaluatedProperties', 'unevaluatedItems'].map((k): [string, number] => [k, G_OTHER]),
]);

