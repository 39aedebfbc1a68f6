// A module that serves itself (it calls serveStdio, as the README's library example does) given to
// `baremcp serve`, which is what the README's client configuration runs: each request is answered
// once, and stderr says what happens. Before, a module that also exported the server by default
// was served twice on the same stdin (two replies to every request), one without a default export
// was served anyway under a usage error ("has no default export"), and a usage error in the flags
// was printed while the module went on serving.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mainBin } from '../helpers.js';

const server = (run) => `import { createServer } from 'baremcp';
import { serveStdio } from 'baremcp/stdio';
const server = createServer({
  info: { name: 'self-serving', version: '1.0.0' },
  tools: [{ name: 'add', description: 'Add.', inputSchema: { type: 'object' }, run: ${run} }],
});
`;

let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'baremcp-self-serving-'));
  writeFileSync(join(dir, 'exported.mjs'), `${server("() => '3'")}serveStdio(server);\nexport default server;\n`);
  writeFileSync(join(dir, 'plain.mjs'), `${server("() => '3'")}serveStdio(server);\n`);
  // Calls serveStdio only once baremcp serve is serving it (from inside a tool).
  writeFileSync(join(dir, 'late.mjs'), `${server("() => { serveStdio(server); return '3'; }")}export default server;\n`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `baremcp serve <file> ...flags` with REQUESTS on stdin; resolves to its exit code, replies, stderr. */
function serveWith(file, flags = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mainBin, 'serve', join(dir, file), ...flags], { cwd: dir });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.stderr.on('data', (chunk) => { err += chunk; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, replies: out.split('\n').filter(Boolean).map((l) => JSON.parse(l)), stderr: err }));
    child.stdin.end(REQUESTS.map((m) => `${JSON.stringify(m)}\n`).join(''));
  });
}

const REQUESTS = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: {} } },
];

for (const file of ['exported.mjs', 'plain.mjs']) {
  test(`baremcp serve on a module that calls serveStdio itself (${file}) answers each request once and says it leaves the serving to the module`, async () => {
    const { code, replies, stderr } = await serveWith(file);
    assert.deepEqual(replies.map((r) => r.id), [1, 2], JSON.stringify(replies));
    assert.equal(replies[1].result.content[0].text, '3');
    assert.equal(code, 0, stderr);
    assert.equal(stderr, `baremcp: ${join(dir, file)} serves itself on stdio (it calls serveStdio); baremcp leaves the serving to it\n`);
  });
}

test('a serveStdio call while baremcp serve is serving the module is ignored, with one line on stderr', async () => {
  const { code, replies, stderr } = await serveWith('late.mjs');
  assert.deepEqual(replies.map((r) => r.id), [1, 2], JSON.stringify(replies));
  assert.equal(replies[1].result.content[0].text, '3');
  assert.equal(code, 0, stderr);
  assert.equal(
    stderr,
    `baremcp: serving ${join(dir, 'late.mjs')} on stdio (1 tool); waiting for a client\n` +
      "[baremcp] serveStdio: this process's stdin is served already (by baremcp serve or an earlier serveStdio call); this call is ignored\n",
  );
});

test('a usage error in the flags stops baremcp serve before a self-serving module runs', async () => {
  for (const flags of [['--state-secret', 's'], ['--auth-issuer', 'https://auth.example.com']]) {
    const { code, replies, stderr } = await serveWith('plain.mjs', flags);
    assert.deepEqual(replies, []);
    assert.equal(code, 2);
    assert.match(stderr, new RegExp(`^baremcp: ${flags[0]} needs --http`));
    assert.equal(stderr.split('\n').length, 2, stderr);
  }
});

test('baremcp dev on a module that calls serveStdio itself answers each request once, before and after a reload', async () => {
  const root = mkdtempSync(join(tmpdir(), 'baremcp-self-serving-dev-'));
  const source = (text) => `${server(`() => '${text}'`)}serveStdio(server);\nexport default server;\n`;
  writeFileSync(join(root, 'server.mjs'), source('one'));
  const child = spawn(process.execPath, [mainBin, 'dev', 'server.mjs'], { cwd: root });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => { out += chunk; });
  child.stderr.on('data', (chunk) => { err += chunk; });
  /** Resolves once the text read so far from `stream` (stdout or stderr) matches `pattern`. */
  const waitFor = (stream, pattern) => new Promise((resolve) => {
    const text = () => (stream === child.stdout ? out : err);
    const check = () => {
      if (!pattern.test(text())) return;
      stream.off('data', check);
      resolve();
    };
    stream.on('data', check);
    check();
  });
  const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
  const call = (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: {} } });
  try {
    for (const m of REQUESTS) send(m);
    await waitFor(child.stdout, /"id":2/);
    await waitFor(child.stderr, /watching server\.mjs/);
    writeFileSync(join(root, 'server.mjs'), source('two'));
    await waitFor(child.stderr, /version 2 loaded/);
    send(call(3));
    await waitFor(child.stdout, /"id":3/);
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
    const replies = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.deepEqual(replies.map((r) => r.id), [1, 2, 3], out);
    assert.deepEqual(replies.slice(1).map((r) => r.result.content[0].text), ['one', 'two']);
    assert.match(err, /^baremcp: server\.mjs serves itself on stdio \(it calls serveStdio\); baremcp leaves the serving to it$/m);
    // The reload runs the module again, and with it its serveStdio call: said once, not served.
    assert.match(err, /^\[baremcp\] serveStdio: this process's stdin is served already \(by baremcp serve or an earlier serveStdio call\); this call is ignored$/m);
  } finally {
    child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
});
