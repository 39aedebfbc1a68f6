// The fuzzers' oracle: what a correct server must answer to a sequence of messages, written from
// JSON-RPC 2.0 (§4-6) and MCP (Basic; Basic / Transports / stdio) rather than from baremcp's code,
// and the checks that compare a run against it: one reply per request id, none for
// notifications, every message valid against ../shared/mcp-schema/<revision>/schema.json, whole
// UTF-8 JSON lines on the wire, and no prototype pollution.
import { FUZZ_LIMITS } from './fixture.js';
import { oracle } from '../mcp-oracle.js';

export const MODERN = '2026-07-28';
export const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
/** The revision a connection speaks before (or without) `initialize`. */
export const DEFAULT_REVISION = '2025-11-25';
/** The first revision whose schema allows an error response without `id`. */
export const IDLESS_ERROR_SINCE = '2025-11-25';
const PV = 'io.modelcontextprotocol/protocolVersion';

const RESULT_DEFINITION = {
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'logging/setLevel': 'EmptyResult',
  'resources/subscribe': 'EmptyResult',
  'resources/unsubscribe': 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
  'server/discover': 'DiscoverResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
export const isPlainObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** JSON-RPC ids MCP accepts: a string or an integer (we require a safe one: it must round-trip). */
export const isValidId = (v) => typeof v === 'string' || Number.isSafeInteger(v);
/** Keeps "1" and 1 apart; -0 and 0 are the same id on the wire. */
export const idKey = (id) =>
  id === undefined ? 'none' : `${typeof id}:${typeof id === 'number' ? String(id + 0) : id}`;

/** The era a request is served in: 2026-07-28 when its `_meta` names a protocol version. */
function revisionOf(method, params, revision) {
  if (
    method !== 'initialize' &&
    isPlainObject(params) &&
    isPlainObject(params._meta) &&
    own(params._meta, PV)
  )
    return MODERN;
  return revision;
}

/**
 * What one decoded message (not a batch) must produce, as reply slots:
 * `{ id, error, method, revision }`; `id` undefined means an error without id.
 */
function expectSingle(message, revision) {
  if (!isPlainObject(message)) return [{ id: undefined, error: true, revision }];
  const readable = own(message, 'id') && isValidId(message.id) ? message.id : undefined;
  const invalid = () => [{ id: readable, error: true, revision }];
  if (message.jsonrpc !== '2.0') return invalid();
  if (!own(message, 'method')) {
    // A response from the client (to a server request) gets nothing back.
    if (readable !== undefined && (own(message, 'result') || own(message, 'error'))) return [];
    return invalid();
  }
  if (typeof message.method !== 'string') return invalid();
  if (own(message, 'params') && !isPlainObject(message.params)) return invalid();
  if (!own(message, 'id')) return [];
  if (!isValidId(message.id)) return [{ id: undefined, error: true, revision }];
  return [
    {
      id: message.id,
      error: false,
      method: message.method,
      revision: revisionOf(message.method, message.params, revision),
    },
  ];
}

/**
 * What one decoded message must produce at `revision` (the connection's negotiated revision).
 * Batches are part of 2025-03-26 only (JSON-RPC §6); an empty batch is one Invalid Request.
 * Returns `{ slots, batch }`: `batch` is true when the slots arrive as one array reply.
 */
export function expectMessage(message, revision) {
  if (!Array.isArray(message)) return { slots: expectSingle(message, revision), batch: false };
  if (message.length === 0 || revision !== '2025-03-26')
    return { slots: [{ id: undefined, error: true, revision }], batch: false };
  // Past the server's batch limit nothing runs: a request gets an error with its id.
  const slots = message.flatMap((m, i) =>
    expectSingle(m, revision).map((slot) => (i >= FUZZ_LIMITS.maxBatchItems ? { ...slot, error: true, method: undefined } : slot)),
  );
  return { slots, batch: true };
}

/**
 * The id a refused (over-long) line may be answered with: its top-level `id`; or, for a line that
 * is not JSON at all (invalid bytes inside), `ids`: every `"id": value` written in it.
 */
export function refusedLineIds(text) {
  try {
    const m = JSON.parse(text);
    return { id: isPlainObject(m) && own(m, 'id') && isValidId(m.id) ? m.id : undefined, ids: [] };
  } catch {
    const ids = [];
    for (const [, value] of text.matchAll(/"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")/g)) {
      try {
        const id = JSON.parse(value);
        if (isValidId(id)) ids.push(id);
      } catch {
        // not an id after all
      }
    }
    return { id: undefined, ids };
  }
}

