/**
 * Keeps stdout for protocol messages only. While installed, everything JavaScript can send to
 * file descriptor 1 goes to stderr (fd 2) instead, and only the transport writes to the real
 * stdout:
 * - `process.stdout.write` and `console.log/info/debug` (and every console method built on them);
 * - `fs.write`, `fs.writeSync`, `fs.writev`, `fs.writevSync`, `fs.writeFile`, `fs.writeFileSync`,
 *   `fs.appendFile` and `fs.appendFileSync` given descriptor 1 (also through ESM named imports);
 * - child processes given fd 1 for any of their descriptors: `stdio: 'inherit'`, `[…, 1, …]`,
 *   `process.stdout`, and `fork()`'s default; through every `child_process` function (spawn, fork,
 *   exec, execFile and the sync ones), patched where they all meet: the Node.js bindings that
 *   start processes (`process_wrap`, `spawn_sync`), which costs nothing at start-up (importing
 *   `child_process` would cost 2-3 ms).
 * Not covered: native code writing to fd 1, a file opened by path (`/dev/stdout`,
 * `/proc/self/fd/1`). For those, serve with isolation (isolate.ts). SECURITY.md states both.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio ("The server MUST NOT write anything to its
 * stdout that is not a valid MCP message").
 * @module
 */
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { Writable } from 'node:stream';

type Write = Writable['write'];
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

const originals = new WeakMap<object, Write>();
let descriptorsGuarded = false;
/** Set while baremcp itself starts a child that must get the real stdout (isolation). */
let bypass = false;

/** `fs` functions whose first argument may be a file descriptor they write to. */
const FD_WRITERS = [
  'write',
  'writeSync',
  'writev',
  'writevSync',
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
];

/**
 * Diverts everything JavaScript writes to stdout (fd 1) to stderr: see the module comment for the
 * list. Idempotent. Install it before importing user code, which may print while it loads.
 */
export function installStdoutGuard(): void {
  const stdout = process.stdout;
  if (!originals.has(stdout)) {
    originals.set(stdout, stdout.write);
    const toStderr = ((chunk: unknown, encoding?: unknown, callback?: unknown) =>
      (process.stderr.write as (...args: unknown[]) => boolean)(chunk, encoding, callback)) as Write;
    stdout.write = toStderr;
    console.log = console.error;
    console.info = console.error;
    console.debug = console.error;
  }
  if (descriptorsGuarded) return;
  descriptorsGuarded = true;
  guardDescriptorWrites();
  guardChildProcesses();
}

/** Wraps the `fs` writers so that descriptor 1 becomes 2, for CommonJS and ESM callers alike. */
function guardDescriptorWrites(): void {
  const target = fs as unknown as Record<string, AnyFunction>;
  for (const name of FD_WRITERS) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    // process.stdout on a file writes through the `writeSync` it captured at load: not this one.
    target[name] = {
      [name](this: unknown, file: unknown, ...rest: unknown[]): unknown {
        return original.call(this, file === 1 ? 2 : file, ...rest);
      },
    }[name] as AnyFunction;
  }
  // `import { writeSync } from 'node:fs'` reads the ESM copy of the exports: update it.
  syncBuiltinESMExports();
}

/** A child's descriptor as the spawn bindings receive it: `{ type: 'fd', fd: 1 }` for ours. */
interface StdioEntry {
  type?: unknown;
  fd?: unknown;
}

/** Gives fd 2 instead of fd 1 to every descriptor in a normalised `stdio` list. */
function redirectEntries(stdio: unknown): void {
  if (!Array.isArray(stdio)) return;
  for (const entry of stdio as StdioEntry[]) {
    if (entry === null || typeof entry !== 'object') continue;
    if (entry.type === 'fd' && entry.fd === 1) entry.fd = 2;
  }
}

/**
 * Gives fd 2 instead of fd 1 to every descriptor of a child, whichever way the binding takes
 * them: one options object with a `stdio` list (Node 20, 22), or positional arguments of which
 * one is the `stdio` list (Node 24's `Process#spawn`).
 */
function redirect(args: readonly unknown[]): void {
  if (bypass) return;
  for (const arg of args) {
    if (Array.isArray(arg)) redirectEntries(arg);
    else if (arg !== null && typeof arg === 'object') redirectEntries((arg as { stdio?: unknown }).stdio);
  }
}

