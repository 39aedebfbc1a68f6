// The process test client of baremcp/testing: spawnClient(command, args) against real processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ErrorCode } from '../../dist/index.js';
import { RpcError, spawnClient } from '../../dist/testing/index.js';
import { mainBin, repoRoot } from '../helpers.js';

const NOISY = resolve(repoRoot, 'test', 'fixtures', 'noisy-server.js');

// A hand-written stdio server that prints one stray line before each reply.
const SLOPPY = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  process.stdout.write('hello from a console.log\\n');
  const result = m.method === 'initialize'
    ? { protocolVersion: m.params.protocolVersion, capabilities: {}, serverInfo: { name: 'sloppy', version: '0' } }
    : {};
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
});`;

test('a served module: handshake, tools, a call, and stderr kept apart from stdout', async () => {
  const client = await spawnClient(process.execPath, [mainBin, 'serve', NOISY]);
  try {
    assert.deepEqual(client.serverInfo, { name: 'noisy', version: '9.9.9' });
    assert.ok((await client.listTools()).some((t) => t.name === 'shout'));
    const result = await client.callTool('shout', { text: 'hi' });
    assert.deepEqual(result.content, [{ type: 'text', text: 'heard hi' }]);
    assert.deepEqual(client.strayOutput, []);
    assert.match(client.stderr(), /printed while loading/);
    // stderr and stdout are separate pipes: the tool's stderr line may arrive after the reply.
    for (let i = 0; i < 200 && !/raw write from a tool/.test(client.stderr()); i++) await new Promise((r) => setTimeout(r, 10));
    assert.match(client.stderr(), /raw write from a tool/);
    await assert.rejects(
      client.callTool('nope'),
      (error) => error instanceof RpcError && error.code === ErrorCode.InvalidParams,
    );
  } finally {
    await client.close();
  }
  assert.notEqual(client.child.exitCode ?? client.child.signalCode, null);
});

test('lines on stdout that are not JSON-RPC are recorded in strayOutput', async () => {
  const client = await spawnClient(process.execPath, ['-e', SLOPPY]);
  assert.deepEqual(await client.request('ping'), {});
  await client.close();
  assert.deepEqual(client.strayOutput, ['hello from a console.log', 'hello from a console.log']);
});

test('a command that cannot start, or exits before answering, rejects with the reason', async () => {
  await assert.rejects(
    spawnClient('/nonexistent/baremcp-server'),
    /could not start \/nonexistent\/baremcp-server: .*ENOENT/,
  );
  await assert.rejects(
    spawnClient(process.execPath, ['-e', 'console.error("bad config"); process.exit(4)']),
    /server exited \(code 4\) before replying; stderr: bad config/,
  );
});

test('the 2026-07-28 era over stdio: no handshake, every request carries its own _meta', async () => {
  const client = await spawnClient(process.execPath, [mainBin, 'serve', NOISY], {
    protocolVersion: '2026-07-28',
  });
  assert.equal(client.protocolVersion, '2026-07-28');
  assert.equal(client.serverInfo.name, 'noisy');
  const result = await client.callTool('shout', { text: 'again' });
  assert.equal(result.resultType, 'complete');
  assert.equal(result.content[0].text, 'heard again');
  await client.close();
});
