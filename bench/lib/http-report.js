// Renders the Streamable HTTP measurements (bench/http.js) as a markdown section of
// bench/RESULTS.md: values (median, min–max), ratios to the floor, and the HTTP targets of issue 21
// as met/missed rows for baremcp in both eras.
import { cell, fmtRatio, median, ratio, table } from './report.js';

const MiB = 1024 * 1024;
const num = (digits) => (v) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const rate = (v) => (!Number.isFinite(v) ? 'n/a' : v >= 1e4 ? `${(v / 1e3).toFixed(1)}k` : v.toFixed(0));
const mib = (v) => num(1)(v / MiB);

/** The figures, in table order. `higher`: larger is better; `noRatio`: no ratio to the floor. */
export const HTTP_FIGURES = [
  { key: 'firstCall', label: 'cold start: spawn → first `tools/call` result', unit: 'ms', fmt: num(1) },
  { key: 'listen', label: 'spawn → listening', unit: 'ms', fmt: num(1) },
  { key: 'cpu1', label: 'server CPU per request, concurrency 1', unit: 'µs', fmt: num(0) },
  { key: 'cpu16', label: 'server CPU per request, concurrency 16', unit: 'µs', fmt: num(0) },
  { key: 'cpu128', label: 'server CPU per request, concurrency 128', unit: 'µs', fmt: num(0) },
  { key: 'rps1', label: 'requests/s, concurrency 1', unit: 'req/s', fmt: rate, higher: true },
  { key: 'rps16', label: 'requests/s, concurrency 16', unit: 'req/s', fmt: rate, higher: true },
  { key: 'rps128', label: 'requests/s, concurrency 128', unit: 'req/s', fmt: rate, higher: true },
  { key: 'p50c1', label: 'latency p50, concurrency 1', unit: 'µs', fmt: num(0) },
  { key: 'p99c1', label: 'latency p99, concurrency 1', unit: 'µs', fmt: num(0) },
  { key: 'p50c16', label: 'latency p50, concurrency 16', unit: 'µs', fmt: num(0) },
  { key: 'rssIdle', label: 'RSS idle after the first call', unit: 'MiB', fmt: mib },
  { key: 'hwm', label: 'peak RSS (VmHWM) after a load round', unit: 'MiB', fmt: mib },
  { key: 'kibSession', label: 'RSS per open legacy session (floor: the same POSTs, no session)', unit: 'KiB', fmt: num(1), noRatio: true },
  { key: 'heapSession', label: 'JS heap per open legacy session (heapUsed + external)', unit: 'KiB', fmt: num(1), noRatio: true },
  { key: 'validates', label: 'rejects a call without `text`', unit: '', fmt: (v) => (v ? 'yes' : '**no**'), noRatio: true },
  { key: 'pkgs', label: 'installed packages', unit: 'count', fmt: num(0), noRatio: true },
];

const SESSION = 'baremcp-session';
const STATELESS = 'baremcp-stateless';

/** The HTTP targets of issue 21: `[label, cell for the session era, cell for the stateless era]`. */
function targetRows(samples) {
  const judge = (r, max) => (Number.isFinite(r) ? `${fmtRatio(r)} ${r <= max ? 'met' : '**missed**'}` : 'n/a');
  const toRef = (key, figure, ref, max) => judge(ratio(median(samples, key, figure), median(samples, ref, figure)), max);
  const kib = median(samples, SESSION, 'kibSession');
  return [
    ['CPU per request at concurrency 16 ≤ 3× floor', toRef(SESSION, 'cpu16', 'floor', 3), toRef(STATELESS, 'cpu16', 'floor', 3)],
    ['CPU per request at concurrency 16 below mcp-lite (≤ 1×)', toRef(SESSION, 'cpu16', 'mcp-lite', 1), toRef(STATELESS, 'cpu16', 'mcp-lite', 1)],
    ['stateless no dearer than a session (CPU per request at concurrency 16, stateless ÷ session ≤ 1×)', '(the reference)', toRef(STATELESS, 'cpu16', SESSION, 1)],
    ['≤ 12 KiB per open legacy session', Number.isFinite(kib) ? `${kib.toFixed(1)} KiB ${kib <= 12 ? 'met' : '**missed**'}` : 'n/a', '— (no session)'],
    ['cold start to first HTTP result ≤ 1.25× floor', toRef(SESSION, 'firstCall', 'floor', 1.25), toRef(STATELESS, 'firstCall', 'floor', 1.25)],
  ];
}

