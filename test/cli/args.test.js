// Tests for src/cli/args.ts and the option table of src/cli/main.ts: an unknown or misspelt
// option is a usage error (exit 2) that lists the options the command takes, never ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { checkOptions, parseArgs, UsageError } from '../../dist/cli/args.js';
import { mainBin } from '../helpers.js';

/** Runs the bin with `args` and closed stdin; returns { status, stdout, stderr }. */
const bin = (...args) => spawnSync(process.execPath, [mainBin, ...args], {
  encoding: 'utf8', input: '', timeout: 30_000,
});

test('checkOptions refuses an unknown option with the options the command takes', () => {
  const known = { values: ['port', 'host'], flags: ['http'] };
  const args = parseArgs(['--http', '--prot', '3000'], ['port', 'host']);
  assert.throws(() => checkOptions(args, 'serve', known), (error) => error instanceof UsageError &&
    error.message === 'serve: unknown option "--prot" (choose from --port, --host, --http, --help, --version)');
  checkOptions(parseArgs(['--http', '--port', '1', '--host=h', '--help'], ['port', 'host']), 'serve', known);
});

test('checkOptions refuses a value given to a bare flag', () => {
  const args = parseArgs(['--json=yes'], []);
  assert.throws(() => checkOptions(args, 'check', { values: [], flags: ['json'] }), {
    name: 'UsageError', message: 'check: --json takes no value (got --json=yes)',
  });
});

test('parseArgs refuses short options other than -h', () => {
  assert.deepEqual([...parseArgs(['-h'], []).options], [['help', true]]);
  assert.throws(() => parseArgs(['-v'], []), {
    name: 'UsageError', message: 'unknown option "-v" (choose from -h); long options start with --',
  });
  assert.deepEqual(parseArgs(['-', '--', '-v'], []).positionals, ['-']);
});

test('every command refuses an option it does not take: exit 2, the known options on stderr, nothing on stdout', () => {
  const cases = [
    [['--prot'], 'baremcp: unknown option "--prot" (choose from --root, --port, --host, --state-secret, --allowed-host, --health, --max-in-flight, --behind-proxy, --http, --help, --version)'],
    [['serve', './server.js', '--root', '.'], 'baremcp: serve: unknown option "--root" (choose from --port, --host, --auth-issuer, --auth-audience, --public-url, --state-secret, --allowed-host, --health, --max-in-flight, --behind-proxy, --http, --isolate, --help, --version)'],
    [['call', 'echo', '--jsn'], 'baremcp: call: unknown option "--jsn" (choose from --server, --root, --read, --prompt, --json, --verbose, --help, --version)'],
    [['check', '--profiles', 'openai'], 'baremcp: check: unknown option "--profiles" (choose from --server, --root, --profile, --json, --verbose, --help, --version)'],
    [['init', 'dir', '--force'], 'baremcp: init: unknown option "--force" (choose from --help, --version)'],
    [['check', '--json=false'], 'baremcp: check: --json takes no value (got --json=false)'],
    [['call', '-v', 'echo'], 'baremcp: unknown option "-v" (choose from -h); long options start with --'],
  ];
  for (const [args, message] of cases) {
    const r = bin(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr, `${message}\n`, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
  }
});
