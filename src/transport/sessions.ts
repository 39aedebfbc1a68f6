/**
 * Sessions of the legacy revisions (2025-03-26 to 2025-11-25) over Streamable HTTP: one
 * {@link Connection} per `Mcp-Session-Id`, minted at `initialize`, with an optional standalone
 * GET stream for messages unrelated to any request, ended by `DELETE`, by idle expiry, or by
 * closing the store. 2026-07-28 has no sessions and never reaches this module.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Session Management": cryptographically secure ids of
 * visible ASCII, 404 after termination; "Listening for Messages from the Server"), Basic /
 * Security Best Practices ("Session Hijacking": bind the session to the user).
 * @module
 */
import type { JsonRpcMessage } from '../protocol/messages.js';
import type { Connection } from '../server/connection.js';
import type { Server } from '../server/server.js';
import { SseStream, type SseOptions } from './sse.js';

/** One legacy session. */
export interface Session {
  /** The `Mcp-Session-Id`: 32 characters of base64url (192 random bits). */
  readonly id: string;
  /** The connection: the negotiated revision, the client's capabilities, its subscriptions. */
  readonly connection: Connection;
  /** Time of the last request, in milliseconds since the epoch. */
  lastSeen: number;
  /** The standalone GET stream, while one is open. */
  stream: SseStream | undefined;
  /** POST requests of this session being served now; a busy session never expires. */
  busy: number;
  /**
   * The caller that opened the session (`principalKey`; `''` without authorization): only that
   * caller may use it, with any of its tokens.
   */
  readonly owner: string;
}

/** Options for {@link SessionStore}. */
export interface SessionStoreOptions {
  /** A session idle this long (no request, no open stream), in milliseconds, is ended. */
  idleMs: number;
  /** Most sessions at once; `create` refuses more. */
  maxSessions: number;
  /** Options of the standalone GET streams. */
  sse: SseOptions;
}

/** A new session id: 24 bytes from `crypto.getRandomValues`, base64url (visible ASCII only). */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}

/** The live sessions of one handler. */
export class SessionStore {
  readonly #server: Server;
  readonly #options: SessionStoreOptions;
  readonly #sessions = new Map<string, Session>();
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(server: Server, options: SessionStoreOptions) {
    this.#server = server;
    this.#options = options;
  }

  /** Number of live sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Opens a session with a fresh connection whose unsolicited messages (list changes, resource
   * updates) go to the session's GET stream when one is open, and are dropped otherwise.
   * @returns the session, or undefined when `maxSessions` are live.
   */
  create(owner = ''): Session | undefined {
    this.sweep();
    if (this.#sessions.size >= this.#options.maxSessions) return undefined;
    let current: Session | undefined;
    const connection = this.#server.connect({
      send: (message: JsonRpcMessage) => {
        current?.stream?.send(message);
      },
    });
    const session: Session = {
      id: newSessionId(),
      connection,
      lastSeen: Date.now(),
      stream: undefined,
      busy: 0,
      owner,
    };
    current = session;
    this.#sessions.set(session.id, session);
    this.#startSweeper();
    return session;
  }

  /**
   * The live session with this id (marked as seen), or undefined (unknown, ended, expired, or
   * opened by another caller than `owner`: to that caller it does not exist).
   */
  get(id: string | null, owner = ''): Session | undefined {
    if (id === null) return undefined;
    const session = this.#sessions.get(id);
    if (session === undefined || session.owner !== owner) return undefined;
    session.lastSeen = Date.now();
    return session;
  }

  /**
   * Opens the standalone GET stream of a session.
   * @returns the stream, or undefined when one is already open (one per session, so that no
   *   message is sent twice).
   */
  openStream(session: Session): SseStream | undefined {
    if (session.stream?.open === true) return undefined;
    const stream: SseStream = new SseStream({
      ...this.#options.sse,
      startWithComment: true,
      onabort: () => {
        if (session.stream === stream) session.stream = undefined;
        session.lastSeen = Date.now();
      },
    });
    session.stream = stream;
    return stream;
  }

  /** Ends a session: its requests in flight are aborted and its stream closed. */
  delete(id: string): boolean {
    const session = this.#sessions.get(id);
    if (session === undefined) return false;
    this.#sessions.delete(id);
    this.#end(session);
    if (this.#sessions.size === 0) this.#stopSweeper();
    return true;
  }

  /** Ends subscriptions gracefully on every session (the first step of a graceful close). */
  endSubscriptions(): void {
    for (const session of this.#sessions.values()) session.connection.endSubscriptions();
  }

  /** Ends every session. */
  closeAll(): void {
    for (const session of this.#sessions.values()) this.#end(session);
    this.#sessions.clear();
    this.#stopSweeper();
  }

  /** Ends the sessions idle for longer than `idleMs` (not busy, no open stream). */
  sweep(now: number = Date.now()): void {
    for (const session of this.#sessions.values()) {
      if (session.stream?.open === true) session.lastSeen = now;
      else if (session.busy === 0 && now - session.lastSeen > this.#options.idleMs)
        this.delete(session.id);
    }
  }

  #end(session: Session): void {
    session.stream?.close();
    session.stream = undefined;
    session.connection.close();
  }

  #startSweeper(): void {
    if (this.#sweeper !== undefined) return;
    const every = Math.max(1000, Math.min(this.#options.idleMs, 60_000));
    this.#sweeper = setInterval(() => this.sweep(), every);
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  #stopSweeper(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }
}
