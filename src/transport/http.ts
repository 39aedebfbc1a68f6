/**
 * Streamable HTTP on `node:http`: a `(req, res)` handler that mounts in any node:http server (and
 * so in express, fastify or hono's node adapter), and `serveHttp` to run one. It calls the same
 * endpoint as {@link createFetchHandler} (`createEndpoint`: every check is made there), with the
 * node request read directly (`node-request.ts`: no web `Request` or body stream; the body stays
 * paused while unread, so the body limit holds without buffering); a JSON reply is written as its
 * text, an SSE stream written to the response as it comes (bounded by `maxBufferedBytes` of
 * unsent bytes), and a client that goes away cancels its 2026-07-28 request and its SSE stream.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Streamable HTTP", "Security Warning": bind to
 * 127.0.0.1 when local); MCP 2026-07-28, Basic / Transports / Streamable HTTP.
 * @module baremcp/http
 */
import {
  createServer as createNodeServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ResourceServerOptions } from '../auth/options.js';
import type { ResourceServer } from '../auth/resource-server.js';
import type { Server } from '../server/server.js';
import { createEndpoint } from './endpoint.js';
import { fetchHandlerOf, type FetchHandler, type FetchHandlerOptions } from './fetch-handler.js';
import { hostsForBind } from './bound-hosts.js';
import type { HttpReply, HttpRequest } from './http-request.js';
import { nodeRequest } from './node-request.js';

export { createFetchHandler } from './fetch-handler.js';
export type { ExecutionContext, FetchHandler, FetchHandlerOptions } from './fetch-handler.js';

/** Options for {@link createHttpHandler}: those of {@link createFetchHandler}. */
export type HttpHandlerOptions = FetchHandlerOptions;

/** A node:http request listener serving MCP, with a graceful `close`. */
export interface HttpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Graceful close of the MCP side (see {@link FetchHandler.close}); the HTTP server stays up. */
  close(): Promise<void>;
  /** The web-standard handler underneath. */
  readonly fetch: FetchHandler;
}

/**
 * Authorization for {@link serveHttp}: a resource server, or its options (whose `audience`
 * defaults to `publicUrl`, else to the served URL).
 */
export type ServeAuthOptions = ResourceServer | (Omit<ResourceServerOptions, 'audience'> & { audience?: string });

/** Options for {@link serveHttp}. */
export interface ServeHttpOptions extends Omit<HttpHandlerOptions, 'auth'> {
  /**
   * TCP port; 0 picks a free one (read it from `url`).
   * @default 3000
   */
  port?: number;
  /**
   * Interface to bind. Unless `allowedHosts` is given, it allows the localhost names and this
   * address; for `0.0.0.0` or `::`, every address of this machine and its host name (see
   * `bound-hosts.ts`). Names that clients use (a DNS name, a proxy's `Host`) go in `allowedHosts`.
   * @default '127.0.0.1'
   */
  host?: string;
  /** @default '/mcp' */
  path?: string;
  /**
   * The endpoint's URL as clients reach it (through a proxy or a TLS terminator), e.g.
   * `https://mcp.example.com/mcp`: its host is allowed, and it is the default `auth.audience`.
   * @default the served URL
   */
  publicUrl?: string;
  /**
   * Require OAuth access tokens (see `createResourceServer` in `baremcp/auth`).
   * @example
   * await serveHttp(server, { publicUrl: 'https://mcp.example.com/mcp', auth: { issuer: 'https://auth.example.com' } });
   */
  auth?: ServeAuthOptions;
}

/** A running server from {@link serveHttp}. */
export interface HttpServing {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** The node:http server. */
  readonly server: NodeServer;
  /**
   * Graceful close: the listener closes first (no new connection is accepted; replies on open
   * connections say `Connection: close`), then the MCP side (streams end, requests in flight
   * finish), then the remaining sockets.
   */
  close(): Promise<void>;
}

/**
 * Writes `reply` to `res`: JSON text with one `end` (at once: no promise); an SSE stream event by
 * event as it comes (no web stream), until it ends or the client goes away.
 */
