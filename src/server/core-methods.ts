/**
 * The entries of the method table for the methods of the core protocol: the lifecycle, tools,
 * resources, prompts, completion, logging and subscriptions.
 *
 * Spec: MCP 2025-11-25, Basic / Lifecycle, Basic / Utilities / Ping, Server / Tools, Resources,
 * Prompts, Utilities / Completion, Logging; MCP 2026-07-28, Basic / Versioning (`server/discover`),
 * Basic / Patterns / Subscriptions, Server / Utilities / Caching.
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import { hasOwn, isObject, type JsonObject, type JsonValue } from '../protocol/messages.js';
import { META } from '../protocol/meta.js';
import { SUPPORTED_REVISIONS } from '../protocol/revisions.js';
import type { CallToolResult, Implementation } from '../protocol/types.js';
import { complete } from './completion.js';
import { LOGGING_LEVELS, type LoggingLevel, type RequestContext } from './context.js';
import { initializeResult, readInitialize } from './lifecycle.js';
import type { MethodEntry, RequestTarget } from './methods.js';
import { listedFor } from './principal.js';
import type { PromptRegistry } from './prompts.js';
import type { ResourceRegistry } from './resources.js';
import type { ListKind, SubscriptionTopic } from './subscriptions.js';
import type { ToolRegistry } from './tools.js';

/** What the core methods read from their server. */
export interface MethodHost {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  /** Items per page in list results. */
  readonly pageSize: number;
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;
  /** The capabilities the server announces in an era. */
  capabilities(era: 'legacy' | 'modern'): JsonObject;
  /** The lists whose changes the server announces. */
  listKinds(): ListKind[];
  /** The notification topics extensions add to `subscriptions/listen`, by filter key. */
  readonly topics: ReadonlyMap<string, SubscriptionTopic>;
}

const LEGACY = ['legacy'] as const;
const MODERN = ['modern'] as const;
const BOTH = ['legacy', 'modern'] as const;

