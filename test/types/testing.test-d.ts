// baremcp/testing: what the test client accepts and returns, without casts.
import { createServer } from '../../src/server/server.js';
import { defineTool } from '../../src/server/define.js';
import type { CallToolResult, Tool } from '../../src/protocol/types.js';
// The pure part only: this project has no Node types (spawnClient is checked by test/docs.test.js).
import { connect } from '../../src/testing/memory.js';
import { textOf } from '../../src/testing/client.js';
import type { TestClient } from '../../src/testing/types.js';
import { expectTrue, expectType, type Equal } from './expect.js';

const add = defineTool({
  name: 'add',
  description: 'Add.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
  run: ({ a }) => String(a + 1),
});

export async function usage(): Promise<void> {
  const client = await connect(createServer({ info: { name: 's', version: '1' }, tools: [add] }));
  expectTrue<Equal<typeof client, TestClient>>();
  // A plain definition, as `baremcp serve` takes it, with no info.
  const plain = await connect({ tools: [add] }, { protocolVersion: '2026-07-28', logLevel: 'info' });
  expectType<Tool[]>(await plain.listTools());
  const result = await client.callTool('add', { a: 1 }, { onProgress: ({ progress }) => progress });
  expectTrue<Equal<typeof result, CallToolResult>>();
  expectType<string>(textOf(result));
  expectType<string>(textOf(await client.getPrompt('p', { x: 'y' })));
  // @ts-expect-error prompt arguments are strings
  await client.getPrompt('p', { x: 1 });
  // @ts-expect-error tool arguments are an object
  await client.callTool('add', 'a=1');
  // @ts-expect-error logLevel is a LoggingLevel
  await connect({ tools: [add] }, { logLevel: 'loud' });
  await client.close();
}
