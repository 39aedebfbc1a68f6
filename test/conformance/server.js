// The conformance fixture: exactly the tools, resources and prompts that the scenarios of
// @modelcontextprotocol/conformance call (read from the installed package's scenarios), served by
// baremcp's shipped bundle. Run directly (`node test/conformance/server.js [port]`) it serves
// Streamable HTTP on 127.0.0.1 and prints its URL; run.js, and the runtime fixtures of
// test/runtimes (Deno, Bun, workerd), import createConformanceServer instead, so this module
// imports nothing but the bundle's root entry (no `node:` module) at load.
import { createServer, RpcError } from '../../dist/bundle/index.js';
import { tasksExtension } from '../../dist/bundle/extensions/tasks/index.js';

// A 1x1 red PNG and a minimal WAV, as the scenarios expect.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const EMPTY = { type: 'object', properties: {} };
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits `ms`, or rejects with the signal's reason when it aborts first (a cancelled task). */
const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
const text = (value) => [{ type: 'text', text: value }];

const askName = (message) => ({
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
});
const samplingParams = (prompt, maxTokens = 100) => ({
  messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
  maxTokens,
});
const answered = (result, field) => {
  const value = result?.content?.[field];
  return typeof value === 'string' ? value : 'unknown';
};

/** A tool: a plain object (the server serves `inputSchema` exactly as written). */
function tool(name, description, run, inputSchema = EMPTY, extra = {}) {
  return { name, description, inputSchema, run, ...extra };
}

/** The tasks scenarios' fixtures (SEP-2663): what each scenario's description asks for. */
const TASK_TOOLS = [
  tool('greet', 'Greets by name (never a task)', ({ name }) => `Hello, ${name}!`, {
    type: 'object',
    properties: { name: { type: 'string' } },
    required: ['name'],
  }),
  tool(
    'slow_compute',
    'Sleeps for `seconds`, then reports; runs as a task for clients that support tasks',
    async ({ seconds, label }, ctx) => {
      await ctx.task?.status(`computing ${label ?? ''} for ${seconds} s`);
      await sleep(seconds * 1000, ctx.signal);
      return `computed ${label ?? ''} after ${seconds} s`;
    },
    {
      type: 'object',
      properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
      required: ['seconds'],
    },
    { taskSupport: 'optional' },
  ),
  tool(
    'failing_job',
    'Fails (a tool error) after about a second; runs only as a task',
    async (_args, ctx) => {
      await sleep(1000, ctx.signal);
      throw new Error('failing_job failed, as it always does');
    },
    EMPTY,
    { taskSupport: 'required' },
  ),
  tool('protocol_error_job', 'Ends in a protocol error (its hook refuses it)', () => 'never', EMPTY, {
    taskSupport: 'optional',
  }),
  tool(
    'confirm_delete',
    'Asks the user to confirm, then deletes the file',
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit({
        message: `Delete ${filename}?`,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean' } },
          required: ['confirm'],
        },
      });
      return answer.action === 'accept' && answer.content?.confirm ? `deleted ${filename}` : 'kept';
    },
    { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
    { taskSupport: 'optional' },
  ),
  tool(
    'multi_input',
    'Asks two questions at once',
    async (_args, ctx) => {
      const ask = (message) => ctx.elicit(askName(message));
      const [a, b] = await Promise.all([ask('First name?'), ask('Second name?')]);
      return `got ${answered(a, 'name')} and ${answered(b, 'name')}`;
    },
    EMPTY,
    { taskSupport: 'optional' },
  ),
  tool(
    'test_tool_with_task',
    'Asks for the user name (multi round-trip), then goes on as a task',
    async (_args, ctx) => {
      const result = await ctx.elicit(askName('What is your name?'), { key: 'user_name' });
      await ctx.task.start();
      await sleep(100, ctx.signal);
      return `Task done for ${answered(result, 'name')}`;
    },
    EMPTY,
    { taskSupport: 'required' },
  ),
];

