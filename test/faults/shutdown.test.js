// Ending a served process: end of input with calls in flight, and SIGTERM/SIGINT during calls.
// Extends test/cli/process.test.js (one slow call; one tool that honours its signal) to many
// calls, replies larger than the pipe, tools that ignore their signal, and tools that never end.
// Issue 10; cases/protocol.md cases 4-8.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { delay } from '../helpers.js';
import {
  CRASH_TRACE,
  INIT,
  INITD,
  callLine,
  exitWithin,
  pingLine,
  startServer,
} from './process.js';

test('stdin closes with 40 calls in flight whose replies (10 MiB) overflow the pipe: all flushed whole, then exit 0', async () => {
  const server = startServer({ paused: true });
  let text = `${INIT}\n${INITD}\n`;
  for (let i = 1; i <= 40; i++) text += `${callLine(i, 'pad', { bytes: 256 * 1024 })}\n`;
  server.child.stdin.end(text);
  // The reader is late: the server must keep the replies until the pipe drains, and not exit early.
  await delay(300);
  server.resume();
  const { code } = await server.exited;
  assert.equal(code, 0);
  assert.ok(server.stdout().endsWith('\n'), 'the last line is whole');
  const replies = server.replies();
  assert.equal(replies.length, 41);
  for (let i = 1; i <= 40; i++)
    assert.equal(server.byId(i).result.content[0].text.length, 256 * 1024, `reply ${i}`);
});

test('SIGTERM with several calls in flight: every tool sees its abort signal, then exit 0', async () => {
  const server = startServer();
  server.child.stdin.write(
    `${INIT}\n${callLine(1, 'wait_for_abort')}\n${callLine('two', 'wait_for_abort')}\n${callLine(3, 'wait_for_abort')}\n${pingLine(4)}\n`,
  );
  await server.waitFor(() => server.byId(4) !== undefined, 10_000, 'the ping reply');
  server.child.kill('SIGTERM');
  const exit = await exitWithin(server, 5000);
  assert.ok(exit !== undefined, 'exited after SIGTERM');
  assert.equal(exit.code, 0);
  for (const id of ['1', '"two"', '3']) assert.match(server.stderr(), new RegExp(`aborted ${id}`));
  assert.doesNotMatch(server.stderr(), CRASH_TRACE);
});

test('SIGTERM while a tool ignores its signal and keeps a timer alive: the signal fires and the server still exits', async () => {
  const server = startServer();
  server.child.stdin.write(`${INIT}\n${callLine(1, 'stubborn')}\n${pingLine(2)}\n`);
  await server.waitFor(() => server.byId(2) !== undefined, 10_000, 'the ping reply');
  server.child.kill('SIGTERM');
  const exit = await exitWithin(server, 5000);
  assert.ok(exit !== undefined, 'a stubborn tool does not keep the server alive after SIGTERM');
  assert.equal(exit.code, 0);
  assert.match(server.stderr(), /stubborn saw abort/);
});

test('SIGINT acts like SIGTERM: signals fire, exit 0', async () => {
  const server = startServer();
  server.child.stdin.write(`${INIT}\n${callLine(1, 'wait_for_abort')}\n${pingLine(2)}\n`);
  await server.waitFor(() => server.byId(2) !== undefined, 10_000, 'the ping reply');
  server.child.kill('SIGINT');
  const exit = await exitWithin(server, 5000);
  assert.ok(exit !== undefined);
  assert.equal(exit.code, 0);
  assert.match(server.stderr(), /aborted 1/);
});

// Found by this suite (now fixed): at end of input the server waited for every call without a
// deadline, so a tool that never ends but holds a timer kept an orphaned server alive for ever (a
// client that crashed sends no SIGTERM), and one waiting for the client's answer kept it alive
// for inputTimeoutMs, though no answer can come once stdin has closed.
test('stdin closes while a tool hangs with a live timer: after endGraceMs (2 s) its signal is aborted and the server exits', async () => {
  const server = startServer();
  server.child.stdin.write(`${INIT}\n${callLine(1, 'stubborn')}\n${pingLine(2)}\n`);
  await server.waitFor(() => server.byId(2) !== undefined, 10_000, 'the ping reply');
  server.child.stdin.end();
  const exit = await exitWithin(server, 6000);
  if (exit === undefined) server.child.kill('SIGKILL');
  assert.ok(exit !== undefined, 'the server exits within 6 s of end of input');
  assert.match(server.stderr(), /stubborn saw abort/);
});

test("stdin closes while a tool waits for the client's answer: the question fails at once and the server exits", async () => {
  const server = startServer();
  server.child.stdin.write(`${INIT}\n${INITD}\n${callLine(1, 'ask')}\n`);
  await server.waitFor(
    () => server.messages().some((m) => m.method === 'elicitation/create'),
    10_000,
    'the elicitation request',
  );
  server.child.stdin.end();
  const exit = await exitWithin(server, 3000);
  if (exit === undefined) server.child.kill('SIGKILL');
  assert.ok(exit !== undefined, 'the server exits within 3 s of end of input');
  assert.match(server.byId(1)?.result.content[0].text ?? '', /ask failed/);
});
