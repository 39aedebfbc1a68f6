/**
 * Watches a set of files for `baremcp dev`, debounced. It watches their folders (one `fs.watch`
 * per folder, not recursive), not the files: an editor that saves by writing a new file and
 * renaming it over the old one replaces the file, and a watch on the old file would go quiet.
 * What changed is decided by content (`contentKey`), so a save that changes nothing, or events
 * for other files of the folder, cause no reload.
 *
 * Spec: Node.js, File system (`fs.watch`, "Caveats": filename argument, inode-based watching).
 * @module
 */
import { createHash } from 'node:crypto';
import { watch, readFileSync, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';

/** How long the files must stay quiet before a change is reported, in milliseconds. */
export const DEBOUNCE_MS = 100;

/** A file's content as a short key (sha-1), or `missing` when it cannot be read. */
export function contentKey(file: string): string {
  try {
    return createHash('sha1').update(readFileSync(file)).digest('hex');
  } catch {
    return 'missing';
  }
}

/** Calls `onChange` once the watched files have been quiet for {@link DEBOUNCE_MS}. */
export class FileWatcher {
  readonly #onChange: () => void;
  readonly #folders = new Map<string, FSWatcher>();
  #files = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /** @param onChange runs after a quiet period following events for a watched file. */
  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** The files watched now (absolute paths). */
  get files(): ReadonlySet<string> {
    return this.#files;
  }

  /**
   * Watches exactly `files` (absolute paths) from now on: folders no longer needed are
   * unwatched, new ones watched. A folder that cannot be watched is skipped.
   */
  watch(files: Iterable<string>): void {
    if (this.#closed) return;
    this.#files = new Set(files);
    const folders = new Set([...this.#files].map((file) => dirname(file)));
    for (const [folder, watcher] of this.#folders) {
      if (folders.has(folder)) continue;
      watcher.close();
      this.#folders.delete(folder);
    }
    for (const folder of folders) {
      if (this.#folders.has(folder)) continue;
      try {
        const watcher = watch(folder, (_event, name) => this.#event(folder, name));
        watcher.on('error', () => {
          watcher.close();
          this.#folders.delete(folder);
        });
        this.#folders.set(folder, watcher);
      } catch {
        // A folder that vanished or cannot be watched: its files are read again on the next load.
      }
    }
  }

  /** Stops watching; no `onChange` runs afterwards. Safe to call twice. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const watcher of this.#folders.values()) watcher.close();
    this.#folders.clear();
  }

  #event(folder: string, name: string | Buffer | null): void {
    // Without a file name (some platforms), any event of the folder counts.
    if (name !== null && !this.#files.has(join(folder, name.toString()))) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      if (!this.#closed) this.#onChange();
    }, DEBOUNCE_MS);
  }
}
