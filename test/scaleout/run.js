// The scale-out test (`node test/scaleout/run.js`, a step of .ci/run): 4 replicas behind HAProxy in
// plain round robin on loopback, sharing sessions, stream events, the event bus and tasks through a
// real redis-server (see cluster.js). Scenarios, each counted and printed:
//   1. the official conformance suite through the balancer, both sets (2025-11-25; 2026-07-28 with
//      the tasks scenarios);
//   2. list changes, one announced on each replica: a subscriptions/listen stream hears all of them;
//   3. kill -9 of one replica while calls stream (legacy via the SDK v1 client, 2026-07-28 via
//      fetch): every call ends with its result, after retries of errors the client can retry, and
//      a result already produced is delivered exactly once;
//   4. a rolling restart (SIGTERM, one replica at a time, each started again): 0 failed requests.
// `--no-redis` runs scenario 1 only, with replicas that share nothing but the state secret (the
// design before scale-out); `--no-secret` runs scenario 1 only, with Redis but no state secret
// (each replica signs requestState with its own random key). Prints "N passed, M failed" last;
// exits 1 on any failure.
import { node22, runConformance } from '../conformance/suite.js';
import { legacyCall, legacyClient, listen, modernCall } from './clients.js';
import { startCluster, waitFor } from './cluster.js';

const redis = !process.argv.includes('--no-redis');
const secret = process.argv.includes('--no-secret') ? null : 'scale-out secret';
const started = Date.now();
const log = (line) => process.stdout.write(`${line}\n`);
const results = [];
const check = (name, ok, detail) => {
  results.push(ok);
  log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Opens a legacy session with plain HTTP, starts a streaming call, drops its stream after the first
 * event, and resumes it with GET and Last-Event-ID: the rest of the events and the result arrive,
 * once each.
 */
async function droppedStream(url) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (body, extra = {}) => fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'drop', version: '1' } } });
  const session = { 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-11-25' };
  await init.text();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  const call = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'count', arguments: { token: 'dropped', steps: 6, delayMs: 200 }, _meta: { progressToken: 'd' } } }, session);
  const reader = call.body.getReader();
  let text = '';
  while (!/\nid: |^id: /.test(text) || !text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  const firstId = /id: (\S+)/.exec(text)[1];
  const resumed = await fetch(url, { method: 'GET', headers: { accept: 'text/event-stream', ...session, 'last-event-id': firstId } });
  const rest = await resumed.text();
  const ids = [firstId, ...[...rest.matchAll(/^id: (\S+)/gm)].map((m) => m[1])];
  const messages = rest.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
  const reply = messages.filter((m) => m.id === 2);
  const progress = messages.filter((m) => m.method === 'notifications/progress').length;
  return {
    ok: reply.length === 1 && reply[0].result?.content?.[0]?.text?.startsWith('dropped') && progress === 5 && new Set(ids).size === ids.length,
    detail: `dropped after event ${firstId}; resumed: ${progress} progress events and ${reply.length} result (${reply[0]?.result?.content?.[0]?.text ?? 'none'}), ids all distinct: ${new Set(ids).size === ids.length}`,
  };
}

/** Counts PASS/FAIL/SKIP per requirement set in runConformance's report. */
function perSet(report) {
  const sets = [];
  for (const part of report.split('\n--requirements ').slice(1)) {
    const lines = part.split('\n');
    const count = (word) => lines.filter((l) => l.startsWith(`  ${word} `)).length;
    sets.push({ revision: lines[0].split(':')[0], pass: count('PASS'), fail: count('FAIL'), skip: count('SKIP'), failing: lines.filter((l) => l.startsWith('  FAIL ')).map((l) => l.slice(7)) });
  }
  return sets;
}

