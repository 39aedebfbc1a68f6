/**
 * What `baremcp dev` prints on stderr after a reload: which files changed, whether the new
 * version loaded, and what changed in the definitions it serves.
 * @module
 */
import { relative } from 'node:path';
import type { Applied, Change } from './live-definitions.js';

/** `file` as a person reads it: relative to the working directory when below it. */
export function shownPath(file: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') ? file : rel;
}

/** `a.js`, `a.js and b.js`, `a.js, b.js and 3 more files`. */
export function fileList(files: readonly string[]): string {
  const shown = files.map((file) => shownPath(file));
  if (shown.length <= 2) return shown.join(' and ');
  if (shown.length === 3) return `${shown[0]}, ${shown[1]} and ${shown[2]}`;
  return `${shown[0]}, ${shown[1]} and ${shown.length - 2} more files`;
}

/** One change as a line: `tool changed: add (description, run)`. */
export function changeLine(change: Change): string {
  const fields = change.how === 'changed' ? ` (${change.fields.join(', ')})` : '';
  return `${change.word} ${change.how}: ${change.key}${fields}`;
}

/** The facts of a reload that loaded. */
export interface Reloaded {
  /** The files whose content changed. */
  changed: readonly string[];
  /** The version now served. */
  version: number;
  /** How long loading and swapping took, in milliseconds. */
  ms: number;
  /** What the swap did. */
  applied: Applied;
  /** True when the new version's `info` or `instructions` differ from the previous version's. */
  infoChanged: boolean;
}

/** The lines printed after a reload that loaded (the first has the `baremcp: ` prefix). */
export function reloadedLines(reload: Reloaded): string[] {
  const head = `baremcp: ${fileList(reload.changed)} changed: version ${reload.version} loaded in ` +
    `${Math.round(reload.ms)} ms`;
  const { changes, failed, firsts } = reload.applied;
  const lines = changes.map((change) => `  ${changeLine(change)}`);
  for (const { list, message } of failed) lines.push(`  ${list} not changed (still as before): ${message}`);
  for (const list of firsts) {
    lines.push(`  the first ${list.replace(/s$/, '')}: clients connected before learn of ${list} ` +
      'when they reconnect (capabilities are agreed on connecting)');
  }
  if (reload.infoChanged) {
    lines.push('  info or instructions changed: clients read them on connecting; restart baremcp ' +
      'dev to serve the new ones');
  }
  if (lines.length === 0) return [`${head}; same tools, prompts and resources (running the new code)`];
  return [head, ...lines];
}

/** The lines printed when a new version did not load; `message` says why (load-errors.ts). */
export function failedLines(changed: readonly string[], version: number,
  served: number | undefined, message: string): string[] {
  const still = served === undefined ? 'nothing served yet' : `still serving version ${served}`;
  return [
    `baremcp: ${fileList(changed)} changed: version ${version} did not load; ${still}`,
    `baremcp: ${message}`,
  ];
}
