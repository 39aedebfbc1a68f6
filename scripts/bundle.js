// Bundles the shipped entry points with esbuild (a devDependency: build tooling only) so that a
// server starts by loading a few files instead of dozens of modules. tsc still type-checks and
// writes the declarations and the module-per-file build that the unit tests import.
//
// Each module the loader resolves costs about a millisecond of a cold start (the loader's own
// code runs cold), and enough of them make V8 optimise the loader's path functions (~4 MiB of
// resident memory), so the code is built in layers, each one file:
//   1. core: everything the root entry reaches, plus src/protocol, src/server, src/schema (no
//      `node:` import): chunks/core.js, re-exported (public names only) by index.js and by
//      schema/index.js (the `baremcp/schema` subpath, whose modules are all in the core);
//   2. stdio: the stdio transport beyond the core: chunks/stdio.js, re-exported by
//      transport/stdio.js;
//   3. cli: the CLI's main, arguments, module loading and `serve`: cli/main.js itself (a bin, not
//      an API, so it may export internals);
//   4. the rest (HTTP, auth, testing, the other CLI commands, the example, the search worker), with
//      code splitting; the files the CLI imports dynamically get fixed names.
// A layer imports the layers before it from their one file, so every class and every piece of
// module state (the stdout guard's) exists once. `baremcp serve` loads cli/main.js,
// chunks/core.js and chunks/stdio.js before the served module. Once every file is written, each
// layer's export list is cut down to the names other files import (see the end of this script).
// An HTTP server on the public entries loads index.js, chunks/core.js, transport/http.js and the
// small chunk it shares with the CLI (bound-hosts); baremcp/auth's chunk only with `auth`.
// Outputs are ASCII (see `asciiOnly`).
import { build } from 'esbuild';
import ts from 'typescript';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const OUT = resolve('dist/bundle');
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // Not minified: a stack trace names the real functions and classes (`ToolDefinitionError`, not
  // `G`), and the source line node prints under an uncaught error is one short line of readable
  // code, not a 20,000-character line. Cold start does not change measurably (V8 pre-parses
  // either form about as fast; see bench/RESULTS.md); the tarball grows by about 31 KB.
  // The source maps (to src/*.ts) are for this repository's coverage and are not shipped.
  minify: false,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
};

/** `src/x/y.ts` → `x/y.js` (its place under dist/bundle). */
const outPath = (entry) => relative('src', entry).replace(/\.ts$/, '.js');

/** Names exported by a built file (its closing `export { a as B, ... }`). */
const exportsOf = (text) => new Set(
  [...text.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) => m[1].split(',').map((spec) => spec.trim().split(/\s+as\s+/).pop()).filter(Boolean)),
);

/**
 * esbuild keeps an external path as written, so a layer is imported through a placeholder as
 * long as the longest relative path to it; each output's placeholders are then replaced by the
 * relative path, padded with "./" so that source map columns stay right.
 */
const layers = [];
/** Layer 4's files that layer 3 imports dynamically: source → output path (fixed names). */
const LATER = new Map([
  ['src/cli/commands/call.ts', 'chunks/call.js'],
  ['src/cli/commands/check.ts', 'chunks/check.js'],
  ['src/cli/commands/init.ts', 'chunks/init.js'],
  ['src/cli/commands/dev.ts', 'chunks/dev.js'],
  ['src/cli/commands/pack.ts', 'chunks/pack.js'],
  ['src/cli/http-options.ts', 'chunks/http-options.js'],
  ['src/workspace/index.ts', 'chunks/workspace.js'],
  ['src/transport/http.ts', 'transport/http.js'],
].map(([from, to]) => [resolve(from), join(OUT, to)]));
/** The output file of the layer being built (a later file is imported relative to it). */
let building;
const plugin = {
  name: 'baremcp-layers',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      // An entry point is built where it is, even when an earlier layer also holds its code.
      if (args.kind === 'entry-point') return undefined;
      const file = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      const layer = layers.find((l) => l.files.has(file));
      if (layer !== undefined) return { path: layer.placeholder, external: true };
      if (building !== undefined && LATER.has(file) && args.kind === 'dynamic-import') {
        return { path: './' + relative(dirname(building), LATER.get(file)).replaceAll('\\', '/'), external: true };
      }
      return undefined;
    });
  },
};

