// What the JSON-Schema-Test-Suite run (suite.test.js) does not expect to pass, each with why.
//
// Keys are file paths relative to tests/draft2020-12. A value is either
// - { file: reason }: every case of the file is skipped;
// - { groups: { 'group description': reason } }: those groups are skipped;
// - { refused: { 'group description': reason } } or { refusedFile: reason }: the schema must be
//   refused by compileSchema with a SchemaCompileError (checked by the test, not skipped);
// - { refusedIf: { text, reason } }: groups whose schema contains `text` must be refused, the
//   other groups of the file must pass.

const REMOTE = 'points to a schema outside the document; baremcp never fetches $ref targets';
const NOT_ASSERTED = 'format not asserted by baremcp (it stays an annotation, as 2020-12 allows)';

/** Formats run with `formatAssertion: true`; other files run with the default (false). */
export const assertFormats = (file) =>
  file.startsWith('optional/format/') || file === 'optional/format-assertion.json';

/** The skip and refusal list. */
export const unsupported = {
  'dynamicRef.json': {
    refused: {
      'strict-tree schema, guards against misspelled properties': REMOTE,
      'tests for implementation dynamic anchor and reference link': REMOTE,
      '$ref and $dynamicAnchor are independent of order - $defs first': REMOTE,
      '$ref and $dynamicAnchor are independent of order - $ref first': REMOTE,
      '$ref to $dynamicRef finds detached $dynamicAnchor': REMOTE,
    },
  },
  'refRemote.json': { refusedFile: REMOTE },
  'optional/cross-draft.json': { refusedFile: REMOTE },
  'vocabulary.json': {
    groups: {
      'schema that uses custom metaschema with with no validation vocabulary':
        '$vocabulary is read from the meta-schema, which is remote and never fetched',
    },
  },
  'optional/dependencies-compatibility.json': {
    file: 'the draft 2019-09 "dependencies" keyword is not part of 2020-12 (use dependentRequired)',
  },
  'optional/format/idn-email.json': { file: NOT_ASSERTED },
  'optional/format/idn-hostname.json': { file: NOT_ASSERTED },
  'optional/format/iri.json': { file: NOT_ASSERTED },
  'optional/format/iri-reference.json': { file: NOT_ASSERTED },
  'optional/format/uri-template.json': { file: NOT_ASSERTED },
};
