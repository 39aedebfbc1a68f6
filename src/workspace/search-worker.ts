/**
 * The body of `search_text`, run in a worker thread of the search pool (search-pool.ts) so that
 * the caller can stop it at any moment: a model-supplied regular expression can backtrack for
 * minutes on one line, and only terminating the thread bounds that. A worker takes one job at a
 * time from its parent port and posts each matching line as it is found, then `done`.
 *
 * The walk goes by descriptor: each folder is opened and confirmed inside the root before it is
 * listed, and each entry is opened from its folder's descriptor and its real path re-checked
 * before it is descended into or read (open-inside.ts), so a folder swapped for a symbolic link
 * mid-walk is skipped, never followed. Symbolic links, binary, oversized and unreadable files are
 * skipped.
 * @module
 */
import { closeSync, readdirSync, readSync } from 'node:fs';
import * as path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { DIRECTORY_FLAGS, FILE_FLAGS } from './descriptors.js';
import {
  childRef,
  openInsideSync,
  stillInsideSync,
  type OpenedSync,
  type RootCheck,
} from './open-inside.js';

/** What the worker is asked to do (one message on its port). */
export interface SearchJob {
  /** The workspace root: its real path (match paths are shown relative to it) and how to check. */
  root: RootCheck;
  /** Real path of the folder or file to search, inside the root. */
  start: string;
  /** `RegExp` source and flags, already checked by the caller. */
  source: string;
  flags: string;
  /** Stop after this many matching lines. */
  limit: number;
  /** Skip files larger than this many bytes. */
  maxFileBytes: number;
  /** Milliseconds the search may take from when the worker starts it; it then stops by itself. */
  timeMs: number;
  /**
   * Two 32-bit counters the worker keeps current, `[0]` files searched and `[1]` files skipped,
   * readable by the caller even after it terminated the worker.
   */
  counters: SharedArrayBuffer;
}

/** One matching line: 1-based line and column (UTF-16 code units), and the line or an excerpt. */
export type SearchMatch = {
  path: string;
  line: number;
  column: number;
  text: string;
};

/** A message from the worker: a match, or the end of the search. */
export type SearchMessage =
  ({ kind: 'match' } & SearchMatch) | { kind: 'done'; stoppedBy: 'limit' | 'time' | null };

/** Folders not entered while walking (they can still be searched by naming them in `path`). */
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);
/** Longest line text returned; longer lines are cut to a window around the match. */
const MAX_LINE_CHARS = 200;
/** Lines scanned between two deadline checks. */
const LINES_PER_CHECK = 1000;
const SEARCHED = 0;
const SKIPPED = 1;

class Stop {
  constructor(readonly reason: 'limit' | 'time') {}
}

function excerpt(line: string, index: number): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const from = Math.max(0, Math.min(index - 60, line.length - MAX_LINE_CHARS));
  const to = from + MAX_LINE_CHARS;
  return (from > 0 ? '…' : '') + line.slice(from, to) + (to < line.length ? '…' : '');
}

/** Reads an opened regular file of at most `maxBytes` as UTF-8; `undefined` means skip it. */
function readText(file: OpenedSync, maxBytes: number): string | undefined {
  if (!file.info.isFile() || file.info.size > maxBytes) return undefined;
  try {
    const bytes = new Uint8Array(file.info.size);
    let filled = 0;
    while (filled < bytes.length) {
      const read = readSync(file.fd, bytes, filled, bytes.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    if (bytes.includes(0)) return undefined;
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, filled));
  } catch {
    return undefined; // unreadable, or not UTF-8
  }
}

/** Runs `use` on `target` opened with `flags` and confirmed inside the root, then closes it. */
function withOpened(
  root: RootCheck,
  target: string,
  flags: number,
  use: (opened: OpenedSync) => void,
): boolean {
  const opened = openInsideSync(root, target, flags);
  if (opened === undefined) return false;
  try {
    use(opened);
  } finally {
    closeSync(opened.fd);
  }
  return true;
}

/**
 * Runs a search synchronously, calling `post` with each matching line in path order, and returns
 * why it stopped early (`null`: it searched everything).
 */
export function runSearch(
  job: SearchJob,
  post: (message: SearchMessage) => void,
): 'limit' | 'time' | null {
  const pattern = new RegExp(job.source, job.flags);
  const counters = new Int32Array(job.counters);
  const deadline = Date.now() + job.timeMs;
  let found = 0;

  const searchFile = (file: OpenedSync): void => {
    if (Date.now() > deadline) throw new Stop('time');
    const text = readText(file, job.maxFileBytes);
    if (text === undefined) {
      Atomics.add(counters, SKIPPED, 1);
      return;
    }
    Atomics.add(counters, SEARCHED, 1);
    const shown = path.relative(job.root.real, file.real).split(path.sep).join('/');
    // Line by line with indexOf: no array of every line (a file of line breaks would make one
    // entry per byte).
    for (let from = 0, index = 0; from < text.length; index++) {
      if (index % LINES_PER_CHECK === LINES_PER_CHECK - 1 && Date.now() > deadline) {
        throw new Stop('time');
      }
      const newline = text.indexOf('\n', from);
      const to = newline === -1 ? text.length : newline;
      let content = text.slice(from, to);
      from = to + 1;
      if (content.endsWith('\r')) content = content.slice(0, -1);
      const match = pattern.exec(content);
      if (match === null) continue;
      const line = excerpt(content, match.index);
      post({ kind: 'match', path: shown, line: index + 1, column: match.index + 1, text: line });
      if (++found >= job.limit) throw new Stop('limit');
    }
  };

  const walk = (folder: OpenedSync): void => {
    if (Date.now() > deadline) throw new Stop('time');
    let entries;
    try {
      entries = readdirSync(folder.ref, { withFileTypes: true });
    } catch {
      return; // unreadable folder
    }
    if (!stillInsideSync(job.root, folder)) return; // listed through a path that changed
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const child = childRef(folder, entry.name);
      if (entry.isDirectory()) {
        // Opened from this folder without following a link, and re-checked, before descending.
        if (!SKIPPED_DIRECTORIES.has(entry.name)) {
          withOpened(job.root, child, DIRECTORY_FLAGS, walk);
        }
      } else if (entry.isFile()) {
        if (!withOpened(job.root, child, FILE_FLAGS, searchFile)) Atomics.add(counters, SKIPPED, 1);
      } // symbolic links and special files are not followed
    }
  };

  try {
    withOpened(job.root, job.start, FILE_FLAGS, (start) =>
      start.info.isDirectory() ? walk(start) : searchFile(start),
    );
  } catch (error) {
    if (error instanceof Stop) return error.reason;
    throw error;
  }
  return null;
}

const port = parentPort;
if (port !== null) {
  port.on('message', (job: SearchJob) => {
    const stoppedBy = runSearch(job, (message) => port.postMessage(message));
    port.postMessage({ kind: 'done', stoppedBy } satisfies SearchMessage);
  });
}
