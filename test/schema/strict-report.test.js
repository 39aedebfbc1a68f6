// Tests for src/schema/strict-report.ts: the plain-text table `baremcp check` prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatViolationsTable } from '../../dist/schema/index.js';

const row = (tool, profile, path, keyword, remedy, severity = 'error') =>
  ({ tool, profile, path, keyword, remedy, severity, rule: `${profile}.x` });

test('the table has a header, a rule and one aligned line per row, in input order', () => {
  const text = formatViolationsTable([
    row('edit_file', 'openai', 'properties.insertLine.oneOf', 'oneOf', 'use anyOf'),
    row('a.b', 'mcp', 'name', 'name', 'rename the tool to "a_b"', 'warning'),
  ]);
  assert.equal(text, [
    'TOOL       PROFILE  PATH                         KEYWORD  REMEDY',
    '---------  -------  ---------------------------  -------  ----------------------------------',
    'edit_file  openai   properties.insertLine.oneOf  oneOf    use anyOf',
    'a.b        mcp      name                         name     rename the tool to "a_b" (warning)',
    '',
  ].join('\n'));
});

test('every column starts at the same offset on every line', () => {
  const lines = formatViolationsTable([
    row('t', 'anthropic', 'properties.n.minimum', 'minimum', 'remove "minimum"'),
    row('a_much_longer_tool_name', 'gemini', '$defs', '$defs', 'inline'),
  ]).trimEnd().split('\n');
  const starts = (line) => [...line.matchAll(/(?<=  )\S/g)].map((m) => m.index).slice(0, 4);
  const header = starts(lines[0]);
  assert.equal(header.length, 4);
  for (const line of lines.slice(2)) assert.deepEqual(starts(line), header);
});

test('an empty list renders as a single sentence', () => {
  assert.equal(formatViolationsTable([]), 'No violations.\n');
});
