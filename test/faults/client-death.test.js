// A client that dies: killed mid-stream with both pipes closed at once by the kernel, or one that
// stops reading while the server writes. The server must end quietly (exit 0 or 1, no stack
// trace) and leave no process behind. Issue 10; cases/protocol.md case 5.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { delay, repoRoot } from '../helpers.js';
import { CRASH_TRACE, INIT, callLine, exitWithin, isGone, startServer } from './process.js';

const CLIENT = resolve(repoRoot, 'test', 'faults', 'fixtures', 'client.js');

test('a client killed (SIGKILL) mid-stream: the server exits 0 or 1, prints no trace, and its pid is gone', async () => {
  const server = startServer({ paused: true });
  // The client process owns the only other ends of the server's pipes: its stdin reads the
  // server's stdout, its stdout feeds the server's stdin.
  const client = spawn(process.execPath, [CLIENT], {
    stdio: [server.child.stdout, server.child.stdin, 'pipe'],
  });
  server.child.stdout.destroy();
  server.child.stdin.destroy();
  let clientErr = '';
  client.stderr.on('data', (c) => (clientErr += c));
  const end = Date.now() + 10_000;
  while (!clientErr.includes('ready') && Date.now() < end) await delay(10);
  assert.match(clientErr, /ready/, 'the client got 20 replies before it was killed');
  client.kill('SIGKILL');
  const exit = await exitWithin(server, 10_000);
  assert.ok(
    exit !== undefined,
    `the server still runs after its client died; stderr: ${server.stderr()}`,
  );
  assert.equal(exit.signal, null);
  assert.ok(exit.code === 0 || exit.code === 1, `exit code ${exit.code}`);
  assert.doesNotMatch(server.stderr(), CRASH_TRACE);
  assert.equal(isGone(server.pid), true, 'no process (or zombie) keeps the pid');
});

test('a client that stops reading but keeps stdin open: the server ends on EPIPE by itself', async () => {
  const server = startServer();
  server.child.stdin.write(`${INIT}\n`);
  await server.waitFor(() => server.replies().length === 1, 10_000, 'the initialize reply');
  // A 4 MiB reply cannot fit the pipe: the write is still pending when the read end closes.
  server.child.stdin.write(`${callLine(2, 'pad', { bytes: 4 * 1024 * 1024 })}\n`);
  server.child.stdout.destroy();
  const exit = await exitWithin(server, 10_000);
  assert.ok(exit !== undefined, 'the server exits although its stdin is still open');
  assert.ok(exit.code === 0 || exit.code === 1, `exit code ${exit.code}`);
  assert.doesNotMatch(server.stderr(), CRASH_TRACE);
  assert.equal(isGone(server.pid), true);
  server.child.stdin.destroy();
});
