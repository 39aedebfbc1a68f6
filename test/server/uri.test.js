// Resource URI checks: RFC 3986 shape, and path traversal refused for templates that map to files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUri, safeRelativePath } from '../../dist/server/uri.js';

test('absolute URIs of any scheme have the URI shape', () => {
  for (const uri of ['file:///project/src/main.rs', 'https://example.com/a?b=c#d', 'urn:isbn:0451450523', 'git://h/r.git', 'my-app+v1.2:thing', 'file:///my%20file.txt', 'x:', 'db://[::1]:5432/t']) {
    assert.equal(isUri(uri), true, uri);
  }
});

test('relative references, raw spaces, bad escapes and other stray characters are refused', () => {
  for (const uri of ['/etc/passwd', 'a.txt', '1abc:x', ':x', 'file:///my file.txt', 'file:///é', 'file:///a%2', 'file:///a%zz', 'file:///a\\b', 'x://a#b#c', 'x://{id}', 'x://a"b', 'x://a\nb', '', 42, undefined]) {
    assert.equal(isUri(uri), false, String(uri));
  }
});

test('a clean relative path comes back with empty and dot segments removed', () => {
  assert.equal(safeRelativePath('src/main.rs'), 'src/main.rs');
  assert.equal(safeRelativePath('src//./lib/x.ts'), 'src/lib/x.ts');
  assert.equal(safeRelativePath('a..b/..c/d..'), 'a..b/..c/d..');
  assert.equal(safeRelativePath('notes/100%.txt'), 'notes/100%.txt');
});

test('traversal, absolute paths, NUL, backslashes and encoded dots are refused', () => {
  for (const value of ['..', '../x', 'a/../../etc/passwd', 'a/..', '/etc/passwd', 'C:/Windows', 'c:x', 'a\\..\\b', 'a\u0000b', 'a\nb', '%2e%2e/x', '%2E%2E%2Fx', 'a/%252e%252e/b', '%25252e%25252e', 'a%2fb%zz', '', '.', './/', undefined]) {
    assert.equal(safeRelativePath(value), undefined, JSON.stringify(value));
  }
});
