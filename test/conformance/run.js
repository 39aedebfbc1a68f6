// `npm run conformance`: runs the official MCP conformance suite (@modelcontextprotocol/conformance,
// a devDependency) against the fixture server for the 2025-11-25 and 2026-07-28 requirement sets.
// The suite needs Node >= 22: when this Node is older, a Node 22 binary is installed from the npm
// registry as a package into .cache/node22 (once). The fixture runs in this process on 127.0.0.1
// and a free port. Prints one line per scenario and a final "N passed, M failed, K skipped"; exits 1
// on any failure of a required scenario, of the two SEP-2243 header scenarios or of the tasks
// extension's scenarios (not scored by the suite, required here). A scenario whose every check was
// SKIPPED (the suite's stub of tasks-status-notifications) is reported as skipped, never as
// passed. Other not-scored scenarios are reported for information only.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot } from '../helpers.js';
import { serveHttp } from '../../dist/transport/http.js';
import { createConformanceServer } from './server.js';

const NODE_PACKAGE_VERSION = '22.23.5';
const SUITE = resolve(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance');
const REVISIONS = ['2025-11-25', '2026-07-28'];
const ALSO_REQUIRED = {
  '2026-07-28': [
    'http-header-validation',
    'http-custom-header-server-validation',
    // The tasks extension (SEP-2663): not scored by the suite (an extension), required here.
    'tasks-lifecycle',
    'tasks-capability-negotiation',
    'tasks-wire-fields',
    'tasks-request-state-removal',
    'tasks-mrtr-input',
    'tasks-request-headers',
    'tasks-dispatch-and-envelope',
    'tasks-required-task-error',
    'tasks-mrtr-composition',
    // A stub in this suite version (one SKIPPED check); reported as skipped until it tests something.
    'tasks-status-notifications',
  ],
};
const SUITE_TIMEOUT_MS = 6 * 60_000;

/** A Node >= 22 executable: this one, or the cached npm package (installed on first use). */
function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    throw new Error(
      `the conformance suite needs Node >= 22; install it (no npm package for ${process.platform}-${process.arch})`,
    );
  }
  const name = `node-linux-${process.arch}`;
  const prefix = resolve(repoRoot, '.cache', 'node22');
  const bin = join(prefix, 'node_modules', name, 'bin', 'node');
  if (!existsSync(bin)) {
    process.stdout.write(`installing ${name}@${NODE_PACKAGE_VERSION} into .cache/node22 ...\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const installed = spawnSync(
      npm,
      [
        'install',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--prefix',
        prefix,
        `${name}@${NODE_PACKAGE_VERSION}`,
      ],
      {
        stdio: 'inherit',
      },
    );
    if (installed.status !== 0 || !existsSync(bin))
      throw new Error(`could not install ${name}@${NODE_PACKAGE_VERSION}`);
  }
  return bin;
}

/** The server scenarios of a requirement set: { scored, notScored } (a small reader for the suite's YAML). */
function requirements(revision) {
  const lines = readFileSync(join(SUITE, 'requirements', `${revision}.yaml`), 'utf8').split('\n');
  const scored = [];
  const notScored = [];
  let section = '';
  let entry;
  for (const line of lines) {
    if (/^\S/.test(line)) section = line.replace(/:.*$/, '');
    else if (section === 'server' && /^ {2}- /.test(line)) scored.push(line.slice(4).trim());
    else if (section === 'not_scored') {
      const start = /^ {2}- scenario: (\S+)/.exec(line);
      if (start) notScored.push((entry = { scenario: start[1], leg: '' }));
      const leg = /^ {4}leg: (\S+)/.exec(line);
      if (leg && entry) entry.leg = leg[1];
    }
  }
  return { scored, notScored: notScored.filter((e) => e.leg === 'server').map((e) => e.scenario) };
}

/** Runs the suite for one revision; resolves to { code, results: Map<scenario, checks[]> }. */
function runSuite(node, url, revision, outDir) {
  return new Promise((resolveRun) => {
    const child = spawn(
      node,
      [
        join(SUITE, 'dist', 'index.js'),
        'server',
        '--url',
        url,
        '--requirements',
        revision,
        '-o',
        outDir,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      },
    );
    let log = '';
    child.stdout.on('data', (chunk) => (log += chunk));
    child.stderr.on('data', (chunk) => (log += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const results = new Map();
      for (const dir of readdirSync(outDir)) {
        const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(dir);
        const file = join(outDir, dir, 'checks.json');
        if (match && existsSync(file))
          results.set(match[1], JSON.parse(readFileSync(file, 'utf8')));
      }
      resolveRun({ code, results, log });
    });
  });
}

function failures(checks) {
  return (checks ?? []).filter((c) => c.status === 'FAILURE');
}

/** True when a scenario tested nothing: every check of its own was SKIPPED (schema checks aside). */
function skippedOnly(checks) {
  const own = (checks ?? []).filter((c) => !c.id.startsWith('wire-schema-'));
  return own.length > 0 && own.every((c) => c.status === 'SKIPPED');
}

/** A check's status word for a scenario: PASS, FAIL or SKIP. */
function verdict(checks, bad) {
  if (bad.length > 0) return 'FAIL';
  return skippedOnly(checks) ? 'SKIP' : 'PASS';
}

const node = node22();
const server = createConformanceServer({ stateSecret: 'conformance-fixture-secret' });
const serving = await serveHttp(server, { port: 0, host: '127.0.0.1' });
process.stdout.write(
  `fixture server at ${serving.url}; suite ${JSON.parse(readFileSync(join(SUITE, 'package.json'), 'utf8')).version}; node ${spawnSync(node, ['--version']).stdout.toString().trim()}\n`,
);

let passed = 0;
let failed = 0;
let skipped = 0;
const started = Date.now();
for (const revision of REVISIONS) {
  const { scored, notScored } = requirements(revision);
  const required = [...scored, ...(ALSO_REQUIRED[revision] ?? [])];
  const outDir = mkdtempSync(join(tmpdir(), `baremcp-conformance-${revision}-`));
  const t0 = Date.now();
  const { code, results, log } = await runSuite(node, serving.url, revision, outDir);
  process.stdout.write(
    `\n--requirements ${revision}: ${required.length} required scenarios (${((Date.now() - t0) / 1000).toFixed(1)} s, suite exit ${code})\n`,
  );
  for (const scenario of required) {
    const checks = results.get(scenario);
    const bad =
      checks === undefined
        ? [{ id: scenario, errorMessage: 'no result (the scenario did not run)' }]
        : failures(checks);
    const word = verdict(checks, bad);
    if (word === 'PASS') passed++;
    else if (word === 'FAIL') failed++;
    else skipped++;
    const warned = (checks ?? []).filter((c) => c.status === 'WARNING').map((c) => c.id);
    const skips = word === 'SKIP' ? checks.map((c) => c.errorMessage ?? c.id) : [];
    const notes = [
      scored.includes(scenario) ? '' : 'not scored by the suite; required here',
      warned.length > 0 ? `warnings: ${[...new Set(warned)].join(', ')}` : '',
      skips.length > 0 ? `every check skipped: ${skips.join('; ').slice(0, 160)}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    process.stdout.write(`  ${word} ${scenario}${notes === '' ? '' : ` (${notes})`}\n`);
    for (const check of bad)
      process.stdout.write(
        `         [${check.id}] ${check.errorMessage ?? check.description ?? ''}\n`,
      );
  }
  const informational = notScored.filter((s) => !required.includes(s) && results.has(s));
  if (informational.length > 0) {
    process.stdout.write('  not scored, for information:\n');
    for (const scenario of informational) {
      const bad = failures(results.get(scenario));
      const word = verdict(results.get(scenario), bad).toLowerCase();
      process.stdout.write(
        `    ${word} ${scenario}${bad.length === 0 ? '' : ` (${bad.map((c) => c.id).join(', ')})`}\n`,
      );
    }
  }
  if (results.size === 0) process.stdout.write(log.slice(-4000));
  rmSync(outDir, { recursive: true, force: true });
}

await serving.close();
process.stdout.write(
  `\n${passed} passed, ${failed} failed, ${skipped} skipped (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
);
process.exit(failed === 0 ? 0 : 1);
