// `baremcp dev` as a process, with real clients: the v1 SDK client over stdio (legacy era) and
// over Streamable HTTP, and a 2026-07-28 client's subscriptions/listen over stdio. A change to
// the module or a file it imports reloads it while the client stays connected; a version that
// does not load leaves the last good one serving, and stderr says why.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { mainBin } from '../helpers.js';

const roots = [];
const live = new Set();
after(() => {
  for (const child of live) child.kill('SIGKILL');
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const LIB = (text) => `export const greeting = (name) => \`${text} \${name}\`;\n`;
const SERVER = ({ description = 'Greets someone', extra = '' } = {}) => `import { greeting } from './lib.js';
export default {
  info: { name: 'dev-fixture', version: '1.0.0' },
  tools: [
    { name: 'greet', description: '${description}', inputSchema: { type: 'object', properties: { name: { type: 'string' } } }, run: ({ name }) => greeting(name) },${extra}
  ],
};
`;
const ADD_TOOL = `
    { name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, run: ({ a, b }) => String(a + b) },`;

/** A folder holding an ES module server and the helper it imports. */
function fixture() {
  const root = mkdtempSync(join(tmpdir(), 'baremcp-dev-cli-'));
  roots.push(root);
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(root, 'lib.js'), LIB('hello'));
  writeFileSync(join(root, 'server.js'), SERVER());
  return root;
}

/** Replaces a file in one step (write, then rename), as many editors save. */
function save(file, text) {
  writeFileSync(file + '.tmp', text);
  renameSync(file + '.tmp', file);
}

/** Collects a stream's text; `next(pattern)` resolves with the text that arrives after the call once it matches. */
function reader(stream) {
  let text = '';
  const waiting = new Set();
  stream.setEncoding?.('utf8');
  stream.on('data', (chunk) => {
    text += chunk;
    for (const w of waiting) {
      const since = text.slice(w.from);
      if (w.pattern.test(since)) {
        waiting.delete(w);
        w.resolve(since);
      }
    }
  });
  return {
    text: () => text,
    next: (pattern) => new Promise((resolve) => waiting.add({ pattern, from: text.length, resolve })),
  };
}

const text = (result) => result.content[0].text;

test('over stdio, a legacy client stays connected through reloads: new code, list_changed for new tools, the last good version after a broken save', async () => {
  const root = fixture();
  const transport = new StdioClientTransport({ command: process.execPath, args: [mainBin, 'dev', 'server.js'], cwd: root, stderr: 'pipe' });
  const stderr = reader(transport.stderr);
  const client = new Client({ name: 'dev-test', version: '1.0.0' });
  const changes = [];
  let onChange;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes.push(Date.now());
    onChange?.();
  });
  await client.connect(transport);
  try {
    assert.match(stderr.text(), /baremcp: watching server\.js and lib\.js: a change reloads tools, prompts and resources while clients stay connected/);
    assert.equal(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })), 'hello Ada');

    // A change to the imported helper: the same tool runs the new code, and nothing is announced.
    const helper = stderr.next(/loaded in \d+ ms.*\n/);
    save(join(root, 'lib.js'), LIB('bonjour'));
    assert.match(await helper, /^baremcp: lib\.js changed: version 2 loaded in \d+ ms; same tools, prompts and resources \(running the new code\)$/m);
    assert.equal(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })), 'bonjour Ada');
    assert.equal(changes.length, 0);

    // A new tool and a new description: printed, and the client hears of it.
    const announced = new Promise((r) => (onChange = r));
    const reloaded = stderr.next(/tool added: add\n/);
    save(join(root, 'server.js'), SERVER({ description: 'Greets a person', extra: ADD_TOOL }));
    assert.match(await reloaded, /^baremcp: server\.js changed: version 3 loaded in \d+ ms\n {2}tool changed: greet \(description\)\n {2}tool added: add\n/);
    await announced;
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => [t.name, t.description]), [['greet', 'Greets a person'], ['add', 'Adds two numbers']]);
    assert.equal(text(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })), '5');

    // A broken save: the reason, as baremcp serve shows it, and the last good version serves on.
    const broken = stderr.next(/SyntaxError: .*\n/);
    save(join(root, 'server.js'), SERVER({ extra: ADD_TOOL }).replace("description: 'Adds two numbers'", "description: 'Adds' 'two numbers'"));
    const why = await broken;
    assert.match(why, /^baremcp: server\.js changed: version 4 did not load; still serving version 3\n/);
    assert.match(why, /\nbaremcp: cannot load server\.js: a syntax error at .*server\.js:6:40\n {4}\{ name: 'add', description: 'Adds' 'two numbers',.*\n {39}\^{13}\nSyntaxError: Unexpected string\n/);
    assert.equal(text(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })), '2');

    // Fixed again: served, and the tool that was removed meanwhile is announced as removed.
    const fixed = stderr.next(/tool removed: add\n/);
    save(join(root, 'server.js'), SERVER());
    assert.match(await fixed, /server\.js changed: version 5 loaded in \d+ ms\n {2}tool changed: greet \(description\)\n {2}tool removed: add\n/);
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['greet']);
  } finally {
    await client.close();
  }
});

