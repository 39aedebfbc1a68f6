/**
 * The list a registry serves, shaped once per protocol revision and dropped when the registry
 * changes (tools, resources, templates and prompts all use it).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';

/** Wire forms of one list, cached per revision. */
export class WireCache {
  readonly #byRevision = new Map<string, JsonObject[]>();

  /** The list for `revision`, built with `build` the first time it is asked for. */
  get(revision: string, build: () => JsonObject[]): JsonObject[] {
    let list = this.#byRevision.get(revision);
    if (list === undefined) {
      list = build();
      this.#byRevision.set(revision, list);
    }
    return list;
  }

  /** Forgets every cached list (the registry changed). */
  clear(): void {
    this.#byRevision.clear();
  }
}
