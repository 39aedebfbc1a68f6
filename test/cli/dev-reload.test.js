// `baremcp dev` in process: the stand-in definitions that keep a served server connected across
// versions (both eras see list_changed only when a definition was added, removed or reshaped),
// what is printed after a reload, the resolve hook's versioning, the folder watcher, and the
// reload loop with its bound on versions.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../../dist/index.js';
import { LiveDefinitions } from '../../dist/cli/dev/live-definitions.js';
import { changedFields, fingerprint } from '../../dist/cli/dev/fingerprint.js';
import { failedLines, fileList, reloadedLines } from '../../dist/cli/dev/report.js';
import { versioned, initialize } from '../../dist/cli/dev/dev-hook.js';
import { FileWatcher } from '../../dist/cli/dev/watch.js';
import { Reloader } from '../../dist/cli/dev/reloader.js';
import { Generations } from '../../dist/cli/dev/generations.js';

const info = { name: 'dev-test', version: '1.0.0' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' },
};
/** A function whose source text differs with `value`, as when a person edits it. */
const returning = (value, params = '') => new Function(params, `return ${JSON.stringify(value)}${params === '' ? '' : ` + ${params}.x`};`);
const tool = (name, text, extra = {}) => ({
  name, description: `${name} tool`, inputSchema: { type: 'object' }, run: returning(text), ...extra,
});

const roots = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
function folder() {
  const root = mkdtempSync(join(tmpdir(), 'baremcp-dev-'));
  roots.push(root);
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  return root;
}
/** Replaces a file in one step (as many editors save), so a watcher never reads half of it. */
function save(file, text) {
  writeFileSync(file + '.tmp', text);
  renameSync(file + '.tmp', file);
}

/** A server with a legacy client and a 2026-07-28 listener connected; both record what they get. */
async function connected(server) {
  const legacy = [];
  const modern = [];
  const a = server.connect({ send: (m) => legacy.push(m) });
  await a.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } } });
  await a.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const b = server.connect({ send: (m) => modern.push(m) });
  void b.handle({ jsonrpc: '2.0', id: 'sub', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }, _meta: MODERN_META } });
  await new Promise((r) => setImmediate(r));
  const call = (name) => a.handle({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: {} } });
  const list = async () => (await a.handle({ jsonrpc: '2.0', id: 8, method: 'tools/list' })).result.tools;
  return { legacy, modern, call, list };
}

test('a version that changes only code swaps it in: the tools answer anew and no client is told of a change', async () => {
  const served = createServer({ info, tools: [tool('greet', 'hello'), tool('other', 'o')] });
  const live = new LiveDefinitions(served);
  const c = await connected(served);
  assert.equal((await c.call('greet')).result.content[0].text, 'hello');
  const applied = live.apply(createServer({ info, tools: [tool('greet', 'HELLO'), tool('other', 'o')] }));
  assert.deepEqual(applied.changes, [{ word: 'tool', key: 'greet', how: 'changed', fields: ['run'] }]);
  assert.equal((await c.call('greet')).result.content[0].text, 'HELLO');
  assert.deepEqual(c.legacy.filter((m) => m.method?.endsWith('list_changed')), []);
  assert.deepEqual(c.modern.map((m) => m.method), ['notifications/subscriptions/acknowledged']);
});

test('added, removed and reshaped tools are announced in both eras, and the list shows the new version', async () => {
  const served = createServer({ info, tools: [tool('greet', 'hello'), tool('gone', 'g')] });
  const live = new LiveDefinitions(served);
  const c = await connected(served);
  const next = createServer({ info, tools: [tool('greet', 'hello', { description: 'Greets people' }), tool('added', 'a')] });
  const applied = live.apply(next);
  assert.deepEqual(applied.changes.map((x) => `${x.how} ${x.key} ${x.fields.join(',')}`), [
    'changed greet description', 'added added ', 'removed gone ',
  ]);
  assert.deepEqual((await c.list()).map((t) => [t.name, t.description]), [['greet', 'Greets people'], ['added', 'added tool']]);
  assert.equal((await c.call('added')).result.content[0].text, 'a');
  assert.equal((await c.call('gone')).error.code, -32602);
  const legacyChanges = c.legacy.filter((m) => m.method === 'notifications/tools/list_changed');
  const modernChanges = c.modern.filter((m) => m.method === 'notifications/tools/list_changed');
  assert.ok(legacyChanges.length >= 1, 'the legacy client is told');
  assert.equal(modernChanges.length, legacyChanges.length, 'the 2026-07-28 listener is told as often');
  assert.equal(modernChanges[0].params._meta['io.modelcontextprotocol/subscriptionId'], 'sub');
});

