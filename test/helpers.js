// Shared test helpers: paths, the shared data folder, and small message builders.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const sharedDir = resolve(repoRoot, '..', 'shared');
/** The shipped bin: the bundled CLI (what `npx baremcp` runs). */
export const mainBin = resolve(repoRoot, 'dist', 'bundle', 'cli', 'main.js');

/** The path of a shared data folder, or undefined when absent (tests then skip with a message). */
export function shared(...parts) {
  const path = resolve(sharedDir, ...parts);
  return existsSync(path) ? path : undefined;
}

/** A valid initialize request. */
export function init(id = 1, protocolVersion = '2025-06-18') {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  };
}

export const INITD = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** Resolves after `ms` milliseconds. */
export const delay = (ms) => new Promise((r) => setTimeout(r, ms));