/** Ids named by `notifications/cancelled` anywhere in a session: their replies may be absent. */
export function cancelledKeys(messages) {
  const keys = new Set();
  const visit = (m) => {
    if (Array.isArray(m)) return m.forEach(visit);
    // Only a notification cancels: a request that happens to be named so is just a request.
    if (
      isPlainObject(m) &&
      m.jsonrpc === '2.0' &&
      !own(m, 'id') &&
      m.method === 'notifications/cancelled' &&
      isPlainObject(m.params) &&
      isValidId(m.params.requestId)
    ) {
      keys.add(idKey(m.params.requestId));
    }
  };
  messages.forEach(visit);
  return keys;
}

/** Progress tokens the client sent (JSON text), to check notifications/progress against. */
export function progressTokens(messages) {
  const tokens = new Set();
  const visit = (m) => {
    if (Array.isArray(m)) return m.forEach(visit);
    const token =
      isPlainObject(m) && isPlainObject(m.params) && isPlainObject(m.params._meta)
        ? m.params._meta.progressToken
        : undefined;
    if (token !== undefined) tokens.add(JSON.stringify(token));
  };
  messages.forEach(visit);
  return tokens;
}

function schemaErrors(revision, definition, value) {
  const o = oracle(revision);
  if (!o.has(definition)) return null;
  return o.check(definition, value);
}

/** Problems with one reply against the request it answers (null when valid). */
function replyProblem(reply, slot) {
  const revision = slot.revision;
  if (reply.id === undefined) {
    // An error without id: valid only from 2025-11-25; older schemas require `id`.
    const errors = schemaErrors(IDLESS_ERROR_SINCE, 'JSONRPCErrorResponse', reply);
    return errors === null ? null : `id-less error invalid: ${JSON.stringify(errors.slice(0, 2))}`;
  }
  const envelope = schemaErrors(revision, 'JSONRPCMessage', reply);
  if (envelope !== null)
    return `${revision} JSONRPCMessage: ${JSON.stringify(envelope.slice(0, 2))}`;
  if (slot.error && !('error' in reply)) return 'expected an error response';
  if (!('result' in reply) || slot.method === undefined) return null;
  const definition =
    revision === MODERN && reply.result.resultType === 'input_required'
      ? 'InputRequiredResult'
      : RESULT_DEFINITION[slot.method];
  if (definition === undefined) return null;
  const errors = schemaErrors(revision, definition, reply.result);
  return errors === null
    ? null
    : `${revision} ${definition}: ${JSON.stringify(errors.slice(0, 2))}`;
}

/**
 * Compares what a server wrote with what the model expects.
 * @param expected list of `{ slots, batch, flex }` per input unit (`flex`: a refused line whose
 *   error may carry its id or none).
 * @param replies responses the server wrote (objects or batch arrays).
 * @param serverMessages requests/notifications the server originated.
 * @returns counters and a list of problems (empty: the run is correct).
 */
