// The workspace example server: every tool on a real temporary directory, each path-escape
// class refused, binary refusal, line ranges and byte caps, and search limits.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { createWorkspaceTools, workspaceInfo } from '../../dist/workspace/index.js';

// Layout: <base>/ws is the root; <base>/ws-evil shares its name as a prefix; <base>/outside
// holds a secret reached through symbolic links inside the root.
let base;
let root;
let tools;
const SECRET = 'TOP-SECRET-TOKEN';
const ajv = new Ajv2020({ allErrors: true, formats: { 'date-time': true } });
const live = () => ({ signal: new AbortController().signal });

/** Calls a tool's run() and checks the result's shape against its schemas. */
async function call(name, args, ctx = live(), set = tools) {
  const tool = set.find((t) => t.name === name);
  const result = await tool.run(args, ctx);
  assert.ok(Array.isArray(result.content), 'content is an array');
  if (result.structuredContent !== undefined) {
    const validate = ajv.compile(tool.outputSchema);
    assert.ok(validate(result.structuredContent), JSON.stringify(validate.errors));
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  } else if (result.isError !== true && tool.outputSchema !== undefined) {
    assert.fail(`${name} declares an outputSchema but returned no structuredContent`);
  }
  return result;
}

const text = (result) => result.content.map((block) => block.text).join('\n');

/** Asserts an access refusal that shows neither the secret nor host paths the model did not send. */
function assertRefused(result, pattern = /outside the workspace root/) {
  assert.equal(result.isError, true, `expected an isError result, got ${JSON.stringify(result)}`);
  assert.match(text(result), pattern);
  assert.doesNotMatch(text(result), new RegExp(SECRET));
  const echoed = text(result).match(/'([^']*)'/)[1]; // the path as the model sent it
  assert.ok(!text(result).replace(echoed, '').includes(base), 'the message reveals no host path');
}

