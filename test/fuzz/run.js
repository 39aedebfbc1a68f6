// Runs one generated session against the dispatcher (connection.handle) or the stdio transport
// (serve over in-memory streams) and returns what went wrong, using the model in model.js.
import { PassThrough, Writable } from 'node:stream';
import { serve } from '../../dist/transport/stdio.js';
import { fuzzServer } from './fixture.js';
import {
  cancelledKeys,
  compare,
  expectMessage,
  parseWire,
  pollution,
  progressTokens,
  splitMessages,
  refusedLineIds,
} from './model.js';

/** How long a session may take before it counts as hung (the fixture's tools end within ~200 ms). */
const WATCHDOG_MS = 3000;
/** The fuzz sessions' end-of-input grace: longer than any fixture tool runs, shorter than the watchdog. */
const END_GRACE_MS = 1000;

function watchdog(promise, what) {
  let timer;
  const expired = new Promise(
    (resolve) =>
      (timer = setTimeout(
        () => resolve(`hung: ${what} did not settle within ${WATCHDOG_MS} ms`),
        WATCHDOG_MS,
      )),
  );
  return Promise.race([promise.then(() => null), expired]).finally(() => clearTimeout(timer));
}

/**
 * Dispatcher session: every message is handed to `connection.handle` in order without waiting
 * (as a transport does), open subscriptions are ended, and every promise must resolve.
 */
export async function runHandleSession({ revision, texts }) {
  const lines = [];
  const server = fuzzServer(lines);
  const serverMessages = [];
  const connection = server.connect({
    send: (m) => serverMessages.push(JSON.parse(JSON.stringify(m))),
  });
  const messages = texts.map((t) => JSON.parse(t));
  const replies = [];
  const problems = [];
  const expected = [];
  const settled = [];
  for (const message of messages) {
    expected.push(expectMessage(message, revision));
    let promise;
    try {
      promise = connection.handle(message);
    } catch (error) {
      problems.push(`handle threw: ${error?.stack ?? error}`);
      continue;
    }
    settled.push(
      promise.then(
        (reply) => {
          if (reply === null) return;
          // What a transport would send: the reply must serialise, and is read back as the client would.
          try {
            replies.push(JSON.parse(JSON.stringify(reply)));
          } catch (error) {
            problems.push(`reply does not serialise: ${error}`);
          }
        },
        (error) => problems.push(`handle rejected: ${error?.stack ?? error}`),
      ),
    );
  }
  await new Promise((resolve) => setImmediate(resolve));
  connection.endSubscriptions();
  const hung = await watchdog(Promise.all(settled), 'connection.handle');
  if (hung !== null) problems.push(hung);
  connection.close();
  const result = compare({
    expected,
    replies,
    serverMessages,
    cancelled: cancelledKeys(messages),
    tokens: progressTokens(messages),
    revision,
  });
  const polluted = pollution();
  if (polluted !== null) problems.push(polluted);
  return {
    problems: [...problems, ...result.problems],
    stats: result.stats,
    crashed: problems.length > 0,
    lines,
  };
}

/** The model's view of a byte stream: each line's expected reply slots. */
export function expectStream(stream, revision, maxLineBytes) {
  const expected = [];
  const messages = [];
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let start = 0;
  while (start < stream.length) {
    let end = stream.indexOf(0x0a, start);
    if (end === -1) end = stream.length;
    const bytes = stream.subarray(start, end);
    start = end + 1;
    if (bytes.length > maxLineBytes) {
      // Refused unread: one error, carrying the line's own id when the transport could read it.
      const { id, ids } = refusedLineIds(
        Buffer.from(bytes)
          .toString('utf8')
          .replace(/^\ufeff/, ''),
      );
      expected.push({ slots: [{ id, ids, error: true, revision }], batch: false, flex: true });
      continue;
    }
    let text;
    try {
      text = decoder.decode(bytes);
    } catch {
      expected.push({ slots: [{ id: undefined, error: true, revision }], batch: false });
      continue;
    }
    if (text.startsWith('\ufeff')) text = text.slice(1);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') continue;
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      expected.push({ slots: [{ id: undefined, error: true, revision }], batch: false });
      continue;
    }
    messages.push(message);
    expected.push(expectMessage(message, revision));
  }
  return { expected, messages };
}

/**
 * Transport session: the chunks are written to `serve()` (yielding to the event loop between
 * some of them), input ends, and `closed` must resolve with every reply written.
 * `slowReader`: the output accepts a chunk per timer tick with a tiny buffer (backpressure).
 */
export async function runStdioSession(
  { revision, stream, chunks },
  { maxLineBytes, maxInFlight = 256, slowReader = false },
) {
  const lines = [];
  const server = fuzzServer(lines);
  const input = new PassThrough();
  const written = [];
  const output = new Writable({
    highWaterMark: slowReader ? 64 : 16 * 1024,
    write(chunk, _encoding, callback) {
      written.push(Buffer.from(chunk));
      if (slowReader) setTimeout(callback, 0);
      else callback();
    },
  });
  const problems = [];
  let session;
  try {
    session = serve(input, output, server, { maxLineBytes, maxInFlight, endGraceMs: END_GRACE_MS });
  } catch (error) {
    return { problems: [`serve threw: ${error?.stack ?? error}`], stats: {}, crashed: true, lines };
  }
  for (const [i, chunk] of chunks.entries()) {
    input.write(chunk);
    if (i % 3 === 1) await new Promise((resolve) => setImmediate(resolve));
  }
  input.end();
  const hung = await watchdog(session.closed, 'session.closed');
  const { expected, messages } = expectStream(stream, revision, maxLineBytes);
  if (hung !== null) {
    session.close();
    problems.push(hung);
  }
  // Every fixture tool ends within ~200 ms, so no request may be left behind at end of input.
  const abandoned = lines.find((l) => /were abandoned/.test(l));
  const wire = parseWire(Buffer.concat(written));
  problems.push(...wire.problems);
  const { replies, serverMessages } = splitMessages(wire.messages);
  const result = compare({
    expected,
    replies,
    serverMessages,
    cancelled: cancelledKeys(messages),
    tokens: progressTokens(messages),
    revision,
  });
  // Every fixture tool ends within ~200 ms, so no request may be abandoned at end of input.
  if (abandoned !== undefined) problems.push(`at end of input: ${abandoned}`);
  const polluted = pollution();
  if (polluted !== null) problems.push(polluted);
  return {
    problems: [...problems, ...result.problems],
    stats: result.stats,
    crashed: problems.length > 0,
    lines,
  };
}