export function compare({
  expected,
  replies,
  serverMessages = [],
  cancelled = new Set(),
  tokens = new Set(),
  revision,
}) {
  const problems = [];
  const stats = {
    replies: 0,
    lost: 0,
    duplicated: 0,
    invalid: 0,
    idlessOld: 0,
    wrongIdOnRefusedLine: 0,
  };
  // Every slot a reply may fill: a request's (required, or optional when it was cancelled), or
  // a refused over-long line's ("flex": its error carries that line's id, or none).
  const slots = [];
  const byKey = new Map();
  let batchesExpected = 0;
  let batchesRequired = 0;
  for (const unit of expected) {
    if (unit.batch && unit.slots.length > 0) batchesExpected++;
    if (
      unit.batch &&
      unit.slots.some((slot) => !(slot.id !== undefined && cancelled.has(idKey(slot.id))))
    )
      batchesRequired++;
    for (const slot of unit.slots) {
      const key = idKey(slot.id);
      const optional = !unit.flex && slot.id !== undefined && cancelled.has(key);
      // A refused line may name its id (or any of `slot.ids` when the line is not JSON at all).
      const accept = new Set([key, ...(slot.ids ?? []).map(idKey)]);
      slots.push({ slot, key, accept, flex: unit.flex === true, must: !optional, match: -1 });
      if (!unit.flex) {
        if (!byKey.has(key)) byKey.set(key, []);
        byKey.get(key).push(slot);
      }
    }
  }
  const flat = [];
  let batchesSeen = 0;
  for (const reply of replies) {
    if (Array.isArray(reply)) {
      batchesSeen++;
      // Its members are checked one by one below (an id-less member is the known deviation).
      if (reply.length === 0) problems.push('an empty batch reply');
      flat.push(...reply);
    } else {
      flat.push(reply);
    }
  }
  // A batch of notifications gets no reply at all; one whose requests were all cancelled may not.
  if (batchesSeen > batchesExpected || batchesSeen < batchesRequired)
    problems.push(
      `expected ${batchesRequired}-${batchesExpected} batch replies, saw ${batchesSeen}`,
    );
  const responses = [];
  for (const reply of flat) {
    if (
      !isPlainObject(reply) ||
      reply.jsonrpc !== '2.0' ||
      'result' in reply === 'error' in reply
    ) {
      problems.push(`not a response: ${JSON.stringify(reply).slice(0, 200)}`);
      stats.invalid++;
    } else {
      responses.push({ reply, key: idKey(reply.id), match: -1 });
    }
  }
  stats.replies = flat.length;
  // Which reply may fill which slot; a flex slot prefers its own id, then none, then any error.
  const rank = (r, s) => {
    if (!s.flex) return r.key === s.key ? 0 : -1;
    if (!('error' in r.reply)) return -1;
    return s.accept.has(r.key) ? 0 : r.key === 'none' ? 1 : 2;
  };
  // Edges by rank; `exact` holds those that name the right id (or none, for a refused line).
  const ranked = slots.map((s) =>
    responses
      .map((r, i) => [rank(r, s), i])
      .filter(([k]) => k >= 0)
      .sort((x, y) => x[0] - y[0]),
  );
  const exact = ranked.map((list) => list.filter(([k]) => k <= 1).map(([, i]) => i));
  const any = ranked.map((list) => list.map(([, i]) => i));
  // Maximum matching by augmenting paths (an augmenting path never unmatches a slot): every slot
  // that must be answered, by its exact id; the surplus replies onto optional (cancelled) slots;
  // only then refused lines left over, by any error (a wrong id, counted below).
  const fromSlot = (j, seen, edges) => {
    for (const i of edges[j]) {
      if (seen.has(i)) continue;
      seen.add(i);
      const r = responses[i];
      if (r.match === -1 || fromSlot(r.match, seen, edges)) {
        r.match = j;
        slots[j].match = i;
        return true;
      }
    }
    return false;
  };
  const replyEdges = responses.map((_r, i) =>
    slots.map((_s, j) => j).filter((j) => exact[j].includes(i)),
  );
  const fromReply = (i, seen) => {
    for (const j of replyEdges[i]) {
      if (seen.has(j)) continue;
      seen.add(j);
      const s = slots[j];
      if (s.match === -1 || fromReply(s.match, seen)) {
        s.match = i;
        responses[i].match = j;
        return true;
      }
    }
    return false;
  };
  slots.forEach((s, j) => s.must && fromSlot(j, new Set(), exact));
  responses.forEach((r, i) => r.match === -1 && fromReply(i, new Set()));
  slots.forEach((s, j) => s.flex && s.match === -1 && fromSlot(j, new Set(), any));
  for (const r of responses) {
    if (r.match === -1) {
      stats.duplicated++;
      problems.push(`unexpected reply ${JSON.stringify(r.reply).slice(0, 200)}`);
      continue;
    }
    const s = slots[r.match];
    if (s.flex && !s.accept.has(r.key) && r.key !== 'none') {
      stats.wrongIdOnRefusedLine++;
      problems.push(`a refused line answered under an id not its own: ${JSON.stringify(r.reply)}`);
    }
    // Any of the requests with this id may be the one answered.
    const candidates = s.flex ? [{ ...s.slot, id: r.reply.id }] : byKey.get(s.key);
    const verdicts = candidates.map((c) => replyProblem(r.reply, c));
    if (!verdicts.includes(null)) {
      problems.push(`${verdicts[0]} in ${JSON.stringify(r.reply).slice(0, 300)}`);
      stats.invalid++;
    }
    if (
      r.reply.id === undefined &&
      (s.slot.revision ?? revision ?? DEFAULT_REVISION) < IDLESS_ERROR_SINCE
    )
      stats.idlessOld++;
  }
  for (const s of slots) {
    if (s.must && s.match === -1) {
      stats.lost++;
      problems.push(`lost the reply ${s.flex ? 'to a refused line' : `for id ${s.key}`}`);
    }
  }
  for (const message of serverMessages) {
    const candidates = [revision ?? DEFAULT_REVISION, MODERN];
    const definition = 'id' in message ? 'ServerRequest' : 'ServerNotification';
    const ok = candidates.some(
      (r) =>
        oracle(r).has(definition) &&
        schemaErrors(r, definition, message) === null &&
        schemaErrors(r, 'JSONRPCMessage', message) === null,
    );
    if (!ok) {
      stats.invalid++;
      problems.push(`invalid server message ${JSON.stringify(message).slice(0, 300)}`);
    }
    if (
      message.method === 'notifications/progress' &&
      !tokens.has(JSON.stringify(message.params?.progressToken))
    ) {
      problems.push(
        `progress for a token the client never sent: ${JSON.stringify(message).slice(0, 200)}`,
      );
    }
  }
  return { problems, stats };
}

