/**
 * The reload loop of `baremcp dev`: loads the first version of a module that loads, serves its
 * server for good, and on every change to the module or one of its own files (`module-files.ts`)
 * loads a new version and swaps its definitions in (`live-definitions.ts`). A version that does
 * not load changes nothing: the last good one goes on serving, and the reason is printed as
 * `baremcp serve` would print it (`load-errors.ts`). Loads never overlap: a change made during
 * a load is picked up when it ends.
 * @module
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Server } from '../../server/server.js';
import { UsageError } from '../args.js';
import { moduleFiles } from '../module-files.js';
import { Generations } from './generations.js';
import { LiveDefinitions } from './live-definitions.js';
import { failedLines, fileList, reloadedLines, shownPath } from './report.js';
import { contentKey, FileWatcher } from './watch.js';

/** `info` and `instructions`, compared between versions. */
const identity = (server: Server): string =>
  JSON.stringify([server.info, server.instructions ?? null]);

/** Options of a {@link Reloader}. */
export interface ReloaderOptions {
  /** Where each message goes (one or more lines, without the final newline). */
  report?: (text: string) => void;
  /** How many versions one process loads at most. @default MAX_VERSIONS (generations.ts) */
  maxVersions?: number;
}

/** Loads, watches and reloads one module. */
export class Reloader {
  readonly #modulePath: string;
  readonly #path: string;
  readonly #report: (line: string) => void;
  readonly #generations: Generations;
  readonly #watcher: FileWatcher;
  /** Each watched file's content at the last load (or attempt). */
  readonly #keys = new Map<string, string>();
  #live: LiveDefinitions | undefined;
  /** The version served now. */
  #served: number | undefined;
  /** The `identity` of the server that stays connected, and of the last version loaded. */
  #servedIdentity = '';
  #identity = '';
  #loading = false;
  #again = false;
  #waiting: ((server: Server) => void) | undefined;
  /** The server that stays connected (the first version's). */
  #server: Server | undefined;

  /**
   * @param modulePath the module as the person named it.
   * @param options `report`: where each message goes, as lines without the final newline
   *   (default: stderr); `maxVersions`: see `generations.ts` (default `MAX_VERSIONS`).
   */
  constructor(modulePath: string, options: ReloaderOptions = {}) {
    this.#modulePath = modulePath;
    this.#path = resolve(modulePath);
    this.#report = options.report ?? ((text) => process.stderr.write(text + '\n'));
    this.#generations = new Generations(modulePath, options.maxVersions);
    this.#watcher = new FileWatcher(() => this.#changed());
  }

  /** The files watched now (absolute paths): the module and its own files. */
  get files(): ReadonlySet<string> {
    return this.#watcher.files;
  }

  /** The version served now (undefined before one loaded). */
  get served(): number | undefined {
    return this.#served;
  }

  /**
   * Loads the module and resolves with its server, which serves every later version; when it
   * does not load, prints why and waits for a change that makes it load.
   * @throws {UsageError} when the module's file does not exist.
   */
  async start(): Promise<Server> {
    if (!existsSync(this.#path)) {
      throw new UsageError(`cannot find module ${this.#modulePath} (looked at ${this.#path})`);
    }
    const first = await this.#load();
    if (first instanceof Error) {
      this.#report(`baremcp: ${first.message}`);
      this.#report(`baremcp: waiting for a change to ${fileList([...this.files])}`);
      return new Promise((resolve) => (this.#waiting = resolve));
    }
    return this.#serve(first);
  }

  /** Stops watching (no reload afterwards). */
  close(): void {
    this.#watcher.close();
  }

  #serve(server: Server): Server {
    this.#server = server;
    this.#live = new LiveDefinitions(server);
    this.#served = this.#generations.loaded;
    this.#identity = this.#servedIdentity = identity(server);
    this.#report(`baremcp: watching ${fileList([...this.files])}: a change reloads tools, ` +
      'prompts and resources while clients stay connected');
    return server;
  }

  /**
   * Loads the next version: the module's files are listed (and watched) before the import, so
   * a file that a broken version names is watched too.
   */
  async #load(): Promise<Server | Error> {
    const files = [...moduleFiles(this.#path)].map((file) => file.path);
    this.#keys.clear();
    for (const file of files) this.#keys.set(file, contentKey(file));
    this.#watcher.watch(files);
    try {
      return await this.#generations.next(files);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Files whose content differs from the last load. */
  #differing(): string[] {
    return [...this.#keys].filter(([file, key]) => contentKey(file) !== key).map(([file]) => file);
  }

  #changed(): void {
    if (this.#loading) {
      this.#again = true;
      return;
    }
    this.#loading = true;
    void this.#reload().finally(() => {
      this.#loading = false;
      if (this.#again) {
        this.#again = false;
        this.#changed();
      }
    });
  }

  async #reload(): Promise<void> {
    const changed = this.#differing();
    if (changed.length === 0) return;
    if (!this.#generations.canLoad) {
      this.#watcher.close();
      this.#report(`baremcp: ${fileList(changed)} changed, but this process has loaded ` +
        `${this.#generations.max} versions of ${shownPath(this.#path)}, and Node keeps every ES module ` +
        'it loaded in memory: restart baremcp dev to load more; still serving version ' +
        `${this.#served ?? 'none'}`);
      return;
    }
    const start = performance.now();
    const next = await this.#load();
    const version = this.#generations.loaded;
    if (next instanceof Error) {
      this.#report(failedLines(changed, version, this.#served, next.message).join('\n'));
      return;
    }
    if (this.#waiting !== undefined) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      this.#report(`baremcp: ${fileList(changed)} changed: version ${version} loaded`);
      resolve(this.#serve(next));
      return;
    }
    if (next === this.#server) {
      // A server made outside the reloaded files (in a package): the same object comes back.
      this.#served = version;
      this.#report(`baremcp: ${fileList(changed)} changed: version ${version} loaded, but it ` +
        'exports the server already served (made outside the files that reload): nothing to swap');
      return;
    }
    const applied = (this.#live as LiveDefinitions).apply(next);
    const now = identity(next);
    // Said once when they change, not on every reload while they differ from what is served.
    const infoChanged = now !== this.#identity && now !== this.#servedIdentity;
    this.#identity = now;
    this.#served = version;
    const ms = performance.now() - start;
    this.#report(reloadedLines({ changed, version, ms, applied, infoChanged }).join('\n'));
  }
}
