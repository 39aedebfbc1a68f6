// The prompt registry: prompts/list and prompts/get, shaped per revision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RpcError } from '../../dist/protocol/errors.js';
import { audio, embeddedResource, image, resourceLink, text } from '../../dist/server/content.js';
import { PromptDefinitionError } from '../../dist/server/prompt.js';
import { PromptRegistry } from '../../dist/server/prompts.js';
import { createServer } from '../../dist/server/server.js';
import { assertSchema, fakeCtx, REVISIONS, shaped, SKIP } from './mcp-schema.js';

const review = {
  name: 'code_review',
  title: 'Code review',
  description: 'Review a piece of code.',
  icons: [{ src: 'https://example.com/r.png' }],
  _meta: { 'example.com/k': true },
  arguments: [
    { name: 'code', title: 'Code', description: 'The code', required: true },
    { name: 'language', description: 'Its language' },
  ],
  complete: { language: (value) => ['python', 'rust'].filter((l) => l.startsWith(value)) },
  get: ({ code, language }) => `Please review this ${language ?? 'code'}:\n${code}`,
};
const rich = {
  name: 'rich',
  description: 'Every content type.',
  get: async () => [
    { role: 'user', content: text('look', { annotations: { audience: ['user'], lastModified: '2025-01-12T15:00:58Z' } }) },
    { role: 'assistant', content: image('aGk=', 'image/png') },
    { role: 'user', content: audio('aGk=', 'audio/wav') },
    { role: 'user', content: resourceLink({ uri: 'file:///a.md', name: 'a.md', icons: [{ src: 'https://e.com/i.png' }] }) },
    { role: 'user', content: embeddedResource({ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'x' }) },
    { role: 'assistant', content: 'plain string content' },
  ],
};
const full = { name: 'full', get: () => ({ description: 'From get', messages: [{ role: 'user', content: text('m') }], _meta: { x: 1 } }) };
const broken = { name: 'broken', get: () => [{ role: 'system', content: text('no') }] };
const noMessages = { name: 'no_messages', get: () => ({ description: 'd' }) };
const badContent = { name: 'bad_content', get: () => [{ role: 'user', content: { type: 'video' } }] };

const registry = () => new PromptRegistry([review, rich, full, broken, noMessages, badContent]);

async function rejects(promise, pattern, data) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof RpcError, String(error));
    assert.equal(error.code, -32602);
    assert.match(error.message, pattern);
    if (data !== undefined) assert.deepEqual(error.data, data);
    return true;
  });
}

test('prompts/list is a valid ListPromptsResult in every revision', { skip: SKIP }, async () => {
  const r = registry();
  for (const revision of REVISIONS) {
    const page = await shaped(revision, r.list(undefined, fakeCtx(revision), 100), 'public');
    assertSchema(revision, 'ListPromptsResult', page);
    assert.equal(page.prompts.length, 6);
  }
});

test('prompt fields are served only to revisions that have them', () => {
  const r = registry();
  const first = (revision) => r.list(undefined, fakeCtx(revision), 100).prompts[0];
  assert.deepEqual(first('2025-03-26'), {
    name: 'code_review',
    description: 'Review a piece of code.',
    arguments: [
      { name: 'code', description: 'The code', required: true },
      { name: 'language', description: 'Its language' },
    ],
  });
  assert.equal(first('2025-06-18').title, 'Code review');
  assert.equal(first('2025-06-18').arguments[0].title, 'Code');
  assert.deepEqual(first('2025-06-18')._meta, { 'example.com/k': true });
  assert.equal(first('2025-06-18').icons, undefined);
  assert.deepEqual(first('2025-11-25').icons, [{ src: 'https://example.com/r.png' }]);
  assert.equal('complete' in first('2025-11-25') || 'get' in first('2025-11-25'), false);
});

test('prompts/list is paginated', () => {
  const r = registry();
  const one = r.list(undefined, fakeCtx(), 4);
  assert.equal(one.prompts.length, 4);
  const two = r.list({ cursor: one.nextCursor }, fakeCtx(), 4);
  assert.deepEqual(two.prompts.map((p) => p.name), ['no_messages', 'bad_content']);
  assert.equal(two.nextCursor, undefined);
});