/**
 * Checks raw output bytes: valid UTF-8, whole lines ending in a single 0x0A (no 0x0D), each one
 * JSON. Returns `{ messages, problems }`.
 */
export function parseWire(bytes) {
  const problems = [];
  let text = '';
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    problems.push('output is not valid UTF-8');
    text = new TextDecoder().decode(bytes);
  }
  if (text.length > 0 && !text.endsWith('\n')) problems.push('output ends with a partial line');
  if (text.includes('\r')) problems.push('output holds a carriage return');
  const messages = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      messages.push(JSON.parse(line));
    } catch {
      problems.push(`output line is not JSON: ${line.slice(0, 120)}`);
    }
  }
  if (text.includes('\n\n') || text.startsWith('\n')) problems.push('output holds an empty line');
  return { messages, problems };
}

/** Splits wire messages into responses (to the client's requests) and server-originated ones. */
export function splitMessages(messages) {
  const replies = [];
  const serverMessages = [];
  for (const m of messages) {
    if (isPlainObject(m) && typeof m.method === 'string') serverMessages.push(m);
    else replies.push(m);
  }
  return { replies, serverMessages };
}

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const snapshot = () => PROTOTYPES.map((p) => Object.getOwnPropertyNames(p).join(','));
const before = snapshot();

/** A problem when any built-in prototype gained or lost a property since this module loaded. */
export function pollution() {
  const now = snapshot();
  if (now.some((names, i) => names !== before[i]) || {}.polluted !== undefined)
    return 'a built-in prototype was modified';
  return null;
}
