// The scale-out test's cluster: redis-server, N replicas (replica.js, each a child process on a
// free 127.0.0.1 port) and HAProxy in plain round robin in front of them, every one started here
// and stopped by stop(). HAProxy checks /healthz, closes server connections after each response
// (so a replica that closed its listener gets no new request) and retries a request elsewhere when
// its connection failed or the server closed it without a byte (retry-on conn-failure
// empty-response 503, redispatch).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startRedis } from '../stores/redis-server.js';

/** The install command named when HAProxy is missing. */
export const INSTALL_HAPROXY = 'apt-get install -y haproxy';

const REPLICA = new URL('./replica.js', import.meta.url).pathname;

/** Waits until `check()` is true, polling every 100 ms, for at most `ms`. */
export async function waitFor(check, ms, what) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

function haproxyConfig(frontPort, ports) {
  return `global
  maxconn 2000
defaults
  mode http
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  timeout http-request 10s
  option http-server-close
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response 503
frontend mcp
  bind 127.0.0.1:${frontPort}
  default_backend replicas
backend replicas
  balance roundrobin
  option httpchk GET /healthz
  http-check expect status 200
  default-server inter 300ms fall 1 rise 1
${ports.map((port, i) => `  server r${i} 127.0.0.1:${port} check`).join('\n')}
`;
}

/**
 * Starts the cluster. `redis: false` runs the replicas without shared stores (main's design);
 * `secret: null` without a state secret (each replica signs with a key of its own).
 * Resolves to { url, replicas: [{ port, child, produced: Set }], kill(i, signal), restart(i), stop() }.
 */
export async function startCluster({ count = 4, redis = true, secret = 'scale-out secret' } = {}) {
  if (spawnSync('haproxy', ['-v']).error !== undefined) {
    throw new Error(`haproxy is not installed; the scale-out test needs it: ${INSTALL_HAPROXY}`);
  }
  const store = redis ? await startRedis() : undefined;
  const ports = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const replicas = ports.map((port, i) => ({ port, name: `r${i}`, child: undefined, produced: new Set(), log: '' }));
  const launch = (replica) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [REPLICA, String(replica.port)], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, REDIS_URL: store?.url ?? '', ...(secret === null ? {} : { STATE_SECRET: secret }), REPLICA_NAME: replica.name },
      });
      replica.child = child;
      replica.exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('ready ')) resolve();
      });
      child.stderr.on('data', (chunk) => {
        replica.log += chunk;
        for (const m of String(chunk).matchAll(/produced (\S+)/g)) replica.produced.add(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`replica ${replica.name} exited (${code}) before it was ready:\n${replica.log}`)));
    });
  await Promise.all(replicas.map(launch));
  const frontPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'baremcp-haproxy-'));
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(frontPort, ports));
  const haproxy = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let haproxyLog = '';
  haproxy.stdout.on('data', (c) => (haproxyLog += c));
  haproxy.stderr.on('data', (c) => (haproxyLog += c));
  const haproxyExited = new Promise((done) => haproxy.once('exit', done));
  const base = `http://127.0.0.1:${frontPort}`;
  const healthy = async () => {
    try {
      return (await fetch(`${base}/healthz`)).ok;
    } catch {
      return false;
    }
  };
  await waitFor(healthy, 10_000, `HAProxy on ${base}:\n${haproxyLog}`);
  // Every server up: HAProxy checks each every 300 ms.
  await new Promise((r) => setTimeout(r, 1000));
  return {
    url: `${base}/mcp`,
    replicas,
    haproxyLog: () => haproxyLog,
    /** Sends `signal` to replica i and waits for it to exit. */
    async kill(i, signal = 'SIGKILL') {
      const replica = replicas[i];
      replica.child.kill(signal);
      return replica.exited;
    },
    /** Starts replica i again on its port. */
    restart(i) {
      return launch(replicas[i]);
    },
    async stop() {
      for (const replica of replicas) {
        if (replica.child.exitCode === null && replica.child.signalCode === null) {
          replica.child.kill('SIGTERM');
          await replica.exited;
        }
      }
      haproxy.kill('SIGTERM');
      await haproxyExited;
      await store?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
