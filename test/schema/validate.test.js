// Unit tests for compileSchema (src/schema/validate.ts): messages and locations, compile-time
// refusals, own-property semantics, depth and cost limits, float multipleOf, purity.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileSchema } from '../../dist/schema/validate.js';
import { SchemaCompileError } from '../../dist/schema/types.js';

const tool = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    limit: { type: 'integer', minimum: 1 },
    mode: { enum: ['r', 'w'] },
  },
  required: ['path'],
  additionalProperties: false,
};

const errorsOf = (schema, value, options) => compileSchema(schema, options).validate(value).errors;

describe('messages a model can act on', () => {
  test('a wrong type names the location, the expected type and the value', () => {
    const [error] = errorsOf(tool, { path: 'a', limit: 'ten' });
    assert.deepEqual(error, {
      instanceLocation: '/limit',
      keywordLocation: '/properties/limit/type',
      keyword: 'type',
      message: '/limit: expected integer, got string "ten"',
    });
  });

  test('a missing required property is reported at the object, with its name', () => {
    const [error] = errorsOf(tool, {});
    assert.equal(error.message, '/: missing required property "path"');
    assert.equal(error.instanceLocation, '');
    assert.equal(error.keywordLocation, '/required');
  });

  test('every error of an invalid call is listed, not only the first', () => {
    const errors = errorsOf(tool, { limit: 0, mode: 'x', extra: 1 });
    assert.deepEqual(errors.map((e) => e.keyword).sort(),
      ['additionalProperties', 'enum', 'minimum', 'required']);
  });

  test('an unexpected property lists the allowed names', () => {
    const error = errorsOf(tool, { path: 'a', extra: 1 })[0];
    assert.equal(error.instanceLocation, '/extra');
    assert.equal(error.message, '/extra: property "extra" is not allowed (allowed: "path", "limit", "mode")');
  });

  test('an enum failure lists the allowed values', () => {
    const error = errorsOf(tool, { path: 'a', mode: 'x' })[0];
    assert.equal(error.message, '/mode: expected one of "r" or "w", got string "x"');
  });

  test('the keyword location follows $ref into $defs', () => {
    const schema = {
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } } } },
      properties: { a: { $ref: '#/$defs/point' } },
    };
    const [error] = errorsOf(schema, { a: { x: 'no' } });
    assert.equal(error.keywordLocation, '/properties/a/$ref/properties/x/type');
    assert.equal(error.instanceLocation, '/a/x');
  });

  test('JSON Pointer segments are escaped in both locations', () => {
    const [error] = errorsOf({ properties: { 'a/b~c': { const: 1 } } }, { 'a/b~c': 2 });
    assert.equal(error.instanceLocation, '/a~1b~0c');
    assert.equal(error.keywordLocation, '/properties/a~1b~0c/const');
  });

  test('a failed anyOf says so and lists why each branch failed', () => {
    const errors = errorsOf({ anyOf: [{ type: 'string' }, { required: ['k'] }] }, { j: 1 });
    assert.deepEqual(errors.map((e) => e.keywordLocation), ['/anyOf', '/anyOf/0/type', '/anyOf/1/required']);
  });

  test('a oneOf matched twice names the matching branches', () => {
    const [error] = errorsOf({ oneOf: [{ type: 'integer' }, { minimum: 0 }] }, 5);
    assert.match(error.message, /matches 2 \(at 0, 1\)/);
  });

  test('lengths are counted in code points, not UTF-16 units', () => {
    const validator = compileSchema({ type: 'string', minLength: 2, maxLength: 2 });
    assert.equal(validator.validate('😀').valid, false);
    assert.equal(validator.validate('😀😀').valid, true);
    assert.match(validator.validate('😀').errors[0].message, /at least 2 characters, got 1/);
  });

  test('lengths of property values are counted in code points on the fast path too', () => {
    const validator = compileSchema({
      type: 'object',
      properties: { a: { type: 'string', minLength: 2 }, b: { type: 'string', maxLength: 1, enum: ['😀', 'ab'] } },
      additionalProperties: false,
    });
    assert.equal(validator.validate({ a: '😀' }).valid, false);
    assert.equal(validator.validate({ a: '😀😀' }).valid, true);
    assert.equal(validator.validate({ b: '😀' }).valid, true);
    assert.equal(validator.validate({ b: 'ab' }).valid, false);
    assert.match(validator.validate({ a: '😀' }).errors[0].message, /^\/a: .*at least 2 characters, got 1/);
  });

  test('a union of object schemas reports why each branch failed', () => {
    const validator = compileSchema({
      anyOf: [
        { type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'], additionalProperties: false },
        { type: 'object', properties: { kind: { const: 'b' }, n: { type: 'integer' } }, required: ['kind', 'n'] },
      ],
    });
    assert.equal(validator.validate({ kind: 'b', n: 1 }).valid, true);
    assert.deepEqual(validator.validate({ kind: 'b', n: 'x' }).errors.map((e) => e.keywordLocation),
      ['/anyOf', '/anyOf/0/properties/kind/const', '/anyOf/0/additionalProperties', '/anyOf/1/properties/n/type']);
  });

  test('unevaluatedProperties inside a property is checked on the fast path', () => {
    const validator = compileSchema({
      properties: { opts: { properties: { a: { type: 'string' } }, unevaluatedProperties: false } },
    });
    assert.equal(validator.validate({ opts: { a: 'x' } }).valid, true);
    const [error] = validator.validate({ opts: { a: 'x', b: 1 } }).errors;
    assert.equal(error.keywordLocation, '/properties/opts/unevaluatedProperties');
    assert.equal(error.instanceLocation, '/opts/b');
  });

  test('maxErrors caps the number of errors', () => {
    const schema = { type: 'array', items: { type: 'string' } };
    assert.equal(errorsOf(schema, Array(50).fill(1), { maxErrors: 3 }).length, 3);
    assert.equal(errorsOf(schema, Array(50).fill(1)).length, 50);
  });

  test('a valid value gives an empty error list', () => {
    const result = compileSchema(tool).validate({ path: 'a', limit: 3 });
    assert.deepEqual(result, { valid: true, errors: [] });
  });
});

