// URI templates: RFC 6570 level 1 `{var}` and reserved expansion `{+var}`, compiled once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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

/** The regular expression a template means (`{var}`: `([^/?#]+)`, `{+var}`: `(.+)`): the oracle. */
function oracle(template) {
  const source = template
    .split(/(\{\+?[^{}]+\})/)
    .map((piece) => (piece.startsWith('{') ? (piece[1] === '+' ? '(.+)' : '([^/?#]+)') : piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 's');
}

test('matching splits a URI exactly as a greedy backtracking regular expression would, without one', () => {
  // Templates and URIs over a small alphabet, so that ambiguous splits are common.
  const literal = fc.string({ unit: fc.constantFrom('a', '-', '/', '.', '?', '#'), maxLength: 3 });
  const variable = fc.record({ reserved: fc.boolean(), name: fc.constantFrom('a', 'b', 'c') });
  const template = fc
    .tuple(literal, fc.array(fc.tuple(variable, literal.filter((s) => s.length > 0)), { maxLength: 4 }), literal)
    .map(([head, pairs, tail]) => head + pairs.map(([v, l]) => `{${v.reserved ? '+' : ''}${v.name}}${l}`).join('') + tail);
  // URIs made by filling the variables with text that holds the literals too (so that many
  // splits are possible), and arbitrary ones.
  const unit = fc.constantFrom('a', 'b', '-', '/', '.', '?', '#');
  const cases = template.chain((text) =>
    fc.tuple(
      fc.constant(text),
      fc.oneof(
        fc.array(fc.string({ unit, minLength: 1, maxLength: 5 }), { minLength: 4, maxLength: 4 }).map((values) => {
          let k = 0;
          return text.replace(/\{\+?[^{}]+\}/g, () => values[k++]);
        }),
        fc.string({ unit, maxLength: 14 }),
      ),
    ),
  );
  let matched = 0;
  fc.assert(
    fc.property(cases, ([text, candidate]) => {
      const compiled = compileUriTemplate(text);
      const m = oracle(text).exec(candidate);
      let expected;
      if (m !== null) {
        expected = {};
        const names = [...text.matchAll(/\{\+?([^{}]+)\}/g)].map((x) => x[1]);
        for (const [k, name] of names.entries()) {
          if (name in expected && expected[name] !== m[k + 1]) return assert.equal(compiled.match(candidate), undefined);
          expected[name] = m[k + 1];
        }
      }
      if (expected !== undefined) matched++;
      assert.deepEqual(compiled.match(candidate), expected, `${text} against ${candidate}`);
    }),
    { numRuns: 3000 },
  );
  assert.ok(matched > 300, `only ${matched} of 3000 cases matched`);
});

test('a crafted URI cannot stop the server: matching takes linear time (a backtracking regex took hours), and URIs over 65,536 characters match nothing', () => {
  // In a child process with a deadline, so that a hang fails the test instead of the suite.
  const script = `
    import { compileUriTemplate } from ${JSON.stringify(new URL('../../dist/server/uri-template.js', import.meta.url).href)};
    const t = compileUriTemplate('db://{+a}-{+b}-{+c}-{+d}.json');
    const two = compileUriTemplate('weather://{city}-{date}');
    const out = [
      t.match('db://' + '-'.repeat(60000) + 'x'),
      two.match('weather://' + '-'.repeat(60000) + '/'),
      t.match('db://a-b-c-' + 'd'.repeat(60000) + '.json')?.d.length,
      t.match('db://a-b-c-' + 'd'.repeat(70000) + '.json'),
    ];
    console.log(JSON.stringify(out));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(child.signal, null, 'the matches finished (a backtracking regular expression takes hours here)');
  assert.deepEqual(JSON.parse(child.stdout), [null, null, 60000, null]);
});
