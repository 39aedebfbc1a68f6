/**
 * Full isolation of stdout (opt-in: `baremcp serve --isolate`, `serveStdio(server, { isolate:
 * true })`). The server runs in a child process whose fd 1 and fd 2 are this process's stderr, so
 * nothing it runs, native code included, can write onto the protocol stream; the child reads the
 * protocol from the inherited stdin (fd 0) and writes it to an inherited descriptor (fd 3, this
 * process's stdout), named by the environment variable {@link PROTOCOL_FD_ENV}. This process
 * reads nothing, forwards SIGTERM and SIGINT, and exits with the child's exit code. Costs a second
 * Node.js process: its start-up and memory are measured in bench/RESULTS.md.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio.
 * @module
 */
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { withRealStdout } from './stdout-guard.js';

/** Set in the isolated child: the descriptor its protocol output goes to. */
export const PROTOCOL_FD_ENV = 'BAREMCP_PROTOCOL_FD';

const require = createRequire(import.meta.url);

/** The descriptor to write protocol messages to when this process is an isolated child. */
export function isolatedProtocolFd(): number | undefined {
  const value = process.env[PROTOCOL_FD_ENV];
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/**
 * A writable stream on descriptor `fd`, of the kind Node.js itself picks for stdout: a socket for
 * a pipe or socket, a TTY stream for a terminal, a file stream for a file.
 */
export function protocolOutput(fd: number): Writable {
  const fs = require('node:fs') as typeof import('node:fs');
  const tty = require('node:tty') as typeof import('node:tty');
  if (tty.isatty(fd)) return new tty.WriteStream(fd);
  if (fs.fstatSync(fd).isFile()) return fs.createWriteStream('', { fd, autoClose: false });
  const net = require('node:net') as typeof import('node:net');
  return new net.Socket({ fd, readable: false, writable: true });
}

const toStderr = (line: string): void => void process.stderr.write(`baremcp: ${line}\n`);

/** The isolated child, seen from its parent. */
export interface IsolatedChild {
  /** Resolves when the child exited (the parent then exits with its code). */
  readonly closed: Promise<void>;
  /** True once the child exited. */
  readonly exited: boolean;
  /** Asks the child to stop (SIGTERM): it finishes like a server that got SIGTERM. */
  stop(): void;
}

/**
 * Starts this script again (same `execArgv` and `argv`) as the isolated child and waits for it:
 * this process exits with the child's code, and reads nothing itself.
 * @param report where a failure to start the child is written (stderr by default).
 */
export function spawnIsolated(report: (line: string) => void = toStderr): IsolatedChild {
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  const child = withRealStdout(() =>
    spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: [0, 2, 2, 1],
      env: { ...process.env, [PROTOCOL_FD_ENV]: '3' },
    }),
  );
  let exited = false;
  const closed = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      resolve();
      process.exit(code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : 1));
    });
    child.once('error', (error) => {
      report(`could not start the isolated server: ${error.message}`);
      exited = true;
      resolve();
      process.exit(3);
    });
  });
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  return {
    closed,
    get exited() {
      return exited;
    },
    stop: () => void child.kill('SIGTERM'),
  };
}