const cluster = await startCluster({ redis, secret });
log(`HAProxy round robin at ${cluster.url} over ${cluster.replicas.length} replicas (${redis ? 'Redis stores' : 'no shared store'}, ${secret === null ? 'no state secret' : 'shared state secret'})`);
try {
  // 1. Conformance through the balancer.
  const { report } = await runConformance(await node22(), cluster.url);
  for (const set of perSet(report)) {
    check(`conformance ${set.revision} through HAProxy round robin`, set.fail === 0, `${set.pass}/${set.pass + set.fail} passed${set.skip ? `, ${set.skip} skipped` : ''}${set.failing.length ? `; failing: ${set.failing.join(', ')}` : ''}`);
  }
  if (results.includes(false)) log(report);
  if (!redis || secret === null) throw new Error('done');

  // 2b. A legacy stream that drops mid-call is resumed through the balancer (another replica).
  {
    const dropped = await droppedStream(cluster.url);
    check('a dropped legacy stream resumed with Last-Event-ID through the balancer', dropped.ok, dropped.detail);
  }

  // 2. One list change on each replica; one listener hears every one.
  const listener = await listen(cluster.url);
  await waitFor(() => listener.received().includes('notifications/subscriptions/acknowledged'), 5000, 'the acknowledgement');
  const changedOn = [];
  for (let i = 0; i < cluster.replicas.length; i++) changedOn.push(await modernCall(cluster.url, 'announce_change', {}, 10 + i));
  await sleep(500);
  const heard = listener.received().filter((m) => m === 'notifications/tools/list_changed').length;
  await listener.close();
  const replicasUsed = new Set(changedOn.map((t) => t.split(' on ')[1])).size;
  check('list changes across replicas', heard === cluster.replicas.length, `${cluster.replicas.length} changes on ${replicasUsed} replicas, ${heard} heard on one subscriptions/listen stream`);

  // 3. kill -9 of one replica while calls stream.
  const legacyClients = await Promise.all(Array.from({ length: 12 }, () => legacyClient(cluster.url)));
  const delivered = new Map();
  const stats = { calls: 0, retried: 0, failed: 0, errors: [] };
  const oneCall = async (kind, k) => {
    const token = `${kind}-${k}`;
    stats.calls++;
    for (let attempt = 1; attempt <= 4; attempt++) {
      try {
        // From 0.25 s to 3 s: some end before the kill (at 1.2 s), some after.
        const args = { token, steps: 1 + (k % 12), delayMs: 250 };
        const text = kind === 'legacy' ? await legacyCall(legacyClients[k], 'count', args) : await modernCall(cluster.url, 'count', args, 100 + k);
        const list = delivered.get(token) ?? [];
        list.push(text);
        delivered.set(token, list);
        return;
      } catch (error) {
        stats.errors.push(`${token}: ${String(error.message ?? error).slice(0, 120)}`);
        if (attempt === 4) stats.failed++;
        else stats.retried++;
      }
    }
  };
  const calls = [...Array.from({ length: 12 }, (_, k) => oneCall('legacy', k)), ...Array.from({ length: 12 }, (_, k) => oneCall('modern', k))];
  await sleep(1200);
  const victim = 1;
  await cluster.kill(victim, 'SIGKILL');
  await Promise.all(calls);
  const producedByVictim = [...cluster.replicas[victim].produced];
  const once = [...delivered.values()].every((list) => list.length === 1);
  const fromVictim = [...delivered.values()].flat().filter((t) => t.endsWith(`from r${victim}`)).length;
  const victimTokens = producedByVictim.filter((token) => delivered.has(token));
  check(
    'kill -9 of one replica while 24 calls stream',
    stats.failed === 0 && once && delivered.size === stats.calls,
    `${stats.calls} calls: ${delivered.size} got their result, ${stats.retried} after an error the client could retry, ${stats.failed} failed; ` +
      `${producedByVictim.length} results produced on the killed replica before it died, ${fromVictim} delivered, each once: ${victimTokens.every((t) => delivered.get(t).length === 1)}; ` +
      `results delivered more than once: ${[...delivered.values()].filter((l) => l.length > 1).length}`,
  );
  if (stats.errors.length > 0) log(`  errors the clients retried: ${stats.errors.join(' | ')}`);
  await Promise.all(legacyClients.map((c) => c.close().catch(() => {})));
  await cluster.restart(victim);
  await sleep(1000);

  // 4. Rolling restart under load.
  const load = { requests: 0, failed: 0, errors: [] };
  let running = true;
  const workers = [];
  const rolling = await Promise.all(Array.from({ length: 4 }, () => legacyClient(cluster.url)));
  for (let w = 0; w < 4; w++) {
    workers.push((async () => {
      for (let n = 0; running; n++) {
        load.requests++;
        try {
          await legacyCall(rolling[w], 'count', { token: `roll-${w}-${n}`, steps: 3, delayMs: 150 });
        } catch (error) {
          load.failed++;
          load.errors.push(String(error.message ?? error).slice(0, 120));
        }
      }
    })());
    workers.push((async () => {
      for (let n = 0; running; n++) {
        load.requests++;
        try {
          await modernCall(cluster.url, n % 2 === 0 ? 'test_simple_text' : 'count', { token: `m-${w}-${n}`, steps: 3, delayMs: 150 }, n);
        } catch (error) {
          load.failed++;
          load.errors.push(String(error.message ?? error).slice(0, 120));
        }
      }
    })());
  }
  await sleep(1000);
  const exits = [];
  for (let i = 0; i < cluster.replicas.length; i++) {
    exits.push(await cluster.kill(i, 'SIGTERM'));
    await cluster.restart(i);
    await sleep(1200);
  }
  running = false;
  await Promise.all(workers);
  await Promise.all(rolling.map((c) => c.close().catch(() => {})));
  check(
    'rolling restart (SIGTERM one replica at a time) under load',
    load.failed === 0 && exits.every((e) => e.code === 0),
    `${load.requests} requests, ${load.failed} failed; exit codes ${exits.map((e) => e.code).join(', ')}`,
  );
  if (load.errors.length > 0) log(`  failures: ${[...new Set(load.errors)].slice(0, 5).join(' | ')}`);
} catch (error) {
  if (error.message !== 'done') {
    check('the scale-out run', false, error.stack);
  }
} finally {
  await cluster.stop();
}
const failed = results.filter((ok) => !ok).length;
process.stderr.write(`scale-out run took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
log(`\n${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
