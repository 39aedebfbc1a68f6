// `baremcp check` as a process: a module loaded in-process, any stdio server spawned after `--`,
// the built-in example, and three third-party servers installed as devDependencies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mainBin, repoRoot } from '../helpers.js';

const fixture = (name) => resolve(repoRoot, 'test', 'fixtures', name);
const BAD = fixture('strict-bad-server.js');
const CLEAN = fixture('strict-clean-server.js');
const NOISY = fixture('noisy-server.js');
const NO_TOOLS_LIST = fixture('no-tools-list-server.js');

/** Runs the bin with `args`; resolves to { code, stdout, stderr }. Stdin is closed at once. */
function check(args, env = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [mainBin, 'check', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({
      code,
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8'),
    }));
  });
}

/** The JSON report of `check --json ...args`, with the exit code. */
async function checkJson(args, env) {
  const run = await check(['--json', ...args], env);
  assert.equal(run.stderr.includes('baremcp:'), false, run.stderr);
  return { code: run.code, report: JSON.parse(run.stdout), stderr: run.stderr };
}

/** The table's data rows as [tool, profile, path, keyword, remedy] (header, rule, summary gone). */
function tableRows(stdout) {
  const lines = stdout.split('\n').filter(Boolean);
  assert.match(lines[0], /^TOOL\s+PROFILE\s+PATH\s+KEYWORD\s+REMEDY$/);
  assert.match(lines[1], /^-+( +-+){4}$/);
  const summary = lines.findIndex((line) => /^\d+ tools? checked; /.test(line));
  return lines.slice(2, summary).map((line) => line.split(/ {2,}/));
}

/** `tool profile path keyword` for each violation. */
const where = (violations) =>
  violations.map((v) => `${v.tool} ${v.profile} ${v.path} ${v.keyword}`);

/** Errors and warnings per profile. */
function countsByProfile(report) {
  const counts = {};
  for (const p of report.profiles) counts[p] = { error: 0, warning: 0 };
  for (const v of report.violations) counts[v.profile][v.severity]++;
  return counts;
}

/** For each tool with violations, its distinct `profile.keyword` pairs, sorted and space-joined. */
function keywordsByTool(report) {
  const byTool = new Map();
  for (const v of report.violations) {
    if (!byTool.has(v.tool)) byTool.set(v.tool, new Set());
    byTool.get(v.tool).add(`${v.profile}.${v.keyword}`);
  }
  return Object.fromEntries([...byTool].map(([tool, set]) => [tool, [...set].sort().join(' ')]));
}

test('a module with bad schemas exits 1; the table names tool, profile, path, keyword, remedy', async () => {
  const run = await check([BAD, '--profile', 'all']);
  assert.equal(run.code, 1, run.stderr);
  const rows = tableRows(run.stdout).map((r) => r.join(' | '));
  for (const row of [
    'pick_target | mcp | anyOf | anyOf | remove the root "anyOf" and check the combination in the tool handler',
    'pick_target | openai | properties.mode.oneOf | oneOf | use anyOf',
    'pick_target | openai | properties.url.format | format | remove "format": "uri" and say it in the "description"',
    'pick_target | openai | required | required | list "mode" in required and make it nullable',
    'tag_files | mcp | properties.tags.items | items | add "items" (for example "items": {"type": "string"})',
    'tag_files | mcp | properties.kind.$ref | $ref | define the $ref target or inline the $ref',
    'tag_files | openai | properties.files.uniqueItems | uniqueItems | remove "uniqueItems" and drop duplicates in the tool handler',
  ]) {
    assert.ok(rows.includes(row), `missing row: ${row}\n${run.stdout}`);
  }
  // Rows are grouped by tool in tools/list order, then by profile.
  const order = tableRows(run.stdout).map((r) => `${r[0]} ${r[1]}`);
  const groups = order.filter((g, i) => g !== order[i - 1]);
  assert.deepEqual(groups, [
    'pick_target openai', 'pick_target anthropic', 'pick_target gemini', 'pick_target mcp',
    'tag_files openai', 'tag_files anthropic', 'tag_files gemini', 'tag_files mcp',
    'echo gemini',
  ]);
  const summary = run.stdout.trimEnd().split('\n').at(-1);
  assert.equal(summary,
    '3 tools checked; openai: 9 errors; anthropic: 2 errors; gemini: 7 errors; mcp: 3 errors');
});

