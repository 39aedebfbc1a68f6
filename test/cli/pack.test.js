// `baremcp pack`: an MCP Bundle that the official mcpb CLI unpacks and validates, and whose server,
// started the way Claude Desktop starts it (manifest.server.mcp_config with ${__dirname}), answers
// the v1 SDK client; the packages it imports are bundled (nested where versions differ), missing
// ones and missing manifest fields are refused by name; the ZIP writer against zlib and Python.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mainBin, repoRoot } from '../helpers.js';
import { crc32, zip } from '../../dist/cli/pack/zip.js';
import { placePackages, packageOf } from '../../dist/cli/pack/packages.js';
import { authorOf } from '../../dist/cli/pack/manifest.js';

const MCPB = resolve(repoRoot, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
const roots = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
function folder(prefix) {
  const root = mkdtempSync(join(tmpdir(), prefix));
  roots.push(root);
  return root;
}
function write(root, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}
const baremcp = (args, cwd) => spawnSync(process.execPath, [mainBin, ...args], { cwd, encoding: 'utf8' });
const mcpb = (args) => spawnSync(process.execPath, [MCPB, ...args], { encoding: 'utf8' });

/** Unpacks with the official CLI and validates the manifest with it; returns the folder and manifest. */
function unpackAndValidate(file) {
  const out = folder('baremcp-mcpb-out-');
  const unpacked = mcpb(['unpack', file, out]);
  assert.equal(unpacked.status, 0, unpacked.stdout + unpacked.stderr);
  const valid = mcpb(['validate', join(out, 'manifest.json')]);
  assert.equal(valid.status, 0, valid.stdout + valid.stderr);
  assert.match(valid.stdout, /Manifest schema validation passes!/);
  const info = mcpb(['info', file]);
  assert.equal(info.status, 0, info.stdout + info.stderr);
  return { out, manifest: JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) };
}

/** Starts the bundle's server as Claude Desktop does: mcp_config with ${__dirname} replaced. */
async function connectAsDesktop(dir, manifest) {
  const { command, args } = manifest.server.mcp_config;
  assert.equal(command, 'node');
  const client = new Client({ name: 'desktop-like', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath,
    args: args.map((arg) => arg.replaceAll('${__dirname}', dir)),
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  }));
  return client;
}

test('a module that imports a real package packs into a bundle mcpb validates, and the bundle serves a real client', async () => {
  const root = folder('baremcp-pack-');
  write(root, {
    'package.json': JSON.stringify({ name: 'checker', type: 'module', description: 'Checks values against JSON Schema', author: 'Ann Example <ann@example.com> (https://example.com)', license: 'MIT', keywords: ['schema'] }),
    'lib/check.js': "import Ajv from 'ajv';\nconst ajv = new Ajv();\nexport const valid = (schema, data) => ajv.validate(schema, data);\n",
    'server.js': `import { valid } from './lib/check.js';
export default {
  info: { name: 'checker', version: '1.2.3', title: 'Schema Checker' },
  tools: [{ name: 'is_string', description: 'Whether a value is a string', inputSchema: { type: 'object', properties: { value: {} } }, run: ({ value }) => String(valid({ type: 'string' }, value)) }],
  prompts: [{ name: 'explain', get: () => 'Explain JSON Schema.' }],
};
`,
  });
  mkdirSync(join(root, 'node_modules'));
  symlinkSync(join(repoRoot, 'node_modules', 'ajv'), join(root, 'node_modules', 'ajv'));
  const file = join(root, 'checker.mcpb');
  const packed = baremcp(['pack', 'server.js', '--out', file], root);
  assert.equal(packed.status, 0, packed.stderr);
  const ajvVersion = JSON.parse(readFileSync(join(repoRoot, 'node_modules', 'ajv', 'package.json'), 'utf8')).version;
  const ownVersion = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;
  const lines = packed.stdout.split('\n');
  assert.match(lines[0], new RegExp(`^Packed checker 1\\.2\\.3 into ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(\\d+\\.\\d kB, \\d+ files\\)$`));
  assert.equal(lines[1], '  server: server.js, lib/check.js (entry server/server.js)');
  assert.match(lines[2], new RegExp(`^  packages: baremcp ${ownVersion}, ajv ${ajvVersion}, fast-deep-equal \\S+, fast-uri \\S+, json-schema-traverse \\S+, require-from-string \\S+$`));
  assert.equal(lines[3], '  tools: is_string');
  assert.equal(lines[4], 'Open the file in Claude Desktop to install it.');

  const { out, manifest } = unpackAndValidate(file);
  assert.deepEqual(manifest, {
    manifest_version: '0.4',
    name: 'checker',
    display_name: 'Schema Checker',
    version: '1.2.3',
    description: 'Checks values against JSON Schema',
    author: { name: 'Ann Example', email: 'ann@example.com', url: 'https://example.com' },
    server: {
      type: 'node',
      entry_point: 'server/server.js',
      mcp_config: { command: 'node', args: ['${__dirname}/node_modules/baremcp/dist/bundle/cli/main.js', 'serve', '${__dirname}/server/server.js'] },
    },
    tools: [{ name: 'is_string', description: 'Whether a value is a string' }],
    prompts_generated: true,
    license: 'MIT',
    keywords: ['schema'],
    compatibility: { runtimes: { node: JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).engines.node } },
  });
  assert.equal(JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')).type, 'module');
  assert.throws(() => statSync(join(out, 'node_modules', 'baremcp', 'src')), /ENOENT/, 'only what runs of baremcp');

  rmSync(root, { recursive: true, force: true }); // the bundle must not need the folder it came from
  const client = await connectAsDesktop(out, manifest);
  try {
    assert.equal(client.getServerVersion().name, 'checker');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['is_string']);
    assert.equal((await client.callTool({ name: 'is_string', arguments: { value: 'x' } })).content[0].text, 'true');
    assert.equal((await client.callTool({ name: 'is_string', arguments: { value: 1 } })).content[0].text, 'false');
  } finally {
    await client.close();
  }
});

