// A handler that keeps going after its request was answered (a timer, an un-awaited promise)
// must not send anything tied to that request: clients drop the connection on a progress
// notification for a finished request. Each such message is dropped; one line per request says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from '../../dist/index.js';
import { serve } from '../../dist/transport/stdio.js';

test('progress, log messages and questions sent after the reply are dropped and reported once', async () => {
  const lines = [];
  let late;
  const server = createServer({
    info: { name: 'late', version: '1' },
    report: (line) => lines.push(line),
    tools: [{
      name: 'fire_and_forget',
      description: 'Answers at once, then keeps reporting.',
      inputSchema: { type: 'object' },
      run: (_args, ctx) => {
        ctx.progress(1, 3);
        late = (async () => {
          await sleep(20);
          ctx.progress(2, 3);
          ctx.log('error', 'still here');
          ctx.progress(3, 3);
          await assert.rejects(ctx.elicit({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } }), /elicitation\/create after the request ended/);
          await assert.rejects(ctx.listRoots(), /roots\/list after the request ended/);
        })();
        return 'done';
      },
    }],
  });
  const input = new PassThrough();
  const output = new PassThrough();
  const written = [];
  output.on('data', (chunk) => written.push(...chunk.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l))));
  const session = serve(input, output, server);
  input.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {}, roots: {} }, clientInfo: { name: 'c', version: '1' } } }) + '\n');
  input.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  input.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'debug' } }) + '\n');
  input.write(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'fire_and_forget', _meta: { progressToken: 'p' } } }) + '\n');
  await sleep(5);
  await late;
  input.end();
  await session.closed;
  const kinds = written.map((m) => m.method ?? `reply ${m.id}`);
  assert.deepEqual([...kinds].sort(), ['notifications/progress', 'reply 1', 'reply 2', 'reply 3']);
  assert.equal(kinds.at(-1), 'reply 3', 'nothing after the reply of request 3');
  assert.deepEqual(written.find((m) => m.method === 'notifications/progress').params, { progressToken: 'p', progress: 1, total: 3 });
  assert.deepEqual(lines, ['tools/call (request 3) sent notifications/progress after its reply; dropped it (and any later ones)']);
});
