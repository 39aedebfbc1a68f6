/**
 * The packages a bundle of `baremcp pack` carries in its `node_modules`: those the module's own
 * files import by name, and their `dependencies` (and installed `optionalDependencies`),
 * transitively, as Node would resolve them from where they are installed. Each goes to the top
 * level of the bundle's `node_modules` unless another version holds that place, in which case it
 * is nested under the package that needs it, as npm lays out a tree, so that Node's resolution in
 * the bundle finds the same version it found on this machine. Symbolic links (pnpm, workspaces)
 * are followed to the real folder.
 *
 * Spec: Node.js, Modules: Packages ("Determining module system"); CommonJS modules ("Loading
 * from node_modules folders"); npm, package.json (`dependencies`, `optionalDependencies`).
 * @module
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, posix } from 'node:path';

/** A package placed in the bundle. */
export interface PlacedPackage {
  name: string;
  version: string;
  /** Its real folder on this machine. */
  dir: string;
  /** Its folder in the bundle: `node_modules/<name>`, or nested under a dependent. */
  at: string;
}

/** A package that was named but is not installed where the name was used. */
export interface MissingPackage {
  name: string;
  /** The file (a module file) or package that named it. */
  from: string;
}

/** What {@link placePackages} found. */
export interface PackagePlan {
  packages: PlacedPackage[];
  missing: MissingPackage[];
}

/**
 * The package a bare specifier names (`zod/v4` → `zod`, `@scope/x/y` → `@scope/x`), or
 * undefined for a relative or absolute path, a URL, a `#` import, or a Node built-in.
 */
export function packageOf(specifier: string): string | undefined {
  if (/^(?:\.{1,2}\/|\/|#|[a-z][a-z0-9+.-]*:)/i.test(specifier) || isBuiltin(specifier)) {
    return undefined;
  }
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The real folder of package `name` as Node finds it from folder `from`, or undefined. */
export function findPackage(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/** A package.json's fields that placing needs. */
interface Manifest {
  name?: unknown;
  version?: unknown;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/**
 * Places `roots` (each a package name and the folder its importer is in) and everything they
 * depend on. `pinned` packages go first at the top level, from the folder given (baremcp, which
 * the bundle starts from, whether or not the module imports it).
 */
export function placePackages(roots: readonly { name: string; from: string; file: string }[],
  pinned: readonly { name: string; dir: string }[] = []): PackagePlan {
  const placed = new Map<string, PlacedPackage>();
  const missing: MissingPackage[] = [];
  const queue: { name: string; dir: string; parentAt: string }[] = [];
  const place = (name: string, dir: string, parentAt: string): void => {
    // What Node would find from the dependent's place in the bundle, walking up.
    for (let at = parentAt; ; at = at.replace(/\/?node_modules\/(?:@[^/]+\/)?[^/]+$/, '')) {
      const found = placed.get(posix.join(at, 'node_modules', name));
      if (found !== undefined) {
        if (found.dir === dir) return;
        break;
      }
      if (at === '') break;
    }
    const top = posix.join('node_modules', name);
    const at = placed.has(top) ? posix.join(parentAt, 'node_modules', name) : top;
    if (placed.has(at)) return; // two roots of one name from different folders: the first wins
    const manifest = readManifest(dir);
    placed.set(at, { name, version: String(manifest.version ?? ''), dir, at });
    queue.push({ name, dir, parentAt: at });
  };
  for (const { name, dir } of pinned) place(name, realpathSync(dir), '');
  for (const { name, from, file } of roots) {
    const dir = findPackage(name, from);
    if (dir === undefined) missing.push({ name, from: file });
    else place(name, dir, '');
  }
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const manifest = readManifest(item.dir);
    const optional = manifest.optionalDependencies ?? {};
    for (const name of Object.keys({ ...(manifest.dependencies ?? {}), ...optional })) {
      const dir = findPackage(name, item.dir);
      if (dir !== undefined) place(name, dir, item.parentAt);
      else if (!(name in optional)) missing.push({ name, from: `${item.name} ${readManifest(item.dir).version}` });
    }
  }
  return { packages: [...placed.values()], missing };
}