test('two versions of one package are laid out as npm would, native code pins the platform, and the bundle runs', async () => {
  const root = folder('baremcp-pack-tree-');
  const pkg = (name, version, deps = {}, extra = {}) => JSON.stringify({ name, version, type: 'module', main: 'index.js', dependencies: deps, ...extra });
  write(root, {
    'package.json': JSON.stringify({ type: 'module', description: 'Versions', author: { name: 'Bo' } }),
    'node_modules/a/package.json': pkg('a', '1.0.0'),
    'node_modules/a/index.js': "export const version = 'a1';\n",
    'node_modules/b/package.json': pkg('b', '1.0.0', { a: '^2.0.0' }, { optionalDependencies: { 'not-there': '1' } }),
    'node_modules/b/index.js': "import { version } from 'a';\nexport const inner = version;\n",
    'node_modules/b/node_modules/a/package.json': pkg('a', '2.0.0'),
    'node_modules/b/node_modules/a/index.js': "export const version = 'a2';\n",
    'node_modules/b/build/Release/addon.node': 'not really native',
    'server.js': "import { version } from 'a';\nimport { inner } from 'b';\nexport default { info: { name: 'tree', version: '0.1.0' }, tools: [{ name: 'versions', description: 'd', inputSchema: { type: 'object' }, run: () => `${version} ${inner}` }] };\n",
  });
  const file = join(root, 'tree.mcpb');
  const packed = baremcp(['pack', 'server.js', '--out', file], root);
  assert.equal(packed.status, 0, packed.stderr);
  assert.match(packed.stdout, /\n {2}packages: baremcp \S+, a 1\.0\.0, b 1\.0\.0, a 2\.0\.0\n/);
  assert.match(packed.stdout, new RegExp(`\\n  native code in b: the bundle runs on ${process.platform}-${process.arch} only\\n`));
  const { out, manifest } = unpackAndValidate(file);
  assert.deepEqual(manifest.compatibility.platforms, [process.platform]);
  assert.equal(manifest.author.name, 'Bo');
  assert.equal(JSON.parse(readFileSync(join(out, 'node_modules', 'b', 'node_modules', 'a', 'package.json'), 'utf8')).version, '2.0.0');
  const client = await connectAsDesktop(out, manifest);
  try {
    assert.equal((await client.callTool({ name: 'versions', arguments: {} })).content[0].text, 'a1 a2');
  } finally {
    await client.close();
  }
});

