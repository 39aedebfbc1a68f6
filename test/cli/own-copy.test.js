// Issue 23: `npx -y baremcp serve /path/server.js` for a module that imports baremcp with nothing
// installed beside it. The packed tarball is installed in one folder (as npx would), the module
// sits in another with no node_modules, and the official SDK client talks to it, on Node 20, 22
// and 24 (the hooks differ by version: see src/cli/own-copy.ts). A module with its own installed
// copy keeps using it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { repoRoot } from '../helpers.js';
import { MAJORS, nodeBinary } from './node-binaries.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));

/** npm as [command, leading args]: the npm running this suite when there is one, else PATH's. */
function npm() {
  const cli = process.env.npm_execpath;
  return cli !== undefined && /\.c?js$/.test(cli) ? [process.execPath, [cli]] : ['npm', []];
}

const { NODE_TEST_CONTEXT: _nested, ...outer } = process.env;
const offline = {
  ...outer,
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};

/** The module of the README's library example, plus a tool that says which copy answers. */
const ESM_MODULE = `import * as baremcp from 'baremcp';
import { serveStdio } from 'baremcp/stdio';
import { connect } from 'baremcp/testing';

export default baremcp.createServer({
  info: { name: 'lent', version: '1.0.0' },
  tools: [{
    name: 'which',
    description: 'Which copy of baremcp this module got.',
    inputSchema: { type: 'object' },
    run: () => [baremcp.copy ?? 'the CLI', typeof serveStdio, typeof connect].join(' '),
  }],
});
`;

// Computed names: no literal 'baremcp' for the text scan to see, so only the wrapped
// Module._resolveFilename can serve these, on every Node.
const CJS_MODULE = `const name = ['bare', 'mcp'].join('');
const baremcp = require(name);
const { serveStdio } = require(name + '/stdio');

module.exports = baremcp.createServer({
  info: { name: 'lent-cjs', version: '1.0.0' },
  tools: [{
    name: 'which',
    description: 'Which copy of baremcp this module got.',
    inputSchema: { type: 'object' },
    run: () => [baremcp.copy ?? 'the CLI', typeof serveStdio, 'required'].join(' '),
  }],
});
`;

let work;
let cliMain;
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'baremcp-own-copy-'));
  const [cmd, lead] = npm();
  const packed = await run(cmd, [...lead, 'pack', '--ignore-scripts', '--pack-destination', work, '--json'], { cwd: repoRoot, env: offline });
  const tarball = join(work, JSON.parse(packed.stdout)[0].filename);
  // Where npx would put it: a folder of its own.
  const cli = join(work, 'npx');
  mkdirSync(cli);
  writeFileSync(join(cli, 'package.json'), '{"name":"npx-cache","private":true}\n');
  await run(cmd, [...lead, 'install', '--no-save', '--offline', tarball], { cwd: cli, env: offline });
  cliMain = join(cli, 'node_modules', 'baremcp', 'dist', 'bundle', 'cli', 'main.js');
  // A module with nothing installed beside it.
  const bare = join(work, 'bare');
  mkdirSync(bare);
  writeFileSync(join(bare, 'server.mjs'), ESM_MODULE);
  writeFileSync(join(bare, 'server.cjs'), CJS_MODULE);
  writeFileSync(join(bare, 'plain.mjs'), "export default { tools: [] };\n");
  // A module with its own copy: another version, marked so that its answer shows it.
  const own = join(work, 'own');
  cpSync(join(cli, 'node_modules', 'baremcp'), join(own, 'node_modules', 'baremcp'), { recursive: true });
  const manifest = join(own, 'node_modules', 'baremcp', 'package.json');
  writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), version: '0.0.1-own' }));
  appendFileSync(join(own, 'node_modules', 'baremcp', 'dist', 'bundle', 'index.js'), "export const copy = 'its own copy';\n");
  writeFileSync(join(own, 'server.mjs'), ESM_MODULE);
});
after(() => rmSync(work, { recursive: true, force: true }));