test('prompts, resources and templates run the current version, completers included; a first prompt is noted', async () => {
  const make = (text) => createServer({
    info,
    tools: [tool('t', 't')],
    resources: [
      { uri: 'mem://a', name: 'a', read: returning(`a-${text}`) },
      { uriTemplate: 'mem://t/{x}', name: 't', read: returning(`${text}-`, 'vars'), complete: { x: returning([`c-${text}`]) } },
    ],
    ...(text === 'two' ? { prompts: [{ name: 'p', get: returning(`p-${text}`) }] } : {}),
  });
  const served = make('one');
  const live = new LiveDefinitions(served);
  const a = served.connect({ send: () => {} });
  await a.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
  const read = async (uri) => (await a.handle({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri } })).result.contents[0].text;
  assert.equal(await read('mem://t/q'), 'one-q');
  const applied = live.apply(make('two'));
  assert.deepEqual(applied.firsts, ['prompts']);
  assert.deepEqual(applied.changes.map((x) => `${x.word} ${x.how}: ${x.key}${x.fields.length ? ` (${x.fields.join(', ')})` : ''}`), [
    'prompt added: p', 'resource changed: mem://a (read)', 'resource template changed: mem://t/{x} (complete, read)',
  ]);
  assert.equal(await read('mem://a'), 'a-two');
  assert.equal(await read('mem://t/q'), 'two-q');
  const completion = await a.handle({ jsonrpc: '2.0', id: 3, method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: 'mem://t/{x}' }, argument: { name: 'x', value: '' } } });
  assert.deepEqual(completion.result.completion.values, ['c-two']);
  const prompt = await a.handle({ jsonrpc: '2.0', id: 4, method: 'prompts/get', params: { name: 'p' } });
  assert.equal(prompt.result.messages[0].content.text, 'p-two');
  assert.match(reloadedLines({ changed: ['/x/server.js'], version: 2, ms: 3, applied, infoChanged: false }).join('\n'),
    /the first prompt: clients connected before learn of prompts when they reconnect/);
});

test('a list the registry refuses stays as it was, and the refusal is reported', async () => {
  const served = createServer({ info, tools: [tool('keep', 'k')] });
  const live = new LiveDefinitions(served);
  // Another version whose tool is fine for its own server but taken on the served one.
  served.tools.add(tool('taken', 'added at run time'));
  const applied = live.apply(createServer({ info, tools: [tool('keep', 'k2'), tool('taken', 'x')] }));
  assert.equal(applied.failed.length, 1);
  assert.equal(applied.failed[0].list, 'tools');
  assert.match(applied.failed[0].message, /tool "taken" is defined twice/);
  assert.deepEqual(served.tools.list().map((t) => t.name), ['keep', 'taken']);
  const lines = reloadedLines({ changed: ['/x/s.js'], version: 2, ms: 1, applied, infoChanged: false });
  assert.match(lines.join('\n'), /tools not changed \(still as before\): tool "taken" is defined twice/);
});

