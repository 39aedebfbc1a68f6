/**
 * `defineTool`, `definePrompt` and `defineResourceTemplate`: identity functions whose types give a
 * handler typed arguments, computed from the definition's own literals (a JSON Schema, a prompt's
 * argument list, a URI template). At run time each returns its argument unchanged and never
 * throws; the server's own checks (schemas, templates, required arguments) still run.
 *
 * Needs TypeScript 5.4 or later in the author's project (`const` type parameters, `NoInfer`; the
 * latter keeps inference from walking the computed types, which would cost seconds per tool).
 *
 * Spec: MCP 2025-11-25, Server / Tools (`Tool`, `CallToolResult`, "Structured Content", "Output
 * Schema"); Server / Prompts (`Prompt`, `PromptArgument`); Server / Resources
 * (`ResourceTemplate`); RFC 6570 (URI Template).
 * @module
 */
import type { FromSchema } from '../schema/from-schema.js';
import type { StandardInput, StandardOutput, StandardSchemaWithJson } from '../schema/standard-schema.js';
import type { JsonObject } from '../protocol/messages.js';
import type { ContentBlock } from '../protocol/types.js';
import type { RequestContext } from './context.js';
import type { PromptArgumentDefinition, PromptDefinition } from './prompt.js';
import type { ResourceTemplateDefinition } from './resource.js';
import type { ToolDefinition, ToolReturn } from './tool.js';
import type { UriTemplateCheck, UriTemplateParams } from './uri-template-params.js';

/** Any JSON Schema object literal, as the compiler sees one written `as const` (readonly). */
export type SchemaLiteral = { readonly [keyword: string]: unknown };

/**
 * A tool's `inputSchema` literal: an object schema with `"type": "object"` at its root, as
 * MCP 2025-11-25 (Server / Tools) requires. Another root type fails to compile.
 */
export type InputSchemaLiteral = { readonly type: 'object'; readonly [keyword: string]: unknown };

/**
 * The `args` type `run` receives for input schema `S`: a library schema's output type (what its
 * `validate` returns, transforms applied), else `FromSchema<S>`.
 */
export type ToolArguments<S> = S extends StandardSchemaWithJson ? StandardOutput<S> : FromSchema<S>;

/**
 * The `structuredContent` type `run` returns for output schema `O`: a library schema's input type
 * (its `validate` then turns it into what is sent), else `FromSchema<O>`.
 */
export type ToolOutput<O> = O extends StandardSchemaWithJson ? StandardInput<O> : FromSchema<O>;

/**
 * What `run` returns for a tool with an `outputSchema`: a `CallToolResult` whose
 * `structuredContent` has type `T`, or an error result (`isError: true`, where
 * `structuredContent` is optional). `content` may be `[]`: the server then fills it with the
 * JSON text of `structuredContent`, for clients that read `content` only.
 */
export type StructuredToolResult<T> =
  | { content: ContentBlock[]; structuredContent: T; isError?: false; _meta?: JsonObject }
  | { content: ContentBlock[]; structuredContent?: T; isError: true; _meta?: JsonObject };

/**
 * What `run` may return: without an output schema (`O` is `undefined`), anything `ToolReturn`
 * allows (a string, a content array, a `CallToolResult`); with one, only a
 * `StructuredToolResult<ToolOutput<O>>`. A bare string or content array is refused at compile
 * time then, because MCP requires `structuredContent` in every non-error result of a tool that
 * declares an `outputSchema`, and the server would otherwise turn the call into an error at run
 * time.
 */
export type ToolRunReturn<O> = [O] extends [undefined]
  ? ToolReturn
  : StructuredToolResult<ToolOutput<O>>;

/**
 * The object `defineTool` takes: a `ToolDefinition` whose `run` is typed by the schema literals.
 * `S` is the `inputSchema` literal, `O` the `outputSchema` literal or `undefined`.
 */
export interface ToolInput<S, O> extends Omit<
  ToolDefinition,
  'inputSchema' | 'outputSchema' | 'run'
> {
  /** A JSON Schema 2020-12 object schema, or a zod/valibot/arktype schema; `run`'s `args` are typed from it. */
  inputSchema: S;
  /** When present, `run` must return a `StructuredToolResult` whose `structuredContent` fits it. */
  outputSchema?: O;
  /** Receives the coerced and validated `arguments`; may be sync or async. */
  run(
    args: NoInfer<ToolArguments<S>>,
    ctx: RequestContext,
  ): NoInfer<ToolRunReturn<O> | Promise<ToolRunReturn<O>>>;
}

/**
 * Defines a tool whose `run(args, ctx)` sees `args` typed from `inputSchema` (see `FromSchema`),
 * and whose result is checked against `outputSchema` when one is given. No `as const` needed:
 * the schema literals are inferred as constants.
 *
 * Returns `tool` itself, typed as a `ToolDefinition` that `createServer({ tools })` accepts.
 * Types only: the server still validates arguments and structured content at run time, which
 * also catches what the compiler lets through: TypeScript does not flag an extra key in an object
 * literal returned from `run` (excess-property checks do not apply to inferred return types).
 *
 * With an `outputSchema`, `run` must return a `StructuredToolResult` (see `ToolRunReturn` for
 * why a string or content array is refused then).
 *
 * A schema from zod (4.2+), arktype (2) or valibot (through `toStandardJsonSchema`) may stand for
 * either literal: it is served as its JSON Schema 2020-12, checked by baremcp's validator, then
 * by the library's own `validate`; `args` has the library's output type (see `ToolArguments`).
 * @example
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Add two numbers.',
 *   inputSchema: {
 *     type: 'object',
 *     properties: { a: { type: 'number' }, b: { type: 'number' } },
 *     required: ['a', 'b'],
 *   },
 *   outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
 *   run: ({ a, b }) => ({ content: [], structuredContent: { sum: a + b } }),
 * });
 */
