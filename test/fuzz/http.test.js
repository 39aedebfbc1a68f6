// The HTTP fuzz mode in CI (a short run; `npm run fuzz` runs it for minutes): generated legacy
// sessions, 2025-03-26 batches among them, POSTed to the Streamable HTTP handler.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { session } from './arbitraries.js';
import { runHttpSession } from './http.js';

test('generated HTTP sessions: one HTTP response per POST, never a 5xx, one JSON-RPC reply per request (batches too)', async () => {
  await fc.assert(
    fc.asyncProperty(session, async (s) => {
      // A ref'd timer: a session that never finishes fails here, naming its messages, rather than
      // letting the event loop empty and the runner cancel the file without a word.
      let timer;
      const stuck = new Promise((resolve) => (timer = setTimeout(() => resolve('stuck'), 10_000)));
      const result = await Promise.race([runHttpSession(s), stuck]).finally(() => clearTimeout(timer));
      assert.notEqual(result, 'stuck', `a session got no end within 10 s: ${JSON.stringify(s.texts).slice(0, 2000)}`);
      assert.deepEqual(result.problems, []);
    }),
    { numRuns: 60 },
  );
});

test('the HTTP fuzz mode counts replies per id: two requests of one id in a batch want two replies', async () => {
  const { runHttpSession: run } = await import('./http.js');
  const texts = [
    JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'f', version: '1' } } }),
    JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 1, method: 'ping' }]),
  ];
  const ok = await run({ revision: '2025-03-26', texts });
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.stats.replies, 3);
});