test('a string from get becomes one user text message, with the prompt description', async () => {
  const result = await registry().get({ name: 'code_review', arguments: { code: 'x = 1', language: 'python' } }, fakeCtx());
  assert.deepEqual(result, {
    description: 'Review a piece of code.',
    messages: [{ role: 'user', content: { type: 'text', text: 'Please review this python:\nx = 1' } }],
  });
});

test('optional arguments may be left out and get sees exactly what was given', async () => {
  const seen = [];
  const r = new PromptRegistry([{ name: 'p', arguments: [{ name: 'a' }], get: (args) => (seen.push(args), 'ok') }]);
  await r.get({ name: 'p' }, fakeCtx());
  await r.get({ name: 'p', arguments: null }, fakeCtx());
  // As JSON.parse reads it from the wire: "__proto__" is an own key, and must stay a plain argument.
  const wire = '{"a":"","extra":"e","__proto__":"y"}';
  await r.get({ name: 'p', arguments: JSON.parse(wire) }, fakeCtx());
  assert.deepEqual(seen, [{}, {}, JSON.parse(wire)]);
  assert.equal(Object.getPrototypeOf(seen[2]), Object.prototype);
  assert.equal(Object.hasOwn(seen[2], '__proto__'), true);
});

test('a full GetPromptResult from get keeps its description and _meta', async () => {
  assert.deepEqual(await registry().get({ name: 'full' }, fakeCtx()), {
    description: 'From get',
    messages: [{ role: 'user', content: { type: 'text', text: 'm' } }],
    _meta: { x: 1 },
  });
});

test('messages with every content type are a valid GetPromptResult in every revision', { skip: SKIP }, async () => {
  const r = registry();
  for (const revision of REVISIONS) {
    for (const name of ['code_review', 'rich', 'full']) {
      const result = await shaped(revision, r.get({ name, arguments: { code: 'c' } }, fakeCtx(revision)));
      assertSchema(revision, 'GetPromptResult', result);
    }
  }
});

test('content a revision lacks is degraded to text, and newer fields are left out', async () => {
  const r = registry();
  const types = async (revision) => (await r.get({ name: 'rich' }, fakeCtx(revision))).messages.map((m) => m.content.type);
  assert.deepEqual(await types('2024-11-05'), ['text', 'image', 'text', 'text', 'resource', 'text']);
  assert.deepEqual(await types('2025-03-26'), ['text', 'image', 'audio', 'text', 'resource', 'text']);
  assert.deepEqual(await types('2025-06-18'), ['text', 'image', 'audio', 'resource_link', 'resource', 'text']);
  const old = (await r.get({ name: 'rich' }, fakeCtx('2025-03-26'))).messages;
  assert.match(old[3].content.text, /file:\/\/\/a\.md/);
  assert.deepEqual(old[0].content.annotations, { audience: ['user'] });
  const newer = (await r.get({ name: 'rich' }, fakeCtx('2025-06-18'))).messages;
  assert.equal(newer[3].content.icons, undefined);
  assert.equal(newer[5].content.text, 'plain string content');
});

test('an unknown prompt or a missing name is -32602', async () => {
  const r = registry();
  await rejects(r.get({ name: 'nope' }, fakeCtx()), /Unknown prompt: nope/, { name: 'nope' });
  await rejects(r.get({}, fakeCtx()), /params\.name/);
  await rejects(r.get(undefined, fakeCtx()), /params\.name/);
});

test('a missing required argument is -32602 naming it', async () => {
  const r = registry();
  await rejects(r.get({ name: 'code_review', arguments: { language: 'go' } }, fakeCtx()), /"code"/, { name: 'code_review', missing: ['code'] });
  await rejects(r.get({ name: 'code_review' }, fakeCtx('2026-07-28')), /missing required argument "code"/);
});

test('arguments must be an object of strings', async () => {
  const r = registry();
  await rejects(r.get({ name: 'code_review', arguments: { code: 5 } }, fakeCtx()), /"code".*must be a string, got number/);
  await rejects(r.get({ name: 'code_review', arguments: { code: null } }, fakeCtx()), /got null/);
  await rejects(r.get({ name: 'code_review', arguments: { code: ['a'] } }, fakeCtx()), /got array/);
  await rejects(r.get({ name: 'code_review', arguments: 'code=1' }, fakeCtx()), /must be an object/);
  await rejects(r.get({ name: 'code_review', arguments: [] }, fakeCtx()), /must be an object/);
});

