/**
 * The module resolution hook of `baremcp dev`: a local file imported by a module of generation N
 * (its URL ends in `?baremcp-dev=N`) is imported as generation N too, so that each reload
 * evaluates the served module and every file of its own anew, while packages (anything under a
 * `node_modules` folder) and baremcp itself are loaded once and shared by every generation.
 * Installed by `generations.ts`; this file imports nothing, so that Node's hooks thread
 * (`module.register`) loads only it.
 *
 * Spec: Node.js, Modules: `node:module` API, "Customization Hooks" (`resolve`, `initialize`).
 * @module
 */
import type { ResolveFnOutput, ResolveHookContext } from 'node:module';
import type { NextResolve, NextResolveSync } from '../resolve-hook-types.js';

/** The query parameter that carries a module's generation. */
export const GENERATION_PARAM = 'baremcp-dev';

/** What the hook leaves alone: URLs under these `file:` URL prefixes (baremcp's own folder). */
let shared: readonly string[] = [];

/**
 * Sets the folders (as `file:` URLs ending in `/`) whose files are never versioned. Node calls it
 * with `register`'s `data` on the hooks thread; `generations.ts` calls it directly otherwise.
 */
export function initialize(data: { shared?: readonly string[] } | undefined): void {
  shared = data?.shared ?? [];
}

/**
 * The URL `resolved` gets when `parentURL` imported it: with the parent's generation when the
 * parent has one and `resolved` is a local file (a `file:` URL outside `node_modules` and outside
 * the shared folders); else `resolved` unchanged.
 */
export function versioned(resolved: string, parentURL: string | undefined): string {
  if (parentURL === undefined || !resolved.startsWith('file:')) return resolved;
  const mark = parentURL.indexOf(`?${GENERATION_PARAM}=`);
  if (mark === -1) return resolved;
  const generation = parentURL.slice(mark + GENERATION_PARAM.length + 2).replace(/[&#].*$/, '');
  const url = new URL(resolved);
  if (url.pathname.includes('/node_modules/')) return resolved;
  if (shared.some((prefix) => resolved.startsWith(prefix))) return resolved;
  url.searchParams.set(GENERATION_PARAM, generation);
  return url.href;
}

/**
 * The synchronous resolve hook (`module.registerHooks`, Node >= 22.15 and >= 23.5). A `require`
 * is left as resolved: the CommonJS cache is keyed by file name, and `generations.ts` clears the
 * local entries of it before each reload instead.
 */
export function resolveSync(
  specifier: string,
  context: ResolveHookContext,
  nextResolve: NextResolveSync,
): ResolveFnOutput {
  const result = nextResolve(specifier, context);
  if (context.conditions?.includes('require')) return result;
  const url = versioned(result.url, context.parentURL);
  return url === result.url ? result : { ...result, url };
}

/**
 * The asynchronous resolve hook (`module.register`, Node >= 20.6), on Node's hooks thread; a
 * `require` is left as resolved, as by {@link resolveSync}.
 */
export async function resolve(
  specifier: string,
  context: ResolveHookContext,
  nextResolve: NextResolve,
): Promise<ResolveFnOutput> {
  const result = await nextResolve(specifier, context);
  if (context.conditions?.includes('require')) return result;
  const url = versioned(result.url, context.parentURL);
  return url === result.url ? result : { ...result, url };
}
