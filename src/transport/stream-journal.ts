/**
 * The journal of one resumable SSE stream: numbers each event (`<streamId>.<seq>`, see
 * `event-store.ts`) and writes it to the {@link EventStore} in order, without holding up the
 * stream; the reply that ends the stream is stored before it is sent ({@link StreamJournal.flush}),
 * so that a client whose stream dropped finds it on resumption, whichever replica it reaches.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Resumability and Redelivery").
 * @module
 */
import type { JsonRpcMessage } from '../protocol/messages.js';
import { eventId, newStreamId, type EventStore, type StreamInfo } from './event-store.js';

/** Numbers and stores the events of one stream. */
export class StreamJournal {
  /** The stream's id (the first part of its event ids). */
  readonly streamId: string;
  readonly #store: EventStore;
  readonly #report: (line: string) => void;
  #seq = 0;
  #chain: Promise<void>;
  #failed = false;

  /**
   * Registers a new stream in `store`.
   * @param report where a store that fails is reported (once per stream); the stream goes on
   *   without resumption.
   */
  constructor(store: EventStore, info: StreamInfo, report: (line: string) => void, streamId: string = newStreamId()) {
    this.streamId = streamId;
    this.#store = store;
    this.#report = report;
    this.#chain = this.#guard(() => store.open(streamId, info));
  }

  /** The sequence number of the last event recorded (0 before any). */
  get seq(): number {
    return this.#seq;
  }

  /** Numbers `message`, queues it for the store, and returns its event id; `last` ends the stream. */
  record(message: JsonRpcMessage, last = false): string {
    const seq = ++this.#seq;
    this.#chain = this.#chain.then(() => this.#guard(() => this.#store.append(this.streamId, seq, message, last)));
    return eventId(this.streamId, seq);
  }

  /** Resolves once every event recorded so far is stored (or failed). Never rejects. */
  flush(): Promise<void> {
    return this.#chain;
  }

  async #guard(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (this.#failed) return;
      this.#failed = true;
      this.#report(`event store: stream ${this.streamId} is not resumable: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
