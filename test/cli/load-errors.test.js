// Issue 20, "errors a person can act on": what `baremcp call --server`, `serve` and `check` print
// when the module is mistyped, does not parse, exports no server, is TypeScript on a Node that
// cannot run it, or is an ES module in a "type": "commonjs" package; and the exit codes
// docs/cli.md documents (2 usage, 3 the server could not start). Asserts on the text a person reads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSyntaxLocation, typeScriptAdvice } from '../../dist/cli/load-errors.js';
import { describeExit, ServerExitError } from '../../dist/cli/client.js';
import { specifiersOf } from '../../dist/cli/module-files.js';
import { mainBin } from '../helpers.js';

let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'baremcp-mistakes-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const tool = "{ name: 'add', description: 'Add.', inputSchema: { type: 'object' }, run: () => 'ok' }";
  writeFileSync(join(dir, 'server.js'), `export default { tools: [${tool}] };\n`);
  writeFileSync(join(dir, 'syntax.js'), [
    'export default {',
    "  info: { name: 'my-server', version: '1.0.0' },",
    '  tools: [{',
    "    name: 'add',",
    "    description: 'Add two numbers.'",
    "    inputSchema: { type: 'object' },",
    "    run: () => 'x',",
    '  }],',
    '};',
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'helper.js'), 'export const limits = {\n  min: 1\n  max: 2,\n};\n');
  writeFileSync(join(dir, 'uses-helper.js'), `import { limits } from './helper.js';\nexport default { tools: [], limits };\n`);
  writeFileSync(join(dir, 'named.js'), `export const server = { tools: [${tool}] };\nexport const other = 1;\n`);
  writeFileSync(join(dir, 'helper-free.js'), "export const version = '1.0.0';\n");
  writeFileSync(join(dir, 'server.ts'), `const tool: { name: string } = { name: 'add' };\nexport default { tools: [{ ...tool, description: 'Add.', inputSchema: { type: 'object' }, run: (): string => 'ok' }] };\n`);
  writeFileSync(join(dir, 'throws.js'), [
    'export default {',
    "  tools: [{ name: 'add', description: 'Add.', inputSchema: { type: 'object' }, run: () => 'ok' }],",
    '};',
    "throw new RangeError('PORT must be set');",
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'zod.js'), "import { z } from 'zod';\nexport default { tools: [] };\n");
  // npm 11's `npm init -y` package, with the README's module.
  mkdirSync(join(dir, 'npm11'));
  writeFileSync(join(dir, 'npm11', 'package.json'), '{"name":"npm11","version":"1.0.0","type":"commonjs"}\n');
  writeFileSync(join(dir, 'npm11', 'my-server.js'), `export default { tools: [${tool}] };\n`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args) => spawnSync(process.execPath, [mainBin, ...args], { encoding: 'utf8', cwd: dir, timeout: 30_000 });
