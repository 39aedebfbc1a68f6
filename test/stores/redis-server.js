// A real redis-server for the tests that need one: started on a free 127.0.0.1 port with no
// persistence, stopped by the test that started it. Where redis-server is missing the test fails
// with the command that installs it (never a silent skip); .ci/run installs it.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** The install command named when redis-server is missing. */
export const INSTALL_REDIS = 'apt-get install -y redis-server';

/** A free TCP port on 127.0.0.1. */
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

/**
 * Starts redis-server; resolves to { url, port, stop() } once it accepts connections.
 * @throws when redis-server is not installed (the message says how to install it).
 */
export async function startRedis() {
  if (spawnSync('redis-server', ['--version']).error !== undefined) {
    throw new Error(`redis-server is not installed; the Redis tests need it: ${INSTALL_REDIS}`);
  }
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in 10 s:\n${log}`)), 10_000);
    const check = () => {
      if (/Ready to accept connections/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${log}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
