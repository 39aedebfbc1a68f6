// The simple form handle(message, tools, info) keeps one server per distinct tool list and info,
// info compared by value. Two infos that differ only inside a nested field (icons) used to share
// a server: the second caller got the first one's serverInfo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handle } from '../../dist/index.js';

const echo = { name: 'echo', description: 'Echo.', inputSchema: { type: 'object' }, run: () => 'echo' };
const initialize = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};

test('infos that differ only in a nested field get their own serverInfo', async () => {
  const first = { name: 'simple', version: '1', icons: [{ src: 'https://a.example/1.png' }] };
  const second = { name: 'simple', version: '1', icons: [{ src: 'https://b.example/2.png' }] };
  const a = await handle(initialize, [echo], first);
  const b = await handle(initialize, [echo], second);
  assert.deepEqual(a.result.serverInfo, first);
  assert.deepEqual(b.result.serverInfo, second);
});

test('equal infos written with their keys in another order, nested ones too, share one server', async () => {
  const tools = [echo];
  await handle({ ...initialize, params: { ...initialize.params, protocolVersion: '2025-03-26' } }, tools,
    { name: 'order', version: '1', icons: [{ src: 'https://a.example/i.png', mimeType: 'image/png' }] });
  // A 2025-03-26 batch is answered only on a connection that negotiated 2025-03-26: the same server.
  const batch = await handle([{ jsonrpc: '2.0', id: 2, method: 'tools/list' }], tools,
    { icons: [{ mimeType: 'image/png', src: 'https://a.example/i.png' }], version: '1', name: 'order' });
  assert.ok(Array.isArray(batch), JSON.stringify(batch));
  assert.deepEqual(batch[0].result.tools.map((t) => t.name), ['echo']);
});
