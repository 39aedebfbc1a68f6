/**
 * Change notifications: 2026-07-28 `subscriptions/listen` streams (acknowledged first, each
 * notification tagged with its subscription id, ended by a cancel or gracefully at shutdown) and
 * the fan-out of list changes and resource updates to them.
 *
 * Spec: MCP 2026-07-28, Basic / Patterns / Subscriptions; MCP 2025-11-25, Server / Resources
 * ("Subscriptions"), Server / Tools ("List Changed Notification").
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import { hasOwn, type JsonObject, type JsonRpcNotification, type JsonValue, type RequestId } from '../protocol/messages.js';
import { META } from '../protocol/meta.js';
import type { RequestContext } from './context.js';

/** The lists whose changes are announced. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** Every {@link ListKind}. */
export const LIST_KINDS: readonly ListKind[] = ['tools', 'prompts', 'resources'];

/** The filter flag of `subscriptions/listen` for each list. */
const FILTER_FLAG: Record<ListKind, string> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
};

interface Subscription {
  id: RequestId;
  filter: JsonObject;
  end: () => void;
  notify(notification: JsonRpcNotification): void;
}

/** What the server offers to subscribe to. */
export interface SubscriptionOffer {
  /** The lists the server serves. */
  kinds: readonly ListKind[];
  /** True when `uri` names a resource the server has. */
  knows(uri: string): boolean;
  /** Filter keys of extensions, with the values the server agreed to (see {@link SubscriptionTopic}). */
  extra?: JsonObject;
}

/**
 * A notification topic an extension adds to `subscriptions/listen`, under its own key of the
 * `notifications` filter (the tasks extension's `taskIds`, say). The server sends its
 * notifications with `Server.notifySubscribers`.
 */
export interface SubscriptionTopic {
  /**
   * What the server agrees to send for the client's value of the key: the value acknowledged in
   * `notifications/subscriptions/acknowledged` (and later matched by `notifySubscribers`), or
   * undefined to leave the key out.
   * @throws {RpcError} to refuse the whole subscription (e.g. `-32021` when the client did not
   *   declare the extension).
   */
  accept(value: JsonValue, ctx: RequestContext): JsonValue | undefined | Promise<JsonValue | undefined>;
}

/** The open subscriptions of one connection. */
export class Subscriptions {
  /** Open subscriptions by request id (a Map keeps `"1"` and `1` apart). */
  readonly #open = new Map<RequestId, Subscription>();
  /** Set by {@link endAll}: a subscription opened afterwards ends at once, with its result. */
  #ended = false;

  /**
   * Serves `subscriptions/listen`: acknowledges the filter the server agrees to (on `notify`,
   * the request's own stream), then resolves with the graceful-end result when {@link endAll}
   * runs, or never settles usefully once `signal` aborts (a cancelled request gets no reply).
   * @throws {RpcError} `-32602` when `params.notifications` is not an object.
   */
  async listen(
    id: RequestId,
    params: JsonObject | undefined,
    signal: AbortSignal,
    offer: SubscriptionOffer,
    notify: (notification: JsonRpcNotification) => void,
  ): Promise<JsonObject> {
    const asked = params?.notifications;
    if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) {
      throw new RpcError(ErrorCode.InvalidParams, 'subscriptions/listen: params.notifications must be an object');
    }
    const filter: JsonObject = {};
    for (const kind of offer.kinds) {
      if (asked[FILTER_FLAG[kind]] === true) filter[FILTER_FLAG[kind]] = true;
    }
    const uris = asked.resourceSubscriptions;
    if (offer.kinds.includes('resources') && Array.isArray(uris)) {
      filter.resourceSubscriptions = uris.filter((u): u is string => typeof u === 'string' && offer.knows(u));
    }
    Object.assign(filter, offer.extra);
    const ended = new Promise<void>((resolve) => {
      this.#open.set(id, { id, filter, end: resolve, notify });
      signal.addEventListener('abort', () => resolve(), { once: true });
      if (this.#ended) resolve();
    });
    notify({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [META.subscriptionId]: id }, notifications: filter },
    });
    try {
      await ended;
    } finally {
      this.#open.delete(id);
    }
    return { _meta: { [META.subscriptionId]: id } };
  }

  /** Ends every open subscription gracefully (each then gets its result), and any opened later. */
  endAll(): void {
    this.#ended = true;
    for (const subscription of this.#open.values()) subscription.end();
  }

  /** Sends `notifications/<kind>/list_changed` on every subscription that asked for it. */
  listChanged(kind: ListKind): void {
    const method = `notifications/${kind}/list_changed`;
    for (const s of this.#open.values()) {
      if (s.filter[FILTER_FLAG[kind]] === true) {
        s.notify({ jsonrpc: '2.0', method, params: { _meta: { [META.subscriptionId]: s.id } } });
      }
    }
  }

  /**
   * Sends `notification` (tagged with the subscription id) on every subscription whose filter has
   * `key` with an agreed value that `matches`.
   */
  publish(key: string, matches: (agreed: JsonValue) => boolean, notification: JsonRpcNotification): void {
    for (const s of this.#open.values()) {
      if (!hasOwn(s.filter, key) || !matches(s.filter[key] as JsonValue)) continue;
      const params: JsonObject = { ...notification.params };
      params._meta = { ...(params._meta as JsonObject | undefined), [META.subscriptionId]: s.id };
      s.notify({ ...notification, params });
    }
  }

  /** Sends `notifications/resources/updated` on every subscription whose URIs include `uri`. */
  resourceUpdated(uri: string): void {
    for (const s of this.#open.values()) {
      const uris = s.filter.resourceSubscriptions;
      if (Array.isArray(uris) && uris.includes(uri)) {
        s.notify({
          jsonrpc: '2.0',
          method: 'notifications/resources/updated',
          params: { uri, _meta: { [META.subscriptionId]: s.id } },
        });
      }
    }
  }
}
