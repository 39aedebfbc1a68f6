// Shared by the fault tests: spawn the shipped bin (`serve <fixture>`) and watch it (its
// output, its exit, its peak memory). Not a test file itself.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { delay, mainBin, repoRoot } from '../helpers.js';

export const FAULT_SERVER = resolve(repoRoot, 'test', 'faults', 'fixtures', 'fault-server.js');
export const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: { elicitation: {} },
    clientInfo: { name: 'fault-test', version: '1' },
  },
});
export const INITD = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
export const callLine = (id, name, args = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
export const pingLine = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

/** Text that means a crash: a stack frame, an uncaught error, an EPIPE surfacing. */
export const CRASH_TRACE =
  /\n\s+at .+:\d+:\d+|Uncaught|Unhandled|EPIPE|ERR_STREAM_DESTROYED|uncaught exception|unhandled rejection/i;

/**
 * Starts the bin serving `module` (the fault fixture by default; `args` after it, e.g. --isolate).
 * With `paused`, nothing reads the child's stdout until `resume()` (a slow client: the pipe fills
 * and the server must wait).
 */
export function startServer({ module = FAULT_SERVER, env = {}, paused = false, args = [], argv } = {}) {
  // argv: other node arguments instead of the bin (e.g. a script that calls serveStdio).
  const child = spawn(process.execPath, argv ?? [mainBin, 'serve', module, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const out = [];
  const err = [];
  // Lines are parsed as they arrive (a flood writes hundreds of MiB; re-parsing it all would not do).
  const parsed = [];
  const decoder = new StringDecoder('utf8');
  let partial = '';
  const onData = (c) => {
    out.push(c);
    const lines = (partial + decoder.write(c)).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      if (line === '') continue;
      try {
        parsed.push(JSON.parse(line));
      } catch {
        // Not a message: a test that cares checks the raw bytes (parseWire).
      }
    }
  };
  if (!paused) child.stdout.on('data', onData);
  child.stderr.on('data', (c) => err.push(c));
  // EPIPE on our side when the server is gone is expected in these tests.
  child.stdin.on('error', () => {});
  const exited = new Promise((r) =>
    child.on('exit', (code, signal) => r({ code, signal, at: Date.now() })),
  );
  const stdoutBytes = () => Buffer.concat(out);
  const stdout = () => stdoutBytes().toString('utf8');
  const stderr = () => Buffer.concat(err).toString('utf8');
  const messages = () => parsed;
  const replies = () => parsed.filter((m) => !('method' in m));
  const byId = (id) => parsed.find((m) => m.id === id && !('method' in m));
  const waitFor = async (predicate, ms = 10_000, what = 'a condition') => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (predicate()) return;
      await delay(10);
    }
    throw new Error(
      `timed out waiting for ${what}; stdout: ${stdout().slice(-500)} stderr: ${stderr().slice(-500)}`,
    );
  };
  const resume = () => child.stdout.on('data', onData);
  return {
    child,
    pid: child.pid,
    exited,
    stdoutBytes,
    stdout,
    stderr,
    messages,
    replies,
    byId,
    waitFor,
    resume,
  };
}

/** Resolves to the exit, or to `undefined` when the process is still running after `ms`. */
export function exitWithin(server, ms) {
  let timer;
  const late = new Promise((r) => (timer = setTimeout(r, ms)));
  return Promise.race([server.exited, late.then(() => undefined)]).finally(() =>
    clearTimeout(timer),
  );
}

/** Peak resident set size of a live process, in bytes (Linux: VmHWM in /proc/<pid>/status). */
export function peakRss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match === null ? undefined : Number(match[1]) * 1024;
}

/** True when no process (not even a zombie) has this pid. */
export function isGone(pid) {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return error.code === 'ESRCH' && !existsSync(`/proc/${pid}`);
  }
}

export const hasProc = existsSync('/proc/self/status');
export const MiB = 1024 * 1024;