export function defineTool<
  const S extends InputSchemaLiteral | StandardSchemaWithJson,
  const O extends SchemaLiteral | StandardSchemaWithJson | undefined = undefined,
>(tool: ToolInput<S, O>): ToolDefinition<ToolArguments<S>> {
  return tool as unknown as ToolDefinition<ToolArguments<S>>;
}

/**
 * The `args` type of a prompt whose `arguments` list is `A`: a `string` for each name with
 * `required: true`, an optional `string` for the others; `Record<string, string>` when the names
 * are not literals.
 * @example
 * type Args = PromptArguments<[{ name: 'city'; required: true }, { name: 'units' }]>;
 * // { city: string; units?: string }
 */
export type PromptArguments<A> = A extends readonly PromptArgumentDefinition[]
  ? string extends A[number]['name']
    ? Record<string, string>
    : {
          [P in A[number] as P extends { readonly required: true } ? P['name'] : never]: string;
        } & {
          [P in A[number] as P extends { readonly required: true } ? never : P['name']]?: string;
        } extends infer T
      ? { [K in keyof T]: T[K] }
      : never
  : Record<string, string>;

/** A completer for one prompt argument or template variable (see `PromptDefinition.complete`). */
type CompleterOf<D extends { complete?: unknown }> = NonNullable<D['complete']>[keyof NonNullable<
  D['complete']
>];

/**
 * The object `definePrompt` takes: a `PromptDefinition` whose `get` sees `args` typed from the
 * `arguments` literal `A`, and whose `complete` keys must be declared argument names.
 */
export interface PromptInput<A extends readonly PromptArgumentDefinition[]> extends Omit<
  PromptDefinition,
  'arguments' | 'get' | 'complete'
> {
  /** The arguments the prompt takes, in order; their names type `get`'s `args`. */
  arguments?: A;
  /** Completers for argument values, keyed by argument name. */
  complete?: NoInfer<{ [K in A[number]['name']]?: CompleterOf<PromptDefinition> }>;
  get(args: NoInfer<PromptArguments<A>>, ctx: RequestContext): ReturnType<PromptDefinition['get']>;
}

/**
 * Defines a prompt whose `get(args, ctx)` sees `args` typed from its `arguments` list: required
 * names as `string`, the others as optional `string`. No `as const` needed.
 *
 * Returns `prompt` itself, typed as a plain `PromptDefinition` (what the prompt registry takes).
 * Types only: the server still refuses a `prompts/get` that lacks a required argument.
 * @example
 * const weather = definePrompt({
 *   name: 'weather',
 *   arguments: [{ name: 'city', required: true }, { name: 'units' }],
 *   get: ({ city, units }) => `Weather in ${city} (${units ?? 'metric'})?`,
 * });
 */
export function definePrompt<const A extends readonly PromptArgumentDefinition[] = []>(
  prompt: PromptInput<A>,
): PromptDefinition {
  return prompt as unknown as PromptDefinition;
}

/**
 * The object `defineResourceTemplate` takes: a `ResourceTemplateDefinition` whose `read` sees
 * `params` typed from the `uriTemplate` literal `T`, and whose `complete` keys must be variables.
 */
export interface ResourceTemplateInput<T extends string> extends Omit<
  ResourceTemplateDefinition,
  'uriTemplate' | 'read' | 'complete'
> {
  /**
   * An RFC 6570 template using `{name}` (one path segment) and `{+name}` (may span `/`); any
   * other expression, or two adjacent variables, fails to compile (see `UriTemplateCheck`).
   */
  uriTemplate: UriTemplateCheck<T>;
  /** Completers for template variables, keyed by variable name. */
  complete?: NoInfer<{
    [K in keyof UriTemplateParams<T>]?: CompleterOf<ResourceTemplateDefinition>;
  }>;
  read(
    params: NoInfer<UriTemplateParams<T>>,
    ctx: RequestContext,
  ): ReturnType<ResourceTemplateDefinition['read']>;
}

/**
 * Defines a resource template whose `read(params, ctx)` sees `params` typed from the template
 * string (see `UriTemplateParams`): `'file:///{+path}'` gives `{ path: string }`.
 *
 * Returns `template` itself, typed as a plain `ResourceTemplateDefinition` (what the resource
 * registry takes). Types only: the template is still compiled and checked at run time.
 * @example
 * const files = defineResourceTemplate({
 *   uriTemplate: 'file:///{+path}',
 *   name: 'files',
 *   read: ({ path }) => ({ text: `contents of ${path}` }),
 * });
 */
export function defineResourceTemplate<const T extends string>(
  template: ResourceTemplateInput<T>,
): ResourceTemplateDefinition {
  return template as unknown as ResourceTemplateDefinition;
}
