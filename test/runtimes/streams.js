// Stream checks for a served runtime fixture (fixtures/handler.js): every stream sends its first
// bytes at once and a keep-alive well within 10 s (Bun closes a connection silent for 10 s), and
// stays open through a quiet spell longer than that; a call that is quiet for as long still gets
// its reply. Each check is { name, ok, detail }.
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'stream-check', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
/** Longer than Bun's 10 s idle time-out, with a margin for its 4 s timer ticks. */
export const QUIET_MS = 14_000;
/** The first bytes of a stream must come this fast, in milliseconds. */
const AT_ONCE_MS = 1_000;
/** The longest silence allowed on a stream, in milliseconds. */
const MAX_GAP_MS = 9_000;

/** Opens a legacy session; resolves to its id. */
async function legacySession(url) {
  const init = await fetch(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stream-check', version: '1' } },
    }),
  });
  await init.arrayBuffer();
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || id === null) throw new Error(`initialize: HTTP ${init.status}, session ${id}`);
  const done = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await done.arrayBuffer();
  return id;
}

/**
 * Reads `response`'s body for `ms` milliseconds; resolves to { arrivals (ms after `start` of
 * each chunk), endedAt (ms after `start` when the body ended or failed, or undefined), error }.
 */
async function watch(response, start, ms) {
  const reader = response.body.getReader();
  const arrivals = [];
  let endedAt;
  let error;
  const stop = new Promise((resolve) => setTimeout(() => resolve('stop'), ms));
  for (;;) {
    const next = await Promise.race([reader.read().catch((e) => ({ failed: e })), stop]);
    if (next === 'stop') break;
    if (next.failed !== undefined || next.done) {
      endedAt = Date.now() - start;
      error = next.failed;
      break;
    }
    arrivals.push(Date.now() - start);
  }
  await reader.cancel().catch(() => {});
  return { arrivals, endedAt, error };
}

/** Judges a watched stream: first bytes at once, no gap over MAX_GAP_MS, still open at the end. */
function judge(name, { arrivals, endedAt, error }) {
  const gaps = arrivals.map((t, i) => t - (i === 0 ? 0 : arrivals[i - 1]));
  gaps.push((endedAt ?? QUIET_MS) - (arrivals.at(-1) ?? 0));
  const problems = [];
  if (arrivals.length === 0 || arrivals[0] > AT_ONCE_MS) problems.push(`first bytes after ${arrivals[0] ?? 'never'} ms`);
  if (Math.max(...gaps) > MAX_GAP_MS) problems.push(`silent for ${Math.max(...gaps)} ms`);
  if (endedAt !== undefined) problems.push(`closed after ${endedAt} ms${error === undefined ? '' : ` (${error.message})`}`);
  const times = arrivals.map((t) => (t / 1000).toFixed(1)).join(', ');
  return { name, ok: problems.length === 0, detail: problems.length === 0 ? `bytes at ${times} s` : `${problems.join('; ')} (bytes at ${times} s)` };
}

/** A legacy session's GET stream, quiet for QUIET_MS. */
async function legacyGetStream(url) {
  const id = await legacySession(url);
  const start = Date.now();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': id } });
  if (response.status !== 200) throw new Error(`GET: HTTP ${response.status}`);
  return judge('legacy GET stream', await watch(response, start, QUIET_MS));
}

/** A 2026-07-28 subscriptions/listen stream, quiet after its acknowledgement. */
async function listenStream(url) {
  const start = Date.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: MODERN_META },
    }),
  });
  if (response.status !== 200) throw new Error(`subscriptions/listen: HTTP ${response.status}`);
  return judge('subscriptions/listen stream', await watch(response, start, QUIET_MS));
}

/** A legacy tools/call whose tool sends nothing for QUIET_MS: its reply must still arrive. */
async function quietCall(url) {
  const id = await legacySession(url);
  const start = Date.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'quiet', arguments: { ms: QUIET_MS } } }),
    });
    const text = await response.text();
    const ok = text.includes(`quiet for ${QUIET_MS} ms`);
    return { name: 'quiet legacy call', ok, detail: `HTTP ${response.status} after ${Date.now() - start} ms${ok ? '' : `: ${text.slice(0, 200)}`}` };
  } catch (error) {
    return { name: 'quiet legacy call', ok: false, detail: `failed after ${Date.now() - start} ms: ${error.cause?.message ?? error.message}` };
  }
}

/** Runs every check at once against `url`; resolves to the list of results. */
export async function checkStreams(url) {
  const checks = [legacyGetStream, listenStream, quietCall];
  return Promise.all(
    checks.map((check) =>
      check(url).catch((error) => ({ name: check.name, ok: false, detail: error.message })),
    ),
  );
}
