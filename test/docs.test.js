// The docs compile: every ```js and ```ts block of README.md and docs/*.md, every server in
// examples/ and the files `baremcp init` writes are type-checked by tsc (strict TypeScript;
// checkJs for JavaScript), with `baremcp` and `baremcp/*` resolved through `paths` to this repo's
// built declarations (dist/, as the exports map names them). A block marked ```js no-check is
// skipped, as are ```sh, ```json and unmarked blocks. Errors name the Markdown file and the line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { starterFiles } from '../dist/cli/commands/init.js';
import { repoRoot } from './helpers.js';

const run = promisify(execFile);
const tsc = resolve(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const pkg = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8'));
const CHECKED = new Map([
  ['js', 'js'],
  ['javascript', 'js'],
  ['ts', 'ts'],
  ['typescript', 'ts'],
]);

/**
 * The checked code blocks of a Markdown text: { line, ext, code }, `line` being the 1-based line
 * of the block's first code line. Fences of three or more backticks, indented by up to three
 * spaces; the info string's first word is the language, and the word `no-check` after it skips
 * the block.
 */
export function extractBlocks(markdown) {
  const blocks = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    // A fence may be indented (a block inside a list item); the indent is removed from its lines.
    const open = /^( {0,3})(`{3,})\s*(\S*)(.*)$/.exec(lines[i]);
    if (open === null) continue;
    const [, indent, fence, lang, rest] = open;
    const end = lines.findIndex((l, j) => j > i && l.trim() === fence);
    const close = end === -1 ? lines.length : end;
    const ext = CHECKED.get(lang.toLowerCase());
    if (ext !== undefined && !/\bno-check\b/.test(rest)) {
      const code = lines
        .slice(i + 1, close)
        .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l));
      blocks.push({ line: i + 2, ext, code: code.join('\n') });
    }
    i = close;
  }
  return blocks;
}

// A Markdown text with a known error, checked in the same run: proves errors are found and mapped.
const PROBE = [
  '# probe',
  '',
  '```ts',
  "import { createServer } from 'baremcp';",
  '',
  "createServer({ info: { name: 'x' } });",
  '```',
  '',
  '```js no-check',
  'this is not code',
  '```',
  '',
  '```js',
  "import { serveStdio } from 'baremcp/stdio';",
  "import { createServr } from 'baremcp';",
  '',
  'serveStdio(createServr());',
  '```',
  '',
  '- a block inside a list item:',
  '',
  '  ```ts',
  "  const count: number = 'three';",
  '  ```',
  '',
].join('\n');

let work;
let errors;
const sources = new Map(); // temp file -> { file, line } of its first line
let counts;
const perFile = new Map(); // Markdown file -> number of checked blocks
/** README.md and every Markdown file of docs/ (not the generated docs/api/). */
const MARKDOWN = [
  'README.md',
  ...readdirSync(resolve(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

before(async () => {
  assert.ok(
    existsSync(resolve(repoRoot, 'dist', 'index.d.ts')),
    'dist is built (npm test builds it first)',
  );
  work = mkdtempSync(join(tmpdir(), 'baremcp-docs-'));
  symlinkSync(resolve(repoRoot, 'node_modules'), join(work, 'node_modules'), 'dir');
  const put = (path, text, origin) => {
    const full = join(work, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    sources.set(full, origin);
  };
  // `export {}` keeps each block a module of its own (no clash between blocks' top-level names).
  for (const file of MARKDOWN) {
    const blocks = extractBlocks(readFileSync(resolve(repoRoot, file), 'utf8'));
    perFile.set(file, blocks.length);
    for (const b of blocks)
      put(`md/${file.replace(/[/.]/g, '-')}/line-${b.line}.${b.ext}`, `${b.code}\nexport {};\n`, {
        file,
        line: b.line,
      });
  }
  for (const b of extractBlocks(PROBE))
    put(`probe/line-${b.line}.${b.ext}`, `${b.code}\nexport {};\n`, {
      file: 'probe.md',
      line: b.line,
    });
  const examples = readdirSync(resolve(repoRoot, 'examples')).filter((f) => /\.(js|ts)$/.test(f));
  for (const f of examples)
    put(`examples/${f}`, readFileSync(resolve(repoRoot, 'examples', f), 'utf8'), {
      file: `examples/${f}`,
      line: 1,
    });
  const starter = [...starterFiles('starter', pkg.version)].filter(([path]) =>
    /\.js$|^package\.json$/.test(path),
  );
  for (const [path, text] of starter)
    put(`starter/${path}`, text, { file: `(baremcp init) ${path}`, line: 1 });
  counts = { examples: examples.length, starter: starter.length };

  const paths = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'object' && typeof target.types === 'string') {
      paths[`baremcp${subpath.slice(1)}`] = [resolve(repoRoot, target.types)];
    }
  }
  writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
  const options = {
    target: 'es2022',
    lib: ['es2023'],
    types: ['node'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    paths,
  };
  // TypeScript as strict as a user's project; JavaScript checked too (checkJs), but without
  // noImplicitAny, which a plain JS file cannot satisfy without JSDoc on every parameter.
  writeFileSync(
    join(work, 'tsconfig.ts.json'),
    JSON.stringify({ compilerOptions: options, include: ['**/*.ts'], exclude: ['node_modules'] }),
  );
  writeFileSync(
    join(work, 'tsconfig.js.json'),
    JSON.stringify({
      compilerOptions: { ...options, allowJs: true, checkJs: true, noImplicitAny: false },
      include: ['**/*.js'],
      exclude: ['node_modules'],
    }),
  );
  const check = (project) =>
    run(process.execPath, [tsc, '-p', join(work, project), '--pretty', 'false'], {
      cwd: work,
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      ({ stdout }) => stdout,
      (error) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
  const output = (await Promise.all([check('tsconfig.ts.json'), check('tsconfig.js.json')])).join(
    '\n',
  );
  errors = [];
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    const m = /^(.+?)\((\d+),(\d+)\): error (TS\d+: .*)$/.exec(line);
    if (m === null) {
      // The indented lines that follow an error explain it.
      if (/^\s/.test(line) && errors.length > 0) errors[errors.length - 1].text += `\n${line}`;
      else errors.push({ file: '(tsc)', line: 0, text: line });
      continue;
    }
    const origin = sources.get(resolve(work, m[1]));
    errors.push(
      origin === undefined
        ? { file: m[1], line: Number(m[2]), text: m[4] }
        : { file: origin.file, line: origin.line + Number(m[2]) - 1, text: m[4] },
    );
  }
});

after(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

const show = (list) => list.map((e) => `${e.file}:${e.line}: ${e.text}`).join('\n');

test('the checker finds errors in ts and js blocks, indented ones too, reports their Markdown lines, and skips no-check blocks', () => {
  const found = errors.filter((e) => e.file === 'probe.md').sort((a, b) => a.line - b.line);
  assert.deepEqual(
    found.map((e) => e.line),
    [6, 15, 23],
    show(found),
  );
  assert.match(found[0].text, /version/);
  assert.match(found[1].text, /createServr/);
  assert.match(found[2].text, /'string' is not assignable to type 'number'/);
});

test('every js and ts block of README.md and docs/*.md type-checks', () => {
  assert.ok(perFile.get('README.md') >= 8, `only ${perFile.get('README.md')} blocks in README.md`);
  const inDocs = MARKDOWN.filter((f) => f.startsWith('docs/')).map((f) => perFile.get(f));
  assert.ok(
    inDocs.reduce((a, b) => a + b, 0) >= 20,
    `only ${inDocs.join('+')} checked blocks in docs/*.md`,
  );
  const found = errors.filter((e) => MARKDOWN.includes(e.file));
  assert.equal(found.length, 0, `\n${show(found)}`);
});

test('every server in examples/ and every file baremcp init writes type-checks', () => {
  assert.ok(counts.examples >= 3 && counts.starter >= 3, JSON.stringify(counts));
  const found = errors.filter((e) => !MARKDOWN.includes(e.file) && e.file !== 'probe.md');
  assert.equal(found.length, 0, `\n${show(found)}`);
});
