// Unknown and misspelled keywords: JSON Schema ignores an unknown keyword, so `requried` checks
// nothing. The lint names each with its path and, when close to a known keyword, "did you mean".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editDistance, findKeywordViolations, findUnknownKeywords, misspellingOf } from '../../dist/schema/keyword-lint.js';

test('the misspellings people make are matched to the keyword they meant', () => {
  const cases = {
    requried: 'required', properites: 'properties', minLenght: 'minLength', tpye: 'type',
    minlength: 'minLength', additionalPropertis: 'additionalProperties', itmes: 'items',
    enmu: 'enum', maxitems: 'maxItems', patern: 'pattern', desciption: 'description',
    exclusiveMinium: 'exclusiveMinimum', Required: 'required', REF: undefined, $Ref: '$ref',
  };
  for (const [typo, meant] of Object.entries(cases)) assert.equal(misspellingOf(typo), meant, typo);
});

test('short names of one\'s own are not read as short keywords', () => {
  for (const name of ['ui', 'id2', 'case', 'unit', 'mode', 'tags', 'hint', 'label', 'widget', 'order', 'secret']) {
    assert.equal(misspellingOf(name), undefined, name);
  }
});

test('editDistance counts a swap of neighbours as one edit and stops past the bound', () => {
  assert.equal(editDistance('requried', 'required'), 1);
  assert.equal(editDistance('minLenght', 'minLength'), 1);
  assert.equal(editDistance('abc', 'abc'), 0);
  assert.equal(editDistance('kitten', 'sitting', 5), 3);
  assert.equal(editDistance('additionalProperties', 'type'), 3);
});

test('findUnknownKeywords walks subschemas only, with dotted paths, and keeps quiet about annotations, x- keys and converter extras', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://example.com/s', $comment: 'c', title: 't', description: 'd', deprecated: false,
    type: 'object',
    requried: ['a'],
    discriminator: { propertyName: 'kind' },
    'x-mcp-header': 'Region',
    properties: {
      // A property named like a misspelled keyword is a name, not a keyword.
      requried: { type: 'string', nullable: true, example: 'x', readOnly: true, examples: ['y'] },
      a: { type: 'string', minLenght: 1, default: { requried: 1 }, const: { tpye: 1 }, enum: [{ itmes: 1 }] },
      b: { type: 'array', items: { type: 'object', properites: { c: {} } }, prefixItems: [{ maxitems: 1 }] },
    },
    $defs: { d: { anyOf: [{ widget: 1 }] } },
    definitions: { e: { if: { tpye: 'x' }, then: {}, else: {} } },
    additionalProperties: { propertyOrdering: ['x'], 'x-order': 1 },
    widget: { requried: 'not walked: the value of an unknown keyword' },
  };
  assert.deepEqual(findUnknownKeywords(schema), [
    { path: 'requried', keyword: 'requried', suggestion: 'required' },
    { path: 'widget', keyword: 'widget' },
    { path: 'properties.a.minLenght', keyword: 'minLenght', suggestion: 'minLength' },
    { path: 'properties.b.items.properites', keyword: 'properites', suggestion: 'properties' },
    { path: 'properties.b.prefixItems.0.maxitems', keyword: 'maxitems', suggestion: 'maxItems' },
    { path: '$defs.d.anyOf.0.widget', keyword: 'widget' },
    { path: 'definitions.e.if.tpye', keyword: 'tpye', suggestion: 'type' },
  ]);
  assert.deepEqual(findUnknownKeywords(true), []);
  const cyclic = { type: 'object', properties: {} };
  cyclic.properties.self = cyclic;
  assert.deepEqual(findUnknownKeywords(cyclic), []);
});

test('findKeywordViolations: a misspelling is an mcp error, an unknown keyword and a 2020-12 $schema are mcp warnings', () => {
  const rows = findKeywordViolations([
    { name: 't', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema#', type: 'object', requried: [], widget: 1 }, outputSchema: { type: 'object', maxPropertys: 1 } },
    { name: 'u', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' } },
  ]);
  assert.deepEqual(rows.map((r) => [r.tool, r.profile, r.severity, r.rule, r.path, r.remedy]), [
    ['t', 'mcp', 'warning', 'mcp.schema-2020-12', '$schema', 'remove "$schema" (2020-12 is the default): clients on Ajv\'s default draft-07 refuse the tool'],
    ['t', 'mcp', 'error', 'mcp.misspelled-keyword', 'requried', 'did you mean "required"? (an unknown keyword is ignored, so nothing checks it)'],
    ['t', 'mcp', 'warning', 'mcp.unknown-keyword', 'widget', 'not a JSON Schema keyword, so nothing checks it (rename it "x-..." if it is yours)'],
    ['t', 'mcp', 'error', 'mcp.misspelled-keyword', 'outputSchema.maxPropertys', 'did you mean "maxProperties"? (an unknown keyword is ignored, so nothing checks it)'],
  ]);
});
