/**
 * The test client's methods over a {@link Peer}, in either era: the `initialize` handshake
 * (legacy revisions), or per-request protocol fields in `_meta` with `input_required` rounds
 * answered and retried (2026-07-28). Pure: the transport is the caller's.
 *
 * Spec: MCP 2025-11-25, Basic / Lifecycle, Server / Tools, Resources, Prompts, Utilities /
 * Completion, Pagination; MCP 2026-07-28, Basic / Versioning, Basic / Patterns / Multi
 * Round-Trip Requests, `server/discover`.
 * @module
 */
import { isObject, type JsonObject, type JsonValue } from '../protocol/messages.js';
import { isOneOf, notOneOf } from '../protocol/names.js';
import { LATEST_LEGACY_REVISION, MODERN_REVISIONS, SUPPORTED_REVISIONS } from '../protocol/revisions.js';
import type { CallToolResult, ContentBlock, Implementation, Tool } from '../protocol/types.js';
import { META } from '../protocol/meta.js';
import { LOGGING_LEVELS } from '../server/context.js';
import type { Peer } from './peer.js';
import type {
  ClientOptions,
  Completion,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  TestClient,
} from './types.js';

/** Most pages a list method follows, and most `input_required` rounds of one request. */
const MAX_PAGES = 1000;
const MAX_ROUNDS = 16;

/** The capability each server-to-client method needs. */
const CAPABILITY_OF: { readonly [method: string]: string } = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The client capabilities for `options`: as given, else one per handler of a known method. */
export function clientCapabilities(options: ClientOptions): JsonObject {
  if (options.capabilities !== undefined) return options.capabilities;
  const capabilities: JsonObject = {};
  for (const method of Object.keys(options.handlers ?? {})) {
    const capability = CAPABILITY_OF[method];
    if (capability !== undefined) capabilities[capability] = {};
  }
  return capabilities;
}

/**
 * Connects `peer`'s client end: the handshake (or `server/discover` at 2026-07-28), then the
 * test client. `close` is the transport's own shutdown.
 * @throws {TypeError} when `protocolVersion` is not one of `SUPPORTED_REVISIONS` or `logLevel`
 *   not one of `LOGGING_LEVELS` (a typo would otherwise test another revision, or no logging).
 * @throws {RpcError} when the server refuses the handshake; an `Error` when it does not answer.
 */
