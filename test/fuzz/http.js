// An HTTP session for the fuzzers: the messages of a generated session (legacy revisions, batches
// included) POSTed one after another to the Streamable HTTP handler (the web-standard one, in
// process), with the session id the initialize reply gives. The properties are the transport's:
// every POST gets one HTTP response, never a 5xx; each request (a message with a method and an id,
// inside a batch too) gets exactly one JSON-RPC response carrying its id, in a JSON body or at the
// end of an SSE stream, unless the HTTP layer refused the whole POST before reading it; nothing
// crashes and nothing pollutes a prototype.
import { createFetchHandler } from '../../dist/transport/http.js';
import { fuzzServer } from './fixture.js';
import { pollution } from './model.js';

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const wantsReply = (m) => isObject(m) && typeof m.method === 'string' && Object.hasOwn(m, 'id');
const validId = (id) => typeof id === 'string' || Number.isSafeInteger(id);

/** The JSON-RPC messages of an SSE body (one per `data:` event). */
function sseMessages(text) {
  const out = [];
  for (const event of text.split(/\n\n/)) {
    const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
    if (data !== '') out.push(JSON.parse(data));
  }
  return out;
}

/**
 * Runs one generated session (`{ revision, texts }`) over HTTP. Resolves to
 * `{ problems, stats, crashed, lines }` like the other session runners.
 */
export async function runHttpSession({ texts }) {
  const lines = [];
  const server = fuzzServer(lines);
  const handler = createFetchHandler(server, { keepAliveMs: 0, closeTimeoutMs: 500 });
  const problems = [];
  let sessionId = null;
  let posts = 0;
  let answered = 0;
  try {
    for (const text of texts) {
      posts++;
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      if (sessionId !== null) headers['mcp-session-id'] = sessionId;
      let response;
      try {
        response = await handler(new Request('http://localhost/mcp', { method: 'POST', headers, body: text }));
      } catch (error) {
        problems.push(`the handler rejected: ${error?.stack ?? error}`);
        continue;
      }
      if (response.status >= 500 && response.status !== 503) problems.push(`HTTP ${response.status} for ${text.slice(0, 200)}`);
      sessionId ??= response.headers.get('mcp-session-id');
      const body = await response.text();
      let message;
      try {
        message = JSON.parse(text);
      } catch {
        message = undefined;
      }
      const requests = (Array.isArray(message) ? message : [message]).filter(wantsReply);
      const type = response.headers.get('content-type') ?? '';
      let replies = [];
      try {
        if (type.startsWith('text/event-stream')) replies = sseMessages(body).filter((m) => !Object.hasOwn(m, 'method'));
        else if (body !== '') replies = [JSON.parse(body)].flat();
      } catch (error) {
        problems.push(`an unreadable body (${type}): ${error}: ${body.slice(0, 200)}`);
        continue;
      }
      // A POST refused as a whole (400 before any item ran, 404 for an unknown session, 406, 415)
      // answers with one error and no id when the request's id could not be told.
      if (response.status >= 400 && replies.length === 1 && Object.hasOwn(replies[0], 'error')) {
        answered += requests.length;
        continue;
      }
      // Each POST is read to its end before the next is sent, so no cancel can overtake a request:
      // every request with a usable id gets exactly as many replies as requests carry that id.
      const counts = new Map();
      for (const request of requests) {
        if (validId(request.id)) counts.set(request.id, (counts.get(request.id) ?? 0) + 1);
      }
      for (const [id, want] of counts) {
        const got = replies.filter((r) => r.id === id).length;
        if (got !== want) problems.push(`${got} replies for ${want} request(s) with id ${JSON.stringify(id)} in ${text.slice(0, 200)}`);
        else answered += want;
      }
      for (const reply of replies) {
        if (!Object.hasOwn(reply, 'result') && !Object.hasOwn(reply, 'error')) problems.push(`not a response: ${JSON.stringify(reply).slice(0, 200)}`);
      }
    }
  } finally {
    await handler.close();
  }
  const polluted = pollution();
  if (polluted !== null) problems.push(polluted);
  return { problems, stats: { posts, replies: answered }, crashed: problems.length > 0, lines };
}
