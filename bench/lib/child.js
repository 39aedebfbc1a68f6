// A minimal MCP client over a child process's stdio, built for measuring: newline framing, id
// matching, a timestamp on every reply, and a fast path for bursts (no promise per request).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const STDERR_KEEP = 4096;

/** `pid` and its descendants (an isolated server is a parent and a child), from /proc. */
export function processTree(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    try {
      for (const tid of readdirSync(`/proc/${all[i]}/task`)) {
        const children = readFileSync(`/proc/${all[i]}/task/${tid}/children`, 'utf8').trim();
        if (children !== '') all.push(...children.split(' ').map(Number));
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return all;
}

/** Reads utime+stime (clock ticks, all threads) from /proc/<pid>/stat, summed over the tree. */
export function cpuTicks(pid) {
  let total = 0;
  for (const p of processTree(pid)) {
    const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime is field 14, stime field 15.
    total += Number(fields[11]) + Number(fields[12]);
  }
  return total;
}

/**
 * CPU time a process and its descendants have run, in nanoseconds, summed over their threads: the first field of
 * /proc/<pid>/task/<tid>/schedstat (the scheduler's own clock, not the 10 ms ticks of /stat).
 * Returns undefined where schedstat is missing (kernels built without it).
 */
export function cpuNs(pid) {
  let total = 0;
  try {
    for (const p of processTree(pid)) {
      for (const tid of readdirSync(`/proc/${p}/task`)) {
        try {
          total += Number(readFileSync(`/proc/${p}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        } catch {
          // The thread ended between the listing and the read.
        }
      }
    }
  } catch {
    return undefined;
  }
  return Number.isFinite(total) && total > 0 ? total : undefined;
}

/**
 * Reads a `Vm*` line of /proc/<pid>/status, in bytes, summed over the process and its descendants
 * (for VmHWM that is the sum of each one's peak: an upper bound of the tree's peak).
 */
export function vm(pid, key) {
  let total = 0;
  for (const p of processTree(pid)) {
    const status = readFileSync(`/proc/${p}/status`, 'utf8');
    const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
    if (match === null) throw new Error(`no ${key} in /proc/${p}/status`);
    total += Number(match[1]) * 1024;
  }
  return total;
}

export class StdioChild {
  /** @param {string[]} argv arguments to `node` (script path first). */
  constructor(name, argv, cwd) {
    this.name = name;
    this.argv = argv;
    this.cwd = cwd;
    this.nextId = 1;
    this.pending = new Map();
    this.partial = [];
    this.stderr = '';
    this.sink = undefined;
    this.afterChunk = undefined;
    this.exited = undefined;
  }

  /** Spawns the server; `t0` is taken just before the spawn. */
  start() {
    this.t0 = performance.now();
    // command/prefix: run node under another program (bench/callgrind.js: valgrind).
    this.proc = spawn(this.command ?? process.execPath, [...(this.prefix ?? []), ...this.argv], { cwd: this.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.pid = this.proc.pid;
    this.exited = new Promise((resolve) => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk) => this.#onData(chunk));
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (chunk) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_KEEP);
    });
    this.proc.stdin.on('error', () => {});
    this.proc.once('exit', () => {
      for (const { reject } of this.pending.values()) reject(this.#died());
      this.pending.clear();
      if (this.burstReject) this.burstReject(this.#died());
    });
    return this;
  }

  #died() {
    return new Error(`${this.name} exited; stderr: ${this.stderr.trim().slice(-600)}`);
  }

  #onData(chunk) {
    const now = performance.now();
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline !== -1) {
      let line = chunk.slice(start, newline);
      if (this.partial.length > 0) {
        this.partial.push(line);
        line = this.partial.join('');
        this.partial = [];
      }
      if (line.length > 0) this.#onLine(line, now);
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) this.partial.push(chunk.slice(start));
    if (this.afterChunk) this.afterChunk();
  }

  #onLine(line, now) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      this.stderr += `\n[bench] non-JSON line on stdout: ${line.slice(0, 200)}`;
      return;
    }
    if (typeof message.method === 'string') {
      // A server-originated request (e.g. ping) or notification.
      if (message.id !== undefined) {
        const reply = message.method === 'ping'
          ? { jsonrpc: '2.0', id: message.id, result: {} }
          : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
        this.write(JSON.stringify(reply) + '\n');
      }
      return;
    }
    if (this.sink !== undefined) {
      this.sink(message);
      return;
    }
    const waiter = this.pending.get(message.id);
    if (waiter !== undefined) {
      this.pending.delete(message.id);
      waiter.resolve({ message, at: now });
    }
  }

  write(data) {
    this.proc.stdin.write(data);
  }

  /** Sends a request; resolves to `{ message, at }` (at: performance.now() when the reply arrived). */
  request(method, params, timeoutMs = 30000) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.name}: ${method} timed out after ${timeoutMs} ms; stderr: ${this.stderr.trim().slice(-600)}`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.write(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }) + '\n');
    });
  }

  notify(method, params) {
    this.write(JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }) + '\n');
  }

  /**
   * Sends `lines` (each a whole request line) keeping `window` in flight (Infinity: all written at
   * once) and resolves when every reply arrived: `{ ms, bad }` where `bad` counts replies for which
   * `check(message)` is false.
   */
  burst(lines, window, check, timeoutMs = 120000) {
    return new Promise((resolve, reject) => {
      let sent = 0;
      let received = 0;
      let bad = 0;
      let credit = 0;
      const timer = setTimeout(() => finish(new Error(`${this.name}: burst timed out (${received}/${lines.length} replies)`)), timeoutMs);
      const finish = (error) => {
        clearTimeout(timer);
        this.sink = undefined;
        this.afterChunk = undefined;
        this.burstReject = undefined;
        if (error) reject(error);
        else resolve({ ms: performance.now() - t, bad });
      };
      this.burstReject = finish;
      this.sink = (message) => {
        received++;
        credit++;
        if (!check(message)) bad++;
      };
      this.afterChunk = () => {
        if (received === lines.length) return finish();
        if (credit > 0 && sent < lines.length) {
          const end = Math.min(lines.length, sent + credit);
          this.write(end - sent === 1 ? lines[sent] : lines.slice(sent, end).join(''));
          sent = end;
          credit = 0;
        }
      };
      const t = performance.now();
      sent = Math.min(lines.length, window);
      this.write(sent === lines.length ? lines.join('') : lines.slice(0, sent).join(''));
    });
  }

  /** Ends stdin and waits for the exit; SIGTERM after `graceMs` (2 s), SIGKILL after 1 s more. */
  async close(graceMs = 2000) {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.stdin.end();
    // The timer does not keep the driver alive once the child is gone.
    const wait = (ms) => Promise.race([this.exited, new Promise((r) => setTimeout(() => r(undefined), ms).unref())]);
    if ((await wait(graceMs)) !== undefined) return;
    this.proc.kill('SIGTERM');
    if ((await wait(1000)) !== undefined) return;
    this.proc.kill('SIGKILL');
    await this.exited;
  }
}