test('fingerprints tell shape from code, and what a person reads after a reload names each change', () => {
  const a = fingerprint(tool('x', 'a'));
  const b = fingerprint({ ...tool('x', 'b'), description: 'new' });
  assert.equal(a.shape === fingerprint(tool('x', 'zzz')).shape, true, 'code alone keeps the shape');
  assert.deepEqual(changedFields(a, b), ['description', 'run']);
  assert.equal(fingerprint({ ...tool('x', 'a'), inputSchema: new (class Schema {})() }).opaque, true);
  const applied = { changes: [
    { word: 'tool', key: 'add', how: 'changed', fields: ['description', 'run'] },
    { word: 'tool', key: 'multiply', how: 'added', fields: [] },
    { word: 'prompt', key: 'old', how: 'removed', fields: [] },
  ], failed: [], firsts: [] };
  assert.deepEqual(reloadedLines({ changed: [join(process.cwd(), 'server.js')], version: 3, ms: 12.4, applied, infoChanged: true }), [
    'baremcp: server.js changed: version 3 loaded in 12 ms',
    '  tool changed: add (description, run)',
    '  tool added: multiply',
    '  prompt removed: old',
    '  info or instructions changed: clients read them on connecting; restart baremcp dev to serve the new ones',
  ]);
  assert.deepEqual(reloadedLines({ changed: ['/elsewhere/lib.js'], version: 4, ms: 2, applied: { changes: [], failed: [], firsts: [] }, infoChanged: false }),
    ['baremcp: /elsewhere/lib.js changed: version 4 loaded in 2 ms; same tools, prompts and resources (running the new code)']);
  assert.deepEqual(failedLines(['/a/x.js'], 5, 4, 'cannot load x.js: boom'), [
    'baremcp: /a/x.js changed: version 5 did not load; still serving version 4',
    'baremcp: cannot load x.js: boom',
  ]);
  assert.equal(fileList(['/a', '/b', '/c', '/d']), '/a, /b and 2 more files');
});

test('the resolve hook versions local files of a versioned parent, never packages or baremcp', () => {
  initialize({ shared: ['file:///opt/baremcp/dist/'] });
  const parent = 'file:///p/server.js?baremcp-dev=7';
  assert.equal(versioned('file:///p/lib.js', parent), 'file:///p/lib.js?baremcp-dev=7');
  assert.equal(versioned('file:///p/node_modules/zod/index.js', parent), 'file:///p/node_modules/zod/index.js');
  assert.equal(versioned('file:///opt/baremcp/dist/bundle/index.js', parent), 'file:///opt/baremcp/dist/bundle/index.js');
  assert.equal(versioned('node:fs', parent), 'node:fs');
  assert.equal(versioned('file:///p/lib.js', 'file:///p/server.js'), 'file:///p/lib.js', 'an unversioned parent');
  initialize(undefined);
});

test('the watcher reports a change to a watched file, also when an editor replaces it, and ignores its neighbours', async () => {
  const root = folder();
  const file = join(root, 'watched.js');
  writeFileSync(file, 'one');
  writeFileSync(join(root, 'neighbour.js'), 'n');
  let changes = 0;
  let notify;
  const watcher = new FileWatcher(() => {
    changes++;
    notify?.();
  });
  try {
    watcher.watch([file]);
    const first = new Promise((r) => (notify = r));
    save(file, 'two');
    await first;
    assert.equal(changes, 1);
    const second = new Promise((r) => (notify = r));
    save(join(root, 'neighbour.js'), 'm');
    writeFileSync(file, 'three');
    await second;
    assert.equal(changes, 2, 'one report for the watched file, none for its neighbour');
  } finally {
    watcher.close();
  }
  assert.deepEqual([...watcher.files], [file]);
});

