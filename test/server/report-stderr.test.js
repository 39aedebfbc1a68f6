// The default `report` and the audit policy's default sink write with process.stderr.write (stderr.ts). A
// stderr whose reader is gone makes that write fail with EPIPE, an 'error' event on
// process.stderr: unheard, it ends the process, where console.error ignored it. A server (stdio
// or HTTP) must outlive a host that closed its stderr, and stdout must carry nothing of a report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const index = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/**
 * Runs `code` (an ES module) in a child whose stderr pipe the parent closes; once it is closed, the
 * parent writes a line to the child's stdin (`code` waits for it). Its exit and stdout.
 */
function runWithClosedStderr(code) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.once('close', () => child.stdin.end('go\n'));
  child.stderr.destroy();
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
  return new Promise((resolve) => child.on('close', (status, signal) => resolve({ status, signal, out })));
}

test('the default report outlives a closed stderr and writes nothing to stdout', async () => {
  // The child waits for the parent's close of the pipe, reports, then gives the asynchronous
  // EPIPE time to be emitted before it says it is alive.
  const code = `
    import { Server } from ${JSON.stringify(index)};
    const server = new Server({ info: { name: 'r', version: '1' } });
    process.stdin.once('data', () => {
      for (let i = 0; i < 20; i++) server.report('line ' + i);
      setTimeout(() => { server.report('late'); setTimeout(() => process.stdout.write('alive\\n'), 100); }, 100);
      process.stdin.pause();
    });`;
  const { status, signal, out } = await runWithClosedStderr(code);
  assert.equal(signal, null);
  assert.equal(out, 'alive\n');
  assert.equal(status, 0);
});

test('an application listening for stderr errors keeps its own listener only', async () => {
  const code = `
    import { Server } from ${JSON.stringify(index)};
    process.stderr.on('error', () => {});
    const server = new Server({ info: { name: 'r', version: '1' } });
    process.stdin.once('data', () => {
      process.stdin.pause();
      server.report('one');
      setTimeout(() => process.stdout.write(process.stderr.listenerCount('error') + '\\n'), 200);
    });`;
  const { status, out } = await runWithClosedStderr(code);
  assert.equal(out, '1\n');
  assert.equal(status, 0);
});

test('the audit policy\'s default sink outlives a closed stderr too', async () => {
  const policies = fileURLToPath(new URL('../../dist/policies/audit.js', import.meta.url));
  const code = `
    import { createServer } from ${JSON.stringify(index)};
    import { audit } from ${JSON.stringify(policies)};
    const server = createServer({ info: { name: 'a', version: '1' }, middleware: [audit()], report: () => {} });
    process.stdin.once('data', async () => {
      process.stdin.pause();
      for (let i = 0; i < 20; i++) await server.handle({ jsonrpc: '2.0', id: i, method: 'ping' });
      // A record written once the pipe's error was emitted (as the report test's 'late' line).
      setTimeout(async () => {
        await server.handle({ jsonrpc: '2.0', id: 'late', method: 'ping' });
        setTimeout(() => process.stdout.write('alive\\n'), 100);
      }, 100);
    });`;
  const { status, signal, out } = await runWithClosedStderr(code);
  assert.equal(signal, null);
  assert.equal(out, 'alive\n');
  assert.equal(status, 0);
});
