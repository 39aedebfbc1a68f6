/**
 * `baremcp pack <module> [--out FILE]`: builds an MCP Bundle (`.mcpb`, the one-click install
 * format of Claude Desktop) of a server module: `manifest.json` (manifest 0.4, from the server's
 * info and tools and the module's package.json), the module and its own files under `server/`,
 * and in `node_modules` baremcp and every package the module imports, with their dependencies.
 * The bundle starts the server as `baremcp serve` does. A package that is not installed is
 * refused by name; a package with native code limits the bundle to this platform.
 *
 * Spec: MCPB manifest 0.4 (anthropics/mcpb, MANIFEST.md: "Node.js: all dependencies must be
 * bundled in node_modules"; `server.mcp_config` with `${__dirname}`).
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { optionString, UsageError, type ParsedArgs } from '../args.js';
import { loadServerModule } from '../load.js';
import { moduleFiles } from '../module-files.js';
import { installedFor, ownPackage } from '../own-copy.js';
import { bundlePath, commonFolder, fileEntry, filesBelow, isNative, packageFilter } from '../pack/bundle-files.js';
import { buildManifest, type PackageJson } from '../pack/manifest.js';
import { packageOf, placePackages } from '../pack/packages.js';
import { zip, ZipError, type ZipEntry } from '../pack/zip.js';

/** How many of its own files a packed module may have. */
const FILE_LIMIT = 10_000;

/** The nearest package.json at or above `dir` (not inside node_modules), parsed, with its path. */
function nearestPackageJson(dir: string): { path: string; json: PackageJson } | undefined {
  for (let at = dir; basename(at) !== 'node_modules'; at = dirname(at)) {
    const path = join(at, 'package.json');
    if (existsSync(path)) {
      try {
        return { path, json: JSON.parse(readFileSync(path, 'utf8')) as PackageJson };
      } catch {
        throw new UsageError(`pack: ${path} is not valid JSON`);
      }
    }
    if (dirname(at) === at) return undefined;
  }
  return undefined;
}

/** `name-1.0.0.mcpb`, with what a file name cannot hold taken out. */
function defaultOut(name: string, version: string): string {
  const safe = `${name}-${version}`.toLowerCase().replace(/\s+/g, '-').replace(/[^a-z0-9._-]/g, '');
  return `${safe || 'server'}.mcpb`;
}

/** `1.2 kB` */
const size = (bytes: number): string =>
  bytes < 1000 ? `${bytes} B` : bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * Packs the module named by `args` and prints what went in. Returns the exit code (0).
 * @throws {UsageError} for a missing module, a TypeScript module, packages that are not
 *   installed, manifest fields nobody gave, or an archive too large for ZIP without ZIP64;
 *   {@link ModuleLoadError} when the module does not load.
 */
