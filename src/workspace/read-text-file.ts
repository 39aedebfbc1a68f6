/**
 * `read_text_file`: the text of one UTF-8 file in the workspace, whole or as a line range
 * (`head`, `tail`, `startLine`/`endLine`), capped in bytes. Binary files are refused.
 *
 * Spec: MCP 2025-11-25, Server / Tools (`CallToolResult` text content).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { CallToolResult, ContentBlock } from '../protocol/types.js';
import { checkKnownArgs, positiveIntegerArg, stringArg } from './args.js';
import { openInside, recheck } from './open-inside.js';
import { resolveInside } from './paths.js';
import { guard, ToolError } from './results.js';
import { readLinesForward, readLinesTail, type LineSlice } from './text-reader.js';
import type { WorkspaceContext, WorkspaceTool } from './index.js';

/** Bytes at the start of a file checked for NUL before any range is read. */
const SNIFF_BYTES = 8192;

const ARG_NAMES = ['path', 'head', 'tail', 'startLine', 'endLine'];

const INPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File to read, relative to the workspace root.' },
    head: { type: 'integer', minimum: 1, description: 'Return only the first N lines.' },
    tail: { type: 'integer', minimum: 1, description: 'Return only the last N lines.' },
    startLine: { type: 'integer', minimum: 1, description: 'First line to return (1-based).' },
    endLine: {
      type: 'integer',
      minimum: 1,
      description: 'Last line to return (1-based, inclusive).',
    },
  },
  required: ['path'],
  additionalProperties: false,
};

function binaryRefusal(shown: string, why: string): ToolError {
  return new ToolError(
    `'${shown}' looks like a binary file (${why}), so it cannot be shown as text. ` +
      'read_text_file reads UTF-8 text only; use file_info to see its type and size.',
  );
}

/** Decodes UTF-8, refusing NUL bytes and invalid sequences. */
function decodeText(bytes: Uint8Array, shown: string, stream: boolean): string {
  if (bytes.includes(0)) throw binaryRefusal(shown, 'it contains NUL bytes');
  try {
    // `stream: true` lets a character cut at the end of a sniffed prefix pass.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream });
  } catch {
    throw binaryRefusal(shown, 'it is not valid UTF-8');
  }
}

/** The sentence appended after partial output, or `undefined` when the whole file was shown. */
function note(
  slice: LineSlice,
  shown: string,
  maxBytes: number,
  ranged: boolean,
  tail: boolean,
): string | undefined {
  const { firstLine, lastLine, totalLines } = slice;
  if (slice.lineCut) {
    const which =
      lastLine === undefined ? (tail ? 'The last line' : 'The line') : `Line ${lastLine}`;
    const part = tail ? 'its end' : 'its start';
    const limit = `the ${maxBytes}-byte limit`;
    return `[${which} of '${shown}' is longer than ${limit}; only ${part} is shown.]`;
  }
  if (totalLines === 0) return `[The file '${shown}' is empty.]`;
  if (slice.truncated) {
    if (tail) {
      const lines = firstLine === undefined ? '' : ` (lines ${firstLine}–${lastLine})`;
      return `[Only the end of '${shown}'${lines} fits in the ${maxBytes}-byte limit.]`;
    }
    return (
      `[Stopped at the ${maxBytes}-byte limit after line ${lastLine} of '${shown}'. ` +
      `Call read_text_file again with startLine: ${(lastLine ?? 0) + 1} to read on.]`
    );
  }
  if (!ranged) return undefined;
  if (firstLine === undefined) return `[The last lines of '${shown}'.]`;
  const of = totalLines === undefined ? '; the file continues' : ` of ${totalLines}`;
  return `[Lines ${firstLine}–${lastLine}${of} in '${shown}'.]`;
}

