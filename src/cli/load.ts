/**
 * Loads a user's server module for `baremcp serve` and `baremcp check`: its default export is a
 * server made with `createServer(...)` or a plain object `{ info?, tools, ... }`, so a module needs
 * no import of baremcp at all; one that imports it gets this CLI's copy when it has none of its
 * own (`own-copy.ts`). A module that cannot be loaded gets a message a person can act on
 * (`load-errors.ts`).
 * @module
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isObject } from '../protocol/messages.js';
import type { Implementation } from '../protocol/types.js';
import { Server } from '../server/server.js';
import type { ServerOptions } from '../server/server-options.js';
import { UsageError } from './args.js';
import { explainLoadError, ModuleLoadError } from './load-errors.js';
import { lendOwnCopy, ownPackage } from './own-copy.js';

/** How a module is loaded. */
export interface LoadOptions {
  /**
   * A query appended to the module's URL (`?baremcp-dev=3`), so that Node evaluates it anew
   * (`baremcp dev`); it is taken out of the messages of a load error.
   */
  search?: string;
}

/**
 * What a server module exports by default: a server, or a plain `{ info?, tools, ... }` object.
 * @throws {UsageError} when the file does not exist; {@link ModuleLoadError} when Node cannot
 *   load it (syntax error, an ES module read as CommonJS, TypeScript on a Node that cannot run
 *   it, a missing import, an exception while it runs).
 */
async function importDefault(
  modulePath: string,
  { search = '' }: LoadOptions = {},
): Promise<{ path: string; exported: unknown; namespace: Record<string, unknown> }> {
  const path = resolve(modulePath);
  if (!existsSync(path)) {
    throw new UsageError(`cannot find module ${modulePath} (looked at ${path})`);
  }
  lendOwnCopy(path);
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(path).href + search)) as { default?: unknown };
  } catch (error) {
    if (search !== '') withoutSearch(error, search);
    const own = ownPackage();
    const message = await explainLoadError(error, modulePath, path, own && join(own.root, 'dist'));
    throw new ModuleLoadError(message, { cause: error });
  }
  return { path, exported: module.default, namespace: module as Record<string, unknown> };
}

/** Takes `search` out of the message and stack of `error` (and of its causes). */
function withoutSearch(error: unknown, search: string): void {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    e.message = e.message.replaceAll(search, '');
    if (typeof e.stack === 'string') e.stack = e.stack.replaceAll(search, '');
  }
}

/**
 * The usage error for a module whose default export is not a server; `namespace` is the module's
 * exports, searched for one that is a server, to suggest exporting it by default.
 */
function notAServer(modulePath: string, exported: unknown, namespace: Record<string, unknown>):
  UsageError {
  const what = 'a server from createServer(...) or an object { info?, tools: [...] }';
  if (exported === undefined && !('default' in namespace)) {
    const names = Object.keys(namespace);
    const server = names.find((name) => {
      const value = namespace[name];
      return isServer(value) || (isObject(value) && Array.isArray(value.tools));
    });
    const fix = server === undefined
      ? 'e.g. export default createServer({ ... })'
      : `here: export default ${server};`;
    return new UsageError(
      `${modulePath} has no default export (it exports ${names.join(', ') || 'nothing'}).\n` +
        `  baremcp serves a module's default export, ${what}; ${fix}`,
    );
  }
  const keys = (value: object): string => Object.keys(value).join(', ') || 'none';
  const found = exported === null ? 'null' : Array.isArray(exported) ? 'an array'
    : typeof exported === 'object' ? `an object without a tools array (keys: ${keys(exported)})`
      : `a ${typeof exported}`;
  return new UsageError(`${modulePath}: the default export must be ${what}; it is ${found}`);
}

function isServer(value: unknown): value is Server {
  return (
    value instanceof Server ||
    (isObject(value) && typeof value.handle === 'function' && typeof value.connect === 'function')
  );
}

/**
 * The tool definitions a module exports, as written, without building a server (so that
 * `baremcp check` can lint schemas that a server would refuse to serve).
 * @throws {UsageError} as {@link loadServerModule}.
 */
export async function loadToolDefinitions(modulePath: string): Promise<unknown[]> {
  const { exported, namespace } = await importDefault(modulePath);
  if (isServer(exported)) return exported.tools.list();
  if (isObject(exported) && Array.isArray(exported.tools)) return exported.tools;
  throw notAServer(modulePath, exported, namespace);
}

/**
 * Imports `modulePath` (relative to the working directory) and returns the server it exports;
 * `options.search` loads a new instance of it (see {@link LoadOptions}).
 * @throws {UsageError} when the file is missing or its default export is not a server or
 *   `{ tools }` object; {@link ModuleLoadError} when Node cannot load it or a tool is unusable
 *   (the `ToolDefinitionError` is its `cause`).
 */
export async function loadServerModule(modulePath: string, options: LoadOptions = {}):
  Promise<Server> {
  const { path, exported, namespace } = await importDefault(modulePath, options);
  // A server (possibly built by another copy of baremcp: same shape, other class identity).
  if (isServer(exported)) return exported;
  if (!isObject(exported) || !Array.isArray(exported.tools)) {
    throw notAServer(modulePath, exported, namespace);
  }
  const info: Implementation = isObject(exported.info)
    ? (exported.info as unknown as Implementation)
    : { name: basename(path).replace(/\.[cm]?[jt]s$/, ''), version: '0.0.0' };
  try {
    return new Server({ ...(exported as unknown as ServerOptions), info });
  } catch (error) {
    // A ToolDefinitionError names the tool and the fix; say which module it is in.
    throw new ModuleLoadError(`${modulePath}: ${(error as Error).message}`, { cause: error });
  }
}