test('a malformed get return is a server error, not a protocol error', async () => {
  const r = registry();
  for (const [name, pattern] of [['broken', /role/], ['no_messages', /no messages/], ['bad_content', /content: unknown content type "video" \(choose from text, image, audio, resource_link, resource\)/]]) {
    await assert.rejects(r.get({ name }, fakeCtx()), (e) => !(e instanceof RpcError) && pattern.test(e.message), name);
  }
});

test('at 2026-07-28 get results carry resultType and lists the hints configured for prompts/list', { skip: SKIP }, async () => {
  const server = createServer({ info: { name: 't', version: '1' }, prompts: [full], cache: { 'prompts/list': { ttlMs: 30000, cacheScope: 'public' } } });
  const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const got = (await server.handle({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'full', _meta } })).result;
  assert.equal(got.resultType, 'complete');
  assert.equal('ttlMs' in got, false, 'prompts/get is not cacheable');
  assertSchema('2026-07-28', 'GetPromptResult', got);
  const list = (await server.handle({ jsonrpc: '2.0', id: 2, method: 'prompts/list', params: { _meta } })).result;
  assert.deepEqual([list.resultType, list.ttlMs, list.cacheScope], ['complete', 30000, 'public']);
  const plain = createServer({ info: { name: 't', version: '1' }, prompts: [full], cacheTtlMs: 5 });
  const defaults = (await plain.handle({ jsonrpc: '2.0', id: 3, method: 'prompts/list', params: { _meta } })).result;
  assert.deepEqual([defaults.ttlMs, defaults.cacheScope], [5, 'public']);
});

test('adding and removing prompts on a live registry updates the list and tells listeners', async () => {
  const r = registry();
  let heard = 0;
  const stop = r.onListChanged(() => heard++);
  r.add({ name: 'late', get: () => 'late' });
  assert.equal(r.list(undefined, fakeCtx(), 100).prompts.at(-1).name, 'late');
  assert.equal((await r.get({ name: 'late' }, fakeCtx())).messages[0].content.text, 'late');
  assert.equal(r.remove('late'), true);
  assert.equal(r.remove('late'), false);
  await rejects(r.get({ name: 'late' }, fakeCtx()), /Unknown prompt/);
  assert.equal(heard, 2);
  stop();
  r.add({ name: 'quiet', get: () => 'q' });
  assert.equal(heard, 2);
  assert.equal(r.size, 7);
  assert.equal(r.prompt('quiet').name, 'quiet');
});

test('unusable prompt definitions are refused with the reason', () => {
  const get = () => 'x';
  const cases = [
    [{ name: '', get }, /non-empty string/],
    [{ name: 'p' }, /get\(args, ctx\)/],
    [{ name: 'p', get, description: 3 }, /description/],
    [{ name: 'p', get, arguments: 'a' }, /arguments must be an array/],
    [{ name: 'p', get, arguments: [{ description: 'x' }] }, /non-empty name/],
    [{ name: 'p', get, arguments: [{ name: 'a' }, { name: 'a' }] }, /declared twice/],
    [{ name: 'p', get, arguments: [{ name: 'a', required: 'yes' }] }, /boolean/],
    [{ name: 'p', get, arguments: [{ name: 'a' }], complete: { b: () => [] } }, /complete\.b/],
    [{ name: 'p', get, arguments: [{ name: 'a' }], complete: { a: [] } }, /must be a function/],
  ];
  for (const [prompt, message] of cases) {
    assert.throws(() => new PromptRegistry([prompt]), (e) => e instanceof PromptDefinitionError && message.test(e.message), message.source);
  }
  assert.throws(() => new PromptRegistry([{ name: 'p', get }, { name: 'p', get }]), /defined twice/);
});

test('prompts with completers are reported for the completions capability', () => {
  assert.equal(registry().hasCompletions(), true);
  assert.equal(new PromptRegistry([full]).hasCompletions(), false);
});