/**
 * Creates the fixture server; `options` go to createServer (e.g. `stateSecret`, `bus`), except
 * `taskStore`, the tasks extension's store (replicas share one).
 */
export function createConformanceServer({ taskStore, ...options } = {}) {
  let server;
  const tools = [
    // http-header-validation calls the first listed tool with no arguments.
    tool(
      'test_simple_text',
      'Tests simple text content response',
      () => 'This is a simple text response for testing.',
    ),
    tool('test_image_content', 'Tests image content response', () => [
      { type: 'image', data: PNG, mimeType: 'image/png' },
    ]),
    tool('test_audio_content', 'Tests audio content response', () => [
      { type: 'audio', data: WAV, mimeType: 'audio/wav' },
    ]),
    tool('test_embedded_resource', 'Tests embedded resource content response', () => [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ]),
    tool(
      'test_multiple_content_types',
      'Tests response with multiple content types (text, image, resource)',
      () => [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    ),
    tool(
      'test_tool_with_logging',
      'Tests tool that emits log messages during execution',
      async (_args, ctx) => {
        ctx.log('info', 'Tool execution started');
        await delay(50);
        ctx.log('info', 'Tool processing data');
        await delay(50);
        ctx.log('info', 'Tool execution completed');
        return 'Tool with logging executed successfully';
      },
    ),
    tool(
      'test_tool_with_progress',
      'Tests tool that reports progress notifications',
      async (_args, ctx) => {
        for (const step of [0, 50, 100]) {
          ctx.progress(step, 100, `Completed step ${step} of 100`);
          if (step < 100) await delay(50);
        }
        return String(ctx.meta?.progressToken ?? 0);
      },
    ),
    tool('test_error_handling', 'Tests error response handling', () => {
      throw new Error('This tool intentionally returns an error for testing');
    }),
    tool(
      'test_sampling',
      'Tests server-initiated sampling (LLM completion request)',
      async ({ prompt }, ctx) => {
        const result = await ctx.sample(samplingParams(prompt));
        return `LLM response: ${result?.content?.text ?? JSON.stringify(result?.content)}`;
      },
      {
        type: 'object',
        properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
        required: ['prompt'],
      },
    ),
    tool(
      'test_elicitation',
      'Tests server-initiated elicitation (user input request)',
      async ({ message }, ctx) => {
        const result = await ctx.elicit({
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        });
        return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      },
      {
        type: 'object',
        properties: { message: { type: 'string', description: 'The message to show the user' } },
        required: ['message'],
      },
    ),
    tool(
      'test_elicitation_sep1034_defaults',
      'Tests elicitation with default values (SEP-1034)',
      async (_args, ctx) => {
        const result = await ctx.elicit({
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: {
                type: 'string',
                description: 'User status',
                enum: ['active', 'inactive', 'pending'],
                default: 'active',
              },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
            required: [],
          },
        });
        return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      },
    ),
    tool(
      'test_elicitation_sep1330_enums',
      'Tests elicitation with enum schema variants (SEP-1330)',
      async (_args, ctx) => {
        const result = await ctx.elicit({
          message: 'Please select options from the enum fields',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: {
                type: 'string',
                description: 'Select one option',
                enum: ['option1', 'option2', 'option3'],
              },
              titledSingle: {
                type: 'string',
                description: 'Select one option with titles',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                description: 'Select one option (legacy)',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: {
                type: 'array',
                description: 'Select multiple options',
                minItems: 1,
                maxItems: 3,
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                description: 'Select multiple options with titles',
                minItems: 1,
                maxItems: 3,
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
            required: [],
          },
        });
        return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      },
    ),
    // server-stateless (2026-07-28).
    tool(
      'test_missing_capability',
      'Needs the sampling capability (a client that lacks it gets -32021)',
      async (_args, ctx) => {
        const result = await ctx.sample(samplingParams('Say hello', 10));
        return `sampled: ${result?.content?.text ?? ''}`;
      },
    ),
    tool(
      'test_streaming_elicitation',
      'Reports progress, then asks the user for input',
      async (_args, ctx) => {
        ctx.progress(50, 100, 'halfway');
        const result = await ctx.elicit(askName('What is your name?'));
        return `Streaming complete for ${answered(result, 'name')}`;
      },
    ),
    tool(
      'test_logging_tool',
      'Logs at info level (sent only when the request asks for a log level)',
      (_args, ctx) => {
        ctx.log('info', 'Diagnostic trace logging activated');
        return 'Logging evaluated';
      },
    ),
    tool('test_trigger_tool_change', 'Announces a tool list change', () => {
      server.listChanged('tools');
      return 'Mutation triggered';
    }),
    tool('test_trigger_prompt_change', 'Announces a prompt list change', () => {
      server.listChanged('prompts');
      return 'Mutation triggered';
    }),
    // SEP-2322 multi round-trip requests (2026-07-28).
    tool(
      'test_input_required_result_elicitation',
      'Asks for the user name, then greets',
      async (_args, ctx) => {
        // The scenario wants the input key "user_name" (the second argument names it).
        const result = await ctx.elicit(askName('What is your name?'), { key: 'user_name' });
        return `Hello, ${answered(result, 'name')}!`;
      },
    ),
    tool(
      'test_input_required_result_sampling',
      'Asks the client model a question',
      async (_args, ctx) => {
        const result = await ctx.sample(samplingParams('What is the capital of France?'));
        return `Sampling result: ${result?.content?.text ?? ''}`;
      },
    ),
    tool(
      'test_input_required_result_list_roots',
      'Asks the client for its roots',
      async (_args, ctx) => {
        const result = await ctx.listRoots();
        const roots = Array.isArray(result?.roots) ? result.roots.map((r) => r.uri).join(', ') : '';
        return `Roots: ${roots}`;
      },
    ),
    tool(
      'test_input_required_result_request_state',
      'Round-trips requestState',
      async (_args, ctx) => {
        const result = await ctx.elicit({
          message: 'Please confirm',
          requestedSchema: {
            type: 'object',
            properties: { confirmed: { type: 'boolean' } },
            required: ['confirmed'],
          },
        });
        return `state-ok: action=${result.action}`;
      },
    ),
    tool(
      'test_input_required_result_multiple_inputs',
      'Asks for elicitation, sampling and roots at once',
      async (_args, ctx) => {
        const [name, sample, roots] = await Promise.all([
          ctx.elicit(askName('What is your name?')),
          ctx.sample(samplingParams('Say hello')),
          ctx.listRoots(),
        ]);
        return `multiple-ok: ${answered(name, 'name')}, ${sample?.content?.text ?? ''}, ${roots?.roots?.length ?? 0} roots`;
      },
    ),
    tool(
      'test_input_required_result_multi_round',
      'Asks two questions in two rounds',
      async (_args, ctx) => {
        const first = await ctx.elicit(askName('Step 1: What is your name?'));
        const second = await ctx.elicit({
          message: 'Step 2: What is your favorite color?',
          requestedSchema: {
            type: 'object',
            properties: { color: { type: 'string' } },
            required: ['color'],
          },
        });
        return `Multi-round complete for ${answered(first, 'name')} who likes ${answered(second, 'color')}`;
      },
    ),
    tool(
      'test_input_required_result_tampered_state',
      'Issues an integrity-protected requestState',
      async (_args, ctx) => {
        await ctx.elicit({
          message: 'Please confirm',
          requestedSchema: {
            type: 'object',
            properties: { ok: { type: 'boolean' } },
            required: ['ok'],
          },
        });
        return 'integrity-ok: state verified';
      },
    ),
    tool(
      'test_input_required_result_capabilities',
      'Asks only through the capabilities the client declared',
      async (_args, ctx) => {
        const caps = ctx.client.capabilities;
        const received = [];
        if (caps.elicitation !== undefined)
          received.push(
            await ctx.elicit({
              message: 'Elicitation input',
              requestedSchema: {
                type: 'object',
                properties: { value: { type: 'string' } },
                required: ['value'],
              },
            }),
          );
        if (caps.sampling !== undefined)
          received.push(await ctx.sample(samplingParams('Sample request', 50)));
        return received.length === 0
          ? 'No supported capabilities declared'
          : `capabilities-ok: received ${received.length}`;
      },
    ),
    // json-schema-2020-12 (not scored): the schema must come back as written.
    tool(
      'json_schema_2020_12_tool',
      'Tool with a JSON Schema 2020-12 input schema',
      (args) => JSON.stringify(args),
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
    ),
    // SEP-2243 custom headers: the first tool with a string x-mcp-header argument.
    tool(
      'test_header_param',
      'Echoes a region mirrored into the Mcp-Param-Region header',
      ({ region }) => `region: ${region}`,
      {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
    ),
    ...TASK_TOOLS,
  ];

  const resources = [
    {
      uri: 'test://static-text',
      name: 'static-text',
      description: 'A static text resource for testing',
      mimeType: 'text/plain',
      read: () => 'This is the content of the static text resource.',
    },
    {
      uri: 'test://static-binary',
      name: 'static-binary',
      description: 'A static binary resource (image) for testing',
      mimeType: 'image/png',
      read: () => ({ blob: PNG }),
    },
    {
      uri: 'test://watched-resource',
      name: 'watched-resource',
      description: 'A resource that can be subscribed to',
      mimeType: 'text/plain',
      read: () => 'Watched resource content',
    },
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template',
      description: 'A resource template with parameter substitution',
      mimeType: 'application/json',
      read: ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    },
  ];

  const prompts = [
    {
      name: 'test_simple_prompt',
      description: 'A simple prompt without arguments',
      get: () => 'This is a simple prompt for testing.',
    },
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with required arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
      complete: {
        arg1: (value) => ['paris', 'park', 'party', 'test'].filter((v) => v.startsWith(value)),
      },
      get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
    },
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt that includes an embedded resource',
      arguments: [
        { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
      ],
      get: ({ resourceUri }) => [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: 'Please process the embedded resource above.' },
      ],
    },
    {
      name: 'test_prompt_with_image',
      description: 'A prompt that includes image content',
      get: () => [
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'user', content: 'Please analyze the image above.' },
      ],
    },
    {
      name: 'test_input_required_result_prompt',
      description: 'A prompt that asks the user for input first (SEP-2322)',
      get: async (_args, ctx) => {
        const result = await ctx.elicit({
          message: 'Which topic should the prompt cover?',
          requestedSchema: {
            type: 'object',
            properties: { topic: { type: 'string' } },
            required: ['topic'],
          },
        });
        return `Write a short note about ${answered(result, 'topic')}.`;
      },
    },
  ];

  server = createServer({
    info: { name: 'baremcp-conformance-fixture', version: '1.0.0' },
    tools,
    resources,
    prompts,
    extensions: [
      // test_tool_with_task gathers input inline first, then starts its task itself.
      tasksExtension({ startAsTask: (t) => t.name !== 'test_tool_with_task', ...(taskStore === undefined ? {} : { store: taskStore }) }),
    ],
    toolHooks: [
      {
        before: ({ tool: t }) => {
          if (t.name === 'protocol_error_job') throw new RpcError(-32603, 'protocol_error_job: internal failure');
        },
      },
    ],
    report: () => {},
    ...options,
  });
  return server;
}

if (import.meta.url === `file://${globalThis.process?.argv?.[1]}`) {
  const { serveHttp } = await import('../../dist/bundle/transport/http.js');
  const port = Number(process.argv[2] ?? 0);
  const serving = await serveHttp(createConformanceServer(), { port });
  process.stdout.write(`${serving.url}\n`);
  const stop = () => void serving.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
