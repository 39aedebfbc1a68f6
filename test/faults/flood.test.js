// Floods a served process: 10,000 calls written at once to a client that does not read, and a
// 100 MB line. Memory must stay bounded (peak RSS from /proc/<pid>/status VmHWM) and nothing may
// be lost. Issue 10; cases/protocol.md cases 15-16. Linux only (skipped without /proc).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { delay } from '../helpers.js';
import { INIT, INITD, MiB, callLine, hasProc, peakRss, pingLine, startServer } from './process.js';

const skip = hasProc ? false : 'needs /proc/<pid>/status (Linux)';
/** The stated bound on the server's peak RSS while its reader is paused (backpressure holds). */
const RSS_BOUND = 200 * MiB;
/**
 * The bound on the peak once the reader drains 160 MiB of replies quickly: garbage awaits the
 * collector, so it is looser, and still under what buffering every reply would take (~370 MiB).
 */
const DRAIN_RSS_BOUND = 300 * MiB;
const CALLS = 10_000;
/** 10,000 replies of 16 KiB: 160 MiB of output, more than the bound if the server buffered it. */
const REPLY_BYTES = 16 * 1024;

test(
  `${CALLS} calls written at once to a reader that pauses: each answered once, peak RSS under 200 MiB while paused`,
  { skip },
  async (t) => {
    const server = startServer({ paused: true });
    server.child.stdin.write(`${INIT}\n`);
    await delay(300);
    const idle = peakRss(server.pid);
    let text = `${INITD}\n`;
    for (let i = 1; i <= CALLS; i++) text += `${callLine(i, 'pad', { bytes: REPLY_BYTES })}\n`;
    server.child.stdin.write(text);
    // The client reads nothing for 1.5 s: the pipe fills, the server must stop reading its input.
    await delay(1500);
    const stalled = peakRss(server.pid);
    server.resume();
    await server.waitFor(() => server.messages().length === CALLS + 1, 60_000, `${CALLS} replies`);
    const peak = peakRss(server.pid);
    server.child.stdin.end();
    assert.equal((await server.exited).code, 0);
    const counts = new Map();
    for (const reply of server.replies()) counts.set(reply.id, (counts.get(reply.id) ?? 0) + 1);
    for (let i = 1; i <= CALLS; i++) assert.equal(counts.get(i), 1, `call ${i} answered once`);
    assert.equal(server.byId(CALLS).result.content[0].text.length, REPLY_BYTES);
    t.diagnostic(
      `peak RSS: ${(idle / MiB).toFixed(1)} MiB idle, ${(stalled / MiB).toFixed(1)} MiB while the reader paused, ${(peak / MiB).toFixed(1)} MiB after ${CALLS} calls`,
    );
    assert.ok(stalled < RSS_BOUND, `peak RSS while the reader paused ${(stalled / MiB).toFixed(1)} MiB`);
    assert.ok(peak < DRAIN_RSS_BOUND, `peak RSS ${(peak / MiB).toFixed(1)} MiB`);
  },
);

test(
  'a 100 MB line is refused with one error, memory stays bounded, and the next ping is answered',
  { skip },
  async (t) => {
    const server = startServer();
    server.child.stdin.write(`${INIT}\n`);
    await server.waitFor(() => server.replies().length === 1, 10_000, 'the initialize reply');
    const idle = peakRss(server.pid);
    const stdin = server.child.stdin;
    stdin.write(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"pad","arguments":{"text":"',
    );
    const chunk = Buffer.alloc(MiB, 'x');
    for (let i = 0; i < 100; i++) {
      if (!stdin.write(chunk)) await once(stdin, 'drain');
    }
    stdin.write(`"}}}\n${pingLine(8)}\n`);
    await server.waitFor(
      () => server.byId(8) !== undefined,
      60_000,
      'the ping after the long line',
    );
    const peak = peakRss(server.pid);
    stdin.end();
    assert.equal((await server.exited).code, 0);
    const refused = server.byId(7);
    assert.equal(refused.error.code, -32600);
    assert.match(refused.error.message, /larger than the limit of 8388608 bytes/);
    assert.deepEqual(server.byId(8), { jsonrpc: '2.0', id: 8, result: {} });
    assert.equal(server.replies().length, 3, 'one error for the long line, nothing else');
    t.diagnostic(
      `peak RSS: ${(idle / MiB).toFixed(1)} MiB idle, ${(peak / MiB).toFixed(1)} MiB after a 100 MB line`,
    );
    assert.ok(peak < RSS_BOUND, `peak RSS ${(peak / MiB).toFixed(1)} MiB`);
  },
);