function writeReply(reply: HttpReply, res: ServerResponse): void | Promise<void> {
  const body = reply.body;
  const headers = reply.headers;
  if (body === null) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  if (typeof body === 'string') {
    headers['content-length'] = String(Buffer.byteLength(body));
    res.writeHead(reply.status, headers).end(body);
    return;
  }
  res.writeHead(reply.status, headers);
  res.flushHeaders();
  // The response's own buffer holds what the client has not read yet; the stream drops a client
  // that lets it grow past its bound (`maxBufferedBytes`).
  return new Promise<void>((resolve) => {
    res.once('close', () => {
      if (!res.writableFinished) body.cancel();
      resolve();
    });
    body.attach({
      write(text) {
        res.write(text);
        return res.writableLength;
      },
      end: () => res.end(),
      fail: () => res.destroy(),
    });
  });
}

/**
 * Creates a node:http request listener for `server`'s MCP endpoint.
 * @example
 * const mcp = createHttpHandler(server, { path: '/mcp' });
 * http.createServer(mcp).listen(3000, '127.0.0.1');
 */
export function createHttpHandler(server: Server, options: HttpHandlerOptions = {}): HttpHandler {
  const endpoint = createEndpoint(server, options);
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    let request: HttpRequest;
    try {
      request = nodeRequest(req, res);
    } catch {
      res.statusCode = 400;
      res.end();
      return;
    }
    const remoteAddress = req.socket.remoteAddress;
    endpoint
      .serve(request, remoteAddress === undefined ? undefined : { remoteAddress })
      .then((reply) => writeReply(reply, res))
      .catch((error: unknown) => {
        server.report(
          `HTTP handler failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`,
        );
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      });
  };
  return Object.assign(listener, { close: endpoint.close, fetch: fetchHandlerOf(endpoint) });
}

/** The `host` (with port) of a public URL, for the `Host` allow-list. */
function publicHostOf(publicUrl: string): string {
  try {
    return new URL(publicUrl).host;
  } catch {
    throw new TypeError(`serveHttp: publicUrl ${JSON.stringify(publicUrl)} is not an absolute URL (e.g. https://mcp.example.com/mcp)`);
  }
}

/**
 * Serves `server` over Streamable HTTP on `host:port` at `path`.
 * @throws when the port cannot be bound (e.g. `EADDRINUSE`); `TypeError` for bad `auth` options.
 * @example
 * const { url, close } = await serveHttp(server, { port: 3000 });
 */
export async function serveHttp(
  server: Server,
  options: ServeHttpOptions = {},
): Promise<HttpServing> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const publicHost = options.publicUrl === undefined ? undefined : publicHostOf(options.publicUrl);
  const allowedHosts =
    options.allowedHosts ?? [...hostsForBind(host), ...(publicHost === undefined ? [] : [publicHost])];
  // Options are checked before anything listens; the audience may wait for the bound port.
  // The resource server's code (baremcp/auth) is loaded only when `auth` is given: a server
  // without it does not read, compile or resolve that file on its cold start.
  const authModule = options.auth === undefined ? undefined : await import('../auth/resource-server.js');
  let auth = authModule !== undefined && options.auth instanceof authModule.ResourceServer ? options.auth : undefined;
  type AuthOptions = Exclude<ServeAuthOptions, ResourceServer>;
  const authOptions = authModule === undefined || auth !== undefined ? undefined : (options.auth as AuthOptions);
  const audience = authOptions?.audience ?? options.publicUrl;
  if (authModule !== undefined && authOptions !== undefined && audience !== undefined) {
    auth = authModule.createResourceServer({ ...authOptions, audience });
  }
  const http = createNodeServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 3000, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shown}:${address.port}${path}`;
  if (authModule !== undefined && authOptions !== undefined && auth === undefined) {
    try {
      auth = authModule.createResourceServer({ ...authOptions, audience: url });
    } catch (error) {
      await new Promise((resolve) => http.close(resolve));
      throw error;
    }
  }
  const { auth: _given, publicUrl: _public, ...rest } = options;
  const handler = createHttpHandler(server, { ...rest, path, allowedHosts, ...(auth === undefined ? {} : { auth }) });
  let draining = false;
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // While draining, every reply ends its connection: the client's next request goes elsewhere.
    if (draining) res.setHeader('connection', 'close');
    handler(req, res);
  });
  let closed: Promise<void> | undefined;
  return {
    url,
    server: http,
    close(): Promise<void> {
      closed ??= (async () => {
        // Stop accepting first (a balancer sends new requests to the other replicas), then finish
        // what is in flight, then close the connections that are left.
        draining = true;
        const listenerClosed = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeIdleConnections();
        await handler.close();
        http.closeIdleConnections();
        setTimeout(() => http.closeAllConnections(), 1000).unref();
        await listenerClosed;
      })();
      return closed;
    },
  };
}