before(async () => {
  base = await mkdtemp(join(tmpdir(), 'baremcp-ws-'));
  root = join(base, 'ws');
  await mkdir(join(root, 'sub', 'deep'), { recursive: true });
  await mkdir(join(root, '.git'));
  await mkdir(join(root, 'node_modules', 'pkg'), { recursive: true });
  await mkdir(join(base, 'ws-evil'));
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'ws-evil', 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(base, 'outside', 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(root, 'hello.txt'), 'alpha\nbeta\ngamma\ndelta\nepsilon\n');
  await writeFile(join(root, 'no-eol.txt'), 'one\ntwo\nthree');
  await writeFile(join(root, 'crlf.txt'), 'first\r\nsecond\r\n');
  await writeFile(join(root, 'unicode.txt'), 'héllo wörld ✓\n日本語\n');
  await writeFile(join(root, 'empty.txt'), '');
  await writeFile(join(root, '.hidden'), 'hidden alpha\n');
  await writeFile(join(root, 'binary.bin'), Buffer.from([0x41, 0x00, 0x42, 0x0a]));
  await writeFile(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1
  await writeFile(join(root, 'sub', 'inner.txt'), 'inner Alpha line\n');
  await writeFile(join(root, 'sub', 'deep', 'note.md'), 'x\ny\nalpha at line three\n');
  await writeFile(join(root, '.git', 'config'), 'alpha in git\n');
  await writeFile(join(root, 'node_modules', 'pkg', 'index.js'), 'alpha in a dependency\n');
  await symlink(join(base, 'outside'), join(root, 'out-link'));
  await symlink(join(base, 'outside', 'secret.txt'), join(root, 'out-file-link'));
  await symlink(join(base, 'outside', 'missing.txt'), join(root, 'dangling-out'));
  await symlink('../ws-evil', join(root, 'rel-evil-link'));
  await symlink('sub', join(root, 'in-link'));
  await symlink('missing-target.txt', join(root, 'dangling-in'));
  await symlink('loop-b', join(root, 'loop-a'));
  await symlink('loop-a', join(root, 'loop-b'));
  await symlink(root, join(base, 'root-link'));
  tools = createWorkspaceTools(root);
});

after(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('createWorkspaceTools', () => {
  test('it returns the four read-only tools with strict object input schemas', () => {
    assert.deepEqual(
      tools.map((t) => t.name),
      ['list_directory', 'read_text_file', 'search_text', 'file_info'],
    );
    for (const tool of tools) {
      assert.equal(tool.annotations.readOnlyHint, true, tool.name);
      assert.ok(tool.description.length > 80, `${tool.name} has a description a model can use`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.inputSchema.additionalProperties, false);
      assert.equal(typeof tool.inputSchema.properties, 'object');
      ajv.compile(tool.inputSchema);
      if (tool.outputSchema) assert.equal(tool.outputSchema.type, 'object');
    }
    assert.deepEqual(workspaceInfo, { name: 'baremcp-workspace', version: '0.1.0' });
  });

  test('a missing root, a file as root and a bad limit are refused when the tools are created', () => {
    assert.throws(() => createWorkspaceTools(join(base, 'nope')), /cannot be opened/);
    assert.throws(() => createWorkspaceTools(join(root, 'hello.txt')), /not a directory/);
    assert.throws(() => createWorkspaceTools(root, { maxResults: 0 }), RangeError);
    assert.throws(() => createWorkspaceTools(root, { maxReadBytes: 1.5 }), RangeError);
  });

  test('an unknown argument is an isError result that lists the allowed ones', async () => {
    const result = await call('list_directory', { path: '.', recursive: true });
    assert.equal(result.isError, true);
    assert.match(text(result), /Unknown argument 'recursive'.*path, includeHidden/);
  });

  test('an argument of the wrong type is an isError result naming it', async () => {
    assert.match(
      text(await call('read_text_file', { path: 'hello.txt', head: '2' })),
      /'head' must be a whole number/,
    );
    assert.match(text(await call('read_text_file', { path: 'hello.txt', head: 0 })), /at least 1/);
    assert.match(text(await call('file_info', { path: 42 })), /'path' must be a string/);
    assert.match(text(await call('file_info', {})), /'path' is required/);
    assert.match(text(await call('search_text', { query: 'a', regex: 'yes' })), /true or false/);
  });
});

describe('path confinement', () => {
  test('a sibling folder whose name starts with the root name is refused', async () => {
    assertRefused(await call('read_text_file', { path: '../ws-evil/secret.txt' }));
    assertRefused(await call('list_directory', { path: '../ws-evil' }));
    assertRefused(await call('file_info', { path: join(base, 'ws-evil', 'secret.txt') }));
    assertRefused(await call('search_text', { query: SECRET, path: '../ws-evil' }));
  });

  test('a symbolic link that points outside the root is refused, for a folder and for a file', async () => {
    assertRefused(await call('read_text_file', { path: 'out-link/secret.txt' }), /symbolic link/);
    assertRefused(await call('read_text_file', { path: 'out-file-link' }), /symbolic link/);
    assertRefused(await call('list_directory', { path: 'out-link' }));
    assertRefused(await call('file_info', { path: 'out-link' }));
    assertRefused(await call('search_text', { query: SECRET, path: 'out-link' }));
    assertRefused(await call('read_text_file', { path: 'rel-evil-link/secret.txt' }));
  });

  test('a dangling link outside gets the same refusal as a live one, so it reveals nothing', async () => {
    const dangling = await call('read_text_file', { path: 'dangling-out' });
    const live = await call('read_text_file', { path: 'out-file-link' });
    assertRefused(dangling);
    assert.equal(
      text(dangling).replace('dangling-out', 'X'),
      text(live).replace('out-file-link', 'X'),
    );
    assertRefused(await call('read_text_file', { path: 'out-link/missing/deeper.txt' }));
  });

  test('.. segments that climb out of the root are refused, wherever they appear', async () => {
    assertRefused(await call('read_text_file', { path: '..' }));
    assertRefused(await call('read_text_file', { path: '../outside/secret.txt' }));
    assertRefused(await call('read_text_file', { path: 'sub/../../outside/secret.txt' }));
    assertRefused(await call('list_directory', { path: 'sub/deep/../../..' }));
    assertRefused(await call('read_text_file', { path: `${root}/../outside/secret.txt` }));
  });

  test('.. segments that stay inside the root are allowed', async () => {
    const result = await call('read_text_file', { path: 'sub/deep/../../hello.txt' });
    assert.equal(result.isError, undefined);
    assert.match(text(result), /^alpha/);
  });

  test('absolute paths outside the root are refused and absolute paths inside it work', async () => {
    assertRefused(await call('read_text_file', { path: '/etc/passwd' }));
    assertRefused(await call('list_directory', { path: '/' }));
    const inside = await call('read_text_file', { path: join(root, 'sub', 'inner.txt') });
    assert.equal(text(inside), 'inner Alpha line\n');
  });

  test('absolute paths written against a root given through a symbolic link work', async () => {
    const viaLink = createWorkspaceTools(join(base, 'root-link'));
    const result = await call(
      'read_text_file',
      { path: join(base, 'root-link', 'hello.txt'), head: 1 },
      live(),
      viaLink,
    );
    assert.equal(result.content[0].text, 'alpha\n');
    const real = await call('file_info', { path: join(root, 'hello.txt') }, live(), viaLink);
    assert.equal(real.structuredContent.path, 'hello.txt');
    assertRefused(await call('read_text_file', { path: '../outside/secret.txt' }, live(), viaLink));
  });

  test('a NUL byte in a path is refused', async () => {
    const result = await call('read_text_file', { path: 'hello.txt\0.png' });
    assert.equal(result.isError, true);
    assert.match(text(result), /NUL/);
  });

  test('Windows-style backslash paths that escape are refused, and inside ones resolve', async () => {
    assertRefused(await call('read_text_file', { path: '..\\outside\\secret.txt' }));
    assertRefused(await call('read_text_file', { path: 'sub\\..\\..\\ws-evil\\secret.txt' }));
    const inside = await call('read_text_file', { path: 'sub\\inner.txt' });
    assert.equal(text(inside), 'inner Alpha line\n');
  });

  test('a symbolic-link loop is a clear error, not a hang', async () => {
    const result = await call('read_text_file', { path: 'loop-a' });
    assert.equal(result.isError, true);
    assert.match(text(result), /loop of symbolic links/);
    assert.match(
      text(await call('list_directory', { path: 'loop-b/x' })),
      /loop of symbolic links/,
    );
  });

  test('a symbolic link that stays inside the root is followed', async () => {
    const result = await call('read_text_file', { path: 'in-link/inner.txt' });
    assert.equal(text(result), 'inner Alpha line\n');
    const info = await call('file_info', { path: 'in-link' });
    assert.deepEqual(
      [info.structuredContent.path, info.structuredContent.type],
      ['sub', 'directory'],
    );
  });

  test('a dangling link inside the root reads as a missing file', async () => {
    const result = await call('read_text_file', { path: 'dangling-in' });
    assert.equal(result.isError, true);
    assert.match(text(result), /'missing-target.txt' does not exist/);
  });

  test('search_text does not follow links out of the root while walking', async () => {
    const result = await call('search_text', { query: SECRET });
    assert.deepEqual(result.structuredContent.matches, []);
  });
});

describe('list_directory', () => {
  test('it lists the root by default, sorted, with types and file sizes, hiding dot entries', async () => {
    const { structuredContent } = await call('list_directory', {});
    assert.equal(structuredContent.path, '.');
    const byName = Object.fromEntries(structuredContent.entries.map((e) => [e.name, e]));
    assert.deepEqual(byName['hello.txt'], { name: 'hello.txt', type: 'file', size: 31 });
    assert.deepEqual(byName.sub, { name: 'sub', type: 'directory' });
    assert.deepEqual(byName['out-link'], { name: 'out-link', type: 'symlink' });
    assert.equal(byName['.hidden'], undefined);
    assert.equal(byName['.git'], undefined);
    const names = structuredContent.entries.map((e) => e.name);
    assert.deepEqual(names, [...names].sort());
    assert.equal(structuredContent.totalEntries, names.length);
    assert.equal(structuredContent.truncated, false);
  });

  test('includeHidden lists dot entries too', async () => {
    const { structuredContent } = await call('list_directory', { path: '.', includeHidden: true });
    const names = structuredContent.entries.map((e) => e.name);
    assert.ok(names.includes('.hidden') && names.includes('.git'));
  });

  test('it lists a subfolder and reports its path relative to the root', async () => {
    const { structuredContent } = await call('list_directory', { path: 'sub/' });
    assert.deepEqual(structuredContent, {
      path: 'sub',
      entries: [
        { name: 'deep', type: 'directory' },
        { name: 'inner.txt', type: 'file', size: 17 },
      ],
      totalEntries: 2,
      truncated: false,
    });
  });

  test('a file or a missing folder is an isError result that says what to do', async () => {
    assert.match(
      text(await call('list_directory', { path: 'hello.txt' })),
      /is a file, not a folder.*read_text_file/,
    );
    assert.match(
      text(await call('list_directory', { path: 'nope' })),
      /'nope' does not exist.*list_directory/,
    );
  });

  test('a folder with more than 1000 entries is truncated and counted', async (t) => {
    const big = join(root, 'big');
    await mkdir(big);
    t.after(() => rm(big, { recursive: true }));
    await Promise.all(
      Array.from({ length: 1003 }, (_, i) =>
        writeFile(join(big, `f${String(i).padStart(4, '0')}`), ''),
      ),
    );
    const { structuredContent } = await call('list_directory', { path: 'big' });
    assert.equal(structuredContent.entries.length, 1000);
    assert.equal(structuredContent.totalEntries, 1003);
    assert.equal(structuredContent.truncated, true);
    assert.equal(structuredContent.entries[999].name, 'f0999');
  });
});

describe('read_text_file', () => {
  test('it returns a whole small file with no note', async () => {
    const result = await call('read_text_file', { path: 'hello.txt' });
    assert.deepEqual(result, {
      content: [{ type: 'text', text: 'alpha\nbeta\ngamma\ndelta\nepsilon\n' }],
    });
  });

  test('head, tail and line ranges return those lines with a note naming them', async () => {
    const head = await call('read_text_file', { path: 'hello.txt', head: 2 });
    assert.equal(head.content[0].text, 'alpha\nbeta\n');
    assert.match(head.content[1].text, /Lines 1–2; the file continues/);
    const tail = await call('read_text_file', { path: 'hello.txt', tail: 2 });
    assert.equal(tail.content[0].text, 'delta\nepsilon\n');
    assert.match(tail.content[1].text, /Lines 4–5 of 5/);
    const range = await call('read_text_file', { path: 'hello.txt', startLine: 2, endLine: 3 });
    assert.equal(range.content[0].text, 'beta\ngamma\n');
    const from = await call('read_text_file', { path: 'hello.txt', startLine: 4 });
    assert.equal(from.content[0].text, 'delta\nepsilon\n');
    assert.match(from.content[1].text, /Lines 4–5 of 5/);
    const upTo = await call('read_text_file', { path: 'hello.txt', endLine: 1 });
    assert.equal(upTo.content[0].text, 'alpha\n');
    const exact = await call('read_text_file', { path: 'hello.txt', head: 5 });
    assert.match(exact.content[1].text, /Lines 1–5 of 5 in 'hello.txt'/);
    const beyond = await call('read_text_file', { path: 'hello.txt', head: 50 });
    assert.equal(beyond.content[0].text, 'alpha\nbeta\ngamma\ndelta\nepsilon\n');
    const all = await call('read_text_file', { path: 'hello.txt', tail: 50 });
    assert.equal(all.content[0].text, 'alpha\nbeta\ngamma\ndelta\nepsilon\n');
  });

  test('a file without a final line break and a CRLF file keep their exact text', async () => {
    assert.equal(
      (await call('read_text_file', { path: 'no-eol.txt', tail: 1 })).content[0].text,
      'three',
    );
    assert.equal(
      (await call('read_text_file', { path: 'no-eol.txt', tail: 2 })).content[0].text,
      'two\nthree',
    );
    assert.equal(
      (await call('read_text_file', { path: 'no-eol.txt', startLine: 3 })).content[0].text,
      'three',
    );
    assert.equal(
      (await call('read_text_file', { path: 'crlf.txt', head: 1 })).content[0].text,
      'first\r\n',
    );
    assert.equal(
      (await call('read_text_file', { path: 'unicode.txt' })).content[0].text,
      'héllo wörld ✓\n日本語\n',
    );
  });

  test('an empty file is read as empty text with a note', async () => {
    const result = await call('read_text_file', { path: 'empty.txt' });
    assert.equal(result.content[0].text, '');
    assert.match(result.content[1].text, /is empty/);
  });

  test('conflicting or inverted ranges and a startLine past the end are isError results', async () => {
    assert.match(
      text(await call('read_text_file', { path: 'hello.txt', head: 1, tail: 1 })),
      /either head or tail/,
    );
    assert.match(
      text(await call('read_text_file', { path: 'hello.txt', head: 1, startLine: 2 })),
      /not both/,
    );
    assert.match(
      text(await call('read_text_file', { path: 'hello.txt', startLine: 3, endLine: 2 })),
      /before startLine/,
    );
    const past = await call('read_text_file', { path: 'hello.txt', startLine: 9 });
    assert.equal(past.isError, true);
    assert.match(text(past), /past the end of 'hello.txt', which has 5 lines/);
  });

  test('binary files are refused: NUL bytes and invalid UTF-8', async () => {
    const nul = await call('read_text_file', { path: 'binary.bin' });
    assert.equal(nul.isError, true);
    assert.match(text(nul), /binary file \(it contains NUL bytes\).*file_info/);
    const latin1 = await call('read_text_file', { path: 'latin1.txt' });
    assert.equal(latin1.isError, true);
    assert.match(text(latin1), /not valid UTF-8/);
  });

  test('a directory, a missing file and a FIFO are isError results', async (t) => {
    assert.match(
      text(await call('read_text_file', { path: 'sub' })),
      /is a directory.*list_directory/,
    );
    assert.match(text(await call('read_text_file', { path: 'sub/missing.txt' })), /does not exist/);
    assert.match(
      text(await call('read_text_file', { path: 'hello.txt/x' })),
      /before the last '\/' is a file/,
    );
    if (process.platform === 'win32') return t.skip('no FIFOs on Windows');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    try {
      assert.match(text(await call('read_text_file', { path: 'pipe' })), /not a regular file/);
    } finally {
      await rm(join(root, 'pipe'));
    }
  });

  test('output is capped in bytes at a line end, with a note telling how to read on', async () => {
    const capped = createWorkspaceTools(root, { maxReadBytes: 12 });
    const first = await call('read_text_file', { path: 'hello.txt' }, live(), capped);
    assert.equal(first.content[0].text, 'alpha\nbeta\n');
    assert.match(first.content[1].text, /12-byte limit after line 2.*startLine: 3/);
    const next = await call('read_text_file', { path: 'hello.txt', startLine: 3 }, live(), capped);
    assert.equal(next.content[0].text, 'gamma\ndelta\n');
    const tail = await call('read_text_file', { path: 'hello.txt', tail: 5 }, live(), capped);
    assert.equal(tail.content[0].text, 'epsilon\n'); // 'delta\nepsilon\n' is 14 bytes
    assert.match(tail.content[1].text, /Only the end of 'hello.txt' \(lines 5–5\)/);
  });

  test('a single line longer than the cap is cut on a character boundary', async () => {
    const capped = (maxReadBytes) => createWorkspaceTools(root, { maxReadBytes });
    // 'héllo w' is 8 bytes; the 9th is the first byte of 'ö', which must not be split.
    const head = await call('read_text_file', { path: 'unicode.txt' }, live(), capped(9));
    assert.equal(head.content[0].text, 'héllo w');
    assert.match(head.content[1].text, /Line 1 .*longer than the 9-byte limit; only its start/);
    const cut = await call(
      'read_text_file',
      { path: 'unicode.txt', startLine: 2 },
      live(),
      capped(4),
    );
    assert.equal(cut.content[0].text, '日'); // 3 of 4 bytes: the next character does not fit
    const tail = await call('read_text_file', { path: 'unicode.txt', tail: 1 }, live(), capped(5));
    assert.equal(tail.content[0].text, '語\n');
    assert.match(tail.content[1].text, /only its end/);
  });

  test('ranges in a file larger than one read chunk come back exact', async (t) => {
    const lines = Array.from({ length: 20000 }, (_, i) => `line ${i + 1}`);
    await writeFile(join(root, 'long.log'), lines.join('\n') + '\n'); // 208,894 bytes
    t.after(() => rm(join(root, 'long.log')));
    const tail = await call('read_text_file', { path: 'long.log', tail: 3 });
    assert.equal(tail.content[0].text, 'line 19998\nline 19999\nline 20000\n');
    assert.match(tail.content[1].text, /last lines/);
    const middle = await call('read_text_file', {
      path: 'long.log',
      startLine: 15000,
      endLine: 15002,
    });
    assert.equal(middle.content[0].text, 'line 15000\nline 15001\nline 15002\n');
    const whole = await call('read_text_file', { path: 'long.log', tail: 20000 });
    assert.match(whole.content[1].text, /Lines 1–20000 of 20000/);
    const end = await call('read_text_file', { path: 'long.log', startLine: 19999 });
    assert.match(end.content[1].text, /Lines 19999–20000 of 20000/);
    const capped = await call(
      'read_text_file',
      { path: 'long.log', tail: 20000 },
      live(),
      createWorkspaceTools(root, { maxReadBytes: 100000 }),
    );
    assert.ok(Buffer.byteLength(capped.content[0].text) <= 100000);
    assert.ok(
      capped.content[0].text.endsWith('line 20000\n') && capped.content[0].text.startsWith('line '),
    );
    assert.match(capped.content[1].text, /Only the end/);
  });

  test('a read is stopped when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await call(
      'read_text_file',
      { path: 'hello.txt' },
      { signal: controller.signal },
    );
    assert.equal(result.isError, true);
    assert.match(text(result), /cancelled/);
  });
});

