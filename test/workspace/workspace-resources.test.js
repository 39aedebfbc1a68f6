// The workspace example's resources (file:///{+path}), its review_file prompt and their path
// completion, on a real temporary directory: text and blob reads, media types, the size cap,
// every path-escape class refused as "not found", and the results checked against schema.json.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RpcError } from '../../dist/protocol/errors.js';
import { complete } from '../../dist/server/completion.js';
import { PromptRegistry } from '../../dist/server/prompts.js';
import { ResourceRegistry } from '../../dist/server/resources.js';
import { createServer } from '../../dist/server/server.js';
import { compileUriTemplate } from '../../dist/server/uri-template.js';
import { isUri } from '../../dist/server/uri.js';
import {
  createWorkspacePrompts,
  createWorkspaceResources,
  createWorkspaceTools,
  workspaceInfo,
} from '../../dist/workspace/index.js';
import { workspaceFileUri } from '../../dist/workspace/file-contents.js';
import { guessMimeType } from '../../dist/workspace/mime.js';
import { assertWire, REVISIONS, schemaDir } from '../mcp-oracle.js';
import { fakeCtx, shaped } from '../server/mcp-schema.js';

const SKIP_SCHEMA = schemaDir === undefined ? 'needs ../shared/mcp-schema (absent)' : false;
const SECRET = 'TOP-SECRET-TOKEN';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
const SPECIAL = 'my file #1?%.txt';

// Layout: <base>/ws is the root; <base>/ws-evil shares its name as a prefix; <base>/outside
// holds a secret reached through symbolic links inside the root.
let base;
let root;
let resources;
let prompts;
let hasFifo = false;

before(async () => {
  base = await mkdtemp(join(tmpdir(), 'baremcp-wsres-'));
  root = join(base, 'ws');
  await mkdir(join(root, 'sub', 'deep'), { recursive: true });
  await mkdir(join(root, 'many'));
  await mkdir(join(base, 'ws-evil'));
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'ws-evil', 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(base, 'outside', 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(root, 'README.md'), '# Title\nneedle here\n');
  await writeFile(join(root, 'data.json'), '{"a":1}\n');
  await writeFile(join(root, 'Makefile'), 'all:\n\ttrue\n');
  await writeFile(join(root, 'logo.png'), PNG);
  await writeFile(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  await writeFile(join(root, 'unicode.txt'), 'héllo ✓ 日本語\n');
  await writeFile(join(root, 'empty.txt'), '');
  await writeFile(join(root, SPECIAL), 'special\n');
  await writeFile(join(root, '.env'), 'HIDDEN=1\n');
  await writeFile(join(root, 'big.txt'), 'x'.repeat(64));
  await writeFile(join(root, 'exact.txt'), 'y'.repeat(32));
  await writeFile(join(root, 'sub', 'inner.ts'), 'export const x = 1;\n');
  await writeFile(join(root, 'sub', 'deep', 'note.md'), 'deep note\n');
  for (let i = 0; i < 150; i++) await writeFile(join(root, 'many', `f${String(i).padStart(3, '0')}.txt`), `${i}`);
  await symlink(join(base, 'outside'), join(root, 'out-link'));
  await symlink(join(base, 'outside', 'secret.txt'), join(root, 'out-file-link'));
  await symlink('../ws-evil', join(root, 'rel-evil-link'));
  await symlink(join(base, 'outside', 'missing.txt'), join(root, 'dangling-out'));
  await symlink('sub', join(root, 'in-link'));
  await symlink('README.md', join(root, 'in-file-link'));
  await symlink('loop-b', join(root, 'loop-a'));
  await symlink('loop-a', join(root, 'loop-b'));
  try {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    hasFifo = true;
  } catch {
    // no mkfifo here: the FIFO case is skipped
  }
  const options = { maxResourceBytes: 32 };
  resources = new ResourceRegistry(createWorkspaceResources(root, options));
  prompts = new PromptRegistry(createWorkspacePrompts(root, options));
});

after(async () => {
  await rm(base, { recursive: true, force: true });
});

const read = (uri, revision = '2025-11-25') => resources.read({ uri }, fakeCtx(revision));
const uriOf = (relative) => workspaceFileUri(relative);

/** Asserts a rejection with an RpcError of `code` whose data and message show no secret. */
async function rejectsWith(promise, code, check = () => {}) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof RpcError, `expected an RpcError, got ${error}`);
    assert.equal(error.code, code, error.message);
    assert.doesNotMatch(JSON.stringify(error.data ?? null) + error.message, new RegExp(SECRET));
    assert.ok(!error.message.includes(base), 'the message reveals no host path');
    check(error);
    return true;
  });
}

