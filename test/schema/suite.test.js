// Runs the official JSON-Schema-Test-Suite (draft 2020-12) against compileSchema: every file,
// including optional/ and optional/format/ (with formatAssertion on). The data is read from
// ../shared/json-schema-test-suite (never copied into the repo); the test skips when it is absent.
// Skipped or refused cases are listed with their reasons in unsupported.js.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileSchema } from '../../dist/schema/validate.js';
import { SchemaCompileError } from '../../dist/schema/types.js';
import { assertFormats, unsupported } from './unsupported.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const suiteDir = path.resolve(repoRoot, '..', 'shared', 'json-schema-test-suite', 'draft2020-12');

function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.isDirectory()) out.push(...listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`));
    else if (entry.name.endsWith('.json')) out.push(prefix + entry.name);
  }
  return out;
}

const counts = { passed: 0, skipped: 0, refused: 0 };

if (!fs.existsSync(suiteDir)) {
  test('the JSON-Schema-Test-Suite runs when ../shared is present', { skip: `not found: ${suiteDir}` }, () => {});
} else {
  describe('JSON-Schema-Test-Suite draft 2020-12', () => {
    for (const file of listFiles(suiteDir)) {
      const rules = unsupported[file] ?? {};
      const groups = JSON.parse(fs.readFileSync(path.join(suiteDir, file), 'utf8'));
      const options = { formatAssertion: assertFormats(file) };
      if (rules.file !== undefined) {
        test(`${file} is skipped`, { skip: rules.file }, () => {});
        counts.skipped += groups.reduce((n, g) => n + g.tests.length, 0);
        continue;
      }
      test(`${file} passes every case`, () => {
        const failures = [];
        for (const group of groups) {
          const refusedIf = rules.refusedIf !== undefined &&
            JSON.stringify(group.schema).includes(rules.refusedIf.text)
            ? rules.refusedIf.reason : undefined;
          const refusal = rules.refusedFile ?? rules.refused?.[group.description] ?? refusedIf;
          if (refusal !== undefined) {
            assert.throws(() => compileSchema(group.schema, options), SchemaCompileError,
              `${group.description} must be refused: ${refusal}`);
            counts.refused += group.tests.length;
            continue;
          }
          if (rules.groups?.[group.description] !== undefined) {
            counts.skipped += group.tests.length;
            continue;
          }
          // Both verdicts: the generated code (the default) and the interpreter.
          let validators;
          try {
            validators = [compileSchema(group.schema, { ...options, codegen: true }), compileSchema(group.schema, { ...options, codegen: false })];
          } catch (error) {
            failures.push(`${group.description}: compile failed: ${error.message}`);
            continue;
          }
          for (const t of group.tests) {
            const ok = validators.map((validator) => {
              const result = validator.validate(t.data);
              return result.valid === t.valid && (result.errors.length === 0) === t.valid;
            });
            if (ok[0] && ok[1]) {
              counts.passed++;
            } else {
              failures.push(`${group.description} / ${t.description}: expected ${t.valid} (generated ${ok[0] ? 'ok' : 'wrong'}, interpreter ${ok[1] ? 'ok' : 'wrong'})`);
            }
          }
        }
        assert.deepEqual(failures, []);
      });
    }
  });
  after(() => {
    console.log(`JSON-Schema-Test-Suite draft2020-12: ${counts.passed} cases passed, ` +
      `${counts.refused} refused at compile time as expected, ${counts.skipped} skipped (see unsupported.js)`);
  });
}
