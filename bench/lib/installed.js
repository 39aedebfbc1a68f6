// Installed footprint of a peer: the packages under node_modules that installing it pulls in
// (itself included), resolved from package-lock.json the way Node resolves them, and their bytes.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where `name` resolves from the package at lock location `from` (e.g. node_modules/a). */
function resolveFrom(packages, from, name) {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/** Lock locations of `name` and everything it depends on (dependencies, optional, required peers). */
export function closure(root, name) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const packages = lock.packages;
  const start = resolveFrom(packages, '', name);
  if (start === undefined) return undefined;
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.pop();
    const entry = packages[at];
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((peer) => optionalPeers[peer]?.optional !== true),
    ];
    for (const dep of names) {
      const location = resolveFrom(packages, at, dep);
      if (location !== undefined && !seen.has(location)) {
        seen.add(location);
        queue.push(location);
      }
    }
  }
  return [...seen];
}

/** Bytes of the files under `dir`, not counting nested node_modules (counted as their own packages). */
function bytesOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesOf(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** `{ packages, bytes }` installed with `name`, or undefined when it is not installed. */
export function footprint(root, name) {
  const locations = closure(root, name);
  if (locations === undefined) return undefined;
  let bytes = 0;
  for (const location of locations) {
    try {
      bytes += bytesOf(join(root, location));
    } catch {
      // An optional package listed in the lock but absent on disk.
    }
  }
  return { packages: locations.length, bytes };
}

/** `{ size, unpackedSize, entryCount }` of this package's tarball (`npm pack --dry-run --json`). */
export function tarball(root) {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [info] = JSON.parse(out);
  return { size: info.size, unpackedSize: info.unpackedSize, entryCount: info.entryCount };
}
