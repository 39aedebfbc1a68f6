/**
 * Every file-system access of the workspace: open first, then check what was opened, by its
 * descriptor, not by its path. A path resolved inside the root (paths.ts) only says what to open;
 * a folder on the way may be swapped for a symbolic link to outside before or during the open.
 *
 * - Linux (`root.byDescriptor`): the kernel's name for the descriptor (`/proc/self/fd/N`) must lie
 *   inside the root; the object is then stat-ed through the descriptor (`fstat`), a folder is
 *   listed through it, and its entries are looked up from it (`/proc/self/fd/N/name`), so nothing
 *   is reached by a path that could have changed since the check.
 * - Elsewhere: after the open, the path is resolved again and must lie inside the root and name
 *   the same file (device and inode) as the descriptor. This misses a folder swapped for a link
 *   and back between that resolution and its stat; SECURITY.md states the remaining race.
 *
 * A failed check is a {@link ToolError} saying the path changed while it was opened.
 * Spec: MCP 2025-11-25, Server / Tools and Server / Resources, "Security Considerations".
 * @module
 */
import { closeSync, fstatSync, openSync, realpathSync, statSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import { lstat, open, opendir, realpath, stat, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import {
  descriptorPath,
  descriptorRef,
  DIRECTORY_FLAGS,
  FILE_FLAGS,
  sameFile,
} from './descriptors.js';
import { isInside, type WorkspaceRoot } from './paths.js';
import { ToolError } from './results.js';

/** What `openInside` and `statInside` need of the root; plain data, so a worker can get it. */
export type RootCheck = Pick<WorkspaceRoot, 'real' | 'byDescriptor'>;

/** A file or folder opened and confirmed inside the root. Close `handle` when done. */
export interface OpenedInside {
  root: RootCheck;
  /** The path as the model knows it, for messages. */
  shown: string;
  handle: FileHandle;
  /** `fstat` of the descriptor. */
  info: Stats;
  /** Where the opened object is, confirmed inside the root. */
  real: string;
  /** A path reaching the opened object itself (`/proc/self/fd/N` on Linux; `real` elsewhere). */
  ref: string;
}

/** The refusal for a path that led outside the root when it was opened. */
export function changedOutside(shown: string): ToolError {
  return new ToolError(
    `Access denied: '${shown}' changed while it was being opened and led outside the workspace ` +
      'root (a folder on the way was replaced by a symbolic link), so nothing was read. Another ' +
      'program is changing that folder; try again later or use another path.',
  );
}

/** The confirmed location of `fd` (opened from `opened`), or undefined when it is outside. */
async function confirm(
  root: RootCheck,
  fd: number,
  opened: string,
  info: Stats,
): Promise<string | undefined> {
  if (root.byDescriptor) {
    const where = descriptorPath(fd, info);
    return where !== undefined && isInside(root.real, where) ? where : undefined;
  }
  try {
    const again = await realpath(opened);
    return isInside(root.real, again) && sameFile(await stat(again), info) ? again : undefined;
  } catch {
    return undefined;
  }
}

/** `confirm` for synchronous callers (the search worker). */
function confirmSync(root: RootCheck, fd: number, opened: string, info: Stats): string | undefined {
  if (root.byDescriptor) {
    const where = descriptorPath(fd, info);
    return where !== undefined && isInside(root.real, where) ? where : undefined;
  }
  try {
    const again = realpathSync(opened);
    return isInside(root.real, again) && sameFile(statSync(again), info) ? again : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens `real` (a path resolved inside the root; `shown` is how the model knows it) as a file or
 * a folder and confirms by its descriptor that the object opened lies inside the root.
 * `'file'` opens anything but a symbolic link (check `info` for the kind); `'directory'` only
 * folders.
 * @throws {ToolError} (see {@link changedOutside}) when the object opened lies outside the root.
 * @throws {Error} the `open` error (`ENOENT`, `ELOOP` for a link, `ENOTDIR`, `EACCES`, ...).
 */
export async function openInside(
  root: RootCheck,
  real: string,
  shown: string,
  kind: 'file' | 'directory',
): Promise<OpenedInside> {
  const handle = await open(real, kind === 'file' ? FILE_FLAGS : DIRECTORY_FLAGS);
  try {
    const info = await handle.stat();
    const where = await confirm(root, handle.fd, real, info);
    if (where === undefined) throw changedOutside(shown);
    const ref = descriptorRef(handle.fd, where, root.byDescriptor);
    return { root, shown, handle, info, real: where, ref };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Checks again that `opened` is inside the root, after something was reached through its `ref`.
 * Nothing to do where `ref` is the descriptor itself (Linux). Elsewhere `ref` is a path, which may
 * have led somewhere else meanwhile: it must still name the opened object, so a swap that lasted
 * until now is caught (one swapped back in between is the remaining race).
 * @throws {ToolError} (see {@link changedOutside}) when it does not.
 */
export async function recheck(opened: OpenedInside): Promise<void> {
  if (opened.root.byDescriptor) return;
  const where = await confirm(opened.root, opened.handle.fd, opened.real, opened.info);
  if (where === undefined) throw changedOutside(opened.shown);
}

/** The path of the entry `name` of an opened folder, looked up from that folder itself. */
export function childRef(folder: { ref: string }, name: string): string {
  return path.join(folder.ref, name);
}

/**
 * `lstat` of `real` without opening it (so it works for sockets, unreadable files and devices):
 * the root through its descriptor, anything else through its opened and confirmed parent folder.
 * @returns the stat and the confirmed real path.
 * @throws {ToolError} when the parent led outside the root, or `real` turned into a symbolic link
 *   after it was resolved.
 * @throws {Error} `ENOENT`, `ENOTDIR`, `EACCES`, ... from the open or the `lstat`.
 */
export async function statInside(
  root: RootCheck,
  real: string,
  shown: string,
): Promise<{ info: Stats; real: string }> {
  const parentPath = path.dirname(real);
  const isRoot = real === root.real || !isInside(root.real, parentPath);
  const folder = await openInside(root, isRoot ? real : parentPath, shown, 'directory');
  try {
    if (isRoot) return { info: folder.info, real: folder.real };
    const name = path.basename(real);
    const info = await lstat(childRef(folder, name));
    if (info.isSymbolicLink()) throw changedOutside(shown);
    await recheck(folder);
    return { info, real: path.join(folder.real, name) };
  } finally {
    await folder.handle.close();
  }
}

/**
 * Reads at most `max` entries of an opened folder, through its descriptor, in the order the file
 * system gives them. `complete` is false when the folder has more.
 * @throws {ToolError} when the folder was read by a path that no longer names it (see `recheck`).
 */
export async function readEntries(
  folder: OpenedInside,
  max: number,
): Promise<{ entries: Dirent[]; complete: boolean }> {
  const entries: Dirent[] = [];
  const directory = await opendir(folder.ref);
  try {
    let complete = true;
    for (let entry = await directory.read(); entry !== null; entry = await directory.read()) {
      if (entries.length === max) {
        complete = false;
        break;
      }
      entries.push(entry);
    }
    await recheck(folder);
    return { entries, complete };
  } finally {
    await directory.close();
  }
}

/**
 * `recheck` for synchronous callers: false when `opened` (reached through `ref`, a path, off
 * Linux) is no longer where it was confirmed.
 */
export function stillInsideSync(root: RootCheck, opened: OpenedSync): boolean {
  return root.byDescriptor || confirmSync(root, opened.fd, opened.real, opened.info) !== undefined;
}

/** A descriptor opened synchronously and confirmed inside the root. Close `fd` when done. */
export interface OpenedSync {
  fd: number;
  info: Stats;
  real: string;
  ref: string;
}

/**
 * `openInside` for synchronous callers (the search worker): opens `target` with `flags` and
 * confirms the descriptor. Returns undefined, with nothing left open, when the open fails or the
 * object lies outside the root; the walk then skips it.
 */
export function openInsideSync(
  root: RootCheck,
  target: string,
  flags: number,
): OpenedSync | undefined {
  let fd: number;
  try {
    fd = openSync(target, flags);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    const where = confirmSync(root, fd, target, info);
    if (where !== undefined) {
      return { fd, info, real: where, ref: descriptorRef(fd, where, root.byDescriptor) };
    }
  } catch {
    // fstat failed: skip it like an unreadable entry
  }
  closeSync(fd);
  return undefined;
}
