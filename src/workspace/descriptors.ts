/**
 * What a file descriptor refers to: the open flags the workspace uses, the kernel's name for an
 * open descriptor (Linux, `/proc/self/fd/N`), and a once-per-root probe of whether that name can
 * be trusted. Used by open-inside.ts (the tools) and search-worker.ts (the search walk).
 *
 * Node 20 has no `openat`; on Linux, a path that goes through `/proc/self/fd/N/` resolves from the
 * object opened as descriptor N, which gives the same guarantee: a name is looked up inside the
 * folder that was checked, whatever happens to that folder's path meanwhile.
 * @module
 */
import { closeSync, constants, openSync, readlinkSync, type Stats } from 'node:fs';
import * as path from 'node:path';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Flags for opening a file (or anything that may be a file): read only, no following a symbolic
 * link in the last segment, no blocking on a FIFO, no controlling terminal.
 */
export const FILE_FLAGS: number =
  constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** Flags for opening a folder: read only, no following a link in the last segment, folders only. */
export const DIRECTORY_FLAGS: number = constants.O_RDONLY | NOFOLLOW | (constants.O_DIRECTORY ?? 0);

/**
 * The kernel's current path of the object open as `fd` (`readlink /proc/self/fd/N`), or
 * `undefined` where the platform gives none (no /proc: macOS, Windows) or the object has no path
 * (it was deleted: `nlink` 0 in `info`, the descriptor's `fstat`).
 */
export function descriptorPath(fd: number, info: Stats): string | undefined {
  if (info.nlink === 0) return undefined;
  try {
    const where = readlinkSync(`/proc/self/fd/${fd}`);
    return path.isAbsolute(where) ? where : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A path that reaches the object open as `fd` itself, not whatever its path names now:
 * `/proc/self/fd/N` when `byDescriptor`, else `real` (the best the platform allows).
 */
export function descriptorRef(fd: number, real: string, byDescriptor: boolean): string {
  return byDescriptor ? `/proc/self/fd/${fd}` : real;
}

/**
 * True when `/proc/self/fd/N` names descriptors on this system: the folder `real` (a resolved
 * path) is opened and its descriptor must be reported under that same path. Checked once per
 * workspace root; false on every platform but Linux, and on Linux without /proc mounted.
 */
export function probeDescriptorPaths(real: string): boolean {
  if (process.platform !== 'linux') return false;
  let fd: number;
  try {
    fd = openSync(real, DIRECTORY_FLAGS);
  } catch {
    return false;
  }
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === real;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** True when two `stat` results describe the same file (device and inode). */
export function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
