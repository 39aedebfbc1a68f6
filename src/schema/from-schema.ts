/**
 * `FromSchema<S>`: the TypeScript type of the values a JSON Schema literal accepts, computed by the
 * compiler from the literal itself (written `as const`, or passed through `defineTool`). Types
 * only: this module emits no runtime code.
 *
 * What is understood: `type` (a name or an array of names), `properties` + `required`,
 * `additionalProperties`, `patternProperties`, `unevaluatedProperties: false`, `items`,
 * `prefixItems` + `minItems`, `enum`, `const`, `anyOf`, `oneOf`, `allOf`, `$ref` to `#`,
 * `#/$defs/<name>` or `#/definitions/<name>` (resolved against the root schema, up to
 * five nested references), and boolean schemas. Other keywords (`not`, `if`/`then`/`else`,
 * `dependentSchemas`, `minLength`, `pattern`, `format`, `minimum`, ...) are ignored, and what
 * cannot be read (other `$ref` targets, widened non-literal schemas) is `unknown`: the type may
 * be wider than the schema, never narrower. The validator checks the rest at run time.
 *
 * Spec: JSON Schema 2020-12 Core §4.3 (boolean schemas), §8.2.3.1 ($ref), §8.2.4 ($defs),
 * §10.2.1 (allOf, anyOf, oneOf), §10.3.1 (prefixItems, items), §10.3.2 (properties,
 * patternProperties, additionalProperties); Validation §6.1 (type, enum, const),
 * §6.4.2 (minItems), §6.5.3 (required).
 * @module
 */

/**
 * The type of the values that JSON Schema `S` accepts.
 *
 * - `true` gives `unknown`, `false` gives `never`; `{}` and unknown keywords give `unknown`.
 * - `type`: `string`, `number` and `integer` (both `number`), `boolean`, `null`, `object`,
 *   `array`; an array of names gives their union.
 * - `properties` + `required` (with `type: "object"`): listed required keys are non-optional,
 *   other properties are optional; required keys missing from `properties` are `unknown`.
 * - `additionalProperties: false` (or `unevaluatedProperties: false` without
 *   `additionalProperties` and without `allOf`/`anyOf`/`oneOf`/`$ref` beside it, which could
 *   evaluate more keys): no index signature, so a misspelled key fails to compile. A schema:
 *   an index signature of that type (joined with the declared properties' types, since TS needs
 *   every property to fit the index signature). `true`: `[key: string]: unknown`, so unknown
 *   extra keys are allowed and declared keys keep their types. Absent: the same when the schema
 *   declares no `properties`; with `properties` (and no `patternProperties` or
 *   `unevaluatedProperties`), only the declared keys, so that reading a misspelled key fails
 *   to compile (a value with more keys still fits: TypeScript object types are open).
 * - `items`: an array of that type. `prefixItems`: a tuple whose first `minItems` elements are
 *   required and the rest optional, followed by `...items[]` (or nothing when `items: false`).
 * - `enum` and `const`: the union of the literal values.
 * - `anyOf`, `oneOf`: the union of the branches (`oneOf`'s exclusivity is not expressible).
 * - `allOf`: the intersection of the branches, and all keywords of one schema intersect.
 * - `$ref`: `#`, `#/$defs/<name>` and `#/definitions/<name>`, looked up in the root schema.
 *   Recursive schemas are unfolded five references deep, then `unknown`.
 *
 * Works on `as const` literals (readonly arrays and properties); the computed type is mutable.
 * @example
 * const schema = {
 *   type: 'object',
 *   properties: { path: { type: 'string' }, limit: { type: 'integer' } },
 *   required: ['path'],
 *   additionalProperties: false,
 * } as const;
 * type Args = FromSchema<typeof schema>; // { path: string; limit?: number }
 */
export type FromSchema<S> = Infer<S, S, RefBudget>;

/**
 * One element per `$ref` that may still be followed on one path: five, after which the type is
 * `unknown` (so recursive schemas such as a tree of nodes terminate).
 */
type RefBudget = [0, 0, 0, 0, 0];

/** Flattens an intersection of object types into one object type (arrays, primitives unchanged). */
type Flatten<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]: T[K] }
    : T;

/** A schema object as the compiler sees a literal: readonly keys, any values. */
type SchemaRecord = { readonly [keyword: string]: unknown };

/**
 * Core recursion: `S` is the schema, `R` the root (for `$ref`), `D` the remaining ref budget.
 * Distributes over unions of schemas (used by `anyOf`/`oneOf`).
 */
