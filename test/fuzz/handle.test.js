// Property-based fuzzing of the dispatcher (connection.handle): generated sessions of valid and
// broken JSON-RPC, checked against the model in model.js. The long run is `npm run fuzz`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { schemaDir } from '../mcp-oracle.js';
import { json, session, toText } from './arbitraries.js';
import { fuzzServer } from './fixture.js';
import { compare, expectMessage, parseWire, pollution } from './model.js';
import { runHandleSession } from './run.js';

const skip = schemaDir ? false : 'the MCP schemas are not at ../shared/mcp-schema';

test(
  'generated sessions: handle never throws or rejects, one valid reply per request, none for notifications',
  { skip },
  async (t) => {
    const totals = {
      cases: 0,
      replies: 0,
      idlessOld: 0,
    };
    await fc.assert(
      fc.asyncProperty(session, async (s) => {
        const { problems, stats } = await runHandleSession(s);
        totals.cases++;
        for (const key of Object.keys(totals)) if (key !== 'cases') totals[key] += stats[key] ?? 0;
        assert.deepEqual(problems, []);
      }),
      { numRuns: 1200 },
    );
    t.diagnostic(`handle fuzz: ${JSON.stringify(totals)}`);
  },
);

test('any JSON value at all, as JSON.parse returns it, gets at most one reply and never a rejection', async () => {
  const server = fuzzServer();
  await fc.assert(
    fc.asyncProperty(json, async (value) => {
      const message = JSON.parse(toText(value));
      const reply = await server.handle(message);
      const { slots } = expectMessage(message, '2025-11-25');
      if (slots.length === 0) return assert.equal(reply, null);
      assert.equal(reply.jsonrpc, '2.0');
      assert.equal(reply.id, slots[0].id);
      if (slots[0].error) assert.equal(reply.error.code, -32600);
      assert.equal(pollution(), null);
    }),
    { numRuns: 1000 },
  );
});

test(
  'the oracle is not blind: it reports a lost, a duplicated, an invalid and a stray reply',
  { skip },
  () => {
    const revision = '2025-06-18';
    const expected = [
      expectMessage({ jsonrpc: '2.0', id: 1, method: 'ping' }, revision),
      expectMessage({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, revision),
      expectMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }, revision),
    ];
    const ok = [
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: { tools: [] } },
    ];
    assert.deepEqual(compare({ expected, replies: ok, revision }).problems, []);
    const lost = compare({ expected, replies: ok.slice(0, 1), revision });
    assert.equal(lost.stats.lost, 1);
    const duplicated = compare({ expected, replies: [...ok, ok[0]], revision });
    assert.equal(duplicated.stats.duplicated, 1);
    const invalid = compare({
      expected,
      replies: [ok[0], { jsonrpc: '2.0', id: 2, result: { tools: 'none' } }],
      revision,
    });
    assert.equal(invalid.stats.invalid, 1);
    const confused = compare({
      expected,
      replies: [ok[0], { jsonrpc: '2.0', id: '2', result: { tools: [] } }],
      revision,
    });
    assert.equal(confused.stats.lost, 1);
    assert.equal(confused.stats.duplicated, 1);
    // A cancelled request may go unanswered, but not be answered twice.
    const cancelled = new Set(['number:2']);
    assert.deepEqual(
      compare({ expected, replies: ok.slice(0, 1), revision, cancelled }).problems,
      [],
    );
    assert.equal(
      compare({ expected, replies: [...ok, ok[1]], revision, cancelled }).stats.duplicated,
      1,
    );
    // A progress notification for a token the client never sent, and an invalid server message.
    const stray = compare({
      expected,
      replies: ok,
      revision,
      serverMessages: [
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'x', progress: 1 },
        },
        { jsonrpc: '2.0', method: 'notifications/message', params: {} },
      ],
    });
    assert.equal(stray.problems.length, 2);
  },
);

test('the wire check rejects partial lines, carriage returns, empty lines, non-JSON and invalid UTF-8', () => {
  assert.deepEqual(parseWire(Buffer.from('{"a":1}\n{"b":2}\n')).problems, []);
  assert.equal(parseWire(Buffer.from('{"a":1}\n{"b":')).problems.length, 2);
  assert.equal(parseWire(Buffer.from('{"a":1}\r\n')).problems.length, 1);
  assert.equal(parseWire(Buffer.from('{"a":1}\n\n')).problems.length, 1);
  assert.equal(parseWire(Buffer.from('hello\n')).problems.length, 1);
  assert.deepEqual(parseWire(Buffer.from([0x22, 0xff, 0x22, 0x0a])).problems, [
    'output is not valid UTF-8',
  ]);
});