describe('compile-time refusals', () => {
  const refused = (schema, path, pattern, options) => {
    assert.throws(() => compileSchema(schema, options), (error) => {
      assert.ok(error instanceof SchemaCompileError);
      assert.equal(error.path, path);
      assert.match(error.message, pattern);
      return true;
    });
  };

  test('a $ref outside the document is refused, never fetched', () => {
    refused({ properties: { a: { $ref: 'https://example.com/s.json' } } }, '/properties/a/$ref', /never fetched/);
  });

  test('a $ref to a missing $defs entry is refused', () => {
    refused({ $ref: '#/$defs/missing' }, '/$ref', /does not point into this schema/);
  });

  test('a $dynamicRef to an anchor the document does not have is refused, never fetched', () => {
    refused({ items: { $dynamicRef: '#node' } }, '/items/$dynamicRef', /\$dynamicRef "#node" does not point into this schema/);
  });

  test('a document needing more than 64 dynamic scopes is refused, not compiled 64 times over', () => {
    // Each resource, entered first through its own $ref, is the outermost to define `x`.
    const resource = (i) => ({ $id: `r${i}`, $defs: { a: { $dynamicAnchor: 'x' } }, items: { $dynamicRef: '#x' } });
    const schema = (n) => ({
      $defs: Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, resource(i)])),
      anyOf: Array.from({ length: n }, (_, i) => ({ $ref: `r${i}` })),
    });
    assert.equal(compileSchema(schema(60)).validate([[]]).valid, true);
    refused(schema(70), '/$defs/r0/items/$dynamicRef', /more than 64 dynamic scopes/);
  });

  test('$ref and $dynamicRef in one schema object are refused with the way out', () => {
    refused({ $defs: { a: { $dynamicAnchor: 'a' } }, items: { $ref: '#/$defs/a', $dynamicRef: '#a' } },
      '/items/$dynamicRef', /put one of them under allOf/);
  });

  test('required must be an array of strings', () => {
    refused({ required: 'a' }, '/required', /array of strings/);
    refused({ required: ['a', 1] }, '/required', /array of strings/);
  });

  test('a pattern must compile with the u flag', () => {
    refused({ properties: { a: { pattern: '\\a' } } }, '/properties/a/pattern', /u flag/);
  });

  test('unknown types and invalid numbers are refused', () => {
    refused({ type: 'strin' }, '/type', /unknown type "strin"/);
    refused({ minLength: -1 }, '/minLength', /non-negative integer/);
    refused({ multipleOf: 0 }, '/multipleOf', /greater than 0/);
  });

  test('the draft-07 array form of items is refused with the 2020-12 remedy', () => {
    refused({ items: [{ type: 'string' }] }, '/items', /prefixItems/);
  });

  test('unknown keywords are ignored by default and refused in strict mode', () => {
    assert.equal(compileSchema({ foo: 1 }).validate(1).valid, true);
    refused({ properties: { a: { foo: 1 } } }, '/properties/a/foo', /unknown keyword "foo"/, { strict: true });
  });

  test('a $ref loop that never descends into the value is refused', () => {
    refused({ $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }, '/$defs/a', /loop/);
  });

  test('a recursive $ref that descends into the value is accepted', () => {
    const tree = { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } };
    const validator = compileSchema(tree);
    assert.equal(validator.validate({ kids: [{ kids: [] }] }).valid, true);
    assert.equal(validator.validate({ kids: [{ kids: 1 }] }).valid, false);
  });
});