test('pack refuses by name the packages that are not installed and the manifest fields nobody gave', () => {
  const root = folder('baremcp-pack-refuse-');
  write(root, {
    'package.json': JSON.stringify({ type: 'module' }),
    'server.js': "export default { info: { name: 'bare', version: '1.0.0' }, tools: [] };\n",
    'lazy.js': "export default { tools: [], load: () => import('left-pad-nowhere') };\n",
    'app.ts': 'export default { tools: [] };\n',
  });
  const fields = baremcp(['pack', 'server.js'], root);
  assert.equal(fields.status, 2);
  assert.equal(fields.stderr,
    `baremcp: pack: the bundle's manifest needs fields that server.js and its package.json (${join(root, 'package.json')}) do not give:\n` +
    "  description: give the server one (info: { ..., description: '...' }) or package.json a \"description\"\n" +
    '  author: give package.json an "author", e.g. "author": "Your Name <you@example.com>"\n');
  const missing = baremcp(['pack', 'lazy.js'], root);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^baremcp: pack: lazy\.js needs packages that are not installed, so they cannot go in the bundle:\n {2}left-pad-nowhere \(imported by .*lazy\.js\)\n {2}Install them \(npm install left-pad-nowhere\) and pack again\.\n$/);
  const ts = baremcp(['pack', 'app.ts'], root);
  assert.equal(ts.status, 2);
  assert.equal(ts.stderr, 'baremcp: pack: app.ts is TypeScript; compile it (for example with npx tsc) and pack the .js file: the Node.js that runs a bundle may not run .ts files\n');
  const none = baremcp(['pack'], root);
  assert.equal(none.stderr, 'baremcp: pack: name the module to pack, e.g. baremcp pack ./server.js\n');
});

test('placing packages: a package the importer cannot find is missing, an optional one is skipped', () => {
  const root = folder('baremcp-pack-place-');
  write(root, {
    'node_modules/x/package.json': JSON.stringify({ name: 'x', version: '1.0.0', dependencies: { gone: '1' }, optionalDependencies: { maybe: '1' } }),
  });
  const plan = placePackages([{ name: 'x', from: root, file: join(root, 's.js') }, { name: 'y', from: root, file: join(root, 's.js') }]);
  assert.deepEqual(plan.packages.map((p) => p.at), ['node_modules/x']);
  assert.deepEqual(plan.missing, [{ name: 'y', from: join(root, 's.js') }, { name: 'gone', from: 'x 1.0.0' }]);
  assert.deepEqual(['zod/v4', '@scope/pkg/sub', './x.js', 'node:fs', 'fs', '#internal', 'https://x'].map(packageOf),
    ['zod', '@scope/pkg', undefined, undefined, undefined, undefined, undefined]);
  assert.deepEqual(authorOf('Ann <not-an-email> (not a url)'), { name: 'Ann' });
  assert.equal(authorOf({ email: 'a@b.c' }), undefined);
});

test('the ZIP writer: CRC-32 as zlib computes it, and an archive Python reads back byte for byte with modes kept', () => {
  for (const text of ['', 'a', 'hello world', 'x'.repeat(100_000)]) {
    assert.equal(crc32(Buffer.from(text)), zlibCrc32(Buffer.from(text)));
  }
  const root = folder('baremcp-zip-');
  const entries = [
    { path: 'empty.txt', data: Buffer.alloc(0) },
    { path: 'big/repeat.txt', data: Buffer.from('abc'.repeat(10_000)) },
    { path: 'ünïcode/名前.js', data: Buffer.from('export {};\n') },
    { path: 'bin/run', data: Buffer.from('#!/bin/sh\n'), mode: 0o755 },
    { path: 'random.bin', data: Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919) % 251)) },
  ];
  const file = join(root, 'a.zip');
  writeFileSync(file, zip(entries));
  const script = 'import json,sys,zipfile\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(json.dumps([[i.filename,i.compress_type,(i.external_attr>>16)&0o777,z.read(i).hex()] for i in z.infolist()]))';
  const read = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
  if (read.error?.code === 'ENOENT') return; // no Python here: the mcpb tests above read archives too
  assert.equal(read.status, 0, read.stderr);
  const got = JSON.parse(read.stdout);
  assert.deepEqual(got.map(([name, , mode, hex]) => [name, mode, hex]), entries.map((e) => [e.path, e.mode ?? 0o644, Buffer.from(e.data).toString('hex')]));
  assert.equal(got[1][1], 8, 'a repetitive file is deflated');
  assert.equal(got[0][1], 0, 'an empty file is stored');
  assert.throws(() => zip([{ path: '../x', data: Buffer.alloc(1) }]), { name: 'ZipError', message: 'bad path in archive: "../x"' });
  assert.throws(() => zip([{ path: 'a', data: Buffer.alloc(1) }, { path: 'a', data: Buffer.alloc(1) }]), { message: '"a" is in the archive twice' });
});