/**
 * The model for read_text_file: split into lines that keep their LF, pick the window the options
 * name, then keep whole lines from its start (from its end for tail) while they fit in `cap`;
 * when not even one fits, cut that line on a UTF-8 character boundary.
 */
function modelRead(bytes, options, cap) {
  const lines = [];
  for (let from = 0; from < bytes.length;) {
    const lf = bytes.indexOf(0x0a, from);
    const to = lf === -1 ? bytes.length : lf + 1;
    lines.push(bytes.subarray(from, to));
    from = to;
  }
  const { head, tail, startLine, endLine } = options;
  if (startLine !== undefined && startLine > lines.length && lines.length > 0)
    return { error: true };
  const window =
    tail !== undefined
      ? lines.slice(-tail)
      : lines.slice((startLine ?? 1) - 1, head ?? endLine ?? Infinity);
  const ordered = tail !== undefined ? [...window].reverse() : window;
  const kept = [];
  let size = 0;
  for (const line of ordered) {
    if (size + line.length > cap) break;
    kept.push(line);
    size += line.length;
  }
  if (kept.length === 0 && ordered.length > 0) {
    const line = ordered[0];
    const continuation = (i) => (line[i] & 0xc0) === 0x80;
    if (tail === undefined) {
      let end = cap;
      while (end > 0 && continuation(end)) end--;
      return { text: line.subarray(0, end).toString() };
    }
    let start = line.length - cap;
    while (start < line.length && continuation(start)) start++;
    return { text: line.subarray(start).toString() };
  }
  if (tail !== undefined) kept.reverse();
  return { text: Buffer.concat(kept).toString() };
}

