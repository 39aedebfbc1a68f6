// Type tests for two promises of docs/tools.md and docs/context.md: a misspelled argument name
// fails to compile, also on an open schema (no additionalProperties); and ctx.log takes any
// JSON-serialisable data, objects with optional fields and interfaces included, while a function
// or a bigint fails to compile.
import { defineTool } from '../../src/server/define.js';
import { ctx } from './expect.js';

defineTool({
  name: 'search',
  description: 'Search.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer' } },
    required: ['query'],
  },
  run: (args) => {
    // @ts-expect-error `qurey` is not an argument of this tool (the schema is open, yet it fails)
    void args.qurey;
    return `${args.query} ${args.limit ?? 10}`;
  },
});

defineTool({
  name: 'search2',
  description: 'Search.',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  // @ts-expect-error a misspelled argument name in the destructuring fails to compile
  run: ({ qurey }) => String(qurey),
});

interface Stats {
  files: number;
  skipped?: number;
}
declare const stats: Stats;
declare const failure: unknown;
ctx.log('info', { files: 3, skipped: undefined as number | undefined });
ctx.log('info', stats);
ctx.log('warning', { at: new Date(0), list: [1, 'a', null], nested: { ok: true } });
ctx.log('error', failure);
ctx.log('debug', 'plain text', 'db');
// @ts-expect-error a function cannot go into JSON
ctx.log('info', { callback: () => 1 });
// @ts-expect-error a bigint cannot go into JSON
ctx.log('info', { big: 1n });
// @ts-expect-error `warn` is not a logging level
ctx.log('warn', 'x');
// @ts-expect-error a Map serialises as {} (its entries are lost): convert it first
ctx.log('info', new Map([['a', 1]]));
ctx.log('info', Object.fromEntries(new Map([['a', 1]])));
// @ts-expect-error undefined as the whole value: the message would go out with no `data`
ctx.log('info', undefined);
declare const maybe: string | undefined;
// @ts-expect-error possibly undefined: say what to log when it is (maybe ?? null)
ctx.log('info', maybe);
ctx.log('info', maybe ?? null);
