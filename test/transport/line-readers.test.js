// Issue 19, "Wire hygiene": every line baremcp writes is read back as the same single message by
// the client-side line readers people use, whatever string a tool returns. A real server's output
// (serve() over in-memory streams) goes to each reader as a child process: Python (json.loads over
// str.splitlines() and over a UTF-8 text stream), Go (encoding/json over bufio.Scanner), Java
// (Jackson over BufferedReader.readLine), Rust (serde_json over BufRead::lines); JavaScript
// (JSON.parse over node:readline) runs in process. A reader whose toolchain is missing is skipped
// with the reason. The property each relies on is checked on generated strings in
// json-line.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough, Readable, Writable } from 'node:stream';
import { createServer } from '../../dist/index.js';
import { serve } from '../../dist/transport/stdio.js';
import { repoRoot } from '../helpers.js';

const READERS = resolve(repoRoot, 'test', 'transport', 'readers');

/** Strings a tool may return, each a kind that some reader splits, rejects or reads differently. */
const KINDS = [
  ['U+2028 LINE SEPARATOR (Python splitlines splits)', 'a\u2028b'],
  ['U+2029 PARAGRAPH SEPARATOR (Python splitlines splits)', 'a\u2029b'],
  ['U+0085 NEXT LINE (Python splitlines splits)', 'a\u0085b'],
  ['U+001C-U+001E (Python splitlines splits)', 'a\u001cb\u001dc\u001ed'],
  ['\\v and \\f (Python splitlines splits)', 'a\u000bb\u000cc'],
  ['\\r, \\n and \\r\\n (every reader splits)', 'a\rb\nc\r\nd'],
  ['NUL and other C0 controls', 'a\u0000b\u0001\u001f'],
  ['DEL and C1 controls', '\u007f\u0080\u009f'],
  ['a lone high surrogate (serde_json rejects; Go reads U+FFFD)', 'a\ud800b'],
  ['a lone low surrogate', 'a\udc00b'],
  ['a reversed pair', '\udc00\ud800'],
  ['a high surrogate at the end', 'ab\udbff'],
  ['a valid pair', '😀𝄞'],
  ['the text of escapes, not escapes', '\\ud800 \\\\ud800 \\u2028'],
  ['a BOM and noncharacters', '\ufeff\ufffe\uffff'],
  ['quotes and backslashes', '"\\"\\'],
  ['BMP text', 'é★中'],
];

const say = {
  name: 'say',
  description: 'Returns the string of one kind.',
  inputSchema: { type: 'object', properties: { i: { type: 'integer' } }, required: ['i'] },
  run: ({ i }) => KINDS[i][1],
};

/** What a reader should print for call `i`: the code points of the string, made well-formed. */
const expected = new Map(KINDS.map(([, s], i) => [String(i + 1), [...s.toWellFormed()].map((c) => c.codePointAt(0).toString(16)).join(' ')]));

/** The bytes a real baremcp server writes for an initialize and one call per kind. */
async function wire() {
  const input = new PassThrough();
  const chunks = [];
  const output = new Writable({ write: (chunk, _e, cb) => (chunks.push(chunk), cb()) });
  const session = serve(input, output, createServer({ info: { name: 's', version: '1' }, tools: [say] }));
  const init = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  const lines = [init, { jsonrpc: '2.0', method: 'notifications/initialized' }];
  KINDS.forEach((_, i) => lines.push({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'say', arguments: { i } } }));
  input.end(lines.map((m) => JSON.stringify(m) + '\n').join(''));
  await session.closed;
  return Buffer.concat(chunks);
}
const bytes = await wire();

/** Checks a reader's report: one line per message, each call's text as expected, no error. */
function check(reader, report) {
  const lines = report.split('\n').filter(Boolean);
  const errors = lines.filter((l) => l.startsWith('ERROR\t'));
  assert.deepEqual(errors, [], `${reader} could not read some lines`);
  assert.equal(lines.length, KINDS.length + 1, `${reader} read ${lines.length} messages from ${KINDS.length + 1} lines:\n${report}`);
  const got = new Map(lines.filter((l) => !l.startsWith('OTHER\t')).map((l) => l.split('\t')));
  for (const [i, [kind]] of KINDS.entries()) {
    assert.equal(got.get(String(i + 1)), expected.get(String(i + 1)), `${reader}: ${kind}`);
  }
}

