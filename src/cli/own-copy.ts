/**
 * Lends the running CLI's own copy of baremcp to the module it loads (`serve`, `check`, and
 * `call --server` through `serve`), so that `npx -y baremcp serve /path/server.js` works for a
 * module that imports `baremcp` or `baremcp/stdio` with nothing installed beside it. A module
 * whose folder resolves baremcp itself keeps its own copy (with a note on stderr when the two
 * versions differ), and then no hook is installed at all.
 *
 * How each kind of import is covered, by Node version (hooks in `resolve-hook.ts`):
 * - Node >= 22.15 (and >= 23.5): `module.registerHooks`, one synchronous resolve hook in this
 *   thread, covers `import` and `require` alike (about 1 ms).
 * - Node 20.6 to 22.14: `import` through `module.register`, whose hooks run on a thread of their
 *   own that costs 20-60 ms to start, so it is registered only when the module's own files (the
 *   module and the relative imports it names, read as text) name baremcp; `require` through a
 *   wrapped `Module._resolveFilename` (the only hook `require` has there; free).
 * A `require('baremcp')` loads ES modules, which Node allows from 20.19 and 22.12 on.
 *
 * Spec: Node.js, Modules: `node:module` API ("Customization Hooks", `register`,
 * `registerHooks`); Packages ("Self-referencing a package using its name").
 * @module
 */
import { readFileSync, realpathSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleFiles } from './module-files.js';
import { ownFileFor, resolveSync, type NextResolveSync } from './resolve-hook.js';
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
      const pkg = JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
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
 * `baremcp/<subpath>` with a literal specifier. A specifier in a comment counts too, which costs
 * only the hook thread's start-up.
 */
export function namesBaremcp(path: string): boolean {
  for (const file of moduleFiles(path)) {
    if (file.specifiers.some((spec) => /^baremcp(?:\/|$)/.test(spec))) return true;
  }
  return false;
}

/** What {@link lendOwnCopy} did for a module. */
export type Lending =
  /** The module's folder resolves a baremcp of its own; no hook. */
  | { kind: 'installed'; copy: PackageCopy }
  /** Hooks installed, naming the mechanisms (see the module comment). */
  | { kind: 'hooks'; mechanisms: ('registerHooks' | 'register' | '_resolveFilename')[] };

/** `module.registerHooks` where Node has it (>= 22.15, >= 23.5); not in @types/node 20. */
type RegisterHooks = (hooks: {
  resolve(specifier: string, context: ResolveHookContext, next: NextResolveSync): unknown;
}) => unknown;

/** Shape of the CommonJS resolver's entry point that `require` calls. */
type ResolveFilename = (this: unknown, request: string, ...rest: unknown[]) => string;

let lent = false;

/**
 * Makes `baremcp` and its subpaths resolve to this CLI's copy for the module at `path` (an
 * absolute path) and whatever it imports, where they do not resolve by themselves; call it before
 * importing the module. Once per process: later calls only report on the module's own copy.
 * @param report where a note goes (default: stderr), e.g. "server.js uses its own baremcp 0.0.9".
 */
export function lendOwnCopy(
  path: string,
  report: (line: string) => void = (line) => process.stderr.write(line + '\n'),
): Lending {
  const own = ownPackage();
  const installed = installedFor(path);
  if (installed !== undefined) {
    if (own !== undefined && installed.root !== own.root && installed.version !== own.version) {
      report(
        `baremcp: ${path} uses its own baremcp ${installed.version} (${installed.root}), ` +
          `not this CLI's ${own.version}`,
      );
    }
    return { kind: 'installed', copy: installed };
  }
  const mechanisms: ('registerHooks' | 'register' | '_resolveFilename')[] = [];
  if (lent) return { kind: 'hooks', mechanisms };
  lent = true;
  const { registerHooks } = Module as unknown as { registerHooks?: RegisterHooks };
  if (typeof registerHooks === 'function') {
    registerHooks({ resolve: resolveSync });
    return { kind: 'hooks', mechanisms: ['registerHooks'] };
  }
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
  mechanisms.push('_resolveFilename');
  if (typeof Module.register === 'function' && namesBaremcp(path)) {
    Module.register('./resolve-hook.js', import.meta.url);
    mechanisms.push('register');
  }
  return { kind: 'hooks', mechanisms };
}
