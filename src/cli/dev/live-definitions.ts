/**
 * The definitions `baremcp dev` serves across reloads. The served server (the first version's)
 * stays connected to its clients; its tools, prompts, resources and resource templates are
 * stand-ins whose functions call the current version's. A reload swaps the current version: a
 * definition whose shape is unchanged just runs the new code (the client sees nothing), while one
 * that was added, removed or reshaped goes through the registries' `add`/`remove`, which send
 * `notifications/<list>/list_changed` to every connected client (legacy clients directly,
 * 2026-07-28 clients on their `subscriptions/listen` streams).
 *
 * Spec: MCP 2025-11-25, Server / Tools, Prompts, Resources ("List Changed Notification");
 * MCP 2026-07-28, Basic / Patterns / Subscriptions.
 * @module
 */
import type { Server } from '../../server/server.js';
import type { ListKind } from '../../server/subscriptions.js';
import type { ToolDefinition } from '../../server/tool.js';
import type { PromptDefinition } from '../../server/prompt.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../../server/resource.js';
import { changedFields, fingerprint, isPlainObject, type Fingerprint } from './fingerprint.js';

/** The lists, in the order changes are reported. */
const LISTS: readonly ListKind[] = ['tools', 'prompts', 'resources'];

/** One definition of a version: which list, its key there, what it is called in a report. */
interface Item {
  list: ListKind;
  /** `tool`, `prompt`, `resource` or `resource template`. */
  word: string;
  /** Its name, URI or URI template. */
  key: string;
  definition: object;
  print: Fingerprint;
}

/** One change a reload made, as reported. */
export interface Change {
  /** `tool`, `prompt`, `resource` or `resource template`. */
  word: string;
  /** Its name, URI or URI template. */
  key: string;
  how: 'added' | 'removed' | 'changed';
  /** For `changed`: the fields whose value or code differs (`description`, `run`, ...). */
  fields: string[];
}

/** What {@link LiveDefinitions.apply} did. */
export interface Applied {
  /** Every change, by list (tools, prompts, resources), in the new version's order. */
  changes: Change[];
  /** Lists that could not be changed (the registry refused a definition): they stay as before. */
  failed: { list: ListKind; message: string }[];
  /** Lists the server had none of before and has now (clients connected before do not know). */
  firsts: ListKind[];
}

/** A registry of the server, seen the same way for every list. */
interface Registry {
  definitions(): object[];
  add(definitions: object[]): void;
  remove(key: string): boolean;
}

function registry(server: Server, list: ListKind): Registry {
  switch (list) {
    case 'tools':
      return {
        definitions: () => server.tools.list(),
        add: (defs) => server.tools.add(...(defs as ToolDefinition<never>[])),
        remove: (key) => server.tools.remove(key),
      };
    case 'prompts':
      return {
        definitions: () => server.prompts.definitions(),
        add: (defs) => server.prompts.add(...(defs as PromptDefinition[])),
        remove: (key) => server.prompts.remove(key),
      };
    case 'resources':
      return {
        // A module's own, older baremcp may lack `definitions()`: its resources then do not reload.
        definitions: () =>
          typeof server.resources.definitions === 'function' ? server.resources.definitions() : [],
        add: (defs) =>
          server.resources.add(...(defs as (ResourceDefinition | ResourceTemplateDefinition)[])),
        remove: (key) => server.resources.remove(key),
      };
  }
}

/** The items of `server`, by `list` and key. */
function itemsOf(server: Server): Map<string, Item> {
  const items = new Map<string, Item>();
  for (const list of LISTS) {
    for (const definition of registry(server, list).definitions()) {
      const d = definition as { name?: string; uri?: string; uriTemplate?: string };
      const template = list === 'resources' && typeof d.uriTemplate === 'string';
      const key = list === 'resources' ? (template ? d.uriTemplate : d.uri) : d.name;
      const word = list === 'tools' ? 'tool' : list === 'prompts' ? 'prompt'
        : template ? 'resource template' : 'resource';
      items.set(id(list, key as string), {
        list, word, key: key as string, definition, print: fingerprint(definition),
      });
    }
  }
  return items;
}

const id = (list: ListKind, key: string): string => `${list}\u0000${key}`;

/** Serves the current version's definitions through a server that stays connected. */
export class LiveDefinitions {
  readonly #server: Server;
  /** The current version's items (their functions are what the stand-ins call). */
  #current: Map<string, Item>;
  /** The stand-in registered for each item. */
  readonly #standIns = new Map<string, object>();

