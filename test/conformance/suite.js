// The official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) run
// against one server URL for the 2025-11-25 and 2026-07-28 requirement sets: used by run.js (the
// fixture on Node) and test/runtimes/run.js (the fixture under Deno, Bun and workerd). The suite
// needs Node >= 22: this Node, or the node22 package from test/runtimes/install.js.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot } from '../helpers.js';
import { install } from '../runtimes/install.js';

const SUITE = resolve(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance');
const REVISIONS = ['2025-11-25', '2026-07-28'];
/** Scenarios the suite does not score yet, required here. */
const ALSO_REQUIRED = {
  // The authored "$schema" (and every other keyword) comes back as written (SEP-1613, SEP-2106).
  '2025-11-25': ['json-schema-2020-12'],
  '2026-07-28': [
    'json-schema-2020-12',
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

/** The suite's version. */
export const SUITE_VERSION = JSON.parse(readFileSync(join(SUITE, 'package.json'), 'utf8')).version;

/** A Node >= 22 executable: this one, or the cached npm package (installed on first use). */
export async function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  return (await install('node22')).path;
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

/** Runs the suite for one revision; resolves to { code, results: Map<scenario, checks[]>, log }. */
function runRevision(node, url, revision, outDir) {
  return new Promise((resolveRun) => {
    const child = spawn(
      node,
      [join(SUITE, 'dist', 'index.js'), 'server', '--url', url, '--requirements', revision, '-o', outDir],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
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
        if (match && existsSync(file)) results.set(match[1], JSON.parse(readFileSync(file, 'utf8')));
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

/** A scenario's status word: PASS, FAIL or SKIP (a scenario that tested nothing never passes). */
function verdict(checks, bad) {
  if (bad.length > 0) return 'FAIL';
  return skippedOnly(checks) ? 'SKIP' : 'PASS';
}

/**
 * Runs both requirement sets against `url` with the Node at `node`. Resolves to
 * { passed, failed, skipped, report }: counts of required scenarios, and the text to print (one
 * line per scenario, failing checks under it, not-scored scenarios for information).
 */
export async function runConformance(node, url) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let report = '';
  for (const revision of REVISIONS) {
    const { scored, notScored } = requirements(revision);
    const required = [...scored, ...(ALSO_REQUIRED[revision] ?? [])];
    const outDir = mkdtempSync(join(tmpdir(), `baremcp-conformance-${revision}-`));
    const t0 = Date.now();
    const { code, results, log } = await runRevision(node, url, revision, outDir);
    report += `\n--requirements ${revision}: ${required.length} required scenarios (${((Date.now() - t0) / 1000).toFixed(1)} s, suite exit ${code})\n`;
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
      report += `  ${word} ${scenario}${notes === '' ? '' : ` (${notes})`}\n`;
      for (const check of bad) report += `         [${check.id}] ${check.errorMessage ?? check.description ?? ''}\n`;
    }
    const informational = notScored.filter((s) => !required.includes(s) && results.has(s));
    if (informational.length > 0) {
      report += '  not scored, for information:\n';
      for (const scenario of informational) {
        const bad = failures(results.get(scenario));
        report += `    ${verdict(results.get(scenario), bad).toLowerCase()} ${scenario}${bad.length === 0 ? '' : ` (${bad.map((c) => c.id).join(', ')})`}\n`;
      }
    }
    if (results.size === 0) report += log.slice(-4000);
    rmSync(outDir, { recursive: true, force: true });
  }
  return { passed, failed, skipped, report };
}
