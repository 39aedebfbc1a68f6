/**
 * The JSON Schema 2020-12 meta-schemas, bundled as data: the dialect's meta-schema and its seven
 * vocabulary meta-schemas (and the format-assertion one), as published at json-schema.org. A
 * `$ref` to one of their URIs resolves here (`dereference.ts`), so a schema can be checked
 * against the meta-schema without fetching anything. They are written from the specification's
 * text; `title`, `$comment`, `default` and `deprecated` are annotations, kept as published.
 *
 * Spec: JSON Schema 2020-12 Core §8 (core vocabulary, `$dynamicAnchor` "meta"), Appendix
 * "Meta-schemas"; https://json-schema.org/draft/2020-12/schema and .../meta/*.
 * @module
 */
import type { JsonSchema } from '../protocol/types.js';

const DRAFT = 'https://json-schema.org/draft/2020-12';
/** `{ $dynamicRef: '#meta' }`, a new object each time: a schema object has one base URI. */
const meta = (): { $dynamicRef: string } => ({ $dynamicRef: '#meta' });

function vocabulary(name: string, title: string, rest: { [key: string]: unknown }): JsonSchema {
  return {
    $schema: `${DRAFT}/schema`,
    $id: `${DRAFT}/meta/${name}`,
    $dynamicAnchor: 'meta',
    title,
    type: ['object', 'boolean'],
    ...rest,
  } as JsonSchema;
}

const CORE = vocabulary('core', 'Core vocabulary meta-schema', {
  properties: {
    $id: {
      $ref: '#/$defs/uriReferenceString',
      $comment: 'Non-empty fragments not allowed.',
      pattern: '^[^#]*#?$',
    },
    $schema: { $ref: '#/$defs/uriString' },
    $ref: { $ref: '#/$defs/uriReferenceString' },
    $anchor: { $ref: '#/$defs/anchorString' },
    $dynamicRef: { $ref: '#/$defs/uriReferenceString' },
    $dynamicAnchor: { $ref: '#/$defs/anchorString' },
    $vocabulary: {
      type: 'object',
      propertyNames: { $ref: '#/$defs/uriString' },
      additionalProperties: { type: 'boolean' },
    },
    $comment: { type: 'string' },
    $defs: { type: 'object', additionalProperties: meta() },
  },
  $defs: {
    anchorString: { type: 'string', pattern: '^[A-Za-z_][-A-Za-z0-9._]*$' },
    uriString: { type: 'string', format: 'uri' },
    uriReferenceString: { type: 'string', format: 'uri-reference' },
  },
});

const APPLICATOR = vocabulary('applicator', 'Applicator vocabulary meta-schema', {
  properties: {
    prefixItems: { $ref: '#/$defs/schemaArray' },
    items: meta(),
    contains: meta(),
    additionalProperties: meta(),
    properties: { type: 'object', additionalProperties: meta(), default: {} },
    patternProperties: {
      type: 'object',
      additionalProperties: meta(),
      propertyNames: { format: 'regex' },
      default: {},
    },
    dependentSchemas: { type: 'object', additionalProperties: meta(), default: {} },
    propertyNames: meta(),
    if: meta(),
    then: meta(),
    else: meta(),
    allOf: { $ref: '#/$defs/schemaArray' },
    anyOf: { $ref: '#/$defs/schemaArray' },
    oneOf: { $ref: '#/$defs/schemaArray' },
    not: meta(),
  },
  $defs: {
    schemaArray: { type: 'array', minItems: 1, items: meta() },
  },
});

const UNEVALUATED = vocabulary('unevaluated', 'Unevaluated applicator vocabulary meta-schema', {
  properties: { unevaluatedItems: meta(), unevaluatedProperties: meta() },
});

