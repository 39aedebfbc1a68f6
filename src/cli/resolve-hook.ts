/**
 * Module resolution hooks that give a served module the running CLI's own copy of baremcp: an
 * `import` or `require` of `baremcp` or `baremcp/<subpath>` that Node cannot resolve from the
 * importing file resolves, through this package's `exports` map, to the files of the package
 * this file belongs to. Anything that Node does resolve (a module's own installed baremcp
 * included) is left as Node resolved it. Installed by `own-copy.ts`; this file imports nothing,
 * so that Node's hooks thread (`module.register`) loads only it.
 *
 * Spec: Node.js, Modules: `node:module` API, "Customization Hooks" (`resolve`).
 * @module
 */
import type { ResolveFnOutput, ResolveHookContext } from 'node:module';
import type { NextResolve, NextResolveSync } from './resolve-hook-types.js';

/** `baremcp` and `baremcp/<subpath>`. */
const OWN_SPECIFIER = /^baremcp(?:\/|$)/;

/**
 * Whether Node failed to find a module (`import`: ERR_MODULE_NOT_FOUND; `require`:
 * MODULE_NOT_FOUND).
 */
function notFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

let resolvingOwn = false;

/**
 * The file: URL of this package's file for `specifier` (`baremcp` or `baremcp/<subpath>`): Node
 * resolves it from this file by package self-reference, so the `exports` map decides. (A sync
 * hook cannot ask the next step with another `parentURL`: for `require` the default step
 * resolves from the requiring module whatever the context says.)
 * @throws {Error} `ERR_PACKAGE_PATH_NOT_EXPORTED` for a subpath the map does not list; the
 *   original error when this package cannot resolve it either (no fallback for the fallback).
 */
function ownURL(specifier: string, original: unknown): string {
  if (resolvingOwn) throw original;
  resolvingOwn = true;
  try {
    // With `module.registerHooks`, this resolution runs through the hook below once more.
    return import.meta.resolve(specifier);
  } catch {
    throw original;
  } finally {
    resolvingOwn = false;
  }
}

/**
 * The synchronous resolve hook for `module.registerHooks` (Node >= 22.15 and >= 23.5), which
 * runs in this thread for `import` and `require` alike (`require` is also covered by
 * `own-copy.ts`'s `Module._resolveFilename`, which runs first).
 * @throws whatever Node's resolution throws, unless it is a missing baremcp.
 */
export function resolveSync(
  specifier: string,
  context: ResolveHookContext,
  nextResolve: NextResolveSync,
): ResolveFnOutput {
  try {
    return nextResolve(specifier, context);
  } catch (error) {
    if (!OWN_SPECIFIER.test(specifier) || !notFound(error)) throw error;
    return { url: ownURL(specifier, error), shortCircuit: true };
  }
}

/**
 * The asynchronous resolve hook for `module.register` (Node >= 20.6), which runs on Node's hooks
 * thread and sees `import` only (`require` is covered by `own-copy.ts`). There
 * `import.meta.resolve` does not exist (Node 20), so the fallback asks the next step to resolve
 * the specifier as if this file imported it, which self-reference turns into this package's file.
 * @throws whatever Node's resolution throws, unless it is a missing baremcp.
 */
export async function resolve(
  specifier: string,
  context: ResolveHookContext,
  nextResolve: NextResolve,
): Promise<ResolveFnOutput> {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (!OWN_SPECIFIER.test(specifier) || !notFound(error)) throw error;
    try {
      return await nextResolve(specifier, { ...context, parentURL: import.meta.url });
    } catch (fallback) {
      throw notFound(fallback) ? error : fallback;
    }
  }
}

/**
 * The file this package gives for a `require` of `specifier` that Node could not resolve, for
 * `own-copy.ts`'s wrapped `Module._resolveFilename`; undefined when `specifier` is not
 * baremcp's or `error` is not a missing module.
 */
export function ownFileFor(specifier: string, error: unknown): URL | undefined {
  if (!OWN_SPECIFIER.test(specifier) || !notFound(error)) return undefined;
  return new URL(ownURL(specifier, error));
}