/** stderr without node's own process warnings (the "type": "module" hint node prints itself). */
const ours = (stderr) => stderr.split('\n').filter((l) => !/^\(node:\d+\) Warning|^\(Use `node --trace-warnings/.test(l)).join('\n');

test('a path typo: call --server exits 2 (as serve does) and says where it looked', () => {
  const called = cli('call', '--server', './sever.js', 'add');
  assert.equal(called.status, 2);
  assert.equal(called.stderr, `baremcp: cannot find module ./sever.js (looked at ${join(dir, 'sever.js')})\n`);
  assert.equal(called.stdout, '');
  assert.equal(cli('serve', './sever.js').status, 2);
});

test('a syntax error: file, line, column, the line and a caret, as node shows them; exit 3', () => {
  const called = cli('call', '--server', './syntax.js', 'add');
  assert.equal(called.status, 3);
  assert.equal(called.stderr, [
    `baremcp: cannot load ./syntax.js: a syntax error at ${join(dir, 'syntax.js')}:6:5`,
    "    inputSchema: { type: 'object' },",
    '    ^^^^^^^^^^^',
    "SyntaxError: Unexpected identifier 'inputSchema'",
    '',
  ].join('\n'));
  // check loads the module in its own process: the same words.
  const checked = cli('check', './syntax.js');
  assert.equal(checked.status, 3);
  assert.equal(checked.stderr, called.stderr);
});

test('a syntax error in a file the module imports names that file', () => {
  const called = cli('call', '--server', './uses-helper.js', 'add');
  assert.equal(called.status, 3);
  assert.match(called.stderr, new RegExp(`^baremcp: cannot load \\./uses-helper\\.js: a syntax error at ${join(dir, 'helper.js').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:3\n  max: 2,\n  \\^+\nSyntaxError: Unexpected identifier 'max'\n$`));
});

test('a missing default export: exit 2; the message lists the exports and names the fix', () => {
  const called = cli('call', '--server', './named.js', 'add');
  assert.equal(called.status, 2);
  assert.equal(called.stderr, [
    'baremcp: ./named.js has no default export (it exports other, server).',
    "  baremcp serves a module's default export, a server from createServer(...) or an object " +
      '{ info?, tools: [...] }; here: export default server;',
    '',
  ].join('\n'));
  const empty = cli('serve', './helper-free.js');
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /has no default export \(it exports version\)\.\n.*; e\.g\. export default createServer\(\{ \.\.\. \}\)\n$/);
});

test('an ES module in a "type": "commonjs" package (npm 11 npm init -y): says it must be ESM and how', () => {
  const called = cli('call', '--server', './npm11/my-server.js', 'add');
  assert.equal(called.status, 3);
  const pkg = join(dir, 'npm11', 'package.json');
  assert.equal(ours(called.stderr), [
    "baremcp: cannot load ./npm11/my-server.js: it is an ES module (it uses import/export), but Node loads it as CommonJS:",
    `  ${pkg} says "type": "commonjs" (npm init -y writes that since npm 11).`,
    `  It must load as an ES module: set "type": "module" in ${pkg}, or rename the file to my-server.mjs.`,
    '',
  ].join('\n'));
});

test('a .ts module: on a Node without type stripping, which Node runs it and what to do here', () => {
  const [major, minor] = process.versions.node.split('.').map(Number);
  const strips = major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
  const called = cli('call', '--server', './server.ts', 'add');
  if (strips) {
    assert.equal(called.status, 0, called.stderr);
    assert.equal(called.stdout, 'ok\n');
    return;
  }
  assert.equal(called.status, 3);
  assert.equal(called.stderr, `baremcp: cannot load ./server.ts: ${typeScriptAdvice('it', './server.ts')}\n`);
  assert.match(called.stderr, new RegExp(`which Node ${process.version.replace(/\./g, '\\.')} (cannot run|runs only with a flag)`));
});

test('the .ts advice for each kind of Node', () => {
  assert.equal(typeScriptAdvice('it', './server.ts', 'v20.20.2'), [
    'it is TypeScript, which Node v20.20.2 cannot run.',
    '  Node 22.18 or later (and 23.6 or later) runs .ts modules as they are (erasable syntax only: no enum, no namespace).',
    '  Or compile it (for example with npx tsc) and serve the .js file.',
  ].join('\n'));
  assert.equal(typeScriptAdvice('it', './server.ts', 'v22.10.0'), [
    'it is TypeScript, which Node v22.10.0 runs only with a flag:',
    '  NODE_OPTIONS=--experimental-strip-types baremcp serve ./server.ts',
    '  (Node 22.18 or later needs none.) Or compile it (for example with npx tsc) and serve the .js file.',
  ].join('\n'));
  assert.match(typeScriptAdvice('it', './s.ts', 'v23.3.0'), /runs only with a flag/);
  assert.match(typeScriptAdvice('it', './s.ts', 'v22.5.1'), /cannot run/);
});

test('an exception while the module runs: the error and the module line that threw', () => {
  const called = cli('call', '--server', './throws.js', 'add');
  assert.equal(called.status, 3);
  assert.equal(called.stderr,
    `baremcp: cannot load ./throws.js: RangeError: PORT must be set\n    at file://${join(dir, 'throws.js')}:4:7\n`);
});

test('an import of a package that is not installed says where to install it', () => {
  const called = cli('serve', './zod.js');
  assert.equal(called.status, 3);
  assert.equal(called.stderr,
    `baremcp: cannot load ./zod.js: Cannot find package 'zod' imported from ${join(dir, 'zod.js')}: ` +
    `install it where that file can find it (npm install zod in ${dir} or a folder above)\n`);
});

test('any other server that dies before replying: how it ended and the end of its stderr; exit 3', () => {
  const script = "console.error('loading config'); console.error('fatal: no API key'); process.exit(4)";
  const called = cli('call', 'add', '--', process.execPath, '-e', script);
  assert.equal(called.status, 3);
  assert.equal(called.stderr,
    `baremcp: ${process.execPath} -e ${script} exited (code 4) before replying; the end of its stderr:\n` +
    '  loading config\n  fatal: no API key\n');
  // With --verbose the server's stderr went to the terminal: not printed twice.
  const verbose = cli('call', '--verbose', 'add', '--', process.execPath, '-e', script);
  assert.equal(verbose.status, 3);
  assert.equal(verbose.stderr, 'loading config\nfatal: no API key\n' +
    `baremcp: ${process.execPath} -e ${script} exited (code 4) before replying (its stderr is above)\n`);
  const checked = cli('check', '--', process.execPath, '-e', script);
  assert.equal(checked.status, 3);
  assert.match(checked.stderr, /^baremcp check: .* exited \(code 4\) before replying; the end of its stderr:\n {2}loading config\n {2}fatal: no API key\n$/);
});

test('the module still serves once fixed (the same call, exit 0)', () => {
  const called = cli('call', '--server', './server.js', 'add');
  assert.equal(called.status, 0, called.stderr);
  assert.equal(called.stdout, 'ok\n');
});

test('node\'s arrow header parses into file, line, column, line and caret', () => {
  const text = '/srv/a b/x.js:12\n  foo bar\n      ^^^\n\nSyntaxError: Unexpected identifier \'bar\'\n    at x';
  assert.deepEqual(parseSyntaxLocation(text), {
    file: '/srv/a b/x.js', line: 12, column: 7, source: '  foo bar', caret: '      ^^^',
    message: "Unexpected identifier 'bar'",
  });
  assert.equal(parseSyntaxLocation('SyntaxError: Unexpected token\n    at compileSourceTextModule'), undefined);
  // Where node cannot place a caret it prints an empty line instead.
  const uncaret = '/srv/x.js:3\nexport default f({ a }`, b.\n\nSyntaxError: missing ) after argument list\n';
  assert.deepEqual(parseSyntaxLocation(uncaret), {
    file: '/srv/x.js', line: 3, column: undefined, source: 'export default f({ a }`, b.', caret: '',
    message: 'missing ) after argument list',
  });
});

test('describeExit: a signal, an empty stderr, and a tail cut mid-line', () => {
  assert.equal(describeExit(new ServerExitError(null, 'SIGKILL', ''), 'srv'),
    'srv was killed (SIGKILL) before replying, and wrote nothing on stderr');
  const cut = 'x'.repeat(1990) + '\nlast line';
  assert.equal(describeExit(new ServerExitError(1, null, cut), 'srv'),
    'srv exited (code 1) before replying; the end of its stderr:\n  last line');
});

test('the specifier scan sees every import form, and none in a comment', () => {
  const src = "import a from 'x';\nexport * from './y.js';\nimport './side.js';\nawait import('z');\nrequire('w');\nimport{b}from\"baremcp/stdio\";";
  assert.deepEqual(specifiersOf(src), ['x', './y.js', './side.js', 'z', 'w', 'baremcp/stdio']);
  const commented = [
    "/** @type {import('../../dist/index.js').ToolDefinition} */",
    "// import { createServer } from 'baremcp';",
    "const url = 'https://example.com'; import c from './c.js'; // require('d')",
    "/* import('e') */ import f from 'f';",
  ].join('\n');
  assert.deepEqual(specifiersOf(commented), ['./c.js', 'f']);
});