describe('createWorkspaceResources and createWorkspacePrompts', () => {
  test('they return the file:///{+path} template and the review_file prompt, each with a completer', () => {
    const [template, ...more] = createWorkspaceResources(root);
    assert.equal(more.length, 0);
    assert.equal(template.uriTemplate, 'file:///{+path}');
    assert.equal(typeof template.read, 'function');
    assert.deepEqual(Object.keys(template.complete), ['path']);
    const [prompt, ...others] = createWorkspacePrompts(root);
    assert.equal(others.length, 0);
    assert.equal(prompt.name, 'review_file');
    assert.deepEqual(prompt.arguments.map((a) => [a.name, a.required === true]), [['path', true], ['focus', false]]);
    assert.deepEqual(Object.keys(prompt.complete), ['path']);
  });

  test('a missing root, a file as root and a bad limit are refused when they are created', () => {
    assert.throws(() => createWorkspaceResources(join(base, 'nope')), /cannot be opened/);
    assert.throws(() => createWorkspacePrompts(join(root, 'README.md')), /not a directory/);
    assert.throws(() => createWorkspaceResources(root, { maxResourceBytes: 0 }), /createWorkspaceResources: maxResourceBytes/);
    assert.throws(() => createWorkspacePrompts(root, { maxResourceBytes: 1.5 }), RangeError);
  });

  test('a server built with them announces resources, prompts and completions', () => {
    const server = createServer({
      info: workspaceInfo,
      tools: createWorkspaceTools(root),
      resources: createWorkspaceResources(root),
      prompts: createWorkspacePrompts(root),
    });
    const capabilities = server.capabilities();
    assert.deepEqual(capabilities.completions, {});
    assert.ok(capabilities.resources);
    assert.ok(capabilities.prompts);
    assert.ok(server.resources.template('file:///{+path}'));
  });
});

describe('resources/read of workspace files', () => {
  test('a UTF-8 file is text with a media type guessed from its extension', async () => {
    assert.deepEqual(await read('file:///README.md'), {
      contents: [{ uri: 'file:///README.md', mimeType: 'text/markdown', text: '# Title\nneedle here\n' }],
    });
    assert.deepEqual((await read('file:///data.json')).contents[0], { uri: 'file:///data.json', mimeType: 'application/json', text: '{"a":1}\n' });
    assert.equal((await read('file:///Makefile')).contents[0].mimeType, 'text/plain');
    assert.equal((await read('file:///unicode.txt')).contents[0].text, 'héllo ✓ 日本語\n');
    assert.equal((await read('file:///empty.txt')).contents[0].text, '');
    assert.equal((await read('file:///sub/inner.ts')).contents[0].mimeType, 'text/x-typescript');
  });

  test('a binary file is a base64 blob of exactly its bytes', async () => {
    const [png] = (await read('file:///logo.png')).contents;
    assert.equal(png.mimeType, 'image/png');
    assert.equal('text' in png, false);
    assert.deepEqual(Buffer.from(png.blob, 'base64'), PNG);
    const [latin1] = (await read('file:///latin1.txt')).contents;
    assert.equal(latin1.mimeType, 'application/octet-stream', 'a .txt that is not UTF-8 is not called text');
    assert.deepEqual([...Buffer.from(latin1.blob, 'base64')], [0x63, 0x61, 0x66, 0xe9, 0x0a]);
  });

  test('percent-encoded names, dot segments, doubled slashes and links inside the root are read', async () => {
    const encoded = uriOf(SPECIAL);
    assert.equal(encoded, 'file:///my%20file%20%231%3F%25.txt');
    assert.equal((await read(encoded)).contents[0].text, 'special\n');
    assert.equal((await read('file:///./sub//deep/note.md')).contents[0].text, 'deep note\n');
    assert.equal((await read('file:///in-link/deep/note.md')).contents[0].text, 'deep note\n');
    assert.equal((await read('file:///in-file-link')).contents[0].text, '# Title\nneedle here\n');
    assert.equal((await read('file:///.env')).contents[0].text, 'HIDDEN=1\n');
  });

  test('workspaceFileUri gives URIs that match the template back to the same path', () => {
    const template = compileUriTemplate('file:///{+path}');
    for (const name of [SPECIAL, 'a/b c/d.txt', 'ünï/cödé.md', 'x&y=z;w,v.txt', "o'k(1)!*.js", '100%.txt']) {
      const uri = uriOf(name);
      assert.ok(isUri(uri), uri);
      assert.equal(template.match(uri).path, name);
    }
  });

  for (const [label, uri] of [
    ['a .. segment', 'file:///../outside/secret.txt'],
    ['.. after a folder', 'file:///sub/../../outside/secret.txt'],
    ['an encoded ..', 'file:///%2e%2e/outside/secret.txt'],
    ['a double-encoded ..', 'file:///%252e%252e/outside/secret.txt'],
    ['an encoded slash around ..', 'file:///..%2Foutside%2Fsecret.txt'],
    ['the sibling folder sharing the root name', 'file:///../ws-evil/secret.txt'],
    ['a relative link into the sibling folder', 'file:///rel-evil-link/secret.txt'],
    ['a link to a folder outside', 'file:///out-link/secret.txt'],
    ['a link to a file outside', 'file:///out-file-link'],
    ['a dangling link pointing outside', 'file:///dangling-out'],
    ['a NUL byte', 'file:///README.md%00.txt'],
    ['backslashes', 'file:///sub%5C..%5C..%5Coutside%5Csecret.txt'],
    ['an absolute path', 'file:////etc/passwd'],
    ['an encoded absolute path', 'file:///%2Fetc%2Fpasswd'],
    ['a drive letter', 'file:///C:/Windows/win.ini'],
    ['a symbolic-link loop', 'file:///loop-a'],
    ['a missing file', 'file:///nope.txt'],
    ['a folder', 'file:///sub'],
    ['the root itself', 'file:///'],
    ['a path below a file', 'file:///README.md/x'],
  ]) {
    test(`${label} is not found (-32002 with data.uri), and nothing outside is read`, async () => {
      await rejectsWith(read(uri), -32002, (error) => assert.deepEqual(error.data, { uri }));
    });
  }

  test('a FIFO is not found, and reading it does not block', async (t) => {
    if (!hasFifo) return t.skip('no mkfifo');
    await rejectsWith(read('file:///pipe'), -32002);
  });

  test('at 2026-07-28 a refused path is -32602 with data.uri', async () => {
    const uri = 'file:///out-link/secret.txt';
    await rejectsWith(read(uri, '2026-07-28'), -32602, (error) => assert.deepEqual(error.data, { uri }));
  });

  test('a file over maxResourceBytes is -32603 naming the limit; one at the limit is read', async () => {
    assert.equal((await read('file:///exact.txt')).contents[0].text.length, 32);
    await rejectsWith(read('file:///big.txt'), -32603, (error) => {
      assert.deepEqual(error.data, { size: 64, maxBytes: 32 });
      assert.match(error.message, /32-byte limit.*read_text_file/);
    });
  });

  test('read results are valid ReadResourceResult in every revision', { skip: SKIP_SCHEMA }, async () => {
    for (const revision of REVISIONS) {
      for (const uri of ['file:///README.md', 'file:///logo.png']) {
        assertWire(assert, revision, 'ReadResourceResult', await shaped(revision, read(uri, revision), 'private'));
      }
      const list = resources.listTemplates(undefined, fakeCtx(revision), 100);
      assertWire(assert, revision, 'ListResourceTemplatesResult', await shaped(revision, list, 'public'));
      assert.equal(list.resourceTemplates[0].uriTemplate, 'file:///{+path}');
    }
  });
});