describe('$dynamicRef and the bundled meta-schemas', () => {
  // Both backends: the interpreter, then the generated code (from the 4th validation on).
  const both = (schema) => [compileSchema(schema, { codegen: false }), compileSchema(schema, { codegen: true })];

  test('a $ref to the 2020-12 meta-schema checks a schema and says what is wrong where', () => {
    for (const v of both({ $ref: 'https://json-schema.org/draft/2020-12/schema' })) {
      assert.equal(v.validate({ type: 'object', properties: { a: { type: 'string', minLength: 1 } } }).valid, true);
      assert.equal(v.validate(true).valid, true);
      const messages = v.validate({ properties: { a: { minLength: -1 } }, required: 'a' }).errors.map((e) => e.message);
      assert.deepEqual(messages, ['/properties/a/minLength: expected a number >= 0, got -1', '/required: expected array, got string "a"']);
      // Through `$dynamicRef: "#meta"` at every depth.
      const deep = v.validate({ $defs: { x: { items: { not: { anyOf: [] } } } } });
      assert.deepEqual(deep.errors.map((e) => e.message), ['/$defs/x/items/not/anyOf: expected at least 1 items, got 0']);
      assert.match(deep.errors[0].keywordLocation, /\/\$dynamicRef\//);
    }
  });

  test('a $dynamicRef resolves to the outermost $dynamicAnchor in the dynamic scope', () => {
    // A generic list whose item schema the including resource chooses (Core §8.2.3.2).
    const schema = {
      $id: 'https://example.com/strings',
      $defs: {
        item: { $dynamicAnchor: 'item', type: 'string' },
        list: {
          $id: 'list',
          type: 'array',
          items: { $dynamicRef: '#item' },
          $defs: { default: { $dynamicAnchor: 'item' } },
        },
      },
      properties: { words: { $ref: 'list' }, any: { $ref: 'list#/$defs/default' } },
    };
    for (const v of both(schema)) {
      for (let i = 0; i < 4; i++) v.validate({});
      assert.equal(v.validate({ words: ['a', 'b'] }).valid, true);
      assert.deepEqual(v.validate({ words: ['a', 1] }).errors.map((e) => [e.keywordLocation, e.message]),
        [['/properties/words/$ref/items/$dynamicRef/type', '/words/1: expected string, got integer 1']]);
    }
    // On its own, the list takes any item (its own $dynamicAnchor is the outermost).
    for (const v of both(schema.$defs.list)) assert.equal(v.validate([1, 'a', null]).valid, true);
  });
});

describe('safety', () => {
  test('__proto__ and constructor are plain property names', () => {
    // Built with JSON.parse: in an object literal, `__proto__:` would set the prototype.
    const schema = JSON.parse('{"required": ["__proto__", "constructor"], "properties": {"__proto__": {"type": "integer"}}}');
    const validator = compileSchema(schema);
    assert.equal(validator.validate({}).valid, false);
    assert.equal(validator.validate(JSON.parse('{"__proto__": 1, "constructor": 2}')).valid, true);
    assert.equal(validator.validate(JSON.parse('{"__proto__": "x", "constructor": 2}')).valid, false);
  });

  test('inherited properties do not satisfy required or count as present', () => {
    const validator = compileSchema({ required: ['isAdmin'], additionalProperties: false });
    const inherited = Object.create({ isAdmin: true });
    assert.equal(validator.validate(inherited).valid, false);
    assert.equal(validator.validate({ isAdmin: true }).valid, false);
  });

  test('a value nested deeper than maxDepth fails with an error, not a stack overflow', () => {
    const schema = { $defs: { n: { type: 'object', properties: { c: { $ref: '#/$defs/n' } } } }, $ref: '#/$defs/n' };
    let deep = {};
    for (let i = 0; i < 100000; i++) deep = { c: deep };
    const result = compileSchema(schema).validate(deep);
    assert.equal(result.valid, false);
    assert.match(result.errors[0].message, /nested deeper than 256 levels/);
    assert.equal(compileSchema(schema, { maxDepth: 10 }).validate({ c: { c: {} } }).valid, true);
  });

  test('uniqueItems compares deep items only down to maxDepth', () => {
    let deep = [];
    for (let i = 0; i < 1000; i++) deep = [deep];
    const result = compileSchema({ uniqueItems: true }).validate([deep, 1]);
    assert.equal(result.valid, false);
    assert.match(result.errors[0].message, /nested deeper/);
  });

  test('anyOf nested 30 levels over shared subschemas stays bounded in both passes', { timeout: 60_000 }, () => {
    // Each level's two branches both lead to the level below and fail there: 2^30 evaluations
    // of d0 without the shared-plan memo (verdict) and the step budget (error pass).
    const $defs = { d0: { type: 'object', required: ['x'] } };
    for (let i = 1; i <= 30; i++) {
      $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}`, minProperties: 0 }, { $ref: `#/$defs/d${i - 1}`, maxProperties: 9 }] };
    }
    const schema = { $defs, $ref: '#/$defs/d30' };
    // The same through a reused schema object instead of $ref.
    let reused = { type: 'object', required: ['x'] };
    for (let i = 0; i < 30; i++) reused = { anyOf: [{ allOf: [reused], minProperties: 0 }, { allOf: [reused], maxProperties: 9 }] };
    for (const s of [schema, reused]) {
      for (const codegen of [true, false]) {
        const v = compileSchema(s, { codegen });
        assert.equal(v.validate({ x: 1 }).valid, true);
        const result = v.validate({ z: 1 });
        assert.equal(result.valid, false);
        assert.ok(result.errors.length <= 100);
        assert.ok(result.errors.some((e) => e.message.includes('missing required property "x"')));
      }
    }
    const cut = compileSchema(schema).validate({ z: 1 }).errors;
    assert.equal(cut.at(-1).keyword, 'maxSteps');
    assert.match(cut.at(-1).message, /more reasons not listed/);
  });

  test('nested anyOf over a recursive schema stays linear (memoised per value)', () => {
    // Each level tries two branches that both recurse before failing: 2^depth without memo.
    const schema = {
      $defs: {
        n: {
          anyOf: [
            { properties: { c: { $ref: '#/$defs/n' } }, required: ['x'] },
            { properties: { c: { $ref: '#/$defs/n' } }, required: ['y'] },
          ],
        },
      },
      $ref: '#/$defs/n',
    };
    let value = { y: 1 };
    for (let i = 0; i < 60; i++) value = { c: value, y: 1 };
    value = { c: value, z: 1 }; // The root matches neither branch.
    const result = compileSchema(schema).validate(value);
    assert.equal(result.valid, false);
    assert.ok(result.errors.length <= 100);
  });

  test('validation never mutates the value', () => {
    const value = { path: 'a', limit: 'x', extra: [1, { b: 2 }] };
    const copy = structuredClone(value);
    compileSchema({ ...tool, unevaluatedProperties: false }).validate(value);
    assert.deepEqual(value, copy);
  });

  test('one validator can be used again and from inside a getter (reentrant)', () => {
    const validator = compileSchema(tool);
    const value = {
      get path() {
        assert.equal(validator.validate({ path: 1 }).valid, false);
        return 'a';
      },
    };
    assert.equal(validator.validate(value).valid, true);
    assert.equal(validator.validate({ path: 'b' }).valid, true);
  });

  test('a $ref into a recursive loop is depth-limited, a $ref to a plain $defs entry is not', () => {
    const plain = {
      $defs: { point: { type: 'object', properties: { x: { type: 'integer' } } } },
      properties: { at: { $ref: '#/$defs/point' } },
    };
    assert.equal(compileSchema(plain, { maxDepth: 0 }).validate({ at: { x: 1 } }).valid, true);
    assert.equal(compileSchema(plain, { maxDepth: 0 }).validate({ at: { x: 'a' } }).valid, false);
    const tree = { properties: { kids: { type: 'array', items: { $ref: '#' } } } };
    assert.equal(compileSchema(tree, { maxDepth: 2 }).validate({ kids: [{ kids: [] }] }).valid, true);
    const result = compileSchema(tree, { maxDepth: 2 }).validate({ kids: [{ kids: [{ kids: [] }] }] });
    assert.equal(result.valid, false);
    assert.match(result.errors[0].message, /nested deeper than 2 levels/);
  });

  test('only plan-codegen.ts generates code, and the validator works where that is refused', () => {
    const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'schema');
    const code = (f) => fs.readFileSync(path.join(dir, f), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    const offenders = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))
      .filter((f) => /\bnew\s+Function\b|\beval\s*\(|(^|[^.\w])Function\s*\(/m.test(code(f)));
    assert.deepEqual(offenders, ['plan-codegen.ts']);
    assert.ok(/\beval\s*\(/.test('x = eval("1")'), 'the pattern finds a call to eval');
    // As in Cloudflare Workers or under a CSP: new Function throws, the interpreter decides.
    const script = `
      import { compileSchema } from ${JSON.stringify(new URL('../../dist/schema/validate.js', import.meta.url).href)};
      let refused = false;
      try { new Function('return 1'); } catch { refused = true; }
      const v = compileSchema({ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] });
      console.log(JSON.stringify([refused, v.validate({ a: 1 }).valid, v.validate({ a: 'x' }).errors[0].message]));`;
    const out = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), [true, true, '/a: expected integer, got string "x"']);
  });

  test('by default the code is generated at the 4th validation; true generates at once, false never', () => {
    const original = globalThis.Function;
    let generated = 0;
    globalThis.Function = new Proxy(original, { construct(target, args) { generated++; return Reflect.construct(target, args); } });
    try {
      const schema = { type: 'object', properties: { a: { type: 'integer' } } };
      const lazy = compileSchema(schema);
      for (let i = 1; i <= 3; i++) assert.equal(lazy.validate({ a: i }).valid, true);
      assert.equal(generated, 0);
      assert.equal(lazy.validate({ a: 'x' }).valid, false);
      assert.equal(generated, 1);
      for (let i = 0; i < 10; i++) lazy.validate({ a: i });
      assert.equal(generated, 1);
      compileSchema(schema, { codegen: true });
      assert.equal(generated, 2);
      const never = compileSchema(schema, { codegen: false });
      for (let i = 0; i < 10; i++) never.validate({ a: i });
      assert.equal(generated, 2);
    } finally {
      globalThis.Function = original;
    }
  });

  test('a 3,000-link $ref chain, a frozen validator and a kept validate all survive the switch to generated code', () => {
    const $defs = {};
    for (let i = 0; i < 3000; i++) {
      $defs[`d${i}`] = i + 1 < 3000 ? { type: 'object', properties: { next: { $ref: `#/$defs/d${i + 1}` } } } : { type: 'object' };
    }
    const chain = { type: 'object', properties: { tree: { $ref: '#/$defs/d0' } }, $defs };
    const lazy = compileSchema(chain);
    for (let i = 0; i < 6; i++) assert.equal(lazy.validate({ tree: { next: {} } }).valid, true);
    const eager = compileSchema(chain, { codegen: true });
    assert.equal(eager.validate({ tree: { next: 5 } }).valid, false);
    assert.equal(eager.validate({ tree: { next: { next: {} } } }).valid, true);

    const frozen = Object.freeze(compileSchema({ type: 'integer' }));
    const { validate } = compileSchema({ type: 'integer' });
    for (let i = 0; i < 6; i++) {
      assert.equal(frozen.validate(i).valid, true);
      assert.equal(validate(i).valid, true);
    }
    assert.equal(frozen.validate('x').valid, false);
    assert.equal(validate('x').errors[0].message, '/: expected integer, got string "x"');
  });

  test('the generated verdict hands objects that are not plain to the interpreter', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'], additionalProperties: false };
    for (const codegen of [true, false]) {
      const v = compileSchema(schema, { codegen });
      assert.equal(v.validate({ a: 1 }).valid, true);
      assert.equal(v.validate(Object.create({ a: 1 })).valid, false, 'inherited a');
      const bare = Object.create(null);
      bare.a = 1;
      assert.equal(v.validate(bare).valid, true, 'null prototype');
      class A { constructor() { this.a = 1; } }
      assert.equal(v.validate(new A()).valid, true, 'class instance with own a');
      assert.equal(v.validate(JSON.parse('{"a": 1, "constructor": 2}')).valid, false, 'own constructor');
      assert.equal(v.validate(JSON.parse('{"a": 1, "__proto__": 2}')).valid, false, 'own __proto__');
    }
  });

  test('a polluted Object.prototype does not satisfy required, in either verdict', () => {
    const schema = { required: ['isAdmin'], properties: { isAdmin: { const: true } } };
    const validators = [compileSchema(schema, { codegen: true }), compileSchema(schema, { codegen: false })];
    for (const v of validators) assert.equal(v.validate({ isAdmin: true }).valid, true);
    Object.prototype.isAdmin = true;
    try {
      for (const v of validators) assert.equal(v.validate({}).valid, false);
    } finally {
      delete Object.prototype.isAdmin;
    }
  });

  test('an own property whose value is undefined counts as absent, as in JSON', () => {
    const validator = compileSchema({ required: ['a'], properties: { b: { type: 'string' } } });
    assert.equal(validator.validate({ a: 1, b: undefined }).valid, true);
    assert.equal(validator.validate({ a: undefined }).valid, false);
  });
});

