/**
 * Reads one workspace file whole, for `resources/read` and for prompts that embed a file: UTF-8
 * text as `text`, anything else as bytes, with a guessed media type and a size cap.
 *
 * A path is used only after two checks: `safeRelativePath` (no `..`, NUL, control characters,
 * backslashes, absolute paths or drive letters, also after percent-decoding) and `resolveInside`
 * (the real path, symbolic links resolved, lies inside the root; sibling directories sharing the
 * root's name as a prefix are outside). A path that fails either is "not found", so nothing
 * outside the root is opened and the reply does not tell an outside file from a missing one.
 * What is opened is then confirmed inside the root by its descriptor (open-inside.ts); a path
 * that led outside while it was opened (a folder swapped for a link) is "not found" too.
 *
 * Spec: MCP 2025-11-25, Server / Resources ("Resource Contents", "Security Considerations");
 * RFC 3986 §2.1 (percent-encoding in the file URI).
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import { safeRelativePath } from '../server/uri.js';
import { guessMimeType } from './mime.js';
import { openInside, recheck, type OpenedInside } from './open-inside.js';
import { resolveInside, type WorkspaceRoot } from './paths.js';
import { ToolError } from './results.js';

/** Errors that mean "no such readable file" rather than a fault of the server. */
const MISSING = new Set([
  'ENOENT',
  'ENOTDIR',
  'ELOOP',
  'EISDIR',
  'EACCES',
  'EPERM',
  'ENAMETOOLONG',
  'ENXIO', // a socket
]);

/** One file read whole. */
export type WorkspaceFile = {
  /** The path relative to the root as asked for, cleaned (`/`-separated, no `.` segments). */
  path: string;
  /** The `file:///` URI of `path` (see {@link workspaceFileUri}). */
  uri: string;
  /** Guessed from the extension and the content (see `guessMimeType`). */
  mimeType: string;
  /** Size in bytes. */
  size: number;
} & ({ text: string } | { bytes: Uint8Array });

/**
 * The URI of a workspace file in the `file:///{+path}` template: each segment of the relative
 * path percent-encoded (RFC 3986 §2.1), so `?`, `#`, `%` and spaces in names survive.
 * @example workspaceFileUri('docs/read me.md'); // 'file:///docs/read%20me.md'
 */
export function workspaceFileUri(relative: string): string {
  return 'file:///' + relative.split('/').map(encodeURIComponent).join('/');
}

/** The text of `bytes` when they are UTF-8 without NUL bytes, else undefined. */
function asText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Confines `requested` (a path relative to the root, as a template variable or prompt argument
 * gives it) to the root.
 * @returns the cleaned relative path and the real absolute path, or undefined when the path is
 *   malformed or leads outside the root (see the module doc).
 * @throws {Error} only for unexpected file-system failures.
 */
export async function confineWorkspacePath(
  root: WorkspaceRoot,
  requested: string,
): Promise<{ path: string; real: string } | undefined> {
  const relative = safeRelativePath(requested);
  if (relative === undefined) return undefined;
  try {
    return { path: relative, real: (await resolveInside(root, relative)).real };
  } catch (error) {
    if (error instanceof ToolError) return undefined;
    throw error;
  }
}

/**
 * Reads the regular file `requested` below `root` whole.
 * @param maxBytes largest file read, in bytes.
 * @returns the file, or undefined when the path is refused (see the module doc), missing,
 *   unreadable, a directory or not a regular file.
 * @throws {RpcError} `-32603` with `data: { size, maxBytes }` when the file is larger than
 *   `maxBytes` (the message points to `read_text_file` line ranges).
 * @throws {Error} for unexpected file-system failures (the dispatcher answers `-32603` without
 *   detail, so no host path is shown).
 */
export async function readWorkspaceFile(
  root: WorkspaceRoot,
  requested: string,
  maxBytes: number,
): Promise<WorkspaceFile | undefined> {
  const target = await confineWorkspacePath(root, requested);
  if (target === undefined) return undefined;
  let opened: OpenedInside;
  try {
    opened = await openInside(root, target.real, target.path, 'file');
  } catch (error) {
    if (error instanceof ToolError) return undefined;
    if (MISSING.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
  const { handle: file, info } = opened;
  try {
    if (!info.isFile()) return undefined;
    const tooLarge = (size: number): RpcError =>
      new RpcError(
        ErrorCode.InternalError,
        `'${target.path}' is ${size} bytes, more than the ${maxBytes}-byte limit for reading ` +
          'a file whole; use the read_text_file tool with head, tail or startLine/endLine.',
        { size, maxBytes },
      );
    if (info.size > maxBytes) throw tooLarge(info.size);
    // One byte more than the stat said tells a file that grew past the cap since.
    const buffer = new Uint8Array(info.size + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) throw tooLarge(filled);
    await recheck(opened); // elsewhere than Linux: a swap must also be undone by now
    const bytes = buffer.subarray(0, filled);
    const text = asText(bytes);
    const common = {
      path: target.path,
      uri: workspaceFileUri(target.path),
      mimeType: guessMimeType(target.path, text !== undefined),
      size: bytes.length,
    };
    return text === undefined ? { ...common, bytes } : { ...common, text };
  } catch (error) {
    if (error instanceof RpcError) throw error;
    if (error instanceof ToolError) return undefined; // led outside the root
    if (MISSING.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  } finally {
    await file.close();
  }
}