/**
 * ASCII for the few characters esbuild leaves as they are (it escapes strings, regular expressions
 * and identifiers, not comments): one non-ASCII character makes node decode a whole file into a
 * two-byte string, twice the memory of the one-byte string an ASCII file becomes (core.js: 866 KiB
 * of young generation instead of 433 KiB, on every cold start). Common ones get an ASCII spelling,
 * any other a \u escape (which also reads right in a string or a regular expression).
 */
const ASCII = new Map([['\u2192', '->'], ['\u2190', '<-'], ['\u2014', '--'], ['\u2013', '-'], ['\u00d7', 'x'], ['\u2026', '...'], ['\u00a7', 'S'], ['\u00b1', '+/-'], ['\u221e', 'Infinity'], ['\u2264', '<='], ['\u2265', '>='], ['\u2260', '!='], ['\u2018', "'"], ['\u2019', "'"], ['\u201c', '"'], ['\u201d', '"']]);
const asciiOnly = (text) =>
  text.replace(/[^\x00-\x7f]/gu, (c) => ASCII.get(c) ?? c.split('').map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''));

/**
 * `text` without its whole-line comments (esbuild keeps the source's doc comments), each replaced
 * by the line breaks it held, so that every line of code keeps its number and its columns and the
 * source maps stay right. The comments are found by TypeScript's parser (comments attached to the
 * syntax tree), never by a pattern that could match inside a string or a template. Kept: comments
 * that share a line with code, and annotations (`/* @__PURE__ *\/`, `//# sourceMappingURL`). The
 * documentation ships in the declarations (dist/types); this takes about 60 KB off the bundles
 * (core.js: 453 -> 409 KB), text that every cold start reads and scans.
 */
