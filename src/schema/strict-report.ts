/**
 * Plain-text rendering of strict-subset findings for `baremcp check`: one row per violation,
 * columns tool, profile, path, keyword, remedy, padded to line up in a monospace terminal.
 * @module
 */
import type { ToolViolation } from './strict-toolset.js';

const HEADER = ['TOOL', 'PROFILE', 'PATH', 'KEYWORD', 'REMEDY'] as const;

/**
 * Renders `rows` as a table with a header row and a rule under it, columns separated by two
 * spaces, the last column (remedy) unpadded; a warning's remedy ends in ` (warning)`. Rows keep
 * their order. Returns `No violations.\n` for an empty list. Every line ends in `\n`.
 */
export function formatViolationsTable(rows: ReadonlyArray<ToolViolation>): string {
  if (rows.length === 0) return 'No violations.\n';
  const cells = rows.map((r) => [
    r.tool, r.profile, r.path, r.keyword,
    r.severity === 'warning' ? `${r.remedy} (warning)` : r.remedy,
  ]);
  const table = [[...HEADER], ...cells];
  const widths = HEADER.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const line = (row: string[]): string =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w));
  return [line(table[0]), line(rule), ...cells.map(line)].map((l) => `${l}\n`).join('');
}