test('--json --profile mcp reports exactly the mcp violations of the bad module', async () => {
  const { code, report } = await checkJson([BAD, '--profile', 'mcp']);
  assert.equal(code, 1);
  assert.equal(report.tools, 3);
  assert.deepEqual(report.profiles, ['mcp']);
  assert.deepEqual(where(report.violations), [
    'pick_target mcp anyOf anyOf',
    'tag_files mcp properties.tags.items items',
    'tag_files mcp properties.kind.$ref $ref',
  ]);
  for (const v of report.violations) {
    assert.equal(v.severity, 'error');
    assert.match(v.rule, /^mcp\./);
    assert.equal(typeof v.remedy, 'string');
  }
});

test('--profile takes a comma list or repeats; only the chosen profiles are reported', async () => {
  const comma = await checkJson([BAD, '--profile', 'mcp,openai']);
  const repeated = await checkJson([BAD, '--profile=openai', '--profile', 'mcp']);
  assert.deepEqual(comma.report, repeated.report);
  assert.deepEqual(comma.report.profiles, ['openai', 'mcp']);
  const seen = new Set(comma.report.violations.map((v) => v.profile));
  assert.deepEqual([...seen].sort(), ['mcp', 'openai']);
});

test('warnings alone exit 0 and are marked in the table', async () => {
  const run = await check([CLEAN, '--profile', 'openai,anthropic,mcp']);
  assert.equal(run.code, 0, run.stderr);
  const rows = tableRows(run.stdout);
  assert.deepEqual(rows, [[
    'greet', 'openai', 'properties.name.default', 'default',
    'remove "default" (strict mode sends every property, so it is never used) (warning)',
  ]]);
  assert.match(run.stdout, /1 tool checked; openai: 1 warning; anthropic: ok; mcp: ok\n$/);
  // The same module fails a profile it breaks with an error.
  assert.equal((await check([CLEAN, '--profile', 'gemini'])).code, 1);
});

test('a module clean in the selected profiles prints No violations and exits 0', async () => {
  const run = await check([CLEAN, '--profile', 'anthropic']);
  assert.equal(run.code, 0);
  assert.equal(run.stdout, 'No violations.\n1 tool checked; anthropic: ok\n');
});

test('an unknown profile is a usage error: exit 2, nothing on stdout', async () => {
  const run = await check([BAD, '--profile', 'openai,claude']);
  assert.equal(run.code, 2);
  assert.equal(run.stdout, '');
  assert.match(run.stderr,
    /unknown profile "claude" \(choose from openai, anthropic, gemini, mcp, all\)/);
});

test('a module and a command together, or -- with no command, are usage errors', async () => {
  const both = await check([BAD, '--', process.execPath, mainBin]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /not both/);
  const bare = await check(['--']);
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /name the command after --/);
});

test('a spawned server (every tools/list page) gets the report its module gets in-process', async () => {
  const SERVED = fixture('strict-served-server.js');
  const inProcess = await checkJson([SERVED]);
  const spawned = await checkJson(['--', process.execPath, mainBin, 'serve', SERVED]);
  assert.equal(spawned.code, 1);
  assert.equal(spawned.report.tools, 3);
  assert.deepEqual(spawned.report, inProcess.report);
});

