// The runtimes CI tests on, as npm packages that ship their binaries (pinned), installed once into
// .cache/<name> with `npm install --ignore-scripts`: the platform packages carry the binary
// itself, so no install script runs and nothing is fetched but the package. (The `bun`, `deno`
// and `workerd` wrapper packages would run a postinstall that picks the same platform package,
// and, failing that, downloads it from the registry by a URL of their own.)
//
//   node test/runtimes/install.js [name...]   installs the named runtimes (default: all), in
//                                             parallel, and prints "name version path" per line.
// Linux x64 and arm64 only (the machines CI runs on); elsewhere it says so and fails.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../helpers.js';

const ARCH = { x64: { node: 'x64', bun: 'x64', deno: 'x64', workerd: '64' }, arm64: { node: 'arm64', bun: 'aarch64', deno: 'arm64', workerd: 'arm64' } };

/** name → { package, version, bin (path inside the package) }, for this machine's architecture. */
function table(arch) {
  return {
    node20: { package: `node-linux-${arch.node}`, version: '20.20.2', bin: 'bin/node' },
    node22: { package: `node-linux-${arch.node}`, version: '22.23.5', bin: 'bin/node' },
    node24: { package: `node-linux-${arch.node}`, version: '24.22.3', bin: 'bin/node' },
    deno: { package: `@deno/linux-${arch.deno}-glibc`, version: '2.9.6', bin: 'deno' },
    bun: { package: `@oven/bun-linux-${arch.bun}`, version: '1.4.5', bin: 'bin/bun' },
    workerd: { package: `@cloudflare/workerd-linux-${arch.workerd}`, version: '1.20261117.1', bin: 'bin/workerd' },
  };
}

/** The runtimes this module knows, by name. */
export const RUNTIMES = ['node20', 'node22', 'node24', 'deno', 'bun', 'workerd'];

function spec(name) {
  const arch = ARCH[process.arch];
  if (process.platform !== 'linux' || arch === undefined) {
    throw new Error(`no runtime packages for ${process.platform}-${process.arch} here (Linux x64 and arm64 only)`);
  }
  const entry = table(arch)[name];
  if (entry === undefined) throw new Error(`unknown runtime ${name} (choose from ${RUNTIMES.join(', ')})`);
  const prefix = resolve(repoRoot, '.cache', name);
  return { ...entry, prefix, path: join(prefix, 'node_modules', ...entry.package.split('/'), entry.bin) };
}

/** The installed version of a cached package, or undefined. */
function installedVersion(s) {
  try {
    const pkg = join(s.prefix, 'node_modules', ...s.package.split('/'), 'package.json');
    return JSON.parse(readFileSync(pkg, 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * The path of runtime `name`'s binary, installing its package into .cache/<name> first when it is
 * missing or of another version. Resolves to { name, version, path }.
 * @throws when npm fails (its output is in the message).
 */
export async function install(name) {
  const s = spec(name);
  if (existsSync(s.path) && installedVersion(s) === s.version) return { name, version: s.version, path: s.path };
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', s.prefix, `${s.package}@${s.version}`];
  const output = await new Promise((resolveRun, reject) => {
    const child = spawn(npm, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c) => (text += c));
    child.stderr.on('data', (c) => (text += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolveRun(text) : reject(new Error(`npm ${args.join(' ')} failed (${code}):\n${text}`))));
  });
  if (!existsSync(s.path)) throw new Error(`${s.package}@${s.version} installed no ${s.bin}:\n${output}`);
  return { name, version: s.version, path: s.path };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.length > 2 ? process.argv.slice(2) : RUNTIMES;
  const results = await Promise.allSettled(names.map((name) => install(name)));
  let failed = 0;
  for (const [i, result] of results.entries()) {
    if (result.status === 'fulfilled') process.stdout.write(`${result.value.name} ${result.value.version} ${result.value.path}\n`);
    else {
      failed++;
      process.stderr.write(`${names[i]}: ${result.reason.message}\n`);
    }
  }
  process.exit(failed === 0 ? 0 : 1);
}
