// A tool that hangs, and a call the client cancels, in a served process over real pipes. The
// in-process versions are in test/server/dispatcher.test.js ("a tool that hangs is stopped by its
// time-out", "a cancelled request gets no reply") and test/transport/stdio.test.js ("a call
// cancelled 50 ms in"). Issue 10; cases/protocol.md cases 32-34.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { delay } from '../helpers.js';
import { INIT, INITD, callLine, pingLine, startServer } from './process.js';

test('a hanging tool in a served module: toolTimeoutMs and a per-tool timeoutMs give isError results, signals abort, the server goes on', async () => {
  const server = startServer({ env: { FAULT_TOOL_TIMEOUT_MS: '300' } });
  server.child.stdin.write(
    `${INIT}\n${INITD}\n${callLine(1, 'hang')}\n${callLine(2, 'hang_own')}\n`,
  );
  await server.waitFor(
    () => server.byId(1) !== undefined && server.byId(2) !== undefined,
    10_000,
    'both time-outs',
  );
  const serverWide = server.byId(1).result;
  assert.equal(serverWide.isError, true);
  assert.match(serverWide.content[0].text, /timed out after 300 ms/);
  const own = server.byId(2).result;
  assert.equal(own.isError, true);
  assert.match(own.content[0].text, /timed out after 100 ms/, "the tool's own timeoutMs wins");
  assert.match(server.stderr(), /hang saw abort: Tool "hang" timed out after 300 ms/);
  assert.match(server.stderr(), /hang_own saw abort: Tool "hang_own" timed out after 100 ms/);
  server.child.stdin.write(`${pingLine(3)}\n`);
  await server.waitFor(() => server.byId(3) !== undefined, 10_000, 'the ping after the time-outs');
  server.child.stdin.end();
  assert.equal((await server.exited).code, 0);
});

test('a cancelled call over a real pipe: no reply, the tool sees the abort; a cancel naming "7" leaves call 7 alone', async () => {
  const server = startServer();
  server.child.stdin.write(
    `${INIT}\n${INITD}\n${callLine(7, 'wait_for_abort')}\n${callLine('7', 'wait_for_abort')}\n${callLine(0, 'wait_for_abort')}\n${pingLine(1)}\n`,
  );
  await server.waitFor(() => server.byId(1) !== undefined, 10_000, 'the first ping');
  // Cancel the string id "7" and the (falsy) id 0; the number 7 stays in flight.
  server.child.stdin.write(
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"7","reason":"user"}}\n',
  );
  server.child.stdin.write(
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}\n',
  );
  server.child.stdin.write(`${pingLine(2)}\n`);
  await server.waitFor(() => server.byId(2) !== undefined, 10_000, 'the second ping');
  await server.waitFor(
    () => /aborted "7"/.test(server.stderr()) && /aborted 0/.test(server.stderr()),
    10_000,
    'both aborts',
  );
  await delay(100);
  assert.equal(server.byId('7'), undefined, 'no reply after notifications/cancelled');
  assert.equal(server.byId(0), undefined);
  assert.equal(server.byId(7), undefined, 'call 7 still runs');
  assert.doesNotMatch(server.stderr(), /aborted 7\b/);
  // SIGTERM ends the last one; its reply may or may not be written, but never twice.
  server.child.kill('SIGTERM');
  await server.exited;
  assert.ok(server.replies().filter((m) => m.id === 7).length <= 1);
});
