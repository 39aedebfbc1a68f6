/**
 * The versions (generations) of a module that `baremcp dev` loads in one process. Version N is
 * imported as `<module>?baremcp-dev=N`, and the resolve hook (`dev-hook.ts`) gives each of the
 * module's own files the same query, so each version evaluates the module and its files anew;
 * packages and baremcp itself are loaded once. A `require`d local file is taken out of the
 * CommonJS cache before each version.
 *
 * Node cannot unload an ES module: every version stays in memory for the life of the process
 * (its code, and whatever its top-level scope holds). So versions are counted, and at most
 * {@link MAX_VERSIONS} are loaded; `baremcp dev` then asks for a restart.
 *
 * Spec: Node.js, Modules: ECMAScript modules ("URLs": a query makes another module instance);
 * `node:module` ("Customization Hooks").
 * @module
 */
import Module, { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Server } from '../../server/server.js';
import { loadServerModule } from '../load.js';
import { ownPackage } from '../own-copy.js';
import { GENERATION_PARAM, initialize, resolveSync } from './dev-hook.js';
import type { NextResolveSync } from '../resolve-hook-types.js';
import type { ResolveHookContext } from 'node:module';

/** How many versions one process loads at most (each stays in memory: see the module comment). */
export const MAX_VERSIONS = 200;

/** `module.registerHooks` where Node has it (>= 22.15, >= 23.5); not in @types/node 20. */
type RegisterHooks = (hooks: {
  resolve(specifier: string, context: ResolveHookContext, next: NextResolveSync): unknown;
}) => unknown;

let hooked = false;
/** Loads in this process, of any module: the query, so that no two loads share a URL. */
let loads = 0;

/**
 * Installs the resolve hook once a process: in this thread with `module.registerHooks` where Node
 * has it, else on Node's hooks thread with `module.register`. baremcp's own built files are
 * shared by every version (never versioned).
 */
function installHook(): void {
  if (hooked) return;
  hooked = true;
  const own = ownPackage();
  const shared = own === undefined ? [] : [pathToFileURL(join(own.root, 'dist')).href + '/'];
  const { registerHooks } = Module as unknown as { registerHooks?: RegisterHooks };
  if (typeof registerHooks === 'function') {
    initialize({ shared });
    registerHooks({ resolve: resolveSync });
  } else {
    Module.register('./dev-hook.js', { parentURL: import.meta.url, data: { shared } });
  }
}

/** The versions of one module loaded in this process. */
export class Generations {
  readonly #modulePath: string;
  readonly #max: number;
  #loaded = 0;

  /**
   * @param modulePath the module, as the person named it (relative to the working directory).
   * @param max how many versions may be loaded (default {@link MAX_VERSIONS}).
   */
  constructor(modulePath: string, max: number = MAX_VERSIONS) {
    this.#modulePath = modulePath;
    this.#max = max;
  }

  /** How many versions may be loaded in all. */
  get max(): number {
    return this.#max;
  }

  /** How many versions were loaded (or tried), including ones that failed. */
  get loaded(): number {
    return this.#loaded;
  }

  /** True when another version may be loaded (fewer than {@link max} so far). */
  get canLoad(): boolean {
    return this.#loaded < this.#max;
  }

  /**
   * Loads the next version of the module and returns its server (never connected). `files` are
   * the module's own files: their CommonJS cache entries are dropped first.
   * @throws {UsageError} or {@link ModuleLoadError} as `loadServerModule` does; {@link RangeError}
   *   past {@link max}.
   */
  async next(files: Iterable<string>): Promise<Server> {
    if (!this.canLoad) throw new RangeError(`${this.#modulePath}: ${this.#max} versions loaded`);
    installHook();
    const cache = createRequire(import.meta.url).cache;
    for (const file of files) delete cache[file];
    this.#loaded++;
    loads++;
    return loadServerModule(this.#modulePath, { search: `?${GENERATION_PARAM}=${loads}` });
  }
}
