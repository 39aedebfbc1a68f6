// URI templates: RFC 6570 level 1 `{var}` and reserved expansion `{+var}`, compiled once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileUriTemplate, isUriTemplate, UriTemplateError } from '../../dist/server/uri-template.js';

test('a reserved variable matches a path across slashes and is percent-decoded', () => {
  const t = compileUriTemplate('file:///{+path}');
  assert.deepEqual(t.variables, ['path']);
  assert.deepEqual(t.match('file:///src/a%20b.ts'), { path: 'src/a b.ts' });
  assert.deepEqual(t.match('file:///x'), { path: 'x' });
  assert.equal(t.match('file:///'), undefined);
  assert.equal(t.match('http:///x'), undefined);
});

test('a simple variable matches exactly one path segment', () => {
  const t = compileUriTemplate('users://{id}/profile');
  assert.deepEqual(t.match('users://42/profile'), { id: '42' });
  assert.deepEqual(t.match('users://a%2Fb/profile'), { id: 'a/b' });
  assert.equal(t.match('users://4/2/profile'), undefined);
  assert.equal(t.match('users:///profile'), undefined);
  assert.equal(t.match('users://42/profile/extra'), undefined);
  assert.equal(t.match('users://42?x/profile'), undefined);
});

test('several variables are matched in order and listed once each', () => {
  const t = compileUriTemplate('repo://{owner}/{repo}/tree/{+path}');
  assert.deepEqual(t.variables, ['owner', 'repo', 'path']);
  assert.deepEqual(t.match('repo://me/proj/tree/src/lib/x.ts'), { owner: 'me', repo: 'proj', path: 'src/lib/x.ts' });
});

test('a repeated variable matches only when both places hold the same value', () => {
  const t = compileUriTemplate('x://{a}/{a}');
  assert.deepEqual(t.variables, ['a']);
  assert.deepEqual(t.match('x://1/1'), { a: '1' });
  assert.equal(t.match('x://1/2'), undefined);
});

test('literal text with regular-expression characters is matched literally', () => {
  const t = compileUriTemplate('x://a.b/(c)+/{id}');
  assert.deepEqual(t.match('x://a.b/(c)+/7'), { id: '7' });
  assert.equal(t.match('x://aXb/(c)+/7'), undefined);
  assert.equal(t.match('x://a.b/ccc/7'), undefined);
});

test('a malformed percent-escape in a value is no match', () => {
  const t = compileUriTemplate('x://{a}');
  assert.equal(t.match('x://%zz'), undefined);
  assert.equal(t.match('x://%E0%A4%A'), undefined);
});

test('simple expansion encodes reserved characters and reserved expansion keeps them', () => {
  const simple = compileUriTemplate('search://{q}');
  assert.equal(simple.expand({ q: "a/b c?d#e!'()*%" }), 'search://a%2Fb%20c%3Fd%23e%21%27%28%29%2A%25');
  assert.equal(simple.expand({ q: 'é' }), 'search://%C3%A9');
  const reserved = compileUriTemplate('file:///{+path}');
  assert.equal(reserved.expand({ path: 'src/a b/%41?x#y' }), 'file:///src/a%20b/%41?x#y');
  assert.equal(reserved.expand({ path: '100%' }), 'file:///100%25');
});

test('expansion writes nothing for a missing variable and strings for numbers', () => {
  const t = compileUriTemplate('x://{a}/{b}');
  assert.equal(t.expand({ a: 1 }), 'x://1/');
  assert.equal(t.expand({}), 'x:///');
});

test('simple expansion then matching gives back any non-empty value', () => {
  const t = compileUriTemplate('x://host/{v}/end');
  fc.assert(
    fc.property(fc.string({ minLength: 1, unit: 'grapheme' }), (v) => {
      assert.deepEqual(t.match(t.expand({ v })), { v });
    }),
  );
});

test('reserved expansion then matching gives back any value without a percent sign', () => {
  const t = compileUriTemplate('file:///{+path}');
  fc.assert(
    fc.property(fc.string({ minLength: 1, unit: 'grapheme' }).filter((s) => !s.includes('%')), (path) => {
      assert.deepEqual(t.match(t.expand({ path })), { path });
    }),
  );
});

test('expressions beyond level 1 and reserved expansion are refused when compiled', () => {
  for (const bad of ['x://{?q}', 'x://{#f}', 'x://{/p}', 'x://{.e}', 'x://{;m}', 'x://{&q}', 'x://{a,b}', 'x://{a*}', 'x://{a:3}', 'x://{}', 'x://{a-b}']) {
    assert.throws(() => compileUriTemplate(bad), UriTemplateError, bad);
  }
});

test('unbalanced braces and adjacent variables are refused with the reason', () => {
  assert.throws(() => compileUriTemplate('x://{a'), /not closed/);
  assert.throws(() => compileUriTemplate('x://a}'), /has no "\{"/);
  assert.throws(() => compileUriTemplate('x://{a}{b}'), /adjacent/);
  assert.throws(() => compileUriTemplate(42), UriTemplateError);
});

test('a template without variables matches only itself', () => {
  const t = compileUriTemplate('config://app');
  assert.deepEqual(t.variables, []);
  assert.deepEqual(t.match('config://app'), {});
  assert.equal(t.match('config://apps'), undefined);
});

test('isUriTemplate tells a template from a plain URI', () => {
  assert.equal(isUriTemplate('file:///{+path}'), true);
  assert.equal(isUriTemplate('file:///a.txt'), false);
});