const VALIDATION = vocabulary('validation', 'Validation vocabulary meta-schema', {
  properties: {
    type: {
      anyOf: [
        { $ref: '#/$defs/simpleTypes' },
        { type: 'array', items: { $ref: '#/$defs/simpleTypes' }, minItems: 1, uniqueItems: true },
      ],
    },
    const: true,
    enum: { type: 'array', items: true },
    multipleOf: { type: 'number', exclusiveMinimum: 0 },
    maximum: { type: 'number' },
    exclusiveMaximum: { type: 'number' },
    minimum: { type: 'number' },
    exclusiveMinimum: { type: 'number' },
    maxLength: { $ref: '#/$defs/nonNegativeInteger' },
    minLength: { $ref: '#/$defs/nonNegativeIntegerDefault0' },
    pattern: { type: 'string', format: 'regex' },
    maxItems: { $ref: '#/$defs/nonNegativeInteger' },
    minItems: { $ref: '#/$defs/nonNegativeIntegerDefault0' },
    uniqueItems: { type: 'boolean', default: false },
    maxContains: { $ref: '#/$defs/nonNegativeInteger' },
    minContains: { $ref: '#/$defs/nonNegativeInteger', default: 1 },
    maxProperties: { $ref: '#/$defs/nonNegativeInteger' },
    minProperties: { $ref: '#/$defs/nonNegativeIntegerDefault0' },
    required: { $ref: '#/$defs/stringArray' },
    dependentRequired: {
      type: 'object',
      additionalProperties: { $ref: '#/$defs/stringArray' },
    },
  },
  $defs: {
    nonNegativeInteger: { type: 'integer', minimum: 0 },
    nonNegativeIntegerDefault0: { $ref: '#/$defs/nonNegativeInteger', default: 0 },
    simpleTypes: { enum: ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] },
    stringArray: { type: 'array', items: { type: 'string' }, uniqueItems: true, default: [] },
  },
});

const META_DATA = vocabulary('meta-data', 'Meta-data vocabulary meta-schema', {
  properties: {
    title: { type: 'string' },
    description: { type: 'string' },
    default: true,
    deprecated: { type: 'boolean', default: false },
    readOnly: { type: 'boolean', default: false },
    writeOnly: { type: 'boolean', default: false },
    examples: { type: 'array', items: true },
  },
});

const FORMAT_ANNOTATION = vocabulary('format-annotation',
  'Format vocabulary meta-schema for annotation results', {
    properties: { format: { type: 'string' } },
  });

const FORMAT_ASSERTION = vocabulary('format-assertion',
  'Format vocabulary meta-schema for assertion results', {
    properties: { format: { type: 'string' } },
  });

const CONTENT = vocabulary('content', 'Content vocabulary meta-schema', {
  properties: {
    contentEncoding: { type: 'string' },
    contentMediaType: { type: 'string' },
    contentSchema: meta(),
  },
});

const SCHEMA = {
  $schema: `${DRAFT}/schema`,
  $id: `${DRAFT}/schema`,
  $vocabulary: {
    [`${DRAFT}/vocab/core`]: true,
    [`${DRAFT}/vocab/applicator`]: true,
    [`${DRAFT}/vocab/unevaluated`]: true,
    [`${DRAFT}/vocab/validation`]: true,
    [`${DRAFT}/vocab/meta-data`]: true,
    [`${DRAFT}/vocab/format-annotation`]: true,
    [`${DRAFT}/vocab/content`]: true,
  },
  $dynamicAnchor: 'meta',
  title: 'Core and Validation specifications meta-schema',
  allOf: [
    { $ref: 'meta/core' },
    { $ref: 'meta/applicator' },
    { $ref: 'meta/unevaluated' },
    { $ref: 'meta/validation' },
    { $ref: 'meta/meta-data' },
    { $ref: 'meta/format-annotation' },
    { $ref: 'meta/content' },
  ],
  type: ['object', 'boolean'],
  $comment: 'This meta-schema also defines keywords that have appeared in previous drafts in ' +
    'order to prevent incompatible extensions as they remain in common use.',
  properties: {
    definitions: {
      $comment: '"definitions" has been replaced by "$defs".',
      type: 'object',
      additionalProperties: meta(),
      deprecated: true,
      default: {},
    },
    dependencies: {
      $comment: '"dependencies" has been split and replaced by "dependentSchemas" and ' +
        '"dependentRequired" in order to serve their differing semantics.',
      type: 'object',
      additionalProperties: {
        anyOf: [meta(), { $ref: 'meta/validation#/$defs/stringArray' }],
      },
      deprecated: true,
      default: {},
    },
    $recursiveAnchor: {
      $comment: '"$recursiveAnchor" has been replaced by "$dynamicAnchor".',
      $ref: 'meta/core#/$defs/anchorString',
      deprecated: true,
    },
    $recursiveRef: {
      $comment: '"$recursiveRef" has been replaced by "$dynamicRef".',
      $ref: 'meta/core#/$defs/uriReferenceString',
      deprecated: true,
    },
  },
} as JsonSchema;

function freeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) freeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The URI prefix of the bundled meta-schemas: a `$ref` mentioning it makes them resolvable. */
export const META_SCHEMA_PREFIX = 'json-schema.org/draft/2020-12/';

/** The bundled meta-schemas (frozen), each with its absolute `$id`. */
export const META_SCHEMAS: readonly JsonSchema[] = freeze([
  SCHEMA, CORE, APPLICATOR, UNEVALUATED, VALIDATION, META_DATA, FORMAT_ANNOTATION,
  FORMAT_ASSERTION, CONTENT,
]);