test('over stdio, a 2026-07-28 client gets list_changed on its subscriptions/listen stream', async () => {
  const root = fixture();
  const child = spawn(process.execPath, [mainBin, 'dev', 'server.js'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  const out = reader(child.stdout);
  const err = reader(child.stderr);
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' },
  };
  const send = (message) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  const acknowledged = out.next(/subscriptions\/acknowledged.*\n/);
  send({ id: 'sub', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta } });
  await acknowledged;
  const changed = out.next(/tools\/list_changed.*\n/);
  save(join(root, 'server.js'), SERVER({ extra: ADD_TOOL }));
  const line = (await changed).split('\n').find((l) => l.includes('list_changed'));
  assert.deepEqual(JSON.parse(line), {
    jsonrpc: '2.0',
    method: 'notifications/tools/list_changed',
    params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub' } },
  });
  const listed = out.next(/"id":2.*\n/);
  send({ id: 2, method: 'tools/list', params: { _meta: meta } });
  const reply = JSON.parse((await listed).split('\n').find((l) => l.includes('"id":2')));
  assert.deepEqual(reply.result.tools.map((t) => t.name), ['greet', 'add']);
  assert.match(err.text(), /tool added: add/);
  const exited = new Promise((r) => child.on('exit', (code) => r(code)));
  child.stdin.end();
  assert.equal(await exited, 0);
});

test('over Streamable HTTP, the SDK client hears of a new tool on its stream; SIGTERM ends dev with code 0', async () => {
  const root = fixture();
  const child = spawn(process.execPath, [mainBin, 'dev', 'server.js', '--http', '--port', '0'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  live.add(child);
  const err = reader(child.stderr);
  const url = /Streamable HTTP at (\S+) /.exec(await err.next(/Streamable HTTP at \S+ /))[1];
  const client = new Client({ name: 'dev-http', version: '1.0.0' });
  let onChange;
  const announced = new Promise((r) => (onChange = r));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => onChange());
  // The SDK opens its GET stream (where list_changed comes) after initialize, without waiting.
  let streamOpen;
  const opened = new Promise((r) => (streamOpen = r));
  const watchingFetch = async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? 'GET') === 'GET' && response.ok) streamOpen();
    return response;
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: watchingFetch });
  await client.connect(transport);
  try {
    assert.equal(text(await client.callTool({ name: 'greet', arguments: { name: 'Lin' } })), 'hello Lin');
    await opened;
    const reloaded = err.next(/tool added: add\n/);
    save(join(root, 'server.js'), SERVER({ extra: ADD_TOOL }));
    await reloaded;
    await announced;
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['greet', 'add']);
  } finally {
    await client.close();
  }
  const exited = new Promise((r) => child.on('exit', (code) => r(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0, 'the watchers do not keep the process alive');
});

test('a module that does not load at first is reported; the client is answered once a version loads', async () => {
  const root = fixture();
  writeFileSync(join(root, 'server.js'), SERVER().replace('export default', 'export const server ='));
  const child = spawn(process.execPath, [mainBin, 'dev', 'server.js'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  const out = reader(child.stdout);
  const err = reader(child.stderr);
  const waiting = await err.next(/waiting for a change to .*\n/);
  assert.match(waiting, /^baremcp: server\.js has no default export \(it exports server\)\.\n {2}baremcp serves a module's default export, .*; here: export default server;\nbaremcp: waiting for a change to server\.js and lib\.js\n/);
  const answered = out.next(/"id":1.*\n/);
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'early', version: '1' } } }) + '\n');
  const loaded = err.next(/waiting for a client\n/);
  save(join(root, 'server.js'), SERVER());
  assert.match(await loaded, /^baremcp: server\.js changed: version 2 loaded\n/m);
  assert.equal(JSON.parse(await answered).result.serverInfo.name, 'dev-fixture');
  const exited = new Promise((r) => child.on('exit', (code) => r(code)));
  child.stdin.end();
  assert.equal(await exited, 0);
});

test('dev needs a module that exists, and takes serve\'s options only', () => {
  const none = spawnSync(process.execPath, [mainBin, 'dev'], { encoding: 'utf8' });
  assert.equal(none.status, 2);
  assert.equal(none.stderr, 'baremcp: dev: name the module to serve, e.g. baremcp dev ./server.js\n');
  const missing = spawnSync(process.execPath, [mainBin, 'dev', 'nope.js'], { encoding: 'utf8', cwd: tmpdir() });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^baremcp: cannot find module nope\.js \(looked at .*nope\.js\)\n$/);
  const option = spawnSync(process.execPath, [mainBin, 'dev', 'x.js', '--prot', '1'], { encoding: 'utf8' });
  assert.equal(option.status, 2);
  assert.match(option.stderr, /^baremcp: dev: unknown option "--prot" \(choose from --port, --host, .*--http, --isolate, --help, --version\)\n$/);
  const stdio = spawnSync(process.execPath, [mainBin, 'dev', 'x.js', '--health'], { encoding: 'utf8' });
  assert.equal(stdio.stderr, 'baremcp: --health needs --http\n');
  const help = spawnSync(process.execPath, [mainBin, '--help'], { encoding: 'utf8' });
  assert.match(help.stdout, /\n {2}baremcp dev <module> \[serve's options\]\n {35}serve <module> as serve does, and reload it/);
  assert.match(help.stdout, /\n {2}baremcp pack <module> \[--out FILE\]\n {35}build an MCP Bundle \(\.mcpb, Claude Desktop's one-click install\)/);
});
