/**
 * The body of `search_text`, run in a worker thread so that the caller can stop it at any moment:
 * a model-supplied regular expression can backtrack for minutes on one line, and only
 * terminating the thread bounds that. Walks the tree without following symbolic links, skips
 * binary, oversized and unreadable files, and posts each matching line as it is found.
 * @module
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from 'node:fs';
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

/** What the worker is asked to do (its `workerData`). */
export interface SearchJob {
  /** Real path of the workspace root; match paths are shown relative to it. */
  root: string;
  /** Real path of the folder or file to search, inside `root`. */
  start: string;
  /** `RegExp` source and flags, already checked by the caller. */
  source: string;
  flags: string;
  /** Stop after this many matching lines. */
  limit: number;
  /** Skip files larger than this many bytes. */
  maxFileBytes: number;
  /** `Date.now()` value after which the search stops by itself. */
  deadline: number;
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
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
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

/** Reads a regular file of at most `maxBytes` as UTF-8; `undefined` means skip it. */
function readText(file: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const bytes = new Uint8Array(info.size);
    let filled = 0;
    while (filled < bytes.length) {
      const read = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    if (bytes.includes(0)) return undefined;
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, filled));
  } catch {
    return undefined; // unreadable, or not UTF-8
  } finally {
    closeSync(fd);
  }
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
  let found = 0;

  const searchFile = (file: string): void => {
    if (Date.now() > job.deadline) throw new Stop('time');
    const text = readText(file, job.maxFileBytes);
    if (text === undefined) {
      Atomics.add(counters, SKIPPED, 1);
      return;
    }
    Atomics.add(counters, SEARCHED, 1);
    const shown = path.relative(job.root, file).split(path.sep).join('/');
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop(); // the file ends with a line break
    for (let index = 0; index < lines.length; index++) {
      if (index % LINES_PER_CHECK === LINES_PER_CHECK - 1 && Date.now() > job.deadline) {
        throw new Stop('time');
      }
      let content = lines[index]!;
      if (content.endsWith('\r')) content = content.slice(0, -1);
      const match = pattern.exec(content);
      if (match === null) continue;
      const text = excerpt(content, match.index);
      post({ kind: 'match', path: shown, line: index + 1, column: match.index + 1, text });
      if (++found >= job.limit) throw new Stop('limit');
    }
  };

  const walk = (directory: string): void => {
    if (Date.now() > job.deadline) throw new Stop('time');
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return; // unreadable folder
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(full);
      } else if (entry.isFile()) {
        searchFile(full);
      } // symbolic links and special files are not followed
    }
  };

  try {
    if (statSync(job.start).isDirectory()) walk(job.start);
    else searchFile(job.start);
  } catch (error) {
    if (error instanceof Stop) return error.reason;
    throw error;
  }
  return null;
}

const port = parentPort;
const data = workerData as Partial<SearchJob> | null;
if (
  port !== null &&
  data?.counters instanceof SharedArrayBuffer &&
  typeof data.source === 'string'
) {
  const stoppedBy = runSearch(data as SearchJob, (message) => port.postMessage(message));
  port.postMessage({ kind: 'done', stoppedBy } satisfies SearchMessage);
}
