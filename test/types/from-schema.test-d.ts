// Type tests for src/schema/from-schema.ts: FromSchema<S> on `as const` JSON Schema literals.
import type { JsonObject } from '../../src/protocol/messages.js';
import type { FromSchema } from '../../src/schema/from-schema.js';
import { expectTrue, expectType, value, type Equal } from './expect.js';

// Every `type` name, and boolean schemas.
expectTrue<Equal<FromSchema<{ type: 'string' }>, string>>();
expectTrue<Equal<FromSchema<{ type: 'number' }>, number>>();
expectTrue<Equal<FromSchema<{ type: 'integer' }>, number>>();
expectTrue<Equal<FromSchema<{ type: 'boolean' }>, boolean>>();
expectTrue<Equal<FromSchema<{ type: 'null' }>, null>>();
expectTrue<Equal<FromSchema<{ type: 'array' }>, unknown[]>>();
expectTrue<Equal<FromSchema<{ type: 'object' }>, { [key: string]: unknown }>>();
expectTrue<Equal<FromSchema<true>, unknown>>();
expectTrue<Equal<FromSchema<false>, never>>();
expectTrue<Equal<FromSchema<{}>, unknown>>();

// Type arrays: the union, including null.
const nullable = { type: ['string', 'null'] } as const;
expectTrue<Equal<FromSchema<typeof nullable>, string | null>>();
const several = { type: ['integer', 'boolean', 'array'], items: { type: 'string' } } as const;
expectTrue<Equal<FromSchema<typeof several>, number | boolean | string[]>>();

// properties + required; additionalProperties false: no index signature.
const closed = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    limit: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['path'],
  additionalProperties: false,
} as const;
type Closed = FromSchema<typeof closed>;
expectTrue<Equal<Closed, { path: string; limit?: number; tags?: string[] }>>();
declare const c: Closed;
expectType<string>(c.path);
// @ts-expect-error an optional property may be undefined
expectType<number>(c.limit);
// @ts-expect-error a misspelled key does not exist when additionalProperties is false
c.pth;
// @ts-expect-error a required key cannot be left out
expectType<Closed>({ limit: 1 });
// @ts-expect-error a property of the wrong type
expectType<Closed>({ path: 3 });

// additionalProperties absent beside properties: only the declared keys, so a misspelled
// argument name fails to compile (a value with more keys still fits: TS object types are open).
const open = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } as const;
type Open = FromSchema<typeof open>;
expectTrue<Equal<Open, { a: string }>>();
declare const o: Open;
expectType<string>(o.a);
// @ts-expect-error a key the schema does not declare
void o.aa;
const wider = { a: 'x', extra: 1 };
expectType<Open>(wider);
// additionalProperties true, or no properties at all: any key, as unknown.
const looseObject = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: true } as const;
expectTrue<Equal<FromSchema<typeof looseObject>, { [key: string]: unknown; a: string }>>();
expectTrue<
  Equal<FromSchema<{ type: 'object'; additionalProperties: true }>, { [key: string]: unknown }>
>();
expectTrue<Equal<FromSchema<{ type: 'object' }>, { [key: string]: unknown }>>();
declare const l: FromSchema<typeof looseObject>;
expectTrue<Equal<typeof l.anything, unknown>>();

// additionalProperties as a schema: an index signature of that type (joined with declared types).
const dict = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: { type: 'number' },
} as const;
expectTrue<Equal<FromSchema<typeof dict>, { [key: string]: number | string; name: string }>>();
const counts = { type: 'object', additionalProperties: { type: 'integer' } } as const;
expectTrue<Equal<FromSchema<typeof counts>, { [key: string]: number }>>();
// @ts-expect-error an extra key must have the additionalProperties type
expectType<FromSchema<typeof counts>>({ a: 'one' });

// patternProperties with additionalProperties false; unevaluatedProperties false.
const pattern = {
  type: 'object',
  patternProperties: { '^x-': { type: 'string' } },
  additionalProperties: false,
} as const;
expectTrue<Equal<FromSchema<typeof pattern>, { [key: string]: string }>>();
const sealed = {
  type: 'object',
  properties: { a: { type: 'null' } },
  unevaluatedProperties: false,
} as const;
expectTrue<Equal<FromSchema<typeof sealed>, { a?: null }>>();

// unevaluatedProperties beside allOf/anyOf/oneOf/$ref may see more keys: stays open.
const composed = {
  type: 'object',
  properties: { b: { type: 'string' } },
  allOf: [{ properties: { a: { type: 'string' } } }],
  unevaluatedProperties: false,
} as const;
expectType<FromSchema<typeof composed>>({ a: 'x', b: 'y' });

// A required key missing from properties is present but unknown.
const bare = { type: 'object', required: ['id'], additionalProperties: false } as const;
expectTrue<Equal<FromSchema<typeof bare>, { id: unknown }>>();

