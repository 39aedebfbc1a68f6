// A server under test for bench/http.js: a child process `node [flags] <script>` told its port in
// BENCH_PORT, which prints `{"listening":port}` on stdout once it listens on 127.0.0.1. Other
// stdout lines that are not JSON (a peer's banner) are ignored. With `control`, the child also
// loads bench/servers/http/control.js: `gc()` then runs full collections in it, and `close()`
// ends its stdin so that it exits normally (and `--cpu-prof` writes its profile).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const STDERR_KEEP = 4096;

/** A port free on 127.0.0.1 right now (the kernel's pick for port 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

export class HttpChild {
  /**
   * @param {{ label: string, argv: string[] }} server
   * @param {string} root the working directory (the repository)
   * @param {{ control?: boolean, flags?: string[], command?: string, prefix?: string[], anyPort?: boolean }} options
   *   command/prefix: run node under another program (bench/http-counts.js: valgrind);
   *   anyPort: the child binds port 0 and reports the kernel's
   *   pick (no window between choosing a free port and binding it, which a slow start under
   *   valgrind widens enough for another process to take the port)
   */
  constructor(server, root, options = {}) {
    this.server = server;
    this.root = root;
    this.control = options.control === true;
    this.flags = options.flags ?? [];
    this.command = options.command;
    this.prefix = options.prefix ?? [];
    this.anyPort = options.anyPort === true;
    this.stderr = '';
    this.waiters = [];
  }

  /** Spawns the server and resolves once it listens: `{ t0, listening }` (performance.now()). */
  async start(timeoutMs = 60_000) {
    const port = this.anyPort ? 0 : await freePort();
    const flags = [...(this.control ? ['--expose-gc', '--import', join(this.root, 'bench/servers/http/control.js')] : []), ...this.flags];
    this.t0 = performance.now();
    const node = this.command === undefined ? [] : [...this.prefix, process.execPath];
    this.proc = spawn(this.command ?? process.execPath, [...node, ...flags, ...this.server.argv], {
      cwd: this.root,
      env: { ...process.env, BENCH_PORT: String(port) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.pid = this.proc.pid;
    this.exited = new Promise((resolve) => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
    this.proc.stdin.on('error', () => {});
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (chunk) => (this.stderr = (this.stderr + chunk).slice(-STDERR_KEEP)));
    let rest = '';
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) this.#onLine(line);
    });
    const ready = new Promise((resolve, reject) => {
      this.waiters.push({ key: 'listening', resolve, reject });
      this.proc.once('exit', () => reject(this.#died()));
      setTimeout(() => reject(new Error(`${this.server.label}: not listening after ${timeoutMs} ms; stderr: ${this.stderr.slice(-600)}`)), timeoutMs).unref();
    });
    await ready;
    this.origin = `http://127.0.0.1:${this.port}`;
    return { t0: this.t0, listening: this.listeningAt };
  }

  #died() {
    return new Error(`${this.server.label} exited; stderr: ${this.stderr.trim().slice(-600)}`);
  }

  #onLine(line) {
    if (!line.startsWith('{')) return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof message.listening === 'number') {
      this.listeningAt = performance.now();
      this.port = message.listening;
    }
    const index = this.waiters.findIndex((w) => message[w.key] !== undefined);
    if (index !== -1) this.waiters.splice(index, 1)[0].resolve(message);
  }

  /** Two full garbage collections in the child (needs `control`). */
  gc() {
    if (!this.control) throw new Error('gc() needs a child started with control');
    return new Promise((resolve, reject) => {
      this.waiters.push({ key: 'gc', resolve, reject });
      this.proc.stdin.write('gc\n');
    });
  }

  /** The child's heapUsed and its count of collections so far, without collecting (needs `control`). */
  heap() {
    if (!this.control) throw new Error('heap() needs a child started with control');
    return new Promise((resolve, reject) => {
      this.waiters.push({ key: 'heap', resolve, reject });
      this.proc.stdin.write('heap\n');
    });
  }

  /** Stops the child: end of stdin (with control) or SIGTERM; SIGKILL after `graceMs`. */
  async close(graceMs = 5000) {
    if (this.proc === undefined || this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    if (this.control) this.proc.stdin.end();
    else this.proc.kill('SIGTERM');
    const wait = (ms) => Promise.race([this.exited, new Promise((r) => setTimeout(() => r(undefined), ms).unref())]);
    if ((await wait(graceMs)) !== undefined) return;
    this.proc.kill('SIGKILL');
    await this.exited;
  }
}
