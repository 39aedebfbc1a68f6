// Bundles the shipped entry points with esbuild (a devDependency: build tooling only) so that a
// server starts by loading a few files instead of dozens of modules. tsc still type-checks and
// writes the declarations and the module-per-file build that the unit tests import.
//
// Two passes, so that a server loads few files (each module URL the loader resolves costs time,
// and enough of them make V8 optimise the loader's path functions, ~4 MiB of resident memory):
//   1. the core (everything the root entry reaches, plus src/protocol, src/server, src/schema;
//      no `node:` import) as one file, dist/bundle/chunks/core.js; dist/bundle/index.js
//      re-exports its public names;
//   2. the Node entry points (transports, testing, CLI, the search worker) with code splitting,
//      importing the core from chunks/core.js, so that every class exists once.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const OUT = resolve('dist/bundle');
const CORE = join(OUT, 'chunks/core.js');
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  minify: true,
  keepNames: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync(OUT, { recursive: true, force: true });

// The root entry's public names and the files it reaches.
const root = await build({ ...common, entryPoints: ['src/index.ts'], outdir: OUT, write: false, sourcemap: false, metafile: true });
const rootOutput = Object.values(root.metafile.outputs).find((o) => o.entryPoint === 'src/index.ts');
const coreFiles = new Set(Object.keys(root.metafile.inputs).map((f) => resolve(f)));
for (const dir of ['src/protocol', 'src/server', 'src/schema']) {
  for (const name of readdirSync(dir)) if (name.endsWith('.ts')) coreFiles.add(resolve(dir, name));
}

// Pass 1: the core, every export of every core module (internal ones included, for pass 2).
// The root's names are listed (an explicit export wins over `export *`); a name two internal
// modules both export is ambiguous and left out, which the checks below catch if it is needed.
const barrel = [
  `export { ${rootOutput.exports.join(', ')} } from './index.ts';`,
  ...[...coreFiles].map((f) => `export * from ${JSON.stringify('./' + relative('src', f).replaceAll('\\', '/'))};`),
].join('\n');
await build({
  ...common,
  stdin: { contents: barrel, resolveDir: resolve('src'), sourcefile: 'core-barrel.ts', loader: 'ts' },
  outfile: CORE,
});
// The names core.js really exports (its closing `export{a as B,...}`).
const coreText = readFileSync(CORE, 'utf8');
const coreExports = new Set(
  [...coreText.matchAll(/export\{([^}]*)\}/g)].flatMap((m) => m[1].split(',').map((spec) => spec.trim().split(/\s+as\s+/).pop())),
);
for (const name of rootOutput.exports) {
  if (!coreExports.has(name)) throw new Error(`bundle: the core does not export ${name} (an ambiguous export * ?)`);
}
writeFileSync(join(OUT, 'index.js'), `export{${rootOutput.exports.join(',')}}from"./chunks/core.js";\n`);

// Pass 2: the Node entry points. An import of a core file becomes an import of chunks/core.js;
// esbuild keeps an external path as written, so it is a placeholder of fixed length, replaced
// below by the path relative to each output file (padded with "./" to keep source map columns).
const PLACEHOLDER = '/baremcp-core.js/';
const entries = ['src/transport/stdio.ts', 'src/transport/http.ts', 'src/testing/index.ts', 'src/cli/main.ts'];
// The search worker is started by URL relative to the code that starts it, which lands in chunks/.
const entryPoints = [...entries, { in: 'src/examples/workspace/search-worker.ts', out: 'chunks/search-worker' }];
const node = await build({
  ...common,
  entryPoints,
  outbase: 'src',
  outdir: OUT,
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  write: false,
  plugins: [
    {
      name: 'baremcp-core',
      setup(b) {
        b.onResolve({ filter: /^\./ }, (args) => {
          const file = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
          return coreFiles.has(file) ? { path: PLACEHOLDER, external: true } : undefined;
        });
      },
    },
  ],
});
const quoted = JSON.stringify(PLACEHOLDER);
for (const file of node.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  if (!file.path.endsWith('.js')) {
    writeFileSync(file.path, file.contents);
    continue;
  }
  let path = relative(dirname(file.path), CORE).replaceAll('\\', '/');
  if (!path.startsWith('.')) path = './' + path;
  while (path.length + 2 <= PLACEHOLDER.length) path = './' + path;
  if (path.length !== PLACEHOLDER.length) throw new Error(`bundle: cannot pad ${path} to ${PLACEHOLDER.length} characters`);
  const text = file.text.replaceAll(quoted, JSON.stringify(path));
  // Every name imported from the core must be one it exports.
  for (const m of text.matchAll(/import\{([^}]*)\}from"[./]*(?:chunks\/)?core\.js"/g)) {
    for (const spec of m[1].split(',')) {
      const name = spec.trim().split(/\s+as\s+/)[0];
      if (!coreExports.has(name)) throw new Error(`bundle: ${relative(OUT, file.path)} imports ${name}, which the core does not export`);
    }
  }
  writeFileSync(file.path, text);
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
for (const entry of ['index', 'transport/stdio', 'transport/http', 'testing/index']) {
  visit(resolve('dist', `${entry}.d.ts`));
}
for (const file of seen) {
  const target = join('dist/types', relative(resolve('dist'), file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}