describe('read_text_file against a model', () => {
  const line = fc
    .array(fc.constantFrom('a', 'b', 'é', '日', ' ', '\r'), { maxLength: 12 })
    .map((chars) => chars.join(''));
  const file = fc
    .tuple(fc.array(line, { maxLength: 12 }), fc.boolean())
    .map(([lines, finalLf]) => lines.join('\n') + (finalLf && lines.length > 0 ? '\n' : ''));
  const n = fc.integer({ min: 1, max: 15 });
  const options = fc.oneof(
    fc.constant({}),
    n.map((head) => ({ head })),
    n.map((tail) => ({ tail })),
    n.map((startLine) => ({ startLine })),
    n.map((endLine) => ({ endLine })),
    fc.tuple(n, n).map(([a, b]) => ({ startLine: Math.min(a, b), endLine: Math.max(a, b) })),
  );
  const cap = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(1 << 20));

  test('every range and byte cap returns exactly the lines the model picks', async () => {
    const byCap = new Map();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(file, options, cap, async (content, opts, maxReadBytes) => {
        if (!byCap.has(maxReadBytes))
          byCap.set(maxReadBytes, createWorkspaceTools(root, { maxReadBytes }));
        const name = `model-${run++}.txt`;
        await writeFile(join(root, name), content);
        try {
          const result = await call(
            'read_text_file',
            { path: name, ...opts },
            live(),
            byCap.get(maxReadBytes),
          );
          const expected = modelRead(Buffer.from(content), opts, maxReadBytes);
          if (expected.error) {
            assert.equal(result.isError, true, text(result));
            assert.match(text(result), /past the end/);
          } else {
            assert.equal(result.isError, undefined, text(result));
            assert.equal(result.content[0].text, expected.text);
          }
        } finally {
          await rm(join(root, name));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('search_text', () => {
  test('a literal search is case-insensitive by default and reports path, line and column', async () => {
    const { structuredContent } = await call('search_text', { query: 'ALPHA' });
    assert.equal(structuredContent.path, '.');
    assert.deepEqual(structuredContent.matches, [
      { path: '.hidden', line: 1, column: 8, text: 'hidden alpha' },
      { path: 'hello.txt', line: 1, column: 1, text: 'alpha' },
      { path: 'sub/deep/note.md', line: 3, column: 1, text: 'alpha at line three' },
      { path: 'sub/inner.txt', line: 1, column: 7, text: 'inner Alpha line' },
    ]);
    assert.equal(structuredContent.truncated, false);
    assert.equal(structuredContent.truncatedReason, undefined);
  });

  test('caseSensitive narrows the matches', async () => {
    const { structuredContent } = await call('search_text', {
      query: 'Alpha',
      caseSensitive: true,
    });
    assert.deepEqual(structuredContent.matches, [
      { path: 'sub/inner.txt', line: 1, column: 7, text: 'inner Alpha line' },
    ]);
  });

  test('a literal query with regex characters matches only that text', async (t) => {
    t.after(() => rm(join(root, 'meta.txt')));
    await writeFile(join(root, 'meta.txt'), 'a.b(c)\naxb(c)\n');
    const { structuredContent } = await call('search_text', { query: 'a.b(c)', path: 'meta.txt' });
    assert.deepEqual(structuredContent.matches, [
      { path: 'meta.txt', line: 1, column: 1, text: 'a.b(c)' },
    ]);
    const regex = await call('search_text', {
      query: '^a.b\\(c\\)$',
      regex: true,
      path: 'meta.txt',
    });
    assert.equal(regex.structuredContent.matches.length, 2);
  });

  test('.git and node_modules are skipped unless named in path', async () => {
    const { structuredContent } = await call('search_text', { query: 'in a dependency' });
    assert.deepEqual(structuredContent.matches, []);
    const named = await call('search_text', { query: 'in a dependency', path: 'node_modules' });
    assert.deepEqual(
      named.structuredContent.matches.map((m) => m.path),
      ['node_modules/pkg/index.js'],
    );
  });

  test('binary and oversized files are skipped and counted', async () => {
    const small = createWorkspaceTools(root, { maxSearchFileBytes: 20 });
    const { structuredContent } = await call('search_text', { query: 'alpha' }, live(), small);
    assert.deepEqual(
      structuredContent.matches.map((m) => m.path),
      ['.hidden', 'sub/inner.txt'],
    );
    // binary.bin, latin1.txt, hello.txt (31 bytes), note.md (26 bytes), unicode.txt (28 bytes)
    assert.equal(structuredContent.filesSkipped, 5);
    const all = await call('search_text', { query: 'A' });
    assert.ok(!all.structuredContent.matches.some((m) => m.path === 'binary.bin'));
    assert.equal(all.structuredContent.filesSkipped, 2);
  });

  test('maxResults bounds the matches and marks the result truncated only when more exist', async () => {
    const two = await call('search_text', { query: 'a', maxResults: 2 });
    assert.equal(two.structuredContent.matches.length, 2);
    assert.equal(two.structuredContent.truncated, true);
    assert.equal(two.structuredContent.truncatedReason, 'maxResults');
    const exact = await call('search_text', { query: 'alpha', maxResults: 4 });
    assert.equal(exact.structuredContent.matches.length, 4);
    assert.equal(exact.structuredContent.truncated, false);
  });

  test('the server-wide maxResults caps a larger request', async () => {
    const capped = createWorkspaceTools(root, { maxResults: 3 });
    const { structuredContent } = await call(
      'search_text',
      { query: 'e', maxResults: 500 },
      live(),
      capped,
    );
    assert.equal(structuredContent.matches.length, 3);
    assert.equal(structuredContent.truncatedReason, 'maxResults');
  });

  test('a bad regular expression and an empty query are isError results that say how to fix them', async () => {
    const bad = await call('search_text', { query: '(unclosed', regex: true });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /Invalid regular expression.*Unterminated group.*regex to false/);
    assert.match(text(await call('search_text', { query: '' })), /query is empty/);
    assert.match(
      text(await call('search_text', { query: 'x', path: 'nope' })),
      /'nope' does not exist/,
    );
  });

  test('a single file can be searched, and a long line comes back as an excerpt around the match', async (t) => {
    t.after(() => rm(join(root, 'wide.txt')));
    await writeFile(join(root, 'wide.txt'), `${'x'.repeat(5000)}NEEDLE${'y'.repeat(5000)}\n`);
    const { structuredContent } = await call('search_text', { query: 'needle', path: 'wide.txt' });
    const [match] = structuredContent.matches;
    assert.equal(match.column, 5001);
    assert.ok(match.text.length <= 202);
    assert.match(match.text, /^…x+NEEDLEy+…$/);
  });

  test('a catastrophic regular expression stops at the time limit with the result marked', async (t) => {
    t.after(() => rm(join(root, 'redos.txt')));
    await writeFile(join(root, 'redos.txt'), `${'a'.repeat(40)}!\n`);
    const quick = createWorkspaceTools(root, { searchTimeMs: 100 });
    const { structuredContent } = await call(
      'search_text',
      { query: '^(a+)+$', regex: true, path: 'redos.txt' },
      live(),
      quick,
    );
    assert.equal(structuredContent.truncated, true);
    assert.equal(structuredContent.truncatedReason, 'timeLimit');
    // Under load the limit can strike before the worker has opened the file.
    assert.ok(structuredContent.filesSearched <= 1);
  });

  test('cancelling the signal stops a running search, and an aborted signal stops it before it starts', async (t) => {
    t.after(() => rm(join(root, 'redos2.txt')));
    await writeFile(join(root, 'redos2.txt'), `${'a'.repeat(40)}!\n`);
    const controller = new AbortController();
    const pending = call(
      'search_text',
      { query: '^(a+)+$', regex: true, path: 'redos2.txt' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50); // either way (before or during the run) it is cancelled
    const result = await pending;
    assert.equal(result.isError, true);
    assert.match(text(result), /cancelled/);
    const early = await call('search_text', { query: 'alpha' }, { signal: controller.signal });
    assert.match(text(early), /cancelled/);
  });
});

describe('file_info', () => {
  test('it reports a file with its size, ISO times and octal permissions', async (t) => {
    await chmod(join(root, 'hello.txt'), 0o640);
    const { structuredContent } = await call('file_info', { path: 'hello.txt' });
    assert.equal(structuredContent.path, 'hello.txt');
    assert.equal(structuredContent.type, 'file');
    assert.equal(structuredContent.size, 31);
    assert.equal(new Date(structuredContent.modified).toISOString(), structuredContent.modified);
    if (structuredContent.created !== undefined) {
      assert.equal(new Date(structuredContent.created).toISOString(), structuredContent.created);
    }
    if (process.platform === 'win32') return t.skip('POSIX mode bits');
    assert.equal(structuredContent.permissions, '640');
  });

  test('it reports the root and a folder as directories', async () => {
    assert.equal((await call('file_info', { path: '.' })).structuredContent.type, 'directory');
    assert.equal((await call('file_info', { path: '' })).structuredContent.path, '.');
    assert.equal(
      (await call('file_info', { path: 'sub/deep' })).structuredContent.path,
      'sub/deep',
    );
  });

  test('a missing path is an isError result', async () => {
    const result = await call('file_info', { path: 'ghost.txt' });
    assert.equal(result.isError, true);
    assert.match(text(result), /'ghost.txt' does not exist/);
  });

  test('a FIFO is reported as other, and listing it or a path under a file says what it is', async (t) => {
    assert.match(
      text(await call('list_directory', { path: 'hello.txt/x' })),
      /'hello.txt\/x' does not exist: a part of the path before the last '\/' is a file/,
    );
    if (process.platform === 'win32') return t.skip('no FIFOs on Windows');
    execFileSync('mkfifo', [join(root, 'pipe2')]);
    try {
      const { structuredContent } = await call('file_info', { path: 'pipe2' });
      assert.deepEqual([structuredContent.path, structuredContent.type], ['pipe2', 'other']);
      assert.match(
        text(await call('list_directory', { path: 'pipe2' })),
        /^'pipe2' is not a folder \(it may be a device, a pipe or a socket\)\. Use file_info/,
      );
    } finally {
      await rm(join(root, 'pipe2'));
    }
  });
});
