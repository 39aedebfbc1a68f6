// Bundles the shipped entry points with esbuild (a devDependency: build tooling only) so that a
// server starts by loading a few files instead of dozens of modules. tsc still type-checks and
// writes the declarations and the module-per-file build that the unit tests import.
import { build } from 'esbuild';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const entries = [
  'src/index.ts',
  'src/transport/stdio.ts',
  'src/transport/http.ts',
  'src/testing/index.ts',
  'src/cli/main.ts',
].filter((file) => existsSync(file));
// The search worker is started by URL relative to the code that starts it, which lands in chunks/.
entries.push({ in: 'src/examples/workspace/search-worker.ts', out: 'chunks/search-worker' });

rmSync('dist/bundle', { recursive: true, force: true });
await build({
  entryPoints: entries,
  outbase: 'src',
  outdir: 'dist/bundle',
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  minify: true,
  keepNames: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});

// Ship only the declarations the public entry points reach (internal modules' types stay out of
// the tarball): copy them from dist/ into dist/types/, keeping their paths.
const { readFileSync, mkdirSync, copyFileSync } = await import('node:fs');
const { dirname, join, relative, resolve } = await import('node:path');
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