describe('path completion', () => {
  const completePath = (value) => createWorkspaceResources(root).at(0).complete.path(value, fakeCtx(), {});

  test('an empty value lists the root: folders with a slash, hidden entries left out, sorted', async () => {
    const { values, total, hasMore } = await completePath('');
    assert.deepEqual(values, [
      'Makefile', 'README.md', 'big.txt', 'dangling-out', 'data.json', 'empty.txt', 'exact.txt',
      'in-file-link', 'in-link', 'latin1.txt', 'logo.png', 'loop-a', 'loop-b', 'many/', SPECIAL, 'out-file-link', 'out-link', ...(hasFifo ? ['pipe'] : []),
      'rel-evil-link', 'sub/', 'unicode.txt',
    ]);
    assert.equal(total, values.length);
    assert.equal(hasMore, false);
  });

  test('a prefix narrows the list, a folder part lists that folder, a dot shows hidden entries', async () => {
    assert.deepEqual((await completePath('RE')).values, ['README.md']);
    assert.deepEqual((await completePath('sub/')).values, ['sub/deep/', 'sub/inner.ts']);
    assert.deepEqual((await completePath('sub/de')).values, ['sub/deep/']);
    assert.deepEqual((await completePath('sub/deep/n')).values, ['sub/deep/note.md']);
    assert.deepEqual((await completePath('./sub/i')).values, ['./sub/inner.ts']);
    assert.deepEqual((await completePath('in-link/')).values, ['in-link/deep/', 'in-link/inner.ts']);
    assert.deepEqual((await completePath('.e')).values, ['.env']);
    assert.deepEqual((await completePath('zzz')).values, []);
  });

  test('a folder of 150 files gives 100 values with total 150 and hasMore', async () => {
    const { values, total, hasMore } = await completePath('many/');
    assert.equal(values.length, 100);
    assert.equal(values[0], 'many/f000.txt');
    assert.equal(values[99], 'many/f099.txt');
    assert.equal(total, 150);
    assert.equal(hasMore, true);
  });

  for (const value of ['../', '../ws-evil/', '../outside/s', 'sub/../../', 'out-link/', 'rel-evil-link/', '/etc/', '/', 'sub\\..\\..\\', 'a\0/', 'nope/', 'README.md/', 'loop-a/', 'C:/']) {
    test(`${JSON.stringify(value)} completes to nothing`, async () => {
      assert.deepEqual(await completePath(value), { values: [], total: 0, hasMore: false });
    });
  }

  test('completion/complete through the registries gives valid CompleteResult in every revision', { skip: SKIP_SCHEMA }, async () => {
    for (const revision of REVISIONS) {
      const forTemplate = await complete(
        { ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: 'sub/' } },
        fakeCtx(revision),
        { resources, prompts },
      );
      assertWire(assert, revision, 'CompleteResult', await shaped(revision, forTemplate));
      assert.deepEqual(forTemplate.completion.values, ['sub/deep/', 'sub/inner.ts']);
      const forPrompt = await complete(
        { ref: { type: 'ref/prompt', name: 'review_file' }, argument: { name: 'path', value: 'many/' } },
        fakeCtx(revision),
        { resources, prompts },
      );
      assertWire(assert, revision, 'CompleteResult', await shaped(revision, forPrompt));
      assert.equal(forPrompt.completion.values.length, 100);
      assert.equal(forPrompt.completion.hasMore, true);
    }
  });
});

