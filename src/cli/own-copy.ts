/**
 * Lends the running CLI's own copy of baremcp to the module it loads (`serve`, `check`, and
 * `call --server` through `serve`), so that `npx -y baremcp serve /path/server.js` works for a
 * module that imports `baremcp` or `baremcp/stdio` with nothing installed beside it. Every hook
 * acts only where Node's own resolution fails, so a module whose folder resolves baremcp keeps
 * its own copy (with a note on stderr when the two versions differ).
 *
 * How each kind of import is covered (hooks in `resolve-hook.ts`):
 * - `require`, on every Node: a wrapped `Module._resolveFilename`, the resolver `require` calls
 *   (free; the only hook `require` has before Node 22.15). It loads baremcp's ES modules, which
 *   `require` can from Node 20.19 and 22.12 on.
 * - `import`, when the module or a file it imports by a relative path names baremcp (read as
 *   text, `module-files.ts`): `module.registerHooks` on Node >= 22.15 and >= 23.5 (a synchronous
 *   hook in this thread, which covers `require` too), else `module.register` (Node >= 20.6; its
 *   hooks run on a thread of their own that costs 20-60 ms to start). A module that names no
 *   baremcp, like the README's first example, starts with no resolve hook at all, as before.
 *
 * Spec: Node.js, Modules: `node:module` API ("Customization Hooks", `register`,
 * `registerHooks`); Packages ("Self-referencing a package using its name").
 * @module
 */
import { readFileSync, realpathSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILE_LIMIT, moduleFiles } from './module-files.js';
import { ownFileFor, resolveSync } from './resolve-hook.js';
import type { NextResolveSync } from './resolve-hook-types.js';
import type { ResolveHookContext } from 'node:module';

/** A baremcp package on disk: its folder and version. */
export interface PackageCopy {
  /** The folder holding its package.json (real path). */
  root: string;
  /** Its `version`. */
  version: string;
}

/** The package this CLI runs from: the nearest package.json above this file named "baremcp". */
export function ownPackage(): PackageCopy | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      const text = readFileSync(resolve(dir, 'package.json'), 'utf8');
      const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (pkg.name === 'baremcp' && typeof pkg.version === 'string') {
        return { root: realpathSync(dir), version: pkg.version };
      }
    } catch {
      // no package.json here: keep climbing
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The baremcp that a file at `path` resolves by itself, or undefined when it resolves none. */
export function installedFor(path: string): PackageCopy | undefined {
  let manifest: string;
  try {
    manifest = createRequire(path).resolve('baremcp/package.json');
  } catch {
    return undefined;
  }
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown };
  return { root: realpathSync(dirname(manifest)), version: String(pkg.version) };
}

/**
 * Whether the module at `path`, or one of its own files (`module-files.ts`), names `baremcp` or
 * `baremcp/<subpath>` with a literal specifier outside comments; an `import()` of a computed name
 * is not seen. A module of more files than the scan reads counts as naming it.
 */
export function namesBaremcp(path: string): boolean {
  let read = 0;
  for (const file of moduleFiles(path)) {
    if (file.specifiers.some((spec) => /^baremcp(?:\/|$)/.test(spec))) return true;
    read++;
  }
  // A module of more files than the scan reads may name baremcp further on: lend to be safe.
  return read >= FILE_LIMIT;
}

/** What {@link lendOwnCopy} did for a module. */
export type Lending =
  /** The module's folder resolves a baremcp of its own; no import hook. */
  | { kind: 'installed'; copy: PackageCopy }
  /** The mechanisms installed by this call (see the module comment); none on a second call. */
  | { kind: 'hooks'; mechanisms: ('registerHooks' | 'register' | '_resolveFilename')[] };

/** `module.registerHooks` where Node has it (>= 22.15, >= 23.5); not in @types/node 20. */
type RegisterHooks = (hooks: {
  resolve(specifier: string, context: ResolveHookContext, next: NextResolveSync): unknown;
}) => unknown;

/** Shape of the CommonJS resolver's entry point that `require` calls. */
type ResolveFilename = (this: unknown, request: string, ...rest: unknown[]) => string;

/** Whether `require` (the wrap) and `import` (a resolve hook) were lent: once each a process. */
const lent = { require: false, import: false };

/** Wraps `Module._resolveFilename`: a `require` of baremcp that Node cannot resolve gets ours. */
function lendToRequire(): void {
  const cjs = Module as unknown as { _resolveFilename: ResolveFilename };
  const original = cjs._resolveFilename;
  cjs._resolveFilename = function resolveFilename(request, ...rest) {
    try {
      return original.call(this, request, ...rest);
    } catch (error) {
      const own = ownFileFor(request, error);
      if (own === undefined) throw error;
      return fileURLToPath(own);
    }
  };
}

/**
 * Makes `baremcp` and its subpaths resolve to this CLI's copy for the module at `path` (an
 * absolute path) and whatever it imports, where they do not resolve by themselves; call it before
 * importing the module. The hooks act only where Node's own resolution fails, so a copy installed
 * beside the module always wins. Start-up cost for a module that names no baremcp: one read of
 * each of its own files (about 0.2 ms), no hook thread, no resolution walk.
 * @param report where a note goes (default: stderr), e.g. "server.js uses its own baremcp 0.0.9".
 */
export function lendOwnCopy(
  path: string,
  report: (line: string) => void = (line) => process.stderr.write(line + '\n'),
): Lending {
  // Asked before any hook is installed: afterwards `require.resolve` would find this copy.
  const names = namesBaremcp(path);
  const installed = names ? installedFor(path) : undefined;
  const mechanisms: ('registerHooks' | 'register' | '_resolveFilename')[] = [];
  if (!lent.require) {
    lent.require = true;
    lendToRequire();
    mechanisms.push('_resolveFilename');
  }
  if (installed !== undefined) {
    const own = ownPackage();
    if (own !== undefined && installed.root !== own.root && installed.version !== own.version) {
      report(
        `baremcp: ${path} uses its own baremcp ${installed.version} (${installed.root}), ` +
          `not this CLI's ${own.version}`,
      );
    }
    return { kind: 'installed', copy: installed };
  }
  if (!names) return { kind: 'hooks', mechanisms };
  if (lent.import) return { kind: 'hooks', mechanisms };
  lent.import = true;
  const { registerHooks } = Module as unknown as { registerHooks?: RegisterHooks };
  if (typeof registerHooks === 'function') {
    registerHooks({ resolve: resolveSync });
    mechanisms.push('registerHooks');
  } else if (typeof Module.register === 'function') {
    Module.register('./resolve-hook.js', import.meta.url);
    mechanisms.push('register');
  }
  return { kind: 'hooks', mechanisms };
}
