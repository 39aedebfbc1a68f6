// completion/complete for prompt arguments and resource template variables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RpcError } from '../../dist/protocol/errors.js';
import { complete, hasCompletions, MAX_COMPLETION_VALUES, toCompletion } from '../../dist/server/completion.js';
import { PromptRegistry } from '../../dist/server/prompts.js';
import { ResourceRegistry } from '../../dist/server/resources.js';
import { assertSchema, fakeCtx, REVISIONS, shaped, SKIP } from './mcp-schema.js';

const frameworks = { python: ['flask', 'django', 'fastapi'], rust: ['axum', 'actix'] };
const many = Array.from({ length: 250 }, (_, i) => `v${i}`);
const calls = [];

const prompts = new PromptRegistry([
  {
    name: 'code_review',
    arguments: [{ name: 'language' }, { name: 'framework' }, { name: 'style' }],
    complete: {
      language: (value) => Object.keys(frameworks).filter((l) => l.startsWith(value)),
      framework: async (value, ctx, context) => {
        calls.push({ value, revision: ctx.protocolVersion, context });
        return (frameworks[context.language] ?? []).filter((f) => f.startsWith(value));
      },
    },
    get: () => 'x',
  },
  { name: 'open', get: () => 'x', complete: undefined },
  { name: 'big', arguments: [{ name: 'v' }], complete: { v: () => many }, get: () => 'x' },
  { name: 'counted', arguments: [{ name: 'v' }], complete: { v: () => ({ values: ['a', 'b'], total: 40 }) }, get: () => 'x' },
  { name: 'flagged', arguments: [{ name: 'v' }], complete: { v: () => ({ values: ['a'], hasMore: true }) }, get: () => 'x' },
  { name: 'broken', arguments: [{ name: 'v' }], complete: { v: () => [1, 2] }, get: () => 'x' },
]);
const resources = new ResourceRegistry([
  { uri: 'config://app', name: 'config', read: () => '{}' },
  ...[
    { uriTemplate: 'repo://{owner}/{repo}', name: 'repos', read: () => 'r', complete: { repo: (value, _ctx, context) => [`${context.owner ?? '?'}/${value}1`] } },
    { uriTemplate: 'file:///{+path}', name: 'files', read: () => 'f' },
    { uriTemplate: 'x://{constructor}', name: 'odd', read: () => 'o', complete: {} },
  ],
]);
const sources = { prompts, resources };
const promptRef = (name) => ({ type: 'ref/prompt', name });
const resourceRef = (uri) => ({ type: 'ref/resource', uri });

async function rejects(params, pattern) {
  await assert.rejects(complete(params, fakeCtx(), sources), (error) => {
    assert.ok(error instanceof RpcError, String(error));
    assert.equal(error.code, -32602);
    assert.match(error.message, pattern);
    return true;
  });
}

test('a prompt argument completer gets the typed value and answers with total and hasMore', async () => {
  const result = await complete({ ref: promptRef('code_review'), argument: { name: 'language', value: 'py' } }, fakeCtx(), sources);
  assert.deepEqual(result, { completion: { values: ['python'], total: 1, hasMore: false } });
});

test('context.arguments reach the completer as already-chosen values', async () => {
  calls.length = 0;
  const params = { ref: promptRef('code_review'), argument: { name: 'framework', value: 'f' }, context: { arguments: { language: 'python' } } };
  const result = await complete(params, fakeCtx('2025-06-18'), sources);
  assert.deepEqual(result.completion.values, ['flask', 'fastapi']);
  assert.deepEqual(calls, [{ value: 'f', revision: '2025-06-18', context: { language: 'python' } }]);
  const without = await complete({ ...params, context: undefined }, fakeCtx(), sources);
  assert.deepEqual(without.completion, { values: [], total: 0, hasMore: false });
});

test('a resource template variable completer sees the other variables', async () => {
  const result = await complete(
    { ref: resourceRef('repo://{owner}/{repo}'), argument: { name: 'repo', value: 'base' }, context: { arguments: { owner: 'me' } } },
    fakeCtx(),
    sources,
  );
  assert.deepEqual(result.completion.values, ['me/base1']);
});

test('more than 100 values are cut to 100 with the true total and hasMore', async () => {
  const result = await complete({ ref: promptRef('big'), argument: { name: 'v', value: '' } }, fakeCtx(), sources);
  assert.equal(result.completion.values.length, MAX_COMPLETION_VALUES);
  assert.deepEqual(result.completion.values.slice(0, 2), ['v0', 'v1']);
  assert.equal(result.completion.total, 250);
  assert.equal(result.completion.hasMore, true);
});