test('serve refuses a module whose schema has a dangling $ref, naming the tool; check still lints it', async () => {
  const served = spawnSync(process.execPath, [mainBin, 'serve', BAD], { encoding: 'utf8', input: '', timeout: 30_000 });
  assert.equal(served.status, 3);
  assert.match(served.stderr, /tool "tag_files".*#\/\$defs\/missing/);
  const linted = await checkJson([BAD, '--profile', 'mcp']);
  assert.ok(linted.report.violations.some((v) => v.tool === 'tag_files' && v.keyword === '$ref'));
});

test("the spawned server's stderr reaches ours only with --verbose", async () => {
  const quiet = await check(['--profile', 'all', '--', process.execPath, mainBin, 'serve', NOISY]);
  assert.equal(quiet.stderr.includes('printed while loading'), false, quiet.stderr);
  const verbose = await check(['--verbose', '--profile', 'all', '--', process.execPath, mainBin, 'serve', NOISY]);
  assert.ok(verbose.stderr.includes('printed while loading'), verbose.stderr);
  assert.deepEqual(tableRows(verbose.stdout), tableRows(quiet.stdout));
});

test('a module that prints while loading leaves stdout to the JSON report', async () => {
  const run = await check([NOISY, '--json']);
  assert.ok(run.stderr.includes('printed while loading'));
  const report = JSON.parse(run.stdout);
  assert.equal(report.tools, 5);
});

test('exit 3 when the server cannot start, exits before replying, or fails tools/list', async () => {
  const missing = await check(['--', join(tmpdir(), 'baremcp-no-such-command')]);
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /could not start .*ENOENT/);
  assert.equal(missing.stdout, '');
  const quits = await check(['--', process.execPath, '-e', 'process.exit(0)']);
  assert.equal(quits.code, 3);
  assert.match(quits.stderr, /exited .* before replying/);
  const noList = await check(['--', process.execPath, NO_TOOLS_LIST]);
  assert.equal(noList.code, 3);
  assert.match(noList.stderr, /did not list its tools: Method not found/);
  assert.equal(noList.stdout, '');
});

