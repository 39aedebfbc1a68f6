/**
 * `connect(server)`: a test client wired to a server in the same process, with no transport and
 * no child process. Messages in both directions go through `JSON.stringify`/`JSON.parse`, as on
 * a real wire, so results are plain JSON and nothing is shared by reference. Pure: imports no
 * `node:` module.
 *
 * Spec: MCP 2025-11-25, Basic / Lifecycle; MCP 2026-07-28, Basic / Versioning.
 * @module
 */
import type { JsonRpcMessage } from '../protocol/messages.js';
import type { Implementation } from '../protocol/types.js';
import { Server } from '../server/server.js';
import type { ServerOptions } from '../server/server-options.js';
import { startClient } from './client.js';
import { Peer } from './peer.js';
import type { ClientOptions, TestClient } from './types.js';

/**
 * A server module's default export as `baremcp serve` takes it: a plain `{ info?, tools, ... }`
 * object (the `ServerOptions` of `createServer`, with `info` optional).
 */
export type ServerDefinition = Omit<ServerOptions, 'info'> & { info?: Implementation };

/** The `serverInfo` given to a plain definition that has none. */
const DEFAULT_INFO: Implementation = { name: 'test-server', version: '0.0.0' };

/**
 * A copy of `message` as it would arrive after a trip over the wire.
 * @throws {TypeError} for a value JSON cannot carry (a BigInt, a cycle).
 */
function wire<T>(message: T): T {
  return JSON.parse(JSON.stringify(message)) as T;
}

function isServer(value: unknown): value is Server {
  return (
    value instanceof Server ||
    (typeof value === 'object' && value !== null && typeof (value as Server).connect === 'function')
  );
}

/**
 * Connects a test client to `server` in memory: a server from `createServer(...)`, or a plain
 * `{ info?, tools, resources?, prompts? }` definition (a server is made from it). Performs the
 * handshake (`initialize` and `notifications/initialized`; or none at 2026-07-28) before it
 * resolves. Each call opens a new connection with its own state.
 * @throws {ToolDefinitionError} (as a rejection) when a plain definition has an unusable tool.
 * @throws {RpcError} (as a rejection) when the server refuses the handshake.
 * @example
 * const client = await connect(server);
 * const result = await client.callTool('add', { a: 1, b: 2 });
 * assert.equal(result.content[0].text, '3');
 * await client.close();
 */
export async function connect(
  server: Server | ServerDefinition,
  options: ClientOptions = {},
): Promise<TestClient> {
  const target = isServer(server)
    ? server
    : new Server({ ...server, info: server.info ?? DEFAULT_INFO });
  let peer: Peer | undefined;
  const connection = target.connect({
    send: (message) => {
      try {
        peer?.receive(wire(message));
      } catch (error) {
        target.report(
          `the test client could not decode a message from the server: ${String(error)}`,
        );
      }
    },
  });
  const client = new Peer({
    timeoutMs: options.timeoutMs ?? 30_000,
    handlers: options.handlers ?? {},
    ...(options.onNotification === undefined ? {} : { onNotification: options.onNotification }),
    send: (message: JsonRpcMessage) => {
      const id = 'id' in message ? message.id : undefined;
      void connection.handle(wire(message)).then((reply) => {
        if (reply === null) return;
        try {
          client.receive(wire(reply));
        } catch (error) {
          client.failRequest(
            id,
            new Error(`the server's reply could not be sent as JSON: ${String(error)}`),
          );
        }
      });
    },
  });
  peer = client;
  const close = async (): Promise<void> => {
    client.fail(new Error('the test client was closed'));
    connection.close();
  };
  try {
    return await startClient(client, options, close);
  } catch (error) {
    await close();
    throw error;
  }
}
