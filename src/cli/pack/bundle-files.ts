/**
 * The files of an MCP Bundle made by `baremcp pack`: the module's own files under `server/`
 * (their paths relative to the folder that holds them all), and each placed package's files
 * under its place in `node_modules` (a package's own `node_modules` and `.git` left out; of
 * baremcp, only what runs: package.json, the license and `dist/bundle` without source maps).
 * @module
 */
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { ZipEntry } from './zip.js';

/** The deepest folder that holds every one of `files` (absolute paths). */
export function commonFolder(files: readonly string[]): string {
  let common = dirname(files[0] as string);
  for (const file of files) {
    while (relative(common, file).startsWith('..')) common = dirname(common);
  }
  return common;
}

/** `path` relative to `base`, with `/` separators. */
export const bundlePath = (base: string, path: string): string =>
  relative(base, path).split(sep).join('/');

/** The file at `path` as a ZIP entry at `at`, keeping whether it is executable. */
export function fileEntry(path: string, at: string): ZipEntry {
  const mode = statSync(path).mode & 0o111 ? 0o755 : 0o644;
  return { path: at, data: readFileSync(path), mode };
}

/**
 * Every file below `dir` (symbolic links to files followed, to folders skipped), as paths
 * relative to `dir` with `/` separators, sorted; `keep` decides for each (folders end in `/`).
 */
export function filesBelow(dir: string, keep: (relativePath: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const rel = bundlePath(dir, path);
      const link = lstatSync(path);
      if (link.isDirectory()) {
        if (keep(rel + '/')) walk(path);
      } else if (link.isFile() || (link.isSymbolicLink() && safeIsFile(path))) {
        if (keep(rel)) found.push(rel);
      }
    }
  };
  walk(dir);
  return found;
}

function safeIsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Which files of a package go into the bundle. */
export function packageFilter(name: string): (relativePath: string) => boolean {
  if (name === 'baremcp') {
    return (rel) => rel === 'package.json' || /^licen[cs]e(\.\w+)?$/i.test(rel) ||
      rel === 'dist/' || rel === 'dist/bundle/' ||
      (rel.startsWith('dist/bundle/') && !rel.endsWith('.map'));
  }
  return (rel) => !/(^|\/)(node_modules|\.git)\/$/.test(rel);
}

/** True for a file of native code (a compiled addon) or a native build description. */
export const isNative = (rel: string): boolean => rel.endsWith('.node') || /(^|\/)binding\.gyp$/.test(rel);