export async function startClient(
  peer: Peer,
  options: ClientOptions,
  close: () => Promise<void>,
): Promise<TestClient> {
  const requested = options.protocolVersion ?? LATEST_LEGACY_REVISION;
  if (!isOneOf(requested, SUPPORTED_REVISIONS)) {
    throw new TypeError(`protocolVersion: ${notOneOf('protocol revision', requested, SUPPORTED_REVISIONS)}`);
  }
  if (options.logLevel !== undefined && !isOneOf(options.logLevel, LOGGING_LEVELS)) {
    throw new TypeError(`logLevel: ${notOneOf('logging level', options.logLevel, LOGGING_LEVELS)}`);
  }
  const modern = MODERN_REVISIONS.includes(requested);
  const clientInfo: Implementation = options.clientInfo ?? {
    name: 'baremcp-test',
    version: '0.0.0',
  };
  const capabilities = clientCapabilities(options);
  const handlers = options.handlers ?? {};

  const withMeta = (params: JsonObject | undefined): JsonObject | undefined => {
    if (!modern) return params;
    const meta: JsonObject = {
      ...(isObject(params?._meta) ? (params._meta as JsonObject) : {}),
      [META.protocolVersion]: requested,
      [META.clientCapabilities]: capabilities,
      [META.clientInfo]: clientInfo as unknown as JsonObject,
    };
    if (options.logLevel !== undefined) meta[META.logLevel] = options.logLevel;
    return { ...params, _meta: meta };
  };

  /** Answers one 2026-07-28 input request from the handlers. */
  const answer = async (request: JsonValue | undefined): Promise<JsonObject> => {
    const method = isObject(request) && typeof request.method === 'string' ? request.method : '';
    const handler = Object.prototype.hasOwnProperty.call(handlers, method)
      ? handlers[method]
      : undefined;
    if (handler === undefined) {
      throw new Error(
        `the server asked for ${method || 'input'} but the test client has no handler for it ` +
          `(pass handlers: { '${method}': ... })`,
      );
    }
    const params =
      isObject(request) && isObject(request.params) ? (request.params as JsonObject) : {};
    return handler(params);
  };

  const request: TestClient['request'] = async (method, params, requestOptions) => {
    const first = withMeta(params);
    let sent = first;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const result = await peer.request(method, sent, requestOptions);
      if (!modern || result.resultType !== 'input_required') return result;
      const inputRequests = isObject(result.inputRequests) ? result.inputRequests : {};
      const inputResponses: JsonObject = {};
      for (const [key, input] of Object.entries(inputRequests))
        inputResponses[key] = await answer(input);
      sent = { ...first, inputResponses };
      if (typeof result.requestState === 'string') sent.requestState = result.requestState;
    }
    throw new Error(`${method} still asked for input after ${MAX_ROUNDS} rounds`);
  };

  const list = async <T>(method: string, key: string): Promise<T[]> => {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await request(method, cursor === undefined ? {} : { cursor });
      const found = result[key];
      if (Array.isArray(found)) items.push(...(found.filter(isObject) as unknown as T[]));
      if (typeof result.nextCursor !== 'string' || result.nextCursor === '') break;
      cursor = result.nextCursor;
    }
    return items;
  };

  let handshake: JsonObject;
  if (modern) {
    handshake = await request('server/discover', {});
  } else {
    handshake = await peer.request('initialize', {
      protocolVersion: requested,
      capabilities,
      clientInfo: clientInfo as unknown as JsonObject,
    });
    peer.notify('notifications/initialized');
    if (options.logLevel !== undefined)
      await peer.request('logging/setLevel', { level: options.logLevel });
  }
  const meta = isObject(handshake._meta) ? handshake._meta : {};
  const serverInfo = (modern
    ? meta[META.serverInfo]
    : handshake.serverInfo) as unknown as Implementation;
  let closed: Promise<void> | undefined;

  return {
    protocolVersion: modern ? requested : String(handshake.protocolVersion),
    serverInfo: isObject(serverInfo) ? serverInfo : { name: '', version: '' },
    serverCapabilities: isObject(handshake.capabilities)
      ? (handshake.capabilities as JsonObject)
      : {},
    instructions: typeof handshake.instructions === 'string' ? handshake.instructions : undefined,
    notifications: peer.notifications,
    listTools: () => list<Tool>('tools/list', 'tools'),
    callTool: async (name, args = {}, requestOptions) =>
      (await request(
        'tools/call',
        { name, arguments: args as JsonObject },
        requestOptions,
      )) as unknown as CallToolResult,
    listResources: () => list<Resource>('resources/list', 'resources'),
    listResourceTemplates: () =>
      list<ResourceTemplate>('resources/templates/list', 'resourceTemplates'),
    readResource: async (uri, requestOptions) =>
      (await request('resources/read', { uri }, requestOptions)) as unknown as ReadResourceResult,
    listPrompts: () => list<Prompt>('prompts/list', 'prompts'),
    getPrompt: async (name, args = {}, requestOptions) =>
      (await request(
        'prompts/get',
        { name, arguments: { ...args } },
        requestOptions,
      )) as unknown as GetPromptResult,
    complete: async (ref, argument, context) => {
      const params: JsonObject = { ref, argument };
      if (context !== undefined) params.context = { arguments: { ...context } };
      const result = await request('completion/complete', params);
      return (isObject(result.completion)
        ? result.completion
        : { values: [] }) as unknown as Completion;
    },
    request,
    notify: (method, params) => peer.notify(method, params),
    close: () => (closed ??= close()),
  };
}

/**
 * The text of a tool result or a prompt message list: every `text` content block, joined by a
 * newline (other blocks are skipped). Saves narrowing `content[0]` to a `TextContent` in tests.
 * @example
 * assert.equal(textOf(await client.callTool('add', { a: 1, b: 2 })), '3');
 */
export function textOf(result: { content: readonly ContentBlock[] } | GetPromptResult): string {
  const blocks = 'messages' in result ? result.messages.map((m) => m.content) : result.content;
  return blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}
