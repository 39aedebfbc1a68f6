// Type tests for schemas from validation libraries in defineTool: zod 4, valibot (through
// toStandardJsonSchema) and arktype 2. `args` has the library's output type (transforms applied),
// `structuredContent` the output schema's input type; a schema without `~standard.jsonSchema`
// (plain valibot) does not compile.
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { defineTool } from '../../src/server/define.js';
import type { ServerOptions } from '../../src/server/server-options.js';
import { expectTrue, type Equal } from './expect.js';

const weather = defineTool({
  name: 'weather',
  description: 'The weather in a city.',
  inputSchema: z.object({
    city: z.string().min(1),
    days: z.number().int().optional(),
    when: z.string().transform((s) => s.length),
  }),
  outputSchema: z.object({ highs: z.array(z.number()) }),
  run(args) {
    expectTrue<Equal<typeof args, { city: string; days?: number | undefined; when: number }>>();
    // @ts-expect-error a misspelled argument name
    void args.cty;
    return { content: [], structuredContent: { highs: [args.when] } };
  },
});

defineTool({
  name: 'bad_output',
  description: 'd',
  inputSchema: z.object({}),
  outputSchema: z.object({ highs: z.array(z.number()) }),
  // @ts-expect-error structuredContent must fit the output schema
  run: () => ({ content: [], structuredContent: { highs: ['warm'] } }),
});

const valibotTool = defineTool({
  name: 'valibot_tool',
  description: 'd',
  inputSchema: toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(1)), n: v.optional(v.number()) })),
  run(args) {
    expectTrue<Equal<typeof args, { city: string; n?: number | undefined }>>();
    return args.city;
  },
});

const arkTool = defineTool({
  name: 'ark_tool',
  description: 'd',
  inputSchema: type({ city: 'string > 0', 'n?': 'number.integer' }),
  run(args) {
    expectTrue<Equal<typeof args, { city: string; n?: number }>>();
    return args.city;
  },
});

defineTool({
  name: 'plain_valibot',
  description: 'd',
  // @ts-expect-error plain valibot has no ~standard.jsonSchema: wrap it with toStandardJsonSchema
  inputSchema: v.object({ city: v.string() }),
  run: () => 'x',
});

// Each is a tool createServer takes.
export const options: ServerOptions = { info: { name: 'x', version: '1' }, tools: [weather, valibotTool, arkTool] };
