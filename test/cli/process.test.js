// The bin as a process: stdout carries protocol only, exit on end of input / SIGTERM / EPIPE, and
// the commands' exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { mainBin, repoRoot, delay } from '../helpers.js';

const NOISY = resolve(repoRoot, 'test', 'fixtures', 'noisy-server.js');
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const INITD = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const callLine = (id, name, args = {}) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

function start(args) {
  const child = spawn(process.execPath, [mainBin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out = [];
  const err = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => err.push(c));
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal, at: Date.now() })));
  const stdout = () => Buffer.concat(out).toString('utf8');
  const stderr = () => Buffer.concat(err).toString('utf8');
  const replies = () => stdout().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const waitFor = async (predicate, ms = 5000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (predicate()) return;
      await delay(10);
    }
    throw new Error(`timed out; stdout: ${stdout()} stderr: ${stderr()}`);
  };
  return { child, exited, stdout, stderr, replies, waitFor };
}

test('only protocol messages reach stdout: prints while loading and from tools go to stderr', async () => {
  const p = start(['serve', NOISY]);
  p.child.stdin.end(`${INIT}\n${INITD}\n${callLine(2, 'shout', { text: 'hi' })}\n`);
  const { code } = await p.exited;
  assert.equal(code, 0);
  const lines = p.stdout().split('\n').filter(Boolean);
  assert.equal(lines.length, 2);
  for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, '2.0');
  assert.equal(p.stdout().includes('\r'), false);
  assert.equal(JSON.parse(lines[1]).result.content[0].text, 'heard hi');
  for (const text of ['printed while loading', 'written to stdout while loading', 'log from a tool', 'info from a tool', 'debug from a tool', 'raw write from a tool']) {
    assert.ok(p.stderr().includes(text), `stderr has "${text}"`);
  }
  // Case 9: the first line on stdout is the initialize reply.
  assert.equal(JSON.parse(lines[0]).id, 1);
});

test('stdin closing exits promptly with code 0 even when a tool left an interval running', async () => {
  const p = start(['serve', NOISY]);
  p.child.stdin.write(`${INIT}\n${callLine(2, 'ticker')}\n`);
  await p.waitFor(() => p.replies().length === 2);
  const closedAt = Date.now();
  p.child.stdin.end();
  const { code, at } = await p.exited;
  assert.equal(code, 0);
  assert.ok(at - closedAt < 1000, `exited ${at - closedAt} ms after stdin closed`);
});

test('end of input with a call in flight: the reply is flushed, then exit 0', async () => {
  const p = start(['serve', NOISY]);
  p.child.stdin.end(`${INIT}\n${callLine(2, 'slow')}\n`);
  const { code } = await p.exited;
  assert.equal(code, 0);
  assert.equal(p.replies()[1].result.content[0].text, 'slow done');
});

test('SIGTERM during a call: the tool sees its abort signal, then exit 0 within a second', async () => {
  const p = start(['serve', NOISY]);
  p.child.stdin.write(`${INIT}\n${callLine(2, 'wait_for_abort')}\n`);
  await p.waitFor(() => p.replies().length === 1);
  await delay(50);
  const sentAt = Date.now();
  p.child.kill('SIGTERM');
  const { code, at } = await p.exited;
  assert.equal(code, 0);
  assert.ok(at - sentAt < 1500);
  assert.match(p.stderr(), /tool saw abort/);
});

test('SIGTERM right after the initialize reply exits 0', async () => {
  const p = start(['serve', NOISY]);
  p.child.stdin.write(`${INIT}\n`);
  await p.waitFor(() => p.replies().length === 1);
  p.child.kill('SIGTERM');
  const { code } = await p.exited;
  assert.equal(code, 0);
});

test('the client closing stdout mid-call (EPIPE) ends the server quietly', async () => {
  const p = start(['serve', NOISY]);
  p.child.stdin.write(`${INIT}\n`);
  await p.waitFor(() => p.replies().length === 1);
  p.child.stdin.write(`${callLine(2, 'slow')}\n`);
  p.child.stdout.destroy();
  await delay(400);
  p.child.stdin.end();
  const { code } = await p.exited;
  assert.ok(code === 0 || code === 1, `exit code ${code}`);
  assert.doesNotMatch(p.stderr(), /EPIPE|Error:|at .*\.js/);
});

test('an exception thrown from a tool timer does not take the server down', async () => {
  const p = start(['serve', NOISY]);
  p.child.stdin.write(`${INIT}\n${callLine(2, 'throw_later')}\n`);
  await p.waitFor(() => p.replies().length === 2);
  assert.equal(p.replies()[1].result.content[0].text, 'survived');
  assert.match(p.stderr(), /stray/);
  p.child.stdin.end();
  assert.equal((await p.exited).code, 0);
});

test('the example server prints a one-line ready message on stderr', async () => {
  const p = start(['--root', repoRoot]);
  await p.waitFor(() => /waiting for a client/.test(p.stderr()));
  assert.equal(p.stdout(), '');
  p.child.stdin.end();
  assert.equal((await p.exited).code, 0);
});

const run = (...args) => spawnSync(process.execPath, [mainBin, ...args], { encoding: 'utf8', cwd: repoRoot, timeout: 30_000 });

test('baremcp call runs a tool of the example and prints its text', () => {
  const r = run('call', 'read_text_file', '{"path":"package.json","head":2}');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^\{\n  "name": "baremcp"/);
});

test('baremcp call --server <module> and -- <command> reach other servers, and --json prints the raw result', () => {
  const a = run('call', '--server', NOISY, 'shout', '{"text":"x"}');
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, 'heard x\n');
  const b = run('call', '--json', 'shout', '{"text":"y"}', '--', process.execPath, mainBin, 'serve', NOISY);
  assert.equal(b.status, 0, b.stderr);
  assert.deepEqual(JSON.parse(b.stdout), { content: [{ type: 'text', text: 'heard y' }] });
});

test('exit codes mean something: 1 for a tool error, 2 for usage, 3 for a server failure', () => {
  assert.equal(run('call', 'read_text_file', '{"path":"../../etc/passwd"}').status, 1);
  const badJson = run('call', 'read_text_file', '{bad');
  assert.equal(badJson.status, 2);
  assert.match(badJson.stderr, /not valid JSON/);
  assert.equal(run('call', 'read_text_file', '[1]').status, 2);
  const missing = run('serve', 'no/such/module.js');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot find module/);
  assert.equal(run('frobnicate').status, 2);
  assert.equal(run('call').status, 2);
  const unknown = run('call', 'no_such_tool', '{}');
  assert.equal(unknown.status, 3);
  assert.match(unknown.stderr, /Unknown tool/);
  assert.equal(run('call', 'x', '--', 'no-such-command-baremcp').status, 3);
});

test('--help and --version', () => {
  const help = run('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /baremcp call/);
  const version = run('--version');
  assert.equal(version.stdout.trim(), JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')).version);
});
