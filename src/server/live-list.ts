/**
 * A list of what is alive now (requests in flight, open connections) under a steady churn of adds
 * and removes: a doubly linked list whose entries remove themselves. Not a `Set`: V8's `Set` and
 * `Map` rehash into a new table as entries come and go, and keep each replaced table (with the
 * entries it held) linked to its successor for iterators; a replaced table that had reached the old
 * generation keeps what it points at alive through every scavenge until the next full collection,
 * so under load each request's objects were promoted instead of dying young (measured on Node 20:
 * the young-generation collections of a 2026-07-28 POST cost about four times those of a request
 * on a session). An entry removed here points at nothing any more.
 * @module
 */

/** One value in a {@link LiveList}; {@link LiveEntry.remove} takes it out. */
export class LiveEntry<T> {
  /** @internal */
  prev: LiveEntry<T> | undefined;
  /** @internal */
  next: LiveEntry<T> | undefined;
  #list: LiveList<T> | undefined;

  /** @internal Made by {@link LiveList.add}. */
  constructor(
    readonly value: T,
    list: LiveList<T>,
  ) {
    this.#list = list;
  }

  /** Takes the value out of its list; safe to call twice. */
  remove(): void {
    const list = this.#list;
    if (list === undefined) return;
    this.#list = undefined;
    list.unlink(this);
  }
}

/** Values alive now, in the order they were added; adding and removing are O(1) and allocate one entry. */
export class LiveList<T> {
  #first: LiveEntry<T> | undefined;
  #last: LiveEntry<T> | undefined;
  #size = 0;

  /** How many values the list holds. */
  get size(): number {
    return this.#size;
  }

  /** Adds `value` (again, if it is there already); keep the entry to remove it. */
  add(value: T): LiveEntry<T> {
    const entry = new LiveEntry(value, this);
    const last = this.#last;
    entry.prev = last;
    if (last === undefined) this.#first = entry;
    else last.next = entry;
    this.#last = entry;
    this.#size++;
    return entry;
  }

  /** A copy of the values, oldest first: safe to iterate while values are added or removed. */
  values(): T[] {
    const out: T[] = [];
    for (let entry = this.#first; entry !== undefined; entry = entry.next) out.push(entry.value);
    return out;
  }

  /** @internal Called by {@link LiveEntry.remove}, once per entry. */
  unlink(entry: LiveEntry<T>): void {
    const { prev, next } = entry;
    if (prev === undefined) this.#first = next;
    else prev.next = next;
    if (next === undefined) this.#last = prev;
    else next.prev = prev;
    entry.prev = undefined;
    entry.next = undefined;
    this.#size--;
  }
}