/** Runs a reader program on the wire bytes; returns its report. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { input: bytes, encoding: 'utf8', timeout: 120_000, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** The path of a program on PATH, or undefined. */
function which(program) {
  const found = spawnSync('which', [program], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

test('the raw bytes: one line per message, each ending in a single \\n, no other byte a reader ends a line at', () => {
  const text = bytes.toString('utf8');
  assert.equal(text.split('\n').length, KINDS.length + 2);
  assert.doesNotMatch(text, /[\r\v\f\x1c-\x1e\x85\u2028\u2029]/);
  assert.ok(Buffer.from(text, 'utf8').equals(bytes), 'the output is valid UTF-8');
});

test('JavaScript: JSON.parse over node:readline reads each message once, with the same text', async () => {
  const rl = createInterface({ input: Readable.from([bytes]), crlfDelay: Infinity });
  const out = [];
  for await (const line of rl) {
    const m = JSON.parse(line);
    const text = m.result?.content?.[0]?.text;
    out.push(text === undefined ? `OTHER\t${m.id}` : `${m.id}\t${[...text].map((c) => c.codePointAt(0).toString(16)).join(' ')}`);
  }
  check('node:readline', out.join('\n'));
});

const python = which('python3');
for (const mode of ['splitlines', 'stream']) {
  test(`Python: json.loads over ${mode === 'splitlines' ? 'str.splitlines()' : 'a UTF-8 text stream'} reads each message once, with the same text`, { skip: python === undefined && 'python3 is not installed' }, () => {
    check(`python ${mode}`, run(python, [join(READERS, 'reader.py'), mode]));
  });
}

const go = which('go');
test('Go: encoding/json over bufio.Scanner reads each message once, with the same text', { skip: go === undefined && 'go is not installed (apt-get install golang-go)' }, () => {
  check('go', run(go, ['run', join(READERS, 'reader.go')], { env: { ...process.env, GOFLAGS: '-mod=mod', GO111MODULE: 'off' } }));
});

/** Jackson's three jars of one release from the local Maven repository, or undefined. */
function jacksonClasspath() {
  const base = join(homedir(), '.m2', 'repository', 'com', 'fasterxml', 'jackson', 'core');
  const versions = (name) => (existsSync(join(base, name)) ? readdirSync(join(base, name)) : []);
  const newest = versions('jackson-databind').filter((v) => /^2\.\d+\.\d+$/.test(v)).sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).reverse();
  for (const v of newest) {
    const minor = v.split('.').slice(0, 2).join('.');
    const annotations = versions('jackson-annotations').find((a) => a === v || a === minor);
    const jars = [
      join(base, 'jackson-databind', v, `jackson-databind-${v}.jar`),
      join(base, 'jackson-core', v, `jackson-core-${v}.jar`),
      annotations && join(base, 'jackson-annotations', annotations, `jackson-annotations-${annotations}.jar`),
    ];
    if (jars.every((j) => j && existsSync(j))) return { version: v, classpath: jars.join(':') };
  }
  return undefined;
}
const java = which('java');
const jackson = java && jacksonClasspath();
test(`Java: Jackson${jackson ? ` ${jackson.version}` : ''} over BufferedReader.readLine reads each message once, with the same text`, { skip: (java === undefined && 'java is not installed') || (jackson === undefined && 'no jackson-databind/core/annotations jars of one release in ~/.m2') }, () => {
  check('java', run(java, ['-cp', jackson.classpath, join(READERS, 'LineReader.java')]));
});

/** Builds the Rust reader offline in a temporary copy; undefined with a reason when it cannot. */
function rustReader() {
  if (which('cargo') === undefined) return { skip: 'cargo is not installed' };
  const dir = mkdtempSync(join(tmpdir(), 'baremcp-rust-reader-'));
  cpSync(join(READERS, 'rust'), dir, { recursive: true });
  const built = spawnSync('cargo', ['build', '--offline', '--release', '--quiet'], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
  if (built.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `serde_json could not be built offline (not in cargo's cache?): ${built.stderr.split('\n').find((l) => l.startsWith('error')) ?? built.stderr.trim()}` };
  }
  return { dir, binary: join(dir, 'target', 'release', 'baremcp-line-reader') };
}
const rust = rustReader();
test('Rust: serde_json over BufRead::lines reads each message once, with the same text', { skip: rust.skip }, () => {
  try {
    check('rust serde_json', run(rust.binary, []));
  } finally {
    rmSync(rust.dir, { recursive: true, force: true });
  }
});
