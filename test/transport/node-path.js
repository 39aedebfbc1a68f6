// The node:http path of Streamable HTTP, called like the fetch handler: `nodeFetchHandler(server,
// options)` mounts createHttpHandler in a node:http server on 127.0.0.1:0 and returns a
// `(request: Request) => Promise<Response>` that sends each web Request over a socket of its own
// (its URL's host as `Host`, unless it names one; its body streamed chunk by chunk) and hands back
// the reply as a web Response whose body streams (cancelling it closes the socket). So a suite
// written against createFetchHandler runs unchanged against the node path (parity, issue 21).
import { request as httpRequest, createServer as createNodeServer } from 'node:http';
import { Readable } from 'node:stream';
import { createHttpHandler } from '../../dist/transport/http.js';

/** Statuses whose Response has no body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** Sends `request` to `port`; resolves to the reply as a web Response. */
function forward(port, request) {
  const url = new URL(request.url);
  const headers = { host: url.host };
  request.headers.forEach((value, key) => (headers[key] = value));
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, method: request.method, path: `${url.pathname}${url.search}`, headers, agent: false },
      (incoming) => {
        answered = true;
        const replyHeaders = new Headers();
        for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
          replyHeaders.append(incoming.rawHeaders[i], incoming.rawHeaders[i + 1]);
        }
        const body = NULL_BODY.has(incoming.statusCode) || request.method === 'HEAD' ? null : Readable.toWeb(incoming);
        if (body === null) incoming.resume();
        resolve(new Response(body, { status: incoming.statusCode, headers: replyHeaders }));
      },
    );
    outgoing.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (request.body === null) {
      outgoing.end();
      return;
    }
    (async () => {
      for await (const chunk of request.body) {
        if (outgoing.destroyed) return;
        outgoing.write(chunk);
      }
      outgoing.end();
    })().catch((error) => {
      if (!answered) reject(error);
    });
  });
}

/**
 * A node:http server serving `createHttpHandler(server, options)`, as a fetch-shaped handler with
 * `close()` (the MCP side), `stop()` (then the listener too) and `node` (the node:http handler). Made at once;
 * the first request waits for the listener.
 */
export function nodeFetchHandler(server, options = {}) {
  const node = createHttpHandler(server, options);
  const http = createNodeServer(node);
  const listening = new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http.address().port)));
  const handler = async (request) => forward(await listening, request);
  let stopped;
  return Object.assign(handler, {
    node,
    /** The MCP side's graceful close; the listener stays, so later requests get the 503. */
    close: () => node.close(),
    /** Closes the MCP side, then the listener and its connections. */
    stop() {
      stopped ??= (async () => {
        await listening;
        await node.close();
        http.closeAllConnections();
        await new Promise((resolve) => http.close(resolve));
      })();
      return stopped;
    },
  });
}