test('the built-in example keeps the mcp profile: no violation at all, exit 0', async () => {
  const root = mkdtempSync(join(tmpdir(), 'baremcp-check-'));
  try {
    const run = await check(['--root', root, '--profile', 'mcp']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^No violations\.\n\d+ tools? checked; mcp: ok\n$/);
    const { report } = await checkJson(['--root', root]);
    assert.ok(report.tools >= 1);
    assert.deepEqual(report.violations.filter((v) => v.profile === 'mcp'), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// ---- third-party servers, spawned offline from node_modules ----------------------------------

/** The bin script of an installed package, or undefined when it is not installed. */
function packageBin(name) {
  const dir = resolve(repoRoot, 'node_modules', ...name.split('/'));
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  return join(dir, typeof bin === 'string' ? bin : Object.values(bin)[0]);
}

/** Checks a third-party server package; skips when it is not installed. */
async function checkPackage(t, name, serverArgs = [], env = {}) {
  const bin = packageBin(name);
  if (bin === undefined) {
    t.skip(`${name} is not installed (npm install)`);
    return undefined;
  }
  const { code, report } = await checkJson(['--profile', 'all', '--', process.execPath, bin, ...serverArgs], env);
  assert.equal(code, 1);
  return report;
}

// The official TypeScript SDK (1.x) turns zod schemas into draft-07 JSON Schema with an explicit
// "$schema": hence mcp.$schema and gemini.$schema on every tool, and no additionalProperties.
const SDK_BASE =
  'anthropic.additionalProperties gemini.$schema mcp.$schema openai.additionalProperties';
const OPTIONALS = 'openai.default openai.required';

test('@modelcontextprotocol/server-everything: the stable report of its 13 tools', async (t) => {
  const report = await checkPackage(t, '@modelcontextprotocol/server-everything', ['stdio']);
  if (report === undefined) return;
  assert.equal(report.tools, 13);
  assert.deepEqual(countsByProfile(report), {
    openai: { error: 24, warning: 10 },
    anthropic: { error: 15, warning: 0 },
    gemini: { error: 14, warning: 4 },
    mcp: { error: 14, warning: 0 },
  });
  const sorted = (s) => s.split(' ').sort().join(' ');
  assert.deepEqual(keywordsByTool(report), {
    'echo': SDK_BASE,
    'get-annotated-message': sorted(`${SDK_BASE} ${OPTIONALS}`),
    'get-env': sorted(`${SDK_BASE} gemini.properties`),
    'get-resource-links': sorted(`${SDK_BASE} ${OPTIONALS} anthropic.maximum anthropic.minimum`),
    'get-resource-reference': sorted(`${SDK_BASE} ${OPTIONALS}`),
    'get-structured-content': SDK_BASE,
    'get-sum': SDK_BASE,
    'get-tiny-image': sorted(`${SDK_BASE} gemini.properties`),
    'gzip-file-as-resource': sorted(`${SDK_BASE} ${OPTIONALS} gemini.format openai.format`),
    'toggle-simulated-logging': sorted(`${SDK_BASE} gemini.properties`),
    'toggle-subscriber-updates': sorted(`${SDK_BASE} gemini.properties`),
    'trigger-long-running-operation': sorted(`${SDK_BASE} ${OPTIONALS}`),
    'simulate-research-query': sorted(`${SDK_BASE} ${OPTIONALS}`),
  });
  assert.ok(where(report.violations).includes(
    'get-structured-content mcp outputSchema.$schema $schema'));
});

test('@modelcontextprotocol/server-filesystem: the stable report of its 14 tools', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'baremcp-check-fs-'));
  try {
    const report = await checkPackage(t, '@modelcontextprotocol/server-filesystem', [dir]);
    if (report === undefined) return;
    assert.equal(report.tools, 14);
    assert.deepEqual(countsByProfile(report), {
      openai: { error: 23, warning: 4 },
      anthropic: { error: 15, warning: 0 },
      gemini: { error: 14, warning: 1 },
      mcp: { error: 28, warning: 0 },
    });
    const sorted = (s) => s.split(' ').sort().join(' ');
    const optional = sorted(`${SDK_BASE} ${OPTIONALS}`);
    assert.deepEqual(keywordsByTool(report), {
      read_file: sorted(`${SDK_BASE} openai.required`),
      read_text_file: sorted(`${SDK_BASE} openai.required`),
      read_media_file: SDK_BASE,
      read_multiple_files: SDK_BASE,
      write_file: SDK_BASE,
      edit_file: optional,
      create_directory: SDK_BASE,
      list_directory: SDK_BASE,
      list_directory_with_sizes: optional,
      directory_tree: optional,
      move_file: SDK_BASE,
      search_files: optional,
      get_file_info: SDK_BASE,
      list_allowed_directories: sorted(`${SDK_BASE} gemini.properties`),
    });
    // Nested objects are reported at their own path.
    assert.ok(where(report.violations).includes(
      'edit_file openai properties.edits.items.additionalProperties additionalProperties'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('@modelcontextprotocol/server-memory: the stable report of its 9 tools', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'baremcp-check-memory-'));
  try {
    const env = { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') };
    const report = await checkPackage(t, '@modelcontextprotocol/server-memory', [], env);
    if (report === undefined) return;
    assert.equal(report.tools, 9);
    assert.deepEqual(countsByProfile(report), {
      openai: { error: 14, warning: 0 },
      anthropic: { error: 14, warning: 0 },
      gemini: { error: 9, warning: 1 },
      mcp: { error: 18, warning: 0 },
    });
    const tools = ['create_entities', 'create_relations', 'add_observations', 'delete_entities',
      'delete_observations', 'delete_relations', 'read_graph', 'search_nodes', 'open_nodes'];
    const expected = Object.fromEntries(tools.map((name) => [name, SDK_BASE]));
    expected.read_graph = `${SDK_BASE} gemini.properties`.split(' ').sort().join(' ');
    assert.deepEqual(keywordsByTool(report), expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const APPS_BAD = fixture('apps-bad-server.js');
const APPS_ROWS = [
  'open_missing apps.resource-missing _meta.ui.resourceUri error',
  'open_https apps.resource-uri-scheme _meta.ui.resourceUri error',
  'open_mismatch apps.legacy-key _meta.ui/resourceUri error',
  'open_flat apps.legacy-key-only _meta.ui/resourceUri warning',
  'app_only apps.app-only-without-resource _meta.ui.visibility error',
  'bad_visibility apps.visibility _meta.ui.visibility error',
  'tool_csp apps.tool-resource-meta _meta.ui.csp warning',
  'ui://good/view.html apps.csp-domain _meta.ui.csp.connectDomains[2] error',
  'ui://good/view.html apps.csp-domain _meta.ui.csp.resourceDomains[1] error',
  'ui://good/view.html apps.csp-domain _meta.ui.csp.frameDomains error',
  'ui://plain/view.html apps.mime-type mimeType error',
  'ui://good/view.html apps.csp-domain contents[0]._meta.ui.csp.connectDomains[2] error',
  'ui://good/view.html apps.csp-domain contents[0]._meta.ui.csp.resourceDomains[1] error',
  'ui://good/view.html apps.csp-domain contents[0]._meta.ui.csp.frameDomains error',
  'ui://plain/view.html apps.mime-type contents[0].mimeType error',
];

test('MCP Apps metadata is linted with the mcp profile: missing or non-ui:// resources, MIME types, CSP origins, visibility', async () => {
  const inProcess = await checkJson(['--profile', 'mcp', APPS_BAD]);
  assert.equal(inProcess.code, 1);
  const rows = (report) => report.violations.map((v) => `${v.tool} ${v.rule} ${v.path} ${v.severity}`);
  assert.deepEqual(rows(inProcess.report), APPS_ROWS);
  const missing = inProcess.report.violations.find((v) => v.tool === 'open_missing');
  assert.equal(missing.remedy, 'add the resource ui://nowhere/view.html (the server lists no resource with that URI)');
  const origin = inProcess.report.violations.find((v) => v.path === '_meta.ui.csp.connectDomains[2]');
  assert.equal(origin.remedy, 'use an origin (scheme://host[:port], a *. subdomain wildcard at most), not "api.example.com"');
  // The same findings from the server spawned over stdio, read as a host reads it.
  const spawned = await checkJson(['--profile', 'mcp', '--', process.execPath, mainBin, 'serve', APPS_BAD]);
  assert.deepEqual(rows(spawned.report), APPS_ROWS);
  // Other profiles do not run the Apps rules.
  const openai = await checkJson(['--profile', 'openai', APPS_BAD]);
  assert.deepEqual(openai.report.violations.filter((v) => v.rule.startsWith('apps.')), []);
});

test('the MCP Apps example lints clean with the mcp profile', async () => {
  const run = await check(['--profile', 'mcp', resolve(repoRoot, 'examples', 'apps.js')]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(run.stdout, 'No violations.\n1 tool checked; mcp: ok\n');
});

// ---- keywords: misspelled, unknown, and the $schema that draft-07 clients refuse ---------------

const TYPO = fixture('typo-server.js');

test('a misspelled keyword is an error with "did you mean"; other unknown keywords and a 2020-12 $schema are warnings', async () => {
  const run = await check([TYPO]);
  assert.equal(run.code, 1, run.stderr);
  const rows = tableRows(run.stdout).map((r) => r.join(' | '));
  assert.deepEqual(rows, [
    'search | mcp | $schema | $schema | remove "$schema" (2020-12 is the default): clients on Ajv\'s default draft-07 refuse the tool (warning)',
    'search | mcp | requried | requried | did you mean "required"? (an unknown keyword is ignored, so nothing checks it)',
    'search | mcp | properties.query.minLenght | minLenght | did you mean "minLength"? (an unknown keyword is ignored, so nothing checks it)',
    'search | mcp | properties.limit.widget | widget | not a JSON Schema keyword, so nothing checks it (rename it "x-..." if it is yours) (warning)',
    // A non-object outputSchema is checked as a 2025-11-25 client gets it: wrapped in { result }.
    'list | mcp | outputSchema.properties.result.items.properites | properites | did you mean "properties"? (an unknown keyword is ignored, so nothing checks it)',
  ]);
  assert.match(run.stdout, /\n2 tools checked; mcp: 3 errors, 2 warnings\nVendor strict modes \(for tools sent strict\): --profile openai,anthropic,gemini, or --profile all\.\n$/);
  // Served, the same module warns on stderr for each misspelling, once, as the tools are defined.
  const served = await check(['--', process.execPath, mainBin, 'serve', TYPO]);
  assert.deepEqual(tableRows(served.stdout), tableRows(run.stdout));
});

test('a Ajv draft-07 client really refuses a schema that names 2020-12 (what the $schema warning says)', async () => {
  const { default: Ajv } = await import('ajv');
  assert.throws(() => new Ajv().compile({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }),
    /no schema with key or ref "https:\/\/json-schema\.org\/draft\/2020-12\/schema"/);
  assert.doesNotThrow(() => new Ajv().compile({ type: 'object' }));
});