test('a completer may state its own total and hasMore', async () => {
  const counted = await complete({ ref: promptRef('counted'), argument: { name: 'v', value: '' } }, fakeCtx(), sources);
  assert.deepEqual(counted.completion, { values: ['a', 'b'], total: 40, hasMore: true });
  const flagged = await complete({ ref: promptRef('flagged'), argument: { name: 'v', value: '' } }, fakeCtx(), sources);
  assert.deepEqual(flagged.completion, { values: ['a'], total: 1, hasMore: true });
  assert.deepEqual(toCompletion({ values: ['a', 'b', 'c'], total: 1 }), { values: ['a', 'b', 'c'], total: 3, hasMore: false });
});

test('an argument or variable without a completer gets no values', async () => {
  for (const params of [
    { ref: promptRef('code_review'), argument: { name: 'style', value: 'x' } },
    { ref: promptRef('open'), argument: { name: 'anything', value: 'x' } },
    { ref: promptRef('open'), argument: { name: 'constructor', value: 'x' } },
    { ref: resourceRef('x://{constructor}'), argument: { name: 'constructor', value: 'x' } },
    { ref: resourceRef('repo://{owner}/{repo}'), argument: { name: 'owner', value: 'x' } },
    { ref: resourceRef('file:///{+path}'), argument: { name: 'path', value: 'x' } },
    { ref: resourceRef('config://app'), argument: { name: 'x', value: '' } },
  ]) {
    assert.deepEqual((await complete(params, fakeCtx(), sources)).completion, { values: [], total: 0, hasMore: false });
  }
});

test('every completion result is a valid CompleteResult in every revision', { skip: SKIP }, async () => {
  for (const revision of REVISIONS) {
    for (const params of [
      { ref: promptRef('big'), argument: { name: 'v', value: '' } },
      { ref: promptRef('code_review'), argument: { name: 'style', value: '' } },
      { ref: resourceRef('repo://{owner}/{repo}'), argument: { name: 'repo', value: 'a' } },
    ]) {
      assertSchema(revision, 'CompleteResult', await shaped(revision, complete(params, fakeCtx(revision), sources)));
    }
  }
});

test('an unknown prompt, template or argument is -32602', async () => {
  await rejects({ ref: promptRef('nope'), argument: { name: 'a', value: '' } }, /unknown prompt: nope/);
  await rejects({ ref: resourceRef('nope://{x}'), argument: { name: 'x', value: '' } }, /unknown resource template/);
  await rejects({ ref: promptRef('code_review'), argument: { name: 'colour', value: '' } }, /no argument "colour"/);
  await rejects({ ref: resourceRef('repo://{owner}/{repo}'), argument: { name: 'branch', value: '' } }, /no variable "branch"/);
  await assert.rejects(complete({ ref: promptRef('code_review'), argument: { name: 'language', value: '' } }, fakeCtx(), { resources }), /unknown prompt/);
});

test('malformed params are -32602', async () => {
  await rejects(undefined, /params/);
  await rejects({ argument: { name: 'a', value: '' } }, /params\.ref/);
  await rejects({ ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a', value: '' } }, /ref\.type/);
  await rejects({ ref: { type: 'ref/prompt' }, argument: { name: 'a', value: '' } }, /ref\.name/);
  await rejects({ ref: { type: 'ref/resource' }, argument: { name: 'a', value: '' } }, /ref\.uri/);
  await rejects({ ref: promptRef('code_review'), argument: { name: 'language' } }, /argument/);
  await rejects({ ref: promptRef('code_review'), argument: { name: 'language', value: '' }, context: { arguments: { a: 1 } } }, /context\.arguments/);
  await rejects({ ref: promptRef('code_review'), argument: { name: 'language', value: '' }, context: { arguments: [] } }, /context\.arguments/);
});

test('a completer that returns something other than strings is a server error', async () => {
  await assert.rejects(
    complete({ ref: promptRef('broken'), argument: { name: 'v', value: '' } }, fakeCtx(), sources),
    (e) => !(e instanceof RpcError) && /array of strings/.test(e.message),
  );
  assert.throws(() => toCompletion('abc'), /array of strings/);
});

test('the completions capability is due only when some prompt or template completes', () => {
  assert.equal(hasCompletions(sources), true);
  assert.equal(hasCompletions({ resources }), true);
  assert.equal(hasCompletions({}), false);
  assert.equal(hasCompletions({ prompts: new PromptRegistry([{ name: 'p', get: () => 'x' }]), resources: new ResourceRegistry() }), false);
});