/** Serves `module` with the installed CLI on `node`, calls `which` with the SDK client. */
async function ask(node, module) {
  const transport = new StdioClientTransport({ command: node, args: [cliMain, 'serve', module], cwd: work, stderr: 'pipe' });
  const stderr = [];
  transport.stderr.on('data', (chunk) => stderr.push(chunk));
  const client = new Client({ name: 'own-copy-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: 'which', arguments: {} });
    return { text: result.content[0].text, stderr: Buffer.concat(stderr).toString('utf8') };
  } catch (error) {
    error.message += `\nserver stderr: ${Buffer.concat(stderr).toString('utf8')}`;
    throw error;
  } finally {
    await client.close();
  }
}

for (const major of MAJORS) {
  test(`Node ${major}: a module with no node_modules imports baremcp, baremcp/stdio and baremcp/testing from the CLI's copy`, async (t) => {
    const node = nodeBinary(major);
    if (node.skip) return t.skip(node.skip);
    const { text, stderr } = await ask(node.bin, join(work, 'bare', 'server.mjs'));
    assert.equal(text, 'the CLI function function');
    assert.doesNotMatch(stderr, /its own baremcp|Cannot find/);
  });

  test(`Node ${major}: a CommonJS module's require of baremcp and baremcp/stdio gets the CLI's copy`, async (t) => {
    const node = nodeBinary(major);
    if (node.skip) return t.skip(node.skip);
    const { text } = await ask(node.bin, join(work, 'bare', 'server.cjs'));
    assert.equal(text, 'the CLI function required');
  });

  test(`Node ${major}: a module with its own installed baremcp uses it, and stderr says the versions differ`, async (t) => {
    const node = nodeBinary(major);
    if (node.skip) return t.skip(node.skip);
    const module = join(work, 'own', 'server.mjs');
    const { text, stderr } = await ask(node.bin, module);
    assert.equal(text, 'its own copy function function');
    assert.ok(
      stderr.includes(`baremcp: ${module} uses its own baremcp 0.0.1-own (${join(work, 'own', 'node_modules', 'baremcp')}), not this CLI's ${pkg.version}`),
      stderr,
    );
  });
}

/** What lendOwnCopy does for `module` on `node`, from the module build (dist/cli/own-copy.js). */
async function lending(node, module) {
  const ownCopy = pathToFileURL(join(repoRoot, 'dist', 'cli', 'own-copy.js')).href;
  const script = `import(${JSON.stringify(ownCopy)}).then((m) => console.log(JSON.stringify(m.lendOwnCopy(${JSON.stringify(module)}))))`;
  const { stdout } = await run(node, ['-e', script]);
  return JSON.parse(stdout);
}

for (const major of MAJORS) {
  test(`Node ${major}: the hooks are the ones its Node needs, and none for a module with its own copy`, async (t) => {
    const node = nodeBinary(major);
    if (node.skip) return t.skip(node.skip);
    const { stdout } = await run(node.bin, ['-p', 'process.versions.node']);
    const [maj, min] = stdout.trim().split('.').map(Number);
    const sync = maj > 23 || (maj === 23 && min >= 5) || (maj === 22 && min >= 15);
    // require always goes through the wrapped Module._resolveFilename; import through
    // module.registerHooks where Node has it, else module.register, and only for a module whose
    // files name baremcp (a module that names none starts with no resolve hook).
    assert.deepEqual(await lending(node.bin, join(work, 'bare', 'server.mjs')),
      { kind: 'hooks', mechanisms: ['_resolveFilename', sync ? 'registerHooks' : 'register'] });
    assert.deepEqual(await lending(node.bin, join(work, 'bare', 'plain.mjs')),
      { kind: 'hooks', mechanisms: ['_resolveFilename'] });
    assert.deepEqual(await lending(node.bin, join(work, 'bare', 'server.cjs')),
      { kind: 'hooks', mechanisms: ['_resolveFilename'] });
    const own = await lending(node.bin, join(work, 'own', 'server.mjs'));
    assert.equal(own.kind, 'installed');
    assert.equal(own.copy.version, '0.0.1-own');
  });
}

test('check loads such a module in its own process with the same lending', async () => {
  const args = [cliMain, 'check', join(work, 'bare', 'server.mjs'), '--profile', 'mcp'];
  const checked = await run(process.execPath, args).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
  assert.equal(checked.code, 0, checked.stderr);
  assert.equal(checked.stdout, 'No violations.\n1 tool checked; mcp: ok\n');
});