function countsNote(servers, samples) {
  return servers
    .map((s) => `${s.key} ${[1, 16, 128].map((level) => num(0)(median(samples, s.key, `n${level}`))).join('/')}`)
    .join(', ');
}

function driverNote(servers, samples) {
  return servers
    .map((s) => {
      const d = median(samples, s.key, 'driver16');
      return Number.isFinite(d) ? `${s.key} ${d.toFixed(0)} µs` : undefined;
    })
    .filter(Boolean)
    .join(', ');
}

/** The HTTP section: `## Streamable HTTP`, its run line, tables and method. */
export function renderHttp({ meta, servers, samples, problems }) {
  const labels = servers.map((s) => s.label);
  const out = [];
  out.push('## Streamable HTTP (issue 21)', '');
  out.push(`Run ${meta.date} (${meta.mode}) on ${meta.cpu}, ${meta.cores} cores, Node ${meta.node}; ${meta.params}; ${meta.load}.`, '');
  out.push('### Figures (median, min–max over repetitions)', '');
  out.push(table(['figure', 'unit', ...labels], HTTP_FIGURES.map((f) => [f.label, f.unit, ...servers.map((s) => cell(f, samples[s.key]?.[f.key]))])));
  out.push('', '### Ratio to the bare node:http floor (server ÷ floor, medians)', '');
  out.push(
    table(
      ['figure', ...labels],
      HTTP_FIGURES.filter((f) => !f.noRatio).map((f) => [
        f.label + (f.higher ? ' (higher is better)' : ''),
        ...servers.map((s) => fmtRatio(ratio(median(samples, s.key, f.key), median(samples, 'floor', f.key)))),
      ]),
    ),
  );
  if (servers.some((s) => s.key === SESSION) || servers.some((s) => s.key === STATELESS)) {
    out.push('', '### Targets (issue 21, Streamable HTTP)', '');
    out.push(table(['target', 'baremcp, 2025-11-25 session', 'baremcp, 2026-07-28 stateless'], targetRows(samples)));
  }
  const s = meta.settings;
  const method = [
    'Every server is a child process (`node <script>`, bench/servers/http/) listening on 127.0.0.1 at a port the driver picked, which prints `{"listening":port}` once it listens. One driver process is the client: undici `Pool`s of keep-alive connections, one connection per request in flight, no pipelining (autocannon reports whole milliseconds only). Servers are interleaved round-robin, the order rotated each round; one untimed start per server first warms the file cache and checks `tools/list` and argument validation.',
    'Every reply is checked: HTTP 200, the body parsed (JSON, or each server-sent event\'s `data` when the server answers with SSE), a JSON-RPC 2.0 reply with the request\'s id, no error, and the echoed text `HELLO WORLD HELLO WORLD`. A wrong reply fails the server loudly (listed under the problems, exit code 1).',
    'Each call: `tools/call` of `echo` with `{ text: "hello world", count: 2, loud: true, tags: ["a","b"] }` and the same inputSchema as bench/servers/*.js (`text` string, required; `count` integer 1–100; `loud` boolean; `tags` string[]); the peers validate with zod, the floor checks only that `text` is a string. Three ways to call: **session** (`initialize` at 2025-11-25, `notifications/initialized`, then each call with `Mcp-Session-Id` and the negotiated `MCP-Protocol-Version`; mcp-lite negotiates 2025-03-26, tmcp 2025-06-18), **stateless** (`tools/call` POSTed with `MCP-Protocol-Version: 2025-11-25`, no session: the floor, SDK v1 stateless), **2026-07-28** (`_meta` with `io.modelcontextprotocol/protocolVersion`, `clientInfo` and `clientCapabilities`, and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers). Every request sends `Accept: application/json, text/event-stream`.',
    `Cold start: from just before \`spawn()\` to the first \`tools/call\` result, on a new connection, after the handshake for a session (\`initialize\` and \`notifications/initialized\`, which the time includes). RSS idle: VmRSS ${s.SETTLE_MS} ms after that result.`,
    `Load round: a fresh server, the session opened, a warm-up of ${s.WARM[1]}, ${s.WARM[16]} and ${s.WARM[128]} calls at concurrency 1, 16 and 128 (JIT tiers settle: V8's compiler threads count in the server's CPU), then ${s.SEQ_REQUESTS} calls at concurrency 1 and ${s.REQUESTS} at 16 and at 128, or more for a fast server: as many as its warm-up rate gets through in ${s.MIN_PHASE_MS} ms, at most 4× (a phase of a few tens of milliseconds is too short to time; the counts used are under \"requests per phase\" below). All on the one session, for a session server. Server CPU per request: the run time of the server process summed over its threads, from /proc/<pid>/task/*/schedstat (nanoseconds), over the phase ÷ its requests. Requests/s: requests ÷ wall time of the phase (bounded by the driver too, which shares the 2 cores). Latency: from the request's start to its checked reply, in the driver. Peak RSS: VmHWM at the end of the round.`,
    `KiB per open legacy session: the server is started with \`--expose-gc\` and bench/servers/http/control.js (two full collections on request). First ${s.WARM_REQUESTS} calls and ${s.SESSIONS / s.SESSION_BATCHES} sessions, so that the heap has grown to its working size (a fresh server's young generation alone grows from 1 to 16 MiB semi-spaces under load, which RSS would charge to the sessions: measured from a fresh start, baremcp's first thousand sessions add about 30 KiB of RSS each, for 3 KiB of live heap); then two full collections, VmRSS and \`heapUsed + external\`; then ${s.SESSION_BATCHES} batches of ${s.SESSIONS / s.SESSION_BATCHES} sessions (${s.SESSION_FLIGHT} handshakes in flight; each \`initialize\` and \`notifications/initialized\`; all ids distinct), each followed by collections and both figures. RSS per session: the median batch's growth ÷ its sessions (RSS jumps by a few MiB now and then, whatever the load); JS heap per session: the whole growth ÷ ${s.SESSIONS}. The floor has no sessions: its figures are the same POSTs' growth, the noise of the method.`,
    `Requests per phase at concurrency 1/16/128 (medians): ${countsNote(servers, samples)}.`,
    `Driver CPU per request at concurrency 16 (the client's share of the 2 cores): ${driverNote(servers, samples)}.`,
    'Wiring: the floor is bare node:http (the body\'s Buffers decoded once, one JSON.parse, checks, one JSON.stringify, one `writeHead` with a flat array of raw headers and Content-Length, one `end`; no sessions, no Host check; the other shapes tried, in floor-candidates/ and measured with `--floors`, came out within the noise of it: node:http\'s own parsing and writing are most of its cost); baremcp is `serveHttp(createServer(...))` (Host and Origin checks on) serving both eras on one endpoint; SDK v1 is `createMcpExpressApp` with a `StreamableHTTPServerTransport` per session or, stateless, a new McpServer and transport per POST, as its examples do (replies are SSE by default); SDK v2 is `createMcpHandler(factory, { legacy: \'reject\' })` on node:http through `toNodeHandler` and the localhost Host/Origin guards of `@modelcontextprotocol/node`, as its README wires node:http (JSON replies); fastmcp is `start({ transportType: \'httpStream\' })` with its defaults (sessions, an event store, SSE replies); mcp-lite is its README\'s Hono app on `@hono/node-server` with an `InMemorySessionAdapter` and `allowedHosts` (SSE replies to clients that accept them); tmcp is `HttpTransport` with its defaults (in-memory sessions for legacy clients, sessionless 2026-07-28, SSE replies) on `@hono/node-server`\'s `serve({ fetch })`.',
    'fastmcp answers each `initialize` about 1 s late: its session\'s `connect` polls for the client\'s capabilities ten times, 100 ms apart, before the handshake that carries them is delivered (and then logs "could not infer client capabilities"). The wait is in its cold start, not in its CPU.',
    'Installed packages: what installing the peer pulls in (its packages, resolved through package-lock.json; for mcp-lite and tmcp also hono\'s node adapter and zod, for SDK v2 also `@modelcontextprotocol/node`).',
  ];
  out.push('', '### Method (Streamable HTTP)', '', ...method.map((line) => `- ${line}`));
  if (problems.length > 0) out.push('', '### Problems seen during the HTTP run', '', ...problems.map((p) => `- ${p}`));
  return out.join('\n') + '\n';
}