export async function runPack(args: ParsedArgs): Promise<number> {
  const modulePath = args.positionals[0];
  if (modulePath === undefined) throw new UsageError('pack: name the module to pack, e.g. baremcp pack ./server.js');
  const path = resolve(modulePath);
  if (existsSync(path) && /\.[cm]?ts$/.test(path)) {
    throw new UsageError(`pack: ${modulePath} is TypeScript; compile it (for example with npx tsc) ` +
      'and pack the .js file: the Node.js that runs a bundle may not run .ts files');
  }
  const server = await loadServerModule(modulePath);
  const own = [...moduleFiles(path, FILE_LIMIT)];
  if (own.length >= FILE_LIMIT) throw new UsageError(`pack: ${modulePath} imports ${FILE_LIMIT} files or more`);
  const base = commonFolder(own.map((f) => f.path));
  const pkg = nearestPackageJson(dirname(path));

  const baremcp = installedFor(path) ?? ownPackage();
  if (baremcp === undefined) throw new UsageError('pack: cannot find baremcp\'s own files to put in the bundle');
  const roots = own.flatMap((file) => file.specifiers.map((spec) => ({
    name: packageOf(spec), from: dirname(file.path), file: file.path,
  }))).filter((r): r is { name: string; from: string; file: string } =>
    r.name !== undefined && r.name !== 'baremcp' && r.name !== pkg?.json.name);
  const plan = placePackages(roots, [{ name: 'baremcp', dir: baremcp.root }]);
  if (plan.missing.length > 0) {
    const names = [...new Set(plan.missing.map((m) => m.name))];
    const lines = plan.missing.map((m) => `  ${m.name} (imported by ${m.from.startsWith('/') ? relative(process.cwd(), m.from) || m.from : m.from})`);
    throw new UsageError(`pack: ${modulePath} needs packages that are not installed, so they cannot go in the bundle:\n${lines.join('\n')}\n` +
      `  Install them (npm install ${names.join(' ')}) and pack again.`);
  }

  const entries: ZipEntry[] = own.map((file) => fileEntry(file.path, `server/${bundlePath(base, file.path)}`));
  const native: string[] = [];
  for (const placed of plan.packages) {
    for (const rel of filesBelow(placed.dir, packageFilter(placed.name))) {
      if (isNative(rel) && !native.includes(placed.name)) native.push(placed.name);
      entries.push(fileEntry(join(placed.dir, rel), `${placed.at}/${rel}`));
    }
  }
  const baremcpJson = JSON.parse(readFileSync(join(baremcp.root, 'package.json'), 'utf8')) as PackageJson & { bin?: unknown };
  const bin = typeof baremcpJson.bin === 'string' ? baremcpJson.bin : (baremcpJson.bin as { baremcp?: string } | undefined)?.baremcp;
  const entry = `server/${bundlePath(base, path)}`;
  const built = buildManifest(server, pkg?.json, {
    entry,
    cli: `node_modules/baremcp/${String(bin ?? 'dist/bundle/cli/main.js').replace(/^\.\//, '')}`,
    node: typeof baremcpJson.engines?.node === 'string' ? baremcpJson.engines.node : undefined,
    platform: native.length > 0 ? process.platform : undefined,
  });
  if ('missing' in built) {
    const where = pkg === undefined ? 'no package.json above it' : pkg.path;
    throw new UsageError(`pack: the bundle's manifest needs fields that ${modulePath} and its package.json (${where}) do not give:\n` +
      built.missing.map((m) => `  ${m.field}: ${m.fix}`).join('\n'));
  }
  const { manifest } = built;
  const rootPackage = {
    name: manifest.name,
    version: manifest.version,
    private: true,
    ...(typeof pkg?.json.type === 'string' ? { type: pkg.json.type } : {}),
  };
  entries.unshift(
    { path: 'manifest.json', data: Buffer.from(JSON.stringify(manifest, null, 2) + '\n') },
    { path: 'package.json', data: Buffer.from(JSON.stringify(rootPackage, null, 2) + '\n') },
  );
  let archive: Buffer;
  try {
    archive = zip(entries);
  } catch (error) {
    if (error instanceof ZipError) throw new UsageError(`pack: ${error.message}`);
    throw error;
  }
  const out = optionString(args, 'out') ?? defaultOut(server.info.name, server.info.version);
  writeFileSync(out, archive);
  const packages = plan.packages.filter((p) => p.name !== 'baremcp').map((p) => `${p.name} ${p.version}`);
  const report = [
    `Packed ${server.info.name} ${server.info.version} into ${out} (${size(archive.length)}, ${entries.length} files)`,
    `  server: ${own.map((f) => bundlePath(base, f.path)).join(', ')} (entry ${entry})`,
    `  packages: baremcp ${plan.packages.find((p) => p.name === 'baremcp')?.version ?? ''}` +
      (packages.length > 0 ? `, ${packages.join(', ')}` : ''),
    `  tools: ${server.tools.list().map((t) => t.name).join(', ') || 'none'}`,
  ];
  if (native.length > 0) {
    report.push(`  native code in ${native.join(', ')}: the bundle runs on ${process.platform}-${process.arch} only`);
  }
  report.push('Open the file in Claude Desktop to install it.');
  process.stdout.write(report.join('\n') + '\n');
  return 0;
}