/** The core entries of the method table, reading `host`. */
export function coreMethods(host: MethodHost): MethodEntry[] {
  const page = (): number => host.pageSize;
  /** The prompt named `name`, with its scopes, as a request target (undefined: no such prompt). */
  const promptTarget = (name: unknown): RequestTarget | undefined => {
    const prompt = typeof name === 'string' ? host.prompts.prompt(name) : undefined;
    if (prompt === undefined) return undefined;
    return { kind: 'prompt', name: prompt.name, ...(prompt.scopes ? { scopes: prompt.scopes } : {}) };
  };
  return [
    {
      method: 'initialize',
      eras: LEGACY,
      run(params, _ctx, { session }) {
        const handshake = readInitialize(params);
        session.handshake(handshake.protocolVersion, handshake.client);
        return initializeResult(host.info, host.capabilities('legacy'), handshake.protocolVersion, host.instructions);
      },
    },
    {
      method: 'server/discover',
      eras: MODERN,
      cacheScope: 'public',
      wrongEra: () =>
        new RpcError(
          ErrorCode.InvalidParams,
          `server/discover needs _meta["${META.protocolVersion}"] and _meta["${META.clientCapabilities}"]`,
        ),
      run() {
        const result: JsonObject = { supportedVersions: [...SUPPORTED_REVISIONS], capabilities: host.capabilities('modern') };
        if (host.instructions !== undefined) result.instructions = host.instructions;
        return result;
      },
    },
    { method: 'ping', eras: LEGACY, run: () => ({}) },
    {
      method: 'logging/setLevel',
      eras: LEGACY,
      capability: 'logging',
      run(params, _ctx, { session }) {
        const level = params?.level;
        if (typeof level !== 'string' || !(LOGGING_LEVELS as readonly string[]).includes(level)) {
          throw new RpcError(ErrorCode.InvalidParams, `logging/setLevel: level must be one of ${LOGGING_LEVELS.join(', ')}`);
        }
        session.setLogLevel(level as LoggingLevel);
        return {};
      },
    },
    {
      method: 'subscriptions/listen',
      eras: MODERN,
      required: { notifications: 'object' },
      wrongEra: () =>
        new RpcError(ErrorCode.MethodNotFound, 'Method not found: subscriptions/listen (a 2026-07-28 method)'),
      run(params, ctx, { session, notify }) {
        const listen = (extra?: JsonObject): Promise<JsonObject> => {
          const offer = { kinds: host.listKinds(), knows: (uri: string) => host.resources.knows(uri), extra };
          return session.listen(ctx.requestId, params, ctx.signal, offer, notify);
        };
        const asked = params?.notifications as JsonObject;
        // Subscribed at once (in this turn) unless an extension's key must be agreed to first.
        if (![...host.topics.keys()].some((key) => hasOwn(asked, key))) return listen();
        return agreedTopics(host.topics, asked, ctx).then(listen);
      },
    },
    {
      method: 'tools/list',
      eras: BOTH,
      capability: 'tools',
      cacheScope: 'public',
      scoped: true,
      run: (params, ctx) => host.tools.listPage(params, ctx.protocolVersion, page(), listedFor(ctx.principal, ctx.transport)),
    },
    {
      method: 'tools/call',
      eras: BOTH,
      capability: 'tools',
      required: { name: 'string' },
      nameParam: 'name',
      target(params) {
        const tool = typeof params?.name === 'string' ? host.tools.get(params.name) : undefined;
        if (tool === undefined) return undefined;
        return { kind: 'tool', name: tool.name, inputSchema: tool.inputSchema, ...(tool.scopes ? { scopes: tool.scopes } : {}) };
      },
      run: (params, ctx) => host.tools.callNow(params, ctx) as (CallToolResult & JsonObject) | Promise<CallToolResult & JsonObject>,
    },
    {
      method: 'resources/list',
      eras: BOTH,
      capability: 'resources',
      cacheScope: 'public',
      run: (params, ctx) => host.resources.list(params, ctx, page()),
    },
    {
      method: 'resources/templates/list',
      eras: BOTH,
      capability: 'resources',
      cacheScope: 'public',
      run: (params, ctx) => host.resources.listTemplates(params, ctx, page()),
    },
    {
      method: 'resources/read',
      eras: BOTH,
      capability: 'resources',
      cacheScope: 'private',
      required: { uri: 'string' },
      nameParam: 'uri',
      target: (params) => (typeof params?.uri === 'string' ? { kind: 'resource', name: params.uri } : undefined),
      run: (params, ctx) => host.resources.read(params, ctx),
    },
    {
      method: 'resources/subscribe',
      eras: LEGACY,
      capability: 'resources',
      run(params, ctx, { session }) {
        session.subscribe(host.resources.subscriptionUri(params, ctx, 'resources/subscribe', true), true);
        return {};
      },
    },
    {
      method: 'resources/unsubscribe',
      eras: LEGACY,
      capability: 'resources',
      run(params, ctx, { session }) {
        session.subscribe(host.resources.subscriptionUri(params, ctx, 'resources/unsubscribe', false), false);
        return {};
      },
    },
    {
      method: 'prompts/list',
      eras: BOTH,
      capability: 'prompts',
      cacheScope: 'public',
      scoped: true,
      run: (params, ctx) => host.prompts.list(params, ctx, page()),
    },
    {
      method: 'prompts/get',
      eras: BOTH,
      capability: 'prompts',
      required: { name: 'string' },
      nameParam: 'name',
      target: (params) => promptTarget(params?.name),
      run: (params, ctx) => host.prompts.get(params, ctx),
    },
    {
      method: 'completion/complete',
      eras: BOTH,
      capability: 'completions',
      // A prompt's completers are part of the prompt: its scopes guard them as they guard
      // prompts/get (completions may list what only the prompt's callers may see).
      target(params) {
        const ref = params?.ref;
        return isObject(ref) && ref.type === 'ref/prompt' ? promptTarget(ref.name) : undefined;
      },
      run: (params, ctx) => complete(params, ctx, { prompts: host.prompts, resources: host.resources }),
    },
  ];
}

/**
 * What the server agrees to for the filter keys extensions add to `subscriptions/listen` (each
 * topic's `accept`), before the subscription is acknowledged.
 * @throws whatever a topic throws (an `RpcError` refuses the subscription).
 */
async function agreedTopics(
  topics: ReadonlyMap<string, SubscriptionTopic>,
  asked: JsonObject,
  ctx: RequestContext,
): Promise<JsonObject> {
  const agreed: JsonObject = {};
  for (const [key, topic] of topics) {
    if (!hasOwn(asked, key)) continue;
    const value = await topic.accept(asked[key] as JsonValue, ctx);
    if (value !== undefined) agreed[key] = value;
  }
  return agreed;
}