// items and prefixItems (tuples): minItems decides which prefix elements are required.
expectTrue<Equal<FromSchema<{ type: 'array'; items: { type: 'number' } }>, number[]>>();
const point = {
  type: 'array',
  prefixItems: [{ type: 'number' }, { type: 'number' }],
  minItems: 2,
  items: false,
} as const;
expectTrue<Equal<FromSchema<typeof point>, [number, number]>>();
const loose = {
  type: 'array',
  prefixItems: [{ type: 'string' }, { type: 'boolean' }],
  minItems: 1,
} as const;
expectTrue<Equal<FromSchema<typeof loose>, [string, boolean?, ...unknown[]]>>();
const tail = {
  type: 'array',
  prefixItems: [{ type: 'string' }],
  items: { type: 'integer' },
} as const;
expectTrue<Equal<FromSchema<typeof tail>, [string?, ...number[]]>>();
// @ts-expect-error a tuple element of the wrong type
expectType<FromSchema<typeof point>>([1, '2']);

// enum and const: literal unions; a misspelled literal fails.
const unit = { enum: ['celsius', 'fahrenheit'] } as const;
expectTrue<Equal<FromSchema<typeof unit>, 'celsius' | 'fahrenheit'>>();
// @ts-expect-error a misspelled enum literal
expectType<FromSchema<typeof unit>>('celcius');
const typedEnum = { type: 'string', enum: ['a', 1, null] } as const;
expectTrue<Equal<FromSchema<typeof typedEnum>, 'a'>>();
expectTrue<Equal<FromSchema<{ const: 'v1' }>, 'v1'>>();
expectTrue<Equal<FromSchema<{ const: 42 }>, 42>>();

// anyOf / oneOf: unions; allOf: intersections, flattened.
const either = {
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
} as const;
expectTrue<Equal<FromSchema<typeof either>, string | string[]>>();
const shape = {
  oneOf: [
    {
      type: 'object',
      properties: { kind: { const: 'circle' }, r: { type: 'number' } },
      required: ['kind', 'r'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { kind: { const: 'square' }, side: { type: 'number' } },
      required: ['kind', 'side'],
      additionalProperties: false,
    },
  ],
} as const;
type Shape = FromSchema<typeof shape>;
expectTrue<Equal<Shape, { kind: 'circle'; r: number } | { kind: 'square'; side: number }>>();
declare const sh: Shape;
if (sh.kind === 'circle') expectType<number>(sh.r);
const both = {
  allOf: [
    {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    },
    { type: 'object', properties: { rev: { type: 'integer' } }, additionalProperties: false },
  ],
} as const;
expectTrue<Equal<FromSchema<typeof both>, { id: string; rev?: number }>>();
const narrowed = {
  type: ['string', 'number'],
  anyOf: [{ type: 'number' }, { const: 'auto' }],
} as const;
expectTrue<Equal<FromSchema<typeof narrowed>, number | 'auto'>>();

// $ref into $defs and definitions, resolved against the root, nested objects.
const withRefs = {
  type: 'object',
  properties: {
    from: { $ref: '#/$defs/point' },
    to: { $ref: '#/definitions/point' },
    meta: {
      type: 'object',
      properties: {
        owner: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
  },
  required: ['from'],
  additionalProperties: false,
  $defs: {
    point: {
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'number' } },
      required: ['x', 'y'],
      additionalProperties: false,
    },
  },
  definitions: { point: { $ref: '#/$defs/point' } },
} as const;
type WithRefs = FromSchema<typeof withRefs>;
type Point = { x: number; y: number };
expectTrue<Equal<WithRefs['from'], Point>>();
expectTrue<Equal<WithRefs['to'], Point | undefined>>();
expectTrue<Equal<WithRefs['meta'], { owner?: { name: string } } | undefined>>();
const danglingRef = { $ref: '#/$defs/missing' } as const;
expectTrue<Equal<FromSchema<typeof danglingRef>, unknown>>();

// A recursive schema terminates (unfolded a few levels, then unknown).
const tree = {
  type: 'object',
  properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
  required: ['label'],
  additionalProperties: false,
} as const;
type Tree = FromSchema<typeof tree>;
declare const t: Tree;
expectType<string>(t.label);
expectType<string | undefined>(t.children?.[0]?.children?.[0]?.label);

// Unknown shapes fall back to unknown, never to a wrong type.
expectTrue<Equal<FromSchema<{ not: { type: 'string' } }>, unknown>>();
expectTrue<
  Equal<FromSchema<{ type: 'object'; properties: { a: { if: {}; then: {} } } }>['a'], unknown>
>();
expectTrue<Equal<FromSchema<JsonObject>, unknown>>();
// Widened (non-literal) schemas: `required: string[]` makes nothing required.
const widened = {
  type: 'object' as const,
  properties: { a: { type: 'string' as const } },
  required: ['a'],
};
expectTrue<Equal<FromSchema<typeof widened>, { a?: string }>>();

// The computed types are mutable even though the literals are readonly.
const list = value<FromSchema<{ type: 'array'; items: { type: 'string' } }>>();
list.push('x');