test('the reload loop serves the first version that loads, keeps the last good one, and stops at its bound', async () => {
  const root = folder();
  const module = join(root, 'server.js');
  const lib = join(root, 'lib.js');
  writeFileSync(lib, "export const text = 'one';\n");
  writeFileSync(module, "import { text } from './lib.js';\nexport default { tools: [{ name: 't', description: 'd', inputSchema: { type: 'object' }, run: () => text }] };\n oops oops\n");
  const reports = [];
  let waiter;
  const report = (text) => {
    reports.push(text);
    waiter?.();
  };
  const next = (pattern) => new Promise((resolve) => {
    waiter = () => {
      if (pattern.test(reports.at(-1))) resolve(reports.at(-1));
    };
  });
  const reloader = new Reloader(module, { report, maxVersions: 3 });
  try {
    const waiting = next(/waiting for a change/);
    const started = reloader.start();
    await waiting;
    assert.match(reports.join('\n'), /cannot load .*server\.js: a syntax error at .*server\.js:3:7\n oops oops\n {6}\^+\nSyntaxError: /);
    assert.match(reports.at(-1), /baremcp: waiting for a change to .*server\.js and .*lib\.js/);
    const loaded = next(/watching/);
    save(module, "import { text } from './lib.js';\nexport default { tools: [{ name: 't', description: 'd', inputSchema: { type: 'object' }, run: () => text }] };\n");
    const server = await started;
    await loaded;
    assert.match(reports.at(-2), /server\.js changed: version 2 loaded$/);
    assert.equal(reloader.served, 2);
    const c = server.connect();
    const call = async () => (await c.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {} } })).result.content[0].text;
    assert.equal(await call(), 'one');

    const failed = next(/did not load/);
    save(lib, 'export const text = ;\n');
    assert.match(await failed, /lib\.js changed: version 3 did not load; still serving version 2\nbaremcp: cannot load .*server\.js: a syntax error at .*lib\.js:1:21/);
    assert.equal(await call(), 'one', 'the last good version goes on serving');

    const stopped = next(/restart baremcp dev/);
    save(lib, "export const text = 'two';\n");
    assert.match(await stopped, /lib\.js changed, but this process has loaded 3 versions of .*server\.js, and Node keeps every ES module it loaded in memory: restart baremcp dev to load more; still serving version 2/);
  } finally {
    reloader.close();
  }
});

test('Generations refuses past its bound', async () => {
  const root = folder();
  const module = join(root, 'server.js');
  writeFileSync(module, "export default { tools: [] };\n");
  const generations = new Generations(module, 1);
  await generations.next([]);
  await assert.rejects(generations.next([]), { name: 'RangeError', message: `${module}: 1 versions loaded` });
});

test('a module whose server comes from a package (loaded once) is reported as having nothing to swap', async () => {
  const root = folder();
  const pkg = join(root, 'node_modules', 'shared-server');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), '{"name":"shared-server","type":"module","main":"index.js"}\n');
  writeFileSync(join(pkg, 'index.js'), "export default { tools: [] };\n");
  const module = join(root, 'server.js');
  writeFileSync(module, "import server from 'shared-server';\nexport default server;\n");
  const reports = [];
  let notify;
  const reloader = new Reloader(module, { report: (text) => { reports.push(text); notify?.(); } });
  try {
    // A plain object from the package: each version builds a new server from it, so tools swap.
    await reloader.start();
    const plain = new Promise((r) => (notify = () => /loaded in/.test(reports.at(-1)) && r()));
    save(module, "import server from 'shared-server';\nexport default server; // edited\n");
    await plain;
    assert.match(reports.at(-1), /server\.js changed: version 2 loaded in \d+ ms; same tools/);
  } finally {
    reloader.close();
  }
  // A server object from a package: the same object every version (packages load once).
  const dist = new URL('../../dist/index.js', import.meta.url).href;
  const other = join(root, 'node_modules', 'server-object');
  mkdirSync(other);
  writeFileSync(join(other, 'package.json'), '{"name":"server-object","type":"module","main":"index.js"}\n');
  writeFileSync(join(other, 'index.js'), `import { createServer } from '${dist}';\nexport default createServer({ info: { name: 's', version: '1' }, tools: [] });\n`);
  writeFileSync(module, "import server from 'server-object';\nexport default server;\n");
  const again = new Reloader(module, { report: (text) => { reports.push(text); notify?.(); } });
  try {
    await again.start();
    const same = new Promise((r) => (notify = () => /nothing to swap/.test(reports.at(-1)) && r()));
    save(module, "import server from 'server-object';\nexport default server; // edited\n");
    await same;
    assert.match(reports.at(-1), /^baremcp: .*server\.js changed: version 2 loaded, but it exports the server already served \(made outside the files that reload\): nothing to swap$/);
  } finally {
    again.close();
  }
});