describe('numbers', () => {
  test('multipleOf is exact for decimal floats such as 0.0075 / 0.0001', () => {
    const validator = compileSchema({ multipleOf: 0.0001 });
    assert.equal(validator.validate(0.0075).valid, true);
    assert.equal(validator.validate(0.00751).valid, false);
    assert.equal(compileSchema({ multipleOf: 0.1 }).validate(0.3).valid, true);
    assert.equal(compileSchema({ multipleOf: 0.01 }).validate(0.075).valid, false);
  });

  test('multipleOf handles huge quotients without overflow errors', () => {
    assert.equal(compileSchema({ type: 'integer', multipleOf: 0.5 }).validate(1e308).valid, true);
    assert.equal(compileSchema({ multipleOf: 0.123456789 }).validate(1e308).valid, false);
  });

  test('1 and 1.0 are equal for const, enum and uniqueItems', () => {
    assert.equal(compileSchema({ const: 1 }).validate(1.0).valid, true);
    assert.equal(compileSchema({ enum: [[1, { a: 2 }]] }).validate([1.0, { a: 2.0 }]).valid, true);
    assert.equal(compileSchema({ uniqueItems: true }).validate([{ a: 1 }, { a: 1.0 }]).valid, false);
    assert.equal(compileSchema({ uniqueItems: true }).validate(['1', 1]).valid, true);
  });

  test('integer accepts 1.0 and refuses 1.5, NaN and Infinity', () => {
    const validator = compileSchema({ type: 'integer' });
    assert.equal(validator.validate(1.0).valid, true);
    for (const x of [1.5, NaN, Infinity]) assert.equal(validator.validate(x).valid, false);
  });
});

describe('format', () => {
  test('format is an annotation by default and an assertion when asked', () => {
    assert.equal(compileSchema({ format: 'date' }).validate('2021-02-30').valid, true);
    const asserted = compileSchema({ format: 'date' }, { formatAssertion: true });
    assert.equal(asserted.validate('2021-02-30').valid, false);
    assert.equal(asserted.validate('2024-02-29').valid, true);
    assert.equal(asserted.validate(5).valid, true);
  });

  test('an unknown format always passes', () => {
    assert.equal(compileSchema({ format: 'x-custom' }, { formatAssertion: true }).validate('?').valid, true);
  });
});
