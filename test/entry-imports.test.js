// Importing a public entry of the shipped bundle runs nothing: no output and no open handle, even
// with stdin open (the bundle's layers share code, and an entry that imported it from the CLI's
// file would start the CLI: serve the example on stdio, from `import 'baremcp/http'`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './helpers.js';

const pkg = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8'));
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object')
  .map(([name, target]) => [name, resolve(repoRoot, target.default)]);

test('every public entry of the bundle imports without side effects, stdin left open', async () => {
  assert.ok(entries.length >= 4, entries.map(([n]) => n).join(' '));
  for (const [name, file] of entries) {
    const child = spawn(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(file).href)})`], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await new Promise((r) => child.on('exit', (c) => r(c)));
    clearTimeout(timer);
    assert.equal(output, '', `${name} printed`);
    assert.equal(code, 0, `${name}: still running with stdin open (killed), or failed`);
  }
});
