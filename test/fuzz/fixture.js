// The server the fuzzers attack: well-behaved tools, resources and prompts that exercise every
// code path a client can reach (arguments, structured output, thrown values, progress, logging,
// client input, time-outs, the result-size limit). Only the client is hostile here.
import { createServer } from '../../dist/index.js';

/** Small limits so that generated input reaches them quickly. */
export const FUZZ_LIMITS = {
  maxResultSize: 4096,
  inputTimeoutMs: 15,
  toolTimeoutMs: 200,
  maxLineBytes: 2048,
  /** Batches of the generated sessions hold up to 4 messages: some cross this. */
  maxBatchItems: 3,
};

const delay = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

const clamp = (value, max) => (Number.isSafeInteger(value) ? Math.max(0, Math.min(value, max)) : 0);

export const TOOL_NAMES = [
  'echo',
  'typed',
  'structured',
  'thrower',
  'progress',
  'slow',
  'ask',
  'big',
  'hang',
];

const tools = [
  {
    name: 'echo',
    description: 'Returns its arguments as JSON text.',
    inputSchema: { type: 'object' },
    run: (args) => JSON.stringify(args),
  },
  {
    name: 'typed',
    description: 'Typed parameters (coercion and validation).',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', maxLength: 200 },
        n: { type: 'integer' },
        x: { type: 'number' },
        flag: { type: 'boolean' },
        list: { type: 'array', items: { type: 'string' } },
        nested: {
          type: 'object',
          properties: { a: { type: 'number' } },
          additionalProperties: { $ref: '#/$defs/tree' },
        },
        choice: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      },
      $defs: {
        tree: {
          type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
          additionalProperties: { $ref: '#/$defs/tree' },
          items: { $ref: '#/$defs/tree' },
        },
      },
    },
    run: (args) => `typed ${Object.keys(args).length}`,
  },
  {
    name: 'structured',
    description: 'Returns structuredContent that may or may not match its outputSchema.',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    run: (args) => ({ content: [], structuredContent: { n: args.n } }),
  },
  {
    name: 'thrower',
    description: 'Throws the value it is given.',
    inputSchema: { type: 'object' },
    run: (args) => {
      throw 'what' in args ? args.what : new Error('thrown');
    },
  },
  {
    name: 'progress',
    description: 'Reports progress and logs.',
    inputSchema: { type: 'object' },
    run: (args, ctx) => {
      ctx.progress(1, 3, 'one');
      ctx.log('info', { args });
      ctx.progress(2, 3);
      ctx.progress(1);
      ctx.log('debug', 'done', 'fuzz');
      return 'progressed';
    },
  },
  {
    name: 'slow',
    description: 'Answers after a few milliseconds, or when cancelled.',
    inputSchema: { type: 'object' },
    run: async (args, ctx) => {
      await delay(clamp(args.ms, 5), ctx.signal);
      return 'slow done';
    },
  },
  {
    name: 'ask',
    description: 'Asks the user through elicitation, then greets.',
    inputSchema: { type: 'object' },
    run: async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return `hello ${JSON.stringify(answer.content ?? null)}`;
    },
  },
  {
    name: 'big',
    description: 'Returns size characters (past the result limit when asked).',
    inputSchema: { type: 'object' },
    run: (args) => 'x'.repeat(clamp(args.size, FUZZ_LIMITS.maxResultSize * 2)),
  },
  {
    name: 'hang',
    description: 'Never answers; stopped by its own time-out.',
    inputSchema: { type: 'object' },
    timeoutMs: 5,
    run: (_args, ctx) =>
      new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('aborted'))),
  },
];

const resources = [
  { uri: 'file:///readme.txt', name: 'readme', mimeType: 'text/plain', read: () => 'read me' },
  { uri: 'mem://bytes', name: 'bytes', read: () => new Uint8Array([0, 1, 255]) },
  {
    uriTemplate: 'items://{id}',
    name: 'items',
    read: ({ id }) => (id === 'none' ? undefined : `item ${id}`),
    complete: { id: (v) => ['1', '2', '10'].filter((x) => x.startsWith(v)) },
  },
];

const prompts = [
  {
    name: 'greet',
    description: 'Greets someone.',
    arguments: [{ name: 'who', required: true }, { name: 'tone' }],
    complete: { tone: (v) => ['warm', 'dry'].filter((x) => x.startsWith(v)) },
    get: ({ who, tone }) => `Say hello to ${who} (${tone ?? 'plain'})`,
  },
];

/** A fresh fuzz server; its diagnostics are collected in `lines` (never printed). */
export function fuzzServer(lines = []) {
  return createServer({
    info: { name: 'fuzz', version: '1.0.0' },
    tools,
    resources,
    prompts,
    pageSize: 2,
    maxResultSize: FUZZ_LIMITS.maxResultSize,
    inputTimeoutMs: FUZZ_LIMITS.inputTimeoutMs,
    toolTimeoutMs: FUZZ_LIMITS.toolTimeoutMs,
    maxBatchItems: FUZZ_LIMITS.maxBatchItems,
    report: (line) => lines.push(line),
  });
}
