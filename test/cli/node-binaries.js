// Node executables of other major versions, for tests that must pass on Node 20, 22 and 24: the
// running Node for its own major, otherwise the `node-linux-<arch>` npm package installed once
// into .cache/node<major> (the layout test/conformance/run.js uses for its Node 22).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from '../helpers.js';

/** The version installed for each major (22 is the conformance suite's too). */
const PINNED = { 20: '20.20.2', 22: '22.23.5', 24: '24.22.3' };

/** The majors the CLI is tested on. */
export const MAJORS = [20, 22, 24];

/** npm as [command, leading args]: the npm running this suite when there is one, else PATH's. */
function npm() {
  const cli = process.env.npm_execpath;
  return cli !== undefined && /\.c?js$/.test(cli) ? [process.execPath, [cli]] : ['npm', []];
}

/**
 * A Node executable of `major`: { bin } or, where no npm package exists for this platform,
 * { skip: reason }. Installs the package on first use (once; from the npm registry).
 * @throws {Error} when the install fails.
 */
export function nodeBinary(major) {
  if (Number(process.versions.node.split('.')[0]) === major) return { bin: process.execPath };
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    return { skip: `no Node ${major} npm package for ${process.platform}-${process.arch}` };
  }
  const name = `node-linux-${process.arch}`;
  const version = PINNED[major];
  const prefix = resolve(repoRoot, '.cache', `node${major}`);
  const bin = join(prefix, 'node_modules', name, 'bin', 'node');
  if (!existsSync(bin)) {
    const [cmd, lead] = npm();
    const { NODE_TEST_CONTEXT: _nested, ...env } = process.env;
    const installed = spawnSync(
      cmd,
      [...lead, 'install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `${name}@${version}`],
      { encoding: 'utf8', env, timeout: 300_000 },
    );
    if (installed.status !== 0 || !existsSync(bin)) {
      throw new Error(`could not install ${name}@${version}: ${installed.stderr ?? installed.error}`);
    }
  }
  return { bin };
}
