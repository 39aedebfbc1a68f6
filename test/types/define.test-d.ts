// Type tests for src/server/define.ts: defineTool, definePrompt and defineResourceTemplate give
// handlers typed arguments, with no casts, and misuse fails to compile.
import type { CallToolResult } from '../../src/protocol/types.js';
import {
  defineTool,
  definePrompt,
  defineResourceTemplate,
  type ToolRunReturn,
} from '../../src/server/define.js';
import type { PromptDefinition } from '../../src/server/prompt.js';
import type { ResourceTemplateDefinition } from '../../src/server/resource.js';
import type { ServerOptions } from '../../src/server/server-options.js';
import type { ToolDefinition } from '../../src/server/tool.js';
import { ctx, expectTrue, expectType, type Equal } from './expect.js';

// --- defineTool: args from inputSchema, no `as const` needed ---------------------------------

const search = defineTool({
  name: 'search',
  description: 'Search the notes.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: 'integer' },
      order: { enum: ['newest', 'oldest'] },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['query'],
    additionalProperties: false,
  },
  run(args, context) {
    expectTrue<
      Equal<
        typeof args,
        { query: string; limit?: number; order?: 'newest' | 'oldest'; tags?: string[] }
      >
    >();
    expectType<AbortSignal>(context.signal);
    // @ts-expect-error a string property is not a number
    expectType<number>(args.query);
    // @ts-expect-error an optional argument may be missing
    expectType<number>(args.limit);
    // @ts-expect-error a misspelled enum literal
    if (args.order === 'newset') return 'never';
    // @ts-expect-error a misspelled property
    args.qurey;
    return `searching ${args.query} (${args.limit ?? 10})`;
  },
});

// Without an outputSchema, run may return a string, a content array or a CallToolResult.
defineTool({
  name: 'echo',
  description: 'Echo.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  run: async ({ text }) => [{ type: 'text', text }],
});
defineTool({
  name: 'result',
  description: 'A full result.',
  inputSchema: { type: 'object' },
  run: () => ({ content: [{ type: 'text', text: 'ok' }], isError: false }),
});

// An `as const` schema declared elsewhere works the same.
const inputSchema = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
} as const;
const outputSchema = {
  type: 'object',
  properties: { sum: { type: 'number' } },
  required: ['sum'],
  additionalProperties: false,
} as const;

// With an outputSchema, run must return structuredContent of that type.
const add = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  inputSchema,
  outputSchema,
  run: ({ a, b }) => ({ content: [], structuredContent: { sum: a + b } }),
});
defineTool({
  name: 'add_async',
  description: 'Add two numbers, later.',
  inputSchema,
  outputSchema,
  async run({ a, b }) {
    if (a < 0) return { content: [{ type: 'text', text: 'a must be positive' }], isError: true };
    return { content: [], structuredContent: { sum: a + b } };
  },
});
defineTool({
  name: 'add_wrong',
  description: 'Returns the wrong structured content.',
  inputSchema,
  outputSchema,
  // @ts-expect-error structuredContent.sum must be a number
  run: ({ a, b }) => ({ content: [], structuredContent: { sum: `${a + b}` } }),
});
// TypeScript does not flag excess keys in an object literal returned from a function whose
// return type is inferred (the server's outputSchema validation catches them at run time), but a
// result written with its type does refuse them.
expectType<ToolRunReturn<typeof outputSchema>>({
  content: [],
  // @ts-expect-error additionalProperties: false refuses an extra key
  structuredContent: { sum: 1, extra: true },
});
expectType<ToolRunReturn<typeof outputSchema>>({ content: [], structuredContent: { sum: 1 } });
defineTool({
  name: 'add_text',
  description: 'Returns text although an outputSchema is declared.',
  inputSchema,
  outputSchema,
  // @ts-expect-error a tool with an outputSchema must return structuredContent
  run: ({ a, b }) => String(a + b),
});
defineTool({
  name: 'add_missing',
  description: 'Forgets structuredContent.',
  inputSchema,
  outputSchema,
  // @ts-expect-error a non-error result needs structuredContent
  run: () => ({ content: [{ type: 'text', text: 'no' }] }),
});

// The root of inputSchema must be an object schema.
defineTool({
  name: 'bad_root',
  description: 'A string schema at the root.',
  // @ts-expect-error inputSchema needs "type": "object"
  inputSchema: { type: 'string' },
  run: () => 'x',
});
// Misspelled definition fields fail too.
defineTool({
  name: 'typo',
  // @ts-expect-error `descripton` is not a field
  descripton: 'x',
  inputSchema: { type: 'object' },
  run: () => 'x',
});

// The results are plain ToolDefinitions that createServer takes, without casts.
const tools: ServerOptions['tools'] = [search, add];
const list: readonly ToolDefinition<never>[] = [search, add];
expectTrue<
  Equal<Parameters<typeof add.run>[0], { a: number; b: number }>
>();
expectType<CallToolResult | string | unknown>(add.run({ a: 1, b: 2 }, ctx));
void tools;
void list;

// --- definePrompt: args from the arguments list --------------------------------------------

const weather = definePrompt({
  name: 'weather',
  description: 'Ask for the weather.',
  arguments: [{ name: 'city', required: true, description: 'City name' }, { name: 'units' }],
  complete: { city: (value) => ['Paris', 'Prague'].filter((c) => c.startsWith(value)) },
  get(args) {
    expectTrue<Equal<typeof args, { city: string; units?: string }>>();
    // @ts-expect-error an optional argument may be missing
    expectType<string>(args.units);
    // @ts-expect-error an undeclared argument
    args.country;
    return `Weather in ${args.city}?`;
  },
});
definePrompt({
  name: 'bare',
  get(args) {
    expectTrue<Equal<typeof args, {}>>();
    return [{ role: 'user', content: 'hello' }];
  },
});
definePrompt({
  name: 'bad_complete',
  arguments: [{ name: 'city' }],
  // @ts-expect-error a completer for an undeclared argument
  complete: { country: () => [] },
  get: () => 'x',
});
definePrompt({
  name: 'bad_return',
  // @ts-expect-error get must return a string, messages or a GetPromptResult
  get: () => 42,
});
const prompts: PromptDefinition[] = [weather];
void prompts;

// --- defineResourceTemplate: params from the URI template -----------------------------------

const files = defineResourceTemplate({
  uriTemplate: 'file:///{+path}/{name}',
  name: 'files',
  mimeType: 'text/plain',
  complete: { name: () => ['a.txt'] },
  read(params) {
    expectTrue<Equal<typeof params, { path: string; name: string }>>();
    // @ts-expect-error not a variable of the template
    params.dir;
    return { text: `${params.path}/${params.name}` };
  },
});
defineResourceTemplate({
  uriTemplate: 'file:///{+path}',
  name: 'one',
  read: ({ path }) => path,
});
defineResourceTemplate({
  // @ts-expect-error query expressions are not supported by the matcher
  uriTemplate: 'search://{q}{?page}',
  name: 'query',
  read: () => 'x',
});
defineResourceTemplate({
  // @ts-expect-error adjacent variables cannot be told apart
  uriTemplate: 'x://{a}{b}',
  name: 'adjacent',
  read: () => 'x',
});
defineResourceTemplate({
  uriTemplate: 'x://{a}',
  name: 'bad_complete',
  // @ts-expect-error a completer for an undeclared variable
  complete: { b: () => [] },
  read: () => 'x',
});
const templates: ResourceTemplateDefinition[] = [files];
void templates;
