// The wire-schema oracle: validates messages against the published schema.json of each MCP
// revision (read from ../shared/mcp-schema, never copied), with ajv.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { shared } from './helpers.js';

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
export const schemaDir = shared('mcp-schema');
const cache = new Map();

/** A validator for one revision: `check(definition, value)` returns ajv's errors or null. */
export function oracle(revision) {
  if (!schemaDir) return undefined;
  let entry = cache.get(revision);
  if (!entry) {
    const schema = JSON.parse(readFileSync(join(schemaDir, revision, 'schema.json'), 'utf8'));
    const modern = '$defs' in schema;
    const ajv = modern ? new Ajv2020({ strict: false, validateFormats: false, allErrors: true }) : new Ajv({ strict: false, validateFormats: false, allErrors: true });
    const id = `mcp-${revision}`;
    ajv.addSchema({ ...schema, $id: id });
    const defs = modern ? '$defs' : 'definitions';
    entry = {
      has: (name) => name in schema[defs],
      check(name, value) {
        const validate = ajv.getSchema(`${id}#/${defs}/${name}`);
        if (!validate) throw new Error(`${revision} has no ${name}`);
        return validate(value) ? null : validate.errors;
      },
    };
    cache.set(revision, entry);
  }
  return entry;
}

/** Asserts `value` is valid as `name` in `revision`; the message shows ajv's errors. */
export function assertWire(assert, revision, name, value) {
  const errors = oracle(revision).check(name, value);
  assert.equal(errors, null, `${revision} ${name}: ${JSON.stringify(errors?.slice(0, 3))}\n${JSON.stringify(value).slice(0, 400)}`);
}