function wrap(holder: Record<string, unknown>, name: string): boolean {
  const original = holder[name];
  if (typeof original !== 'function') return false;
  holder[name] = {
    [name](this: unknown, ...args: unknown[]): unknown {
      redirect(args);
      return (original as AnyFunction).apply(this, args);
    },
  }[name];
  return true;
}

/**
 * Patches where every `child_process` function ends: the `process_wrap` binding's
 * `Process#spawn` (spawn, fork, exec, execFile) and the `spawn_sync` binding's `spawn` (the sync
 * ones), both of which take normalised `stdio` entries. Where the bindings cannot be reached, the
 * public functions are patched instead (that loads `child_process`).
 * @param viaBindings false: patch the public functions (tests use it; runtimes without bindings).
 */
export function guardChildProcesses(viaBindings = true): void {
  if (viaBindings) {
    try {
      type Bindings = { binding(name: string): Record<string, unknown> };
      const binding = (process as unknown as Bindings).binding;
      const processWrap = binding('process_wrap');
      const spawnSync = binding('spawn_sync');
      const Process = processWrap.Process as { prototype?: Record<string, unknown> } | undefined;
      const prototype = Process?.prototype;
      if (prototype !== undefined && wrap(prototype, 'spawn') && wrap(spawnSync, 'spawn')) return;
    } catch {
      // No bindings on this runtime: patch the public functions below.
    }
  }
  type ChildProcessModule = Record<string, unknown> & {
    ChildProcess: { prototype: Record<string, unknown> };
  };
  const childProcess = createRequire(import.meta.url)('node:child_process') as ChildProcessModule;
  // ChildProcess#spawn receives the options of spawn, fork, exec and execFile before they are
  // normalised; the sync functions call an internal spawnSync, so each is patched.
  patchArgument(childProcess.ChildProcess.prototype, 'spawn', 0, normalise);
  for (const name of ['spawnSync', 'execSync', 'execFileSync']) patchOptions(childProcess, name);
  syncBuiltinESMExports();
}

/** `stdio` as given to the public functions, with our fd 1 (in any form) replaced by 2. */
function normalise(options: unknown): unknown {
  if (bypass || options === null || typeof options !== 'object') return options;
  const given = (options as { stdio?: unknown }).stdio;
  let stdio: unknown[];
  if (given === 'inherit') stdio = ['inherit', 2, 'inherit'];
  else if (Array.isArray(given)) {
    // 'inherit' gives a child our descriptor of the same number: only its fd 1 is our stdout.
    stdio = given.map((entry, i) =>
      entry === 1 || entry === process.stdout || (i === 1 && entry === 'inherit') ? 2 : entry,
    );
  } else return options;
  return { ...options, stdio };
}

function patchArgument(
  holder: Record<string, unknown>,
  name: string,
  index: number,
  change: (value: unknown) => unknown,
): void {
  const original = holder[name] as AnyFunction;
  holder[name] = {
    [name](this: unknown, ...args: unknown[]): unknown {
      args[index] = change(args[index]);
      return original.apply(this, args);
    },
  }[name];
}

/** Patches a `(file, args?, options?)` or `(command, options?)` function: its options object. */
function patchOptions(holder: Record<string, unknown>, name: string): void {
  const original = holder[name] as AnyFunction;
  holder[name] = {
    [name](this: unknown, ...args: unknown[]): unknown {
      for (let i = 1; i < args.length; i++) {
        const arg = args[i];
        if (arg !== null && typeof arg === 'object' && !Array.isArray(arg)) args[i] = normalise(arg);
      }
      return original.apply(this, args);
    },
  }[name];
}

/** Runs `start` with the child-process guard off: a child baremcp starts that needs our fd 1. */
export function withRealStdout<T>(start: () => T): T {
  bypass = true;
  try {
    return start();
  } finally {
    bypass = false;
  }
}

/**
 * Writes protocol bytes to `stream`, bypassing the guard when it is installed on that stream.
 * @returns what `Writable.write` returns: false when the caller should wait for `drain`.
 */
export function writeProtocol(stream: Writable, data: string, callback?: (error?: Error | null) => void): boolean {
  const write = originals.get(stream) ?? stream.write;
  return (write as (data: string, callback?: (error?: Error | null) => void) => boolean).call(stream, data, callback);
}
