// Runs the type tests: test/types/*.test-d.ts are type-checked (never run) by tsc, and any type
// error, including an unused `// @ts-expect-error`, fails this test.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from '../helpers.js';

const run = promisify(execFile);
const tsc = resolve(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const project = resolve(repoRoot, 'test', 'types', 'tsconfig.json');

test('the type tests in test/types compile with no error', async () => {
  assert.ok(existsSync(tsc), `typescript is not installed at ${tsc}: run npm install`);
  const result = await run(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error) => ({ code: error.code, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );
  assert.equal(result.code, 0, `tsc -p test/types/tsconfig.json failed:\n${result.output}`);
  assert.equal(result.output.trim(), '');
});