type Infer<S, R, D extends readonly unknown[]> = S extends boolean
  ? S extends true
    ? unknown
    : never
  : S extends readonly unknown[]
    ? unknown
    : S extends SchemaRecord
      ? InferObjectSchema<S, R, D>
      : unknown;

/** Every keyword of one schema applies: the result is the intersection of their types. */
type InferObjectSchema<S extends SchemaRecord, R, D extends readonly unknown[]> = S extends
  | { readonly allOf: unknown }
  | { readonly anyOf: unknown }
  | { readonly oneOf: unknown }
  | { readonly $ref: unknown }
  ? Flatten<
      ConstPart<S> &
        EnumPart<S> &
        TypePart<S, R, D> &
        UnionPart<S, 'anyOf', R, D> &
        UnionPart<S, 'oneOf', R, D> &
        AllOfPart<S, R, D> &
        RefPart<S, R, D>
    >
  : ConstPart<S> & EnumPart<S> & TypePart<S, R, D>;

/** `const`: exactly that value (JSON Schema 2020-12 Validation §6.1.3). */
type ConstPart<S> = S extends { readonly const: infer C } ? C : unknown;

/** `enum`: one of the listed values (JSON Schema 2020-12 Validation §6.1.2). */
type EnumPart<S> = S extends { readonly enum: infer E extends readonly unknown[] }
  ? E[number]
  : unknown;

/** `type`: one name or an array of names (JSON Schema 2020-12 Validation §6.1.1). */
type TypePart<S, R, D extends readonly unknown[]> = S extends { readonly type: infer T }
  ? T extends readonly (infer Name)[]
    ? TypeOfName<Name, S, R, D>
    : TypeOfName<T, S, R, D>
  : unknown;

/** The type of one `type` name; distributes over a union of names. */
type TypeOfName<Name, S, R, D extends readonly unknown[]> = Name extends 'string'
  ? string
  : Name extends 'number' | 'integer'
    ? number
    : Name extends 'boolean'
      ? boolean
      : Name extends 'null'
        ? null
        : Name extends 'object'
          ? ObjectOf<S, R, D>
          : Name extends 'array'
            ? ArrayOf<S, R, D>
            : unknown;

/** `anyOf` / `oneOf`: the union of the branches. */
type UnionPart<S, K extends string, R, D extends readonly unknown[]> = S extends {
  readonly [key in K]: infer L extends readonly unknown[];
}
  ? Infer<L[number], R, D>
  : unknown;

/** `allOf`: the intersection of the branches. */
type AllOfPart<S, R, D extends readonly unknown[]> = S extends {
  readonly allOf: infer L extends readonly unknown[];
}
  ? IntersectAll<L, R, D>
  : unknown;

type IntersectAll<L, R, D extends readonly unknown[]> = L extends readonly [infer H, ...infer T]
  ? Infer<H, R, D> & IntersectAll<T, R, D>
  : L extends readonly []
    ? unknown
    : L extends readonly (infer E)[]
      ? Infer<E, R, D>
      : unknown;

/** `$ref`: the referenced schema of the root, one unit of budget spent. */
type RefPart<S, R, D extends readonly unknown[]> = S extends {
  readonly $ref: infer Ref extends string;
}
  ? D extends readonly [unknown, ...infer Rest]
    ? Ref extends '#'
      ? Infer<R, R, Rest>
      : Ref extends `#/$defs/${infer Name}`
        ? Lookup<R, '$defs', Name, Rest>
        : Ref extends `#/definitions/${infer Name}`
          ? Lookup<R, 'definitions', Name, Rest>
          : unknown
    : unknown
  : unknown;

/** The schema at `R[Defs][Name]`, inferred against root `R`; `unknown` when absent. */
type Lookup<R, Defs extends string, Name extends string, D extends readonly unknown[]> = R extends {
  readonly [key in Defs]: infer Table;
}
  ? Table extends { readonly [key in Name]: infer Target }
    ? Infer<Target, R, D>
    : unknown
  : unknown;

/** Names listed in `required`; none when the list is not a literal (every key is then optional). */
type RequiredKeys<S> = S extends { readonly required: readonly (infer K extends string)[] }
  ? string extends K
    ? never
    : K
  : never;

