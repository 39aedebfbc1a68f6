/**
 * The `initialize` handshake: revision negotiation, the client's identity and capabilities, and
 * the server's answer shaped for the negotiated revision.
 *
 * Spec: MCP 2025-11-25, Basic / Lifecycle ("Initialization", "Version Negotiation",
 * "Capability Negotiation").
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import { isObject, type JsonObject } from '../protocol/messages.js';
import { atLeast, negotiateRevision } from '../protocol/revisions.js';
import type { Implementation } from '../protocol/types.js';
import type { ClientInfo } from './context.js';

/** What the handshake records for a connection. */
export interface Handshake {
  protocolVersion: string;
  client: ClientInfo;
}

/**
 * Reads `initialize` params.
 * @throws {RpcError} `-32602` when `protocolVersion` is missing or not a string.
 */
export function readInitialize(params: JsonObject | undefined): Handshake {
  const requested = params?.protocolVersion;
  if (typeof requested !== 'string') {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'initialize: params.protocolVersion is required (a revision such as "2025-11-25")',
    );
  }
  return { protocolVersion: negotiateRevision(requested), client: initializeClient(params) };
}

/** The client an `initialize` request names: `clientInfo` and `capabilities` (`{}` when absent). */
export function initializeClient(params: JsonObject | undefined): ClientInfo {
  const info = isObject(params?.clientInfo) ? params.clientInfo : {};
  const client: ClientInfo = {
    capabilities: isObject(params?.capabilities) ? (params.capabilities as JsonObject) : {},
  };
  if (typeof info.name === 'string') client.name = info.name;
  if (typeof info.version === 'string') client.version = info.version;
  return client;
}

/** `serverInfo` with the fields `revision` lacks left out. */
export function serverInfoFor(info: Implementation, revision: string): JsonObject {
  const wire: JsonObject = { name: info.name, version: info.version };
  if (info.title !== undefined && atLeast(revision, '2025-06-18')) wire.title = info.title;
  if (atLeast(revision, '2025-11-25')) {
    if (info.description !== undefined) wire.description = info.description;
    if (info.websiteUrl !== undefined) wire.websiteUrl = info.websiteUrl;
    if (info.icons !== undefined) wire.icons = info.icons as unknown as JsonObject[];
  }
  return wire;
}

/** The `initialize` result. */
export function initializeResult(
  info: Implementation,
  capabilities: JsonObject,
  revision: string,
  instructions: string | undefined,
): JsonObject {
  const result: JsonObject = {
    protocolVersion: revision,
    capabilities,
    serverInfo: serverInfoFor(info, revision),
  };
  if (instructions !== undefined) result.instructions = instructions;
  return result;
}