  /**
   * Takes `server` (the first version, before any client connects) and replaces its definitions
   * with stand-ins. Its middleware, hooks, extensions and custom methods stay as they are.
   */
  constructor(server: Server) {
    this.#server = server;
    this.#current = itemsOf(server);
    for (const list of LISTS) {
      const items = [...this.#current.values()].filter((item) => item.list === list);
      if (items.length === 0) continue;
      const reg = registry(server, list);
      for (const item of items) reg.remove(item.key);
      const standIns = items.map((item) => this.#standIn(item));
      reg.add(standIns);
      items.forEach((item, i) => this.#standIns.set(id(list, item.key), standIns[i] as object));
    }
  }

  /**
   * Makes `next` (a new version of the module's server, never connected) the current version:
   * its functions run from now on; added, removed and reshaped definitions are registered, which
   * announces the change to connected clients. Never throws: a list whose registry refuses a
   * definition stays as it was (see {@link Applied.failed}).
   */
  apply(next: Server): Applied {
    const incoming = itemsOf(next);
    const before = new Set(this.#server.listKinds());
    const applied: Applied = { changes: [], failed: [], firsts: [] };
    const current = new Map<string, Item>();
    for (const list of LISTS) {
      const old = [...this.#current.values()].filter((item) => item.list === list);
      const now = [...incoming.values()].filter((item) => item.list === list);
      const changes: Change[] = [];
      const register: Item[] = [];
      const unregister: Item[] = [];
      for (const item of now) {
        const was = this.#current.get(id(list, item.key));
        if (was === undefined) {
          changes.push({ word: item.word, key: item.key, how: 'added', fields: [] });
          register.push(item);
          continue;
        }
        const fields = changedFields(was.print, item.print);
        if (fields.length > 0) changes.push({ word: item.word, key: item.key, how: 'changed', fields });
        if (was.print.shape !== item.print.shape || was.print.opaque || item.print.opaque) {
          unregister.push(was);
          register.push(item);
        }
      }
      for (const item of old) {
        if (incoming.has(id(list, item.key))) continue;
        changes.push({ word: item.word, key: item.key, how: 'removed', fields: [] });
        unregister.push(item);
      }
      const message = this.#swap(list, unregister, register);
      if (message === undefined) {
        for (const item of now) current.set(id(list, item.key), item);
        applied.changes.push(...changes);
      } else {
        for (const item of old) current.set(id(list, item.key), item);
        applied.failed.push({ list, message });
      }
    }
    this.#current = current;
    applied.firsts = this.#server.listKinds().filter((list) => !before.has(list));
    return applied;
  }

  /**
   * Unregisters the stand-ins of `unregister` and registers stand-ins for `register` (in one
   * `add`, all or none). When the registry refuses, the old stand-ins go back and the refusal's
   * message is returned.
   */
  #swap(list: ListKind, unregister: Item[], register: Item[]): string | undefined {
    if (unregister.length === 0 && register.length === 0) return undefined;
    const reg = registry(this.#server, list);
    for (const item of unregister) reg.remove(item.key);
    const fresh = register.map((item) => [id(list, item.key), this.#standIn(item)] as const);
    try {
      if (fresh.length > 0) reg.add(fresh.map(([, standIn]) => standIn));
    } catch (error) {
      const back = unregister.map((item) => this.#standIns.get(id(list, item.key)));
      reg.add(back.filter((s): s is object => s !== undefined));
      return error instanceof Error ? error.message : String(error);
    }
    for (const item of unregister) this.#standIns.delete(id(list, item.key));
    for (const [key, standIn] of fresh) this.#standIns.set(key, standIn);
    return undefined;
  }

  /**
   * A copy of `item`'s definition whose functions (and those of plain objects in it, such as
   * `complete`) call the current version's function at the same place. The copy keeps the item's
   * other fields: a change to them reshapes the item, which registers a new stand-in.
   */
  #standIn(item: Item): object {
    const key = id(item.list, item.key);
    const copy = (source: Record<string, unknown>, path: string[]): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(source)) {
        if (typeof value === 'function') out[field] = this.#delegate(key, [...path, field]);
        else if (isPlainObject(value) && Object.values(value).some((v) => typeof v === 'function')) {
          out[field] = copy(value, [...path, field]);
        } else out[field] = value;
      }
      return out;
    };
    return copy(item.definition as Record<string, unknown>, []);
  }

  /** A function named like the one at `path` that calls the current version's, as a method. */
  #delegate(key: string, path: string[]): (...args: unknown[]) => unknown {
    const name = path[path.length - 1] as string;
    const live = this;
    const named = {
      [name](...args: unknown[]): unknown {
        let holder = live.#current.get(key)?.definition as Record<string, unknown> | undefined;
        for (const step of path.slice(0, -1)) holder = holder?.[step] as Record<string, unknown>;
        const target = holder?.[name];
        if (typeof target !== 'function') {
          throw new Error(`${path.join('.')} is not a function in the version now served`);
        }
        return (target as (...a: unknown[]) => unknown).apply(holder, args);
      },
    };
    return named[name] as (...args: unknown[]) => unknown;
  }
}
