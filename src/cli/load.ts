/**
 * Loads a user's server module for `baremcp serve` and `baremcp check`: its default export is a
 * server made with `createServer(...)` or a plain object `{ info?, tools, ... }`, so a module needs
 * no import of baremcp at all; one that imports it gets this CLI's copy when it has none of its
 * own (`own-copy.ts`).
 * @module
 */
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isObject } from '../protocol/messages.js';
import type { Implementation } from '../protocol/types.js';
import { Server, type ServerOptions } from '../server/server.js';
import { UsageError } from './args.js';
import { lendOwnCopy } from './own-copy.js';

/** What a server module exports by default: a server, or a plain `{ info?, tools, ... }` object. */
async function importDefault(modulePath: string): Promise<{ path: string; exported: unknown }> {
  const path = resolve(modulePath);
  if (!existsSync(path)) throw new UsageError(`cannot find module ${modulePath} (looked at ${path})`);
  lendOwnCopy(path);
  const module = (await import(pathToFileURL(path).href)) as { default?: unknown };
  return { path, exported: module.default };
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
  const { exported } = await importDefault(modulePath);
  if (isServer(exported)) return exported.tools.list();
  if (isObject(exported) && Array.isArray(exported.tools)) return exported.tools;
  throw new UsageError(
    `${modulePath}: the default export must be a server from createServer(...) or an object { info?, tools: [...] }`,
  );
}

/**
 * Imports `modulePath` (relative to the working directory) and returns the server it exports.
 * @throws {UsageError} when the file is missing or its default export is not a server or
 *   `{ tools }` object; a `ToolDefinitionError` when a tool is unusable.
 */
export async function loadServerModule(modulePath: string): Promise<Server> {
  const { path, exported } = await importDefault(modulePath);
  // A server (possibly built by another copy of baremcp: same shape, other class identity).
  if (isServer(exported)) return exported;
  if (!isObject(exported) || !Array.isArray(exported.tools)) {
    throw new UsageError(
      `${modulePath}: the default export must be a server from createServer(...) or an object { info?, tools: [...] }`,
    );
  }
  const info: Implementation = isObject(exported.info)
    ? (exported.info as unknown as Implementation)
    : { name: basename(path).replace(/\.[cm]?[jt]s$/, ''), version: '0.0.0' };
  return new Server({ ...(exported as unknown as ServerOptions), info });
}
