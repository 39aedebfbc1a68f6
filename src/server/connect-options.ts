/**
 * The options of `Server.connect`, and the state of a legacy session as a transport that keeps
 * sessions in a shared store sees it: a snapshot to store and restore, and each change to write.
 *
 * Spec: MCP 2025-11-25, Basic / Lifecycle, Basic / Transports ("Session Management"), Basic /
 * Utilities / Cancellation.
 * @module
 */
import type { JsonRpcMessage } from '../protocol/messages.js';
import type { ClientInfo, LoggingLevel } from './context.js';
import type { TransportInfo } from './request-info.js';

/** Options for `Server.connect`. */
export interface ConnectOptions {
  /**
   * Sends a message the server originates: notifications (progress, log messages) and, on legacy
   * connections, requests to the client. Default: drop them.
   */
  send?: (message: JsonRpcMessage) => void;
  /** Transport facts that hold for every request of the connection (e.g. `{ kind: 'stdio' }`). */
  transport?: TransportInfo;
  /**
   * Called with each change a request makes to the session's state (log level, `initialized`, a
   * resource subscription), for a transport that keeps sessions in a shared store.
   */
  onchange?: (change: SessionChange) => void;
  /**
   * Called with a message that belongs to a request this connection does not hold: the client's
   * answer to a question it did not ask, `notifications/cancelled` for a request not in flight
   * here. A transport whose session spans replicas relays it to the others ({@link Connection.deliver}).
   */
  onstray?: (message: JsonRpcMessage) => void;
  /**
   * Prefix of the ids of the server's own requests to the client; replicas sharing a session
   * give each its own, so that every id is unique within the session.
   * @default 'baremcp-'
   */
  requestIdPrefix?: string;
}

/** What a legacy session holds that a transport may keep in a shared store (plain JSON). */
export interface SessionSnapshot {
  protocolVersion: string | undefined;
  client: ClientInfo;
  logLevel: LoggingLevel | undefined;
  initialized: boolean;
  resourceSubscriptions: string[];
}

/** One change of a session's state, as {@link ConnectOptions.onchange} reports it. */
export type SessionChange =
  | { kind: 'logLevel'; level: LoggingLevel }
  | { kind: 'initialized' }
  | { kind: 'subscribe'; uri: string; on: boolean };