function stripComments(text) {
  const source = ts.createSourceFile('bundle.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const ranges = new Map();
  const add = (found) => {
    for (const range of found ?? []) ranges.set(range.pos, range);
  };
  const walk = (node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, walk);
  };
  walk(source);
  add(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  let out = '';
  let at = 0;
  for (const range of [...ranges.values()].sort((a, b) => a.pos - b.pos)) {
    if (range.pos < at) continue;
    const lineStart = text.lastIndexOf('\n', range.pos - 1) + 1;
    let lineEnd = text.indexOf('\n', range.end);
    if (lineEnd === -1) lineEnd = text.length;
    if (text.slice(lineStart, range.pos).trim() !== '' || text.slice(range.end, lineEnd).trim() !== '') continue;
    if (/^(\/\*[!#@]|\/\/[#@])|__PURE__/.test(text.slice(range.pos, range.end))) continue;
    out += text.slice(at, lineStart) + '\n'.repeat(text.slice(range.pos, range.end).split('\n').length - 1);
    at = lineEnd;
  }
  return out + text.slice(at);
}

/** Writes esbuild output files, resolving layer placeholders and checking imported names. */
function writeOutputs(outputFiles) {
  for (const file of outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    if (!file.path.endsWith('.js')) {
      writeFileSync(file.path, file.contents);
      continue;
    }
    let text = file.text;
    for (const layer of layers) {
      const quoted = JSON.stringify(layer.placeholder);
      if (!text.includes(quoted)) continue;
      let path = relative(dirname(file.path), layer.chunk).replaceAll('\\', '/');
      if (!path.startsWith('.')) path = './' + path;
      while (path.length + 2 <= layer.placeholder.length) path = './' + path;
      // "./" pads by two; a path of the other parity takes one space after its closing quote.
      const gap = layer.placeholder.length - path.length;
      if (gap !== 0 && gap !== 1) throw new Error(`bundle: cannot pad ${path} to ${layer.placeholder.length} characters`);
      // Every name imported from a layer must be one it exports.
      for (const m of text.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*${quoted.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`, 'g'))) {
        for (const spec of m[1].split(',')) {
          const name = spec.trim().split(/\s+as\s+/)[0];
          if (name === '') continue;
          if (!layer.exports.has(name)) throw new Error(`bundle: ${relative(OUT, file.path)} imports ${name}, which ${layer.name} does not export`);
        }
      }
      text = text.replaceAll(quoted, JSON.stringify(path) + ' '.repeat(gap));
    }
    writeFileSync(file.path, asciiOnly(stripComments(text)));
  }
}

/**
 * Builds one layer: `entry` and every file it reaches that no earlier layer holds (plus the
 * `.ts` files of `extra`, files or folders), exporting everything. With `stub`, the layer is
 * chunks/<name>.js and the entry's own place gets a file re-exporting the entry's names only;
 * without, the layer is written at the entry's place.
 */
async function buildLayer(name, entry, { extra = [], stub = true, banner } = {}) {
  const target = join(OUT, outPath(entry));
  const chunk = stub ? join(OUT, `chunks/${name}.js`) : target;
  building = chunk;
  const probe = await build({ ...common, entryPoints: [entry, ...extra.filter((f) => f.endsWith('.ts'))], outdir: OUT, write: false, sourcemap: false, metafile: true, plugins: [plugin], splitting: true });
  const entryExports = Object.values(probe.metafile.outputs).find((o) => o.entryPoint === entry).exports;
  const files = new Set(Object.keys(probe.metafile.inputs).map((f) => resolve(f)).filter((f) => !layers.some((l) => l.files.has(f))));
  for (const dir of extra.filter((f) => !f.endsWith('.ts'))) {
    for (const file of readdirSync(dir)) if (file.endsWith('.ts')) files.add(resolve(dir, file));
  }
  // The entry's names are listed (an explicit export wins over `export *`); a name two internal
  // modules both export is ambiguous and left out, which the import checks catch if it is needed.
  const barrel = [
    `export { ${entryExports.join(', ')} } from ${JSON.stringify('./' + relative('src', entry))};`,
    ...[...files].map((f) => `export * from ${JSON.stringify('./' + relative('src', f).replaceAll('\\', '/'))};`),
  ].join('\n');
  const result = await build({
    ...common,
    stdin: { contents: barrel, resolveDir: resolve('src'), sourcefile: `${name}-layer.ts`, loader: 'ts' },
    outfile: chunk,
    write: false,
    plugins: [plugin],
    // package.json says "sideEffects": false, so a module the barrel exports nothing from is
    // dropped; an entry that runs (the CLI's main) must stay.
    ignoreAnnotations: !stub,
    ...(banner === undefined ? {} : { banner: { js: banner } }),
  });
  building = undefined;
  writeOutputs(result.outputFiles);
  const exports = exportsOf(readFileSync(chunk, 'utf8'));
  for (const n of entryExports) {
    if (!exports.has(n)) throw new Error(`bundle: layer ${name} does not export ${n} (an ambiguous export * ?)`);
  }
  if (stub) {
    mkdirSync(dirname(target), { recursive: true });
    let from = relative(dirname(target), chunk).replaceAll('\\', '/');
    if (!from.startsWith('.')) from = './' + from;
    writeFileSync(target, `export{${entryExports.join(',')}}from${JSON.stringify(from)};\n`);
  }
  // The longest relative path to the layer from any output folder.
  const longest = Math.max(...['.', 'chunks', 'cli', 'testing', 'transport', 'auth', 'policies', 'extensions', 'extensions/tasks', 'stores/redis'].map((d) => relative(join(OUT, d), chunk).length + (d === '.' ? 2 : 0)));
  const placeholder = `/${name}${'#'.repeat(Math.max(1, longest - name.length - 2))}/`;
  layers.push({ name, files, chunk, exports, placeholder });
}

/**
 * A public entry whose modules all sit in the layer `name` (`src/schema/index.ts` in the core): a
 * file at its place re-exporting the entry's names from that layer's one file.
 */
async function reexportFromLayer(entry, name) {
  const layer = layers.find((l) => l.name === name);
  const probe = await build({ ...common, entryPoints: [entry], outdir: OUT, write: false, sourcemap: false, metafile: true });
  const names = Object.values(probe.metafile.outputs).find((o) => o.entryPoint === entry).exports;
  for (const n of names) {
    if (!layer.exports.has(n)) throw new Error(`bundle: ${entry} exports ${n}, which layer ${name} does not export`);
  }
  const target = join(OUT, outPath(entry));
  mkdirSync(dirname(target), { recursive: true });
  let from = relative(dirname(target), layer.chunk).replaceAll('\\', '/');
  if (!from.startsWith('.')) from = './' + from;
  writeFileSync(target, `export{${names.join(',')}}from${JSON.stringify(from)};\n`);
}

rmSync(OUT, { recursive: true, force: true });
await buildLayer('core', 'src/index.ts', { extra: ['src/protocol', 'src/server', 'src/schema'] });
await reexportFromLayer('src/schema/index.ts', 'core');
await buildLayer('stdio', 'src/transport/stdio.ts');
await buildLayer('cli', 'src/cli/main.ts', { extra: ['src/cli/commands/serve.ts'], stub: false, banner: '#!/usr/bin/env node' });

// Layer 4: the other entry points, with code splitting.
const entryPoints = [
  'src/transport/http.ts',
  'src/auth/index.ts',
  'src/policies/index.ts',
  'src/extensions/tasks/index.ts',
  'src/extensions/apps.ts',
  'src/testing/index.ts',
  'src/stores/redis/index.ts',
  ...[...LATER].filter(([, to]) => to.startsWith(join(OUT, 'chunks'))).map(([from, to]) => ({ in: from, out: relative(OUT, to).replace(/\.js$/, '') })),
  // The search worker is started by URL relative to the code that starts it, in chunks/.
  { in: 'src/workspace/search-worker.ts', out: 'chunks/search-worker' },
  // The resolve hook Node's hooks thread loads (module.register), by URL relative to cli/main.js.
  { in: 'src/cli/resolve-hook.ts', out: 'cli/resolve-hook' },
  // The resolve hook of `baremcp dev` (module.register), by URL relative to chunks/dev.js.
  { in: 'src/cli/dev/dev-hook.ts', out: 'chunks/dev-hook' },
];
const rest = await build({
  ...common,
  entryPoints,
  outbase: 'src',
  outdir: OUT,
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  write: false,
  plugins: [plugin],
});
writeOutputs(rest.outputFiles);

// A layer is built exporting every name of its modules, so that the later layers can import any of
// them; once all are written, each layer keeps only the names some other file imports from it.
// Every exported binding of an ES module is a module variable, which V8 looks up by a linear
// search of the module's exports whenever it compiles a function that uses one: with the core's
// ~400 exports that search was ~1% of a cold start (callgrind), for ~80 names actually imported.
const outputs = readdirSync(OUT, { recursive: true }).filter((f) => f.endsWith('.js')).map((f) => join(OUT, f));
for (const layer of layers) {
  const needed = new Set();
  let all = false;
  for (const file of outputs) {
    if (file === layer.chunk) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:import|export)\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
      if (resolve(dirname(file), m[2]) !== layer.chunk) continue;
      for (const spec of m[1].split(',')) {
        const name = spec.trim().split(/\s+as\s+/)[0];
        if (name !== '') needed.add(name);
      }
    }
    // A dynamic import (`const { a, b: c } = await import("...")`, the CLI's commands); in any
    // other form the names cannot be known, and the layer keeps them all.
    for (const m of text.matchAll(/(?:\{([^{}]*)\}\s*=\s*await\s+)?import\(\s*"([^"]+)"\s*\)/g)) {
      if (resolve(dirname(file), m[2]) !== layer.chunk) continue;
      if (m[1] === undefined) all = true;
      else for (const spec of m[1].split(',')) if (spec.trim() !== '') needed.add(spec.trim().split(/\s*:\s*/)[0]);
    }
  }
  if (all) continue;
  const text = readFileSync(layer.chunk, 'utf8');
  const at = text.lastIndexOf('\nexport {');
  const end = text.indexOf('};', at);
  if (at === -1 || end === -1) throw new Error(`bundle: no export list at the end of ${relative(OUT, layer.chunk)}`);
  const kept = text.slice(at + '\nexport {'.length, end).split(',').map((spec) => spec.trim()).filter((spec) => spec !== '' && needed.has(spec.split(/\s+as\s+/).pop()));
  for (const name of needed) {
    if (!kept.some((spec) => spec.split(/\s+as\s+/).pop() === name)) throw new Error(`bundle: ${name} is imported from ${relative(OUT, layer.chunk)}, which does not export it`);
  }
  writeFileSync(layer.chunk, `${text.slice(0, at)}\nexport {\n  ${kept.join(',\n  ')}\n${text.slice(end)}`);
}

// Ship only the declarations the public entry points reach (internal modules' types stay out of
// the tarball): copy them from dist/ into dist/types/, keeping their paths.
rmSync('dist/types', { recursive: true, force: true });
const seen = new Set();
const visit = (file) => {
  if (seen.has(file) || !existsSync(file)) return;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)\.js['"]/g)) {
    visit(resolve(dirname(file), `${m[1]}.d.ts`));
  }
};
for (const entry of ['index', 'schema/index', 'transport/stdio', 'transport/http', 'auth/index', 'policies/index', 'extensions/tasks/index', 'extensions/apps', 'testing/index', 'stores/redis/index']) {
  visit(resolve('dist', `${entry}.d.ts`));
}
for (const file of seen) {
  const target = join('dist/types', relative(resolve('dist'), file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}