/** `properties` with `required`, then the extra keys allowed by the other object keywords. */
type ObjectOf<S, R, D extends readonly unknown[]> = S extends {
  readonly properties: infer P extends SchemaRecord;
}
  ? Flatten<DeclaredProperties<P, RequiredKeys<S>, R, D> & DeclaredExtra<S, P, R, D>>
  : Flatten<{ -readonly [K in RequiredKeys<S>]: unknown } & ExtraProperties<S, {}, R, D>>;

/**
 * The extra keys of an object schema that declares `properties`: none when nothing else says
 * which keys may come (no `additionalProperties`, `patternProperties` or
 * `unevaluatedProperties`), so that reading a key the schema does not declare (a misspelled
 * argument name) fails to compile; the value may still hold other keys at run time, which
 * TypeScript's structural types allow. Otherwise as {@link ExtraProperties}.
 */
type DeclaredExtra<S, P, R, D extends readonly unknown[]> = S extends
  | { readonly additionalProperties: unknown }
  | { readonly patternProperties: unknown }
  | { readonly unevaluatedProperties: unknown }
  ? ExtraProperties<S, P, R, D>
  : {};

type DeclaredProperties<P, Req extends string, R, D extends readonly unknown[]> = {
  -readonly [K in keyof P as K extends Req ? K : never]-?: Infer<P[K], R, D>;
} & {
  -readonly [K in keyof P as K extends Req ? never : K]?: Infer<P[K], R, D>;
} & {
  -readonly [K in Exclude<Req, keyof P>]: unknown;
};

/** The index signature implied by `additionalProperties` / `patternProperties`. */
type ExtraProperties<S, P, R, D extends readonly unknown[]> = S extends {
  readonly additionalProperties: infer A;
}
  ? A extends true
    ? { [key: string]: unknown }
    : A extends false
      ? PatternIndex<S, P, R, D>
      : { [key: string]: Infer<A, R, D> | PatternValues<S, R, D> | DeclaredValues<P, R, D> }
  : S extends { readonly unevaluatedProperties: false }
    ? S extends
        | { readonly allOf: unknown }
        | { readonly anyOf: unknown }
        | { readonly oneOf: unknown }
        | { readonly $ref: unknown }
      ? { [key: string]: unknown }
      : PatternIndex<S, P, R, D>
    : { [key: string]: unknown };

type PatternValues<S, R, D extends readonly unknown[]> = S extends {
  readonly patternProperties: infer PP extends SchemaRecord;
}
  ? Infer<PP[keyof PP], R, D>
  : never;

type PatternIndex<S, P, R, D extends readonly unknown[]> = S extends {
  readonly patternProperties: SchemaRecord;
}
  ? { [key: string]: PatternValues<S, R, D> | DeclaredValues<P, R, D> }
  : {};

type DeclaredValues<P, R, D extends readonly unknown[]> = Infer<P[keyof P], R, D>;

/** `items` alone gives `T[]`; `prefixItems` gives a tuple (JSON Schema 2020-12 Core §10.3.1). */
type ArrayOf<S, R, D extends readonly unknown[]> = S extends {
  readonly prefixItems: infer Prefix extends readonly unknown[];
}
  ? TupleOf<
      Prefix,
      S extends { readonly minItems: infer M extends number } ? M : 0,
      RestOf<S, R, D>,
      R,
      D
    >
  : S extends { readonly items: infer I }
    ? Infer<I, R, D>[]
    : unknown[];

/** What follows the prefix: `items` (or anything), nothing when `items: false`. */
type RestOf<S, R, D extends readonly unknown[]> = S extends { readonly items: infer I }
  ? I extends false
    ? []
    : Infer<I, R, D>[]
  : unknown[];

/** Required elements while fewer than `Min` are built, then optional ones, then the rest. */
type TupleOf<
  Prefix,
  Min extends number,
  Rest extends unknown[],
  R,
  D extends readonly unknown[],
  Acc extends unknown[] = [],
> = number extends Min
  ? [...Partial<MapTuple<Prefix, R, D>>, ...Rest]
  : Acc['length'] extends Min
    ? [...Acc, ...Partial<MapTuple<Prefix, R, D>>, ...Rest]
    : Prefix extends readonly [infer H, ...infer T]
      ? TupleOf<T, Min, Rest, R, D, [...Acc, Infer<H, R, D>]>
      : [...Acc, ...Rest];

type MapTuple<Prefix, R, D extends readonly unknown[]> = Prefix extends readonly [
  infer H,
  ...infer T,
]
  ? [Infer<H, R, D>, ...MapTuple<T, R, D>]
  : [];
