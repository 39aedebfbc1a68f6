/**
 * Path confinement for the workspace server: every path a model sends is resolved against the
 * workspace root and must stay inside it after symbolic links are resolved.
 *
 * Refused: `..` segments that climb out, absolute paths outside the root, sibling directories
 * that share the root's name as a prefix (root `/tmp/ws`, path `../ws-evil/x`), symbolic links
 * whose target is outside (also dangling ones), NUL bytes, and symbolic-link loops. Backslashes
 * are treated as separators on every platform, so `..\\..\\etc` is refused like `../../etc`.
 *
 * This resolution is by path, so it only chooses what to open: a folder on the way can be swapped
 * for a symbolic link between it and the open. What was actually opened is checked afterwards, by
 * its descriptor (open-inside.ts); every file-system access of the workspace goes through that.
 *
 * Spec: MCP 2025-11-25, Server / Tools, "Security Considerations" (servers MUST validate inputs).
 * @module
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { probeDescriptorPaths } from './descriptors.js';
import { ToolError } from './results.js';

/** The workspace root as given (made absolute) and as resolved by `fs.realpath`. */
export interface WorkspaceRoot {
  /** `path.resolve(root)`: lets a model use absolute paths written against the root as given. */
  given: string;
  /** `fs.realpath(root)`: the directory every resolved path must lie inside. */
  real: string;
  /**
   * True when the kernel names open descriptors (`/proc/self/fd/N`, Linux): opened objects are
   * checked by that name. False elsewhere: they are checked by resolving the path again.
   */
  byDescriptor: boolean;
}

/** A path inside the workspace: its real absolute location and the path to show the model. */
export interface ResolvedPath {
  /** Absolute path with every symbolic link resolved (the last segments may not exist yet). */
  real: string;
  /** Path relative to the root with `/` separators; `.` is the root itself. */
  display: string;
}

/** Symbolic links followed while resolving one path before it counts as a loop (as Linux's 40). */
const MAX_LINK_HOPS = 40;

/**
 * Resolves `root` once, synchronously, when the tools are created.
 * @throws {Error} when `root` does not exist or is not a directory.
 */
export function openWorkspaceRoot(root: string): WorkspaceRoot {
  const given = path.resolve(root);
  let real: string;
  try {
    real = realpathSync(given);
  } catch (error) {
    throw new Error(`workspace root ${given} cannot be opened: ${(error as Error).message}`);
  }
  if (!statSync(real).isDirectory()) throw new Error(`workspace root ${given} is not a directory`);
  return { given, real, byDescriptor: probeDescriptorPaths(real) };
}

/**
 * True when `target` is `base` or lies below it. Compares whole segments through
 * `path.relative`, so `/tmp/ws-evil` is not inside `/tmp/ws`.
 */
export function isInside(base: string, target: string): boolean {
  const relative = path.relative(base, target);
  if (relative === '') return true;
  if (path.isAbsolute(relative)) return false; // another drive on Windows
  return relative !== '..' && !relative.startsWith('..' + path.sep);
}

/** The path shown to a model for a real path in the root: relative, `/`-separated, `.` for it. */
export function displayPath(root: WorkspaceRoot, real: string): string {
  const relative = path.relative(root.real, real);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

function outside(requested: string, throughLink: boolean): ToolError {
  const how = throughLink ? ' (a symbolic link on the way points outside it)' : '';
  return new ToolError(
    `Access denied: '${requested}' is outside the workspace root${how}. Only files inside the ` +
      `workspace can be used; give a path relative to the root, such as '.' or 'src/index.ts'.`,
  );
}

function loop(requested: string): ToolError {
  return new ToolError(
    `'${requested}' cannot be resolved: it goes through a loop of symbolic links. ` +
      'Pick a path that does not go through that link.',
  );
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Like `fs.realpath`, but the last segments may be missing: the real path of the nearest existing
 * parent is joined with the rest. A dangling link is followed to its target (so its target is
 * confined like any other), with at most `MAX_LINK_HOPS` hops.
 */
async function resolveReal(
  absolute: string,
  hops: { count: number },
  requested: string,
): Promise<string> {
  try {
    return await realpath(absolute);
  } catch (error) {
    if (code(error) === 'ELOOP') throw loop(requested);
    if (code(error) !== 'ENOENT' && code(error) !== 'ENOTDIR') throw error;
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  const candidate = path.join(await resolveReal(parent, hops, requested), path.basename(absolute));
  let isLink = false;
  try {
    isLink = (await lstat(candidate)).isSymbolicLink();
  } catch {
    return candidate; // truly missing
  }
  if (!isLink) return candidate;
  // realpath reports loops itself; this bound holds if links change while they are resolved.
  if (++hops.count > MAX_LINK_HOPS) throw loop(requested);
  let target: string;
  try {
    target = await readlink(candidate);
  } catch (error) {
    // Replaced or removed since the lstat: the open that follows finds out what is there now.
    if (code(error) === 'EINVAL' || code(error) === 'ENOENT') return candidate;
    throw error;
  }
  return resolveReal(path.resolve(path.dirname(candidate), target), hops, requested);
}

/**
 * Resolves a model-supplied path against the workspace and confines it there.
 *
 * Relative paths are taken from the root; absolute paths must lie inside the root (as given or
 * as resolved). The lexical check runs first, so nothing outside the root is touched for a path
 * that is plainly outside; then symbolic links are resolved and the result checked again.
 * @throws {ToolError} with a message a model can act on, for each refusal in the module doc.
 */
export async function resolveInside(root: WorkspaceRoot, requested: string): Promise<ResolvedPath> {
  if (requested.includes('\0')) {
    throw new ToolError('The path contains a NUL character; send the path as plain text.');
  }
  const spelled = (requested === '' ? '.' : requested).replaceAll('\\', '/');
  let lexical: string;
  if (path.isAbsolute(spelled)) {
    const absolute = path.resolve(spelled);
    if (isInside(root.given, absolute))
      lexical = path.join(root.real, path.relative(root.given, absolute));
    else if (isInside(root.real, absolute)) lexical = absolute;
    else throw outside(requested, false);
  } else {
    lexical = path.resolve(root.real, spelled);
    if (!isInside(root.real, lexical)) throw outside(requested, false);
  }
  const real = await resolveReal(lexical, { count: 0 }, requested);
  if (!isInside(root.real, real)) throw outside(requested, true);
  return { real, display: displayPath(root, real) };
}