/** Builds `read_text_file` for one workspace. */
export function readTextFileTool(workspace: WorkspaceContext): WorkspaceTool {
  const maxBytes = workspace.maxReadBytes;
  const maxScanBytes = workspace.maxScanBytes;
  return {
    name: 'read_text_file',
    title: 'Read text file',
    description:
      'Read a UTF-8 text file from the workspace. Without options the whole file is returned; ' +
      'use head (first N lines), tail (last N lines) or startLine/endLine (1-based, inclusive) ' +
      `to read part of a large file. At most ${maxBytes} bytes come back per call, cut at a line ` +
      'end; a note after the text says which lines were shown and how to read on. Binary files ' +
      '(NUL bytes or invalid UTF-8) are refused. startLine must begin within the first ' +
      `${maxScanBytes} bytes. Paths are relative to the workspace root.`,
    inputSchema: INPUT_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: false },
    timeoutMs: workspace.toolTimeoutMs,
    run: (args, ctx): Promise<CallToolResult> => {
      let shown = String(args.path ?? '');
      return guard(
        () => shown,
        async () => {
          checkKnownArgs(args, ARG_NAMES);
          const requested = stringArg(args, 'path');
          const head = positiveIntegerArg(args, 'head');
          const tail = positiveIntegerArg(args, 'tail');
          const startLine = positiveIntegerArg(args, 'startLine');
          const endLine = positiveIntegerArg(args, 'endLine');
          if (head !== undefined && tail !== undefined) {
            throw new ToolError('Give either head or tail, not both.');
          }
          if ((head ?? tail) !== undefined && (startLine ?? endLine) !== undefined) {
            throw new ToolError('Give either head/tail or startLine/endLine, not both.');
          }
          if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
            throw new ToolError(`endLine (${endLine}) is before startLine (${startLine}).`);
          }
          const target = await resolveInside(workspace.root, requested);
          shown = target.display;
          const opened = await openInside(workspace.root, target.real, shown, 'file');
          const { handle: file, info } = opened;
          try {
            if (info.isDirectory()) {
              throw new ToolError(
                `'${shown}' is a directory. Use list_directory to see what it contains.`,
              );
            }
            if (!info.isFile()) {
              throw new ToolError(
                `'${shown}' is not a regular file (it may be a device or a pipe).`,
              );
            }
            const sniff = new Uint8Array(Math.min(SNIFF_BYTES, info.size));
            await file.read(sniff, 0, sniff.length, 0);
            decodeText(sniff, shown, true);
            const slice =
              tail !== undefined
                ? await readLinesTail(file, info.size, tail, maxBytes, ctx?.signal)
                : await readLinesForward(
                    file,
                    info.size,
                    startLine ?? 1,
                    head ?? endLine ?? Infinity,
                    maxBytes,
                    ctx?.signal,
                    maxScanBytes,
                  );
            if (slice.scanStoppedIn !== undefined) {
              throw new ToolError(
                `Line ${startLine} of '${shown}' begins more than ${maxScanBytes} bytes into ` +
                  `the file (line ${slice.scanStoppedIn} is still going on there), and ` +
                  `read_text_file scans at most ${maxScanBytes} bytes per call to find a line. ` +
                  'Use tail to read the end of the file, or search_text to find the lines you ' +
                  'need.',
              );
            }
            const text = decodeText(slice.bytes, shown, false);
            if (
              startLine !== undefined &&
              slice.firstLine === undefined &&
              slice.totalLines !== undefined &&
              slice.totalLines > 0
            ) {
              throw new ToolError(
                `startLine ${startLine} is past the end of '${shown}', which has ` +
                  `${slice.totalLines} lines.`,
              );
            }
            const ranged = (head ?? tail ?? startLine ?? endLine) !== undefined;
            await recheck(opened); // elsewhere than Linux: a swap must also be undone by now
            const content: ContentBlock[] = [{ type: 'text', text }];
            const after = note(slice, shown, maxBytes, ranged, tail !== undefined);
            if (after !== undefined) content.push({ type: 'text', text: after });
            return { content };
          } finally {
            await file.close();
          }
        },
      );
    },
  };
}
