/**
 * A served module's own files, read as text: the module and the files it imports by relative
 * specifiers, transitively. Used where the CLI must know something before (or after) Node loads
 * the module: whether it names baremcp (`own-copy.ts`) and which file holds a syntax error
 * (`load-errors.ts`). A text scan, not a parse: a specifier inside a comment or a string counts.
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The specifier of a static import or re-export (`import … from`, `export … from`), a bare
 * import of a module for its effects, a dynamic `import(…)` and a `require(…)` call.
 */
const SPECIFIER = new RegExp(
  [
    /(?:^|[^\w$.])(?:import|export)(?=[\s{*])[^'"]*?from\s*['"]([^'"]+)['"]/.source,
    /(?:^|[^\w$.])import\s*\(\s*['"]([^'"]+)['"]\s*\)/.source,
    /(?:^|[^\w$.])import\s*['"]([^'"]+)['"]/.source,
    /(?:^|[^\w$.])require\s*\(\s*['"]([^'"]+)['"]\s*\)/.source,
  ].join('|'),
  'gm',
);

/**
 * Block comments, and line comments that start a line or follow a space or `;{}()` (so not the
 * `//` of `https://` in a string). A JSDoc type such as `import('../dist/index.js')` names no
 * file the module loads.
 */
const COMMENT = /\/\*[\s\S]*?\*\/|(^|[\s;{}()])\/\/[^\n]*/gm;

/**
 * Every literal specifier `source` names in an import, export, `import()` or `require()`
 * outside comments.
 */
export function specifiersOf(source: string): string[] {
  const found: string[] = [];
  const code = source.replace(COMMENT, '$1');
  for (const m of code.matchAll(SPECIFIER)) found.push((m[1] ?? m[2] ?? m[3] ?? m[4]) as string);
  return found;
}

/** One of a module's own files and the specifiers it names. */
export interface ModuleFile {
  /** Absolute path. */
  path: string;
  /** What it imports, as written. */
  specifiers: string[];
}

/** How many files {@link moduleFiles} reads at most. */
export const FILE_LIMIT = 50;

/**
 * The module at `path` (absolute) and the files it names by `./` or `../` specifiers,
 * transitively, breadth first, each once, at most `limit` (default {@link FILE_LIMIT}: each one
 * read costs start-up time and memory). Never enters a package (`node_modules`); a file that cannot be read is
 * skipped.
 */
export function* moduleFiles(path: string, limit: number = FILE_LIMIT): Generator<ModuleFile> {
  const seen = new Set<string>();
  const queue = [path];
  while (queue.length > 0 && seen.size < limit) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const specifiers = specifiersOf(text);
    yield { path: file, specifiers };
    for (const spec of specifiers) {
      if (spec.startsWith('./') || spec.startsWith('../')) queue.push(resolve(dirname(file), spec));
    }
  }
}
