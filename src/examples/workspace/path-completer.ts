/**
 * Completion of workspace paths, for the `path` variable of `file:///{+path}` and the `path`
 * argument of the prompts: the entries of the folder typed so far whose names start with the
 * last segment typed, folders with a trailing `/` so the user can go on typing.
 *
 * Bounded: at most {@link MAX_SCANNED_ENTRIES} directory entries are read per request and at most
 * 100 values returned (with `total` and `hasMore` saying there are more). The folder part is
 * confined like every other path (`confineWorkspacePath`): `..`, absolute paths, NUL, backslashes
 * and folders reached through a link pointing outside the root complete to nothing.
 *
 * Spec: MCP 2025-11-25, Server / Utilities / Completion (at most 100 values, `total`, `hasMore`).
 * @module
 */
import type { Dir } from 'node:fs';
import { opendir } from 'node:fs/promises';
import type { CompletionReturn } from '../../server/completion.js';
import { confineWorkspacePath } from './file-contents.js';
import type { WorkspaceRoot } from './paths.js';

/** Most values in one completion (the protocol's limit). */
export const MAX_COMPLETIONS = 100;
/** Most directory entries read for one completion request; past it, `hasMore` is set. */
export const MAX_SCANNED_ENTRIES = 10_000;

const NOTHING: CompletionReturn = { values: [], total: 0, hasMore: false };

/**
 * Suggests workspace paths that start with `value` (a path relative to the root, as typed).
 * Hidden entries (names starting with `.`) are suggested only when the last segment typed starts
 * with `.`. Values are sorted by name and keep the folder part exactly as typed.
 * @returns `{ values, total, hasMore }`; no values for a folder that is missing, not a folder, or
 *   refused.
 * @throws {Error} only for unexpected file-system failures.
 * @example
 * await completeWorkspacePath(root, 'src/in');
 * // { values: ['src/index.ts'], total: 1, hasMore: false }
 */
export async function completeWorkspacePath(
  root: WorkspaceRoot,
  value: string,
): Promise<CompletionReturn> {
  if (value.startsWith('/')) return NOTHING;
  const slash = value.lastIndexOf('/');
  const folder = value.slice(0, slash + 1); // '' or 'src/' as typed
  const prefix = value.slice(slash + 1);
  if (prefix.includes('\\') || prefix.includes('\0')) return NOTHING;
  let real: string;
  if (folder.split('/').every((segment) => segment === '' || segment === '.')) {
    real = root.real;
  } else {
    const target = await confineWorkspacePath(root, folder);
    if (target === undefined) return NOTHING;
    real = target.real;
  }
  let directory: Dir;
  try {
    directory = await opendir(real);
  } catch {
    return NOTHING; // missing, a file, or unreadable
  }
  const showHidden = prefix.startsWith('.');
  const matches: string[] = [];
  let scanned = 0;
  let complete = true;
  try {
    for await (const entry of directory) {
      if (++scanned > MAX_SCANNED_ENTRIES) {
        complete = false;
        break;
      }
      if (!entry.name.startsWith(prefix) || (!showHidden && entry.name.startsWith('.'))) continue;
      matches.push(entry.isDirectory() ? `${entry.name}/` : entry.name);
    }
  } catch {
    // The folder went away while it was read: offer what was seen.
  }
  // Breaking out of `for await` closes the directory; so does reaching its end.
  matches.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    values: matches.slice(0, MAX_COMPLETIONS).map((name) => folder + name),
    total: matches.length,
    hasMore: !complete || matches.length > MAX_COMPLETIONS,
  };
}
