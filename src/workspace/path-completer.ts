/**
 * Completion of workspace paths, for the `path` variable of `file:///{+path}` and the `path`
 * argument of the prompts: the entries of the folder typed so far whose names start with the
 * last segment typed, folders with a trailing `/` so the user can go on typing.
 *
 * Bounded: at most {@link MAX_SCANNED_ENTRIES} directory entries are read per request and at most
 * 100 values returned (with `total` and `hasMore` saying there are more). The folder part is
 * confined like every other path (`confineWorkspacePath`): `..`, absolute paths, NUL, backslashes
 * and folders reached through a link pointing outside the root complete to nothing. The folder
 * is listed through its descriptor once that is confirmed inside the root (open-inside.ts), so a
 * folder swapped for a link while it is opened completes to nothing too.
 *
 * Spec: MCP 2025-11-25, Server / Utilities / Completion (at most 100 values, `total`, `hasMore`).
 * @module
 */
import type { CompletionReturn } from '../server/completion.js';
import { confineWorkspacePath } from './file-contents.js';
import { openInside, readEntries } from './open-inside.js';
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
  let listing;
  try {
    const opened = await openInside(root, real, folder, 'directory');
    try {
      listing = await readEntries(opened, MAX_SCANNED_ENTRIES);
    } finally {
      await opened.handle.close();
    }
  } catch {
    return NOTHING; // missing, a file, unreadable, or led outside the root when opened
  }
  const showHidden = prefix.startsWith('.');
  const matches: string[] = [];
  for (const entry of listing.entries) {
    if (!entry.name.startsWith(prefix) || (!showHidden && entry.name.startsWith('.'))) continue;
    matches.push(entry.isDirectory() ? `${entry.name}/` : entry.name);
  }
  const complete = listing.complete;
  matches.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    values: matches.slice(0, MAX_COMPLETIONS).map((name) => folder + name),
    total: matches.length,
    hasMore: !complete || matches.length > MAX_COMPLETIONS,
  };
}