describe('the review_file prompt', () => {
  const get = (args, revision = '2025-11-25') => prompts.get({ name: 'review_file', arguments: args }, fakeCtx(revision));

  test('it returns the request and the file embedded as a resource', async () => {
    const result = await get({ path: 'sub/inner.ts', focus: 'naming' });
    assert.equal(result.messages.length, 2);
    const [request, file] = result.messages;
    assert.equal(request.role, 'user');
    assert.equal(request.content.type, 'text');
    assert.match(request.content.text, /review the file sub\/inner\.ts/);
    assert.match(request.content.text, /attention to: naming\./);
    assert.deepEqual(file, {
      role: 'user',
      content: { type: 'resource', resource: { uri: 'file:///sub/inner.ts', mimeType: 'text/x-typescript', text: 'export const x = 1;\n' } },
    });
    assert.doesNotMatch((await get({ path: 'README.md' })).messages[0].content.text, /attention/);
  });

  test('the embedded URI reads back the same file through the template', async () => {
    const result = await get({ path: SPECIAL });
    const { uri, text } = result.messages[1].content.resource;
    assert.equal((await read(uri)).contents[0].text, text);
  });

  test('a binary file is embedded as a base64 blob', async () => {
    const { resource } = (await get({ path: 'logo.png' })).messages[1].content;
    assert.equal(resource.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(resource.blob, 'base64'), PNG);
  });

  test('a missing, outside or folder path is -32602 naming the argument; a missing argument too', async () => {
    for (const path of ['nope.txt', '../outside/secret.txt', 'out-link/secret.txt', 'rel-evil-link/secret.txt', 'sub', '/etc/passwd', 'a\0b', '..\\outside\\secret.txt']) {
      await rejectsWith(get({ path }), -32602, (error) => assert.deepEqual(error.data, { argument: 'path' }));
    }
    await rejectsWith(get({}), -32602, (error) => assert.deepEqual(error.data.missing, ['path']));
  });

  test('a file over the size cap is -32603', async () => {
    await rejectsWith(get({ path: 'big.txt' }), -32603);
  });

  test('prompts/list and prompts/get results are valid in every revision', { skip: SKIP_SCHEMA }, async () => {
    for (const revision of REVISIONS) {
      assertWire(assert, revision, 'ListPromptsResult', await shaped(revision, prompts.list(undefined, fakeCtx(revision), 100), 'public'));
      assertWire(assert, revision, 'GetPromptResult', await shaped(revision, get({ path: 'README.md' }, revision)));
      assertWire(assert, revision, 'GetPromptResult', await shaped(revision, get({ path: 'logo.png' }, revision)));
    }
  });
});

describe('guessMimeType', () => {
  test('it maps known extensions case-insensitively and falls back by content', () => {
    assert.equal(guessMimeType('a/b/INDEX.TS', true), 'text/x-typescript');
    assert.equal(guessMimeType('photo.JPG', false), 'image/jpeg');
    assert.equal(guessMimeType('icon.svg', true), 'image/svg+xml');
    assert.equal(guessMimeType('.gitignore', true), 'text/plain');
    assert.equal(guessMimeType('archive.unknownext', false), 'application/octet-stream');
    assert.equal(guessMimeType('notes.txt', false), 'application/octet-stream');
    assert.equal(guessMimeType('data.json', false), 'application/octet-stream');
    assert.equal(guessMimeType('dir.d/file', true), 'text/plain');
  });
});
