/** How much an in-memory store keeps before it lets its oldest entries go. */
export interface Retention {
  /** Most entries kept. */
  maxEntries: number;
  /** Most weight kept, summed over entries (bytes, events: whatever the store weighs its entries by). */
  maxWeight: number;
  /** Entries older than this many milliseconds (since they were added) go at the next write. Default: no age limit. */
  maxAgeMs?: number;
}

/**
 * Most entries in use a write looks at (and moves to the back) before it stops: a map held over its limits by entries in
 * use costs a bounded amount per write, and may stand over its count by up to one entry per this many in use until the
 * rotation reaches entries it can evict.
 */
const BUSY_PER_WRITE = 16;

interface Entry<V> {
  value: V;
  weight: number;
  addedAt: number;
}

/**
 * A Map for in-memory stores that stays within a count, a total weight and an age: each write evicts the oldest
 * entries (in the order they were added) until it fits again. Entries that `canEvict` says are still in use (a run
 * with a request running, say) are passed over, and moved behind the others as if added at that moment (at most
 * BUSY_PER_WRITE per write); so is the entry being written (it stays where it is). The store may then stand over its
 * limits until they are done, which is the bounded alternative to dropping work in progress.
 */
export class RetainedMap<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
  #weight = 0;

  constructor(
    readonly retention: Retention,
    private readonly canEvict: (value: V, key: K) => boolean = () => true,
    private readonly onEvict: (value: V, key: K) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The summed weight of every entry. */
  get weight(): number {
    return this.#weight;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Adds or replaces an entry with its weight, then evicts what no longer fits. */
  set(key: K, value: V, weight = 1): this {
    const old = this.#entries.get(key);
    if (old) {
      this.#weight += weight - old.weight;
      old.value = value;
      old.weight = weight;
    } else {
      this.#entries.set(key, { value, weight, addedAt: this.now() });
      this.#weight += weight;
    }
    this.#evict(key);
    return this;
  }

  /** Adds to an entry's weight (it grew: a new event, a new step), then evicts what no longer fits. */
  grow(key: K, by: number): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.weight += by;
    this.#weight += by;
    this.#evict(key);
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
    return true;
  }

  /** Values, oldest first. */
  *values(): IterableIterator<V> {
    for (const entry of this.#entries.values()) yield entry.value;
  }

  #evict(keep: K): void {
    const { maxEntries, maxWeight, maxAgeMs } = this.retention;
    const oldest = maxAgeMs === undefined ? -Infinity : this.now() - maxAgeMs;
    /** Entries passed over because they are in use. */
    const busy: [K, Entry<V>][] = [];
    for (const [key, entry] of this.#entries) {
      const over = this.#entries.size > maxEntries || this.#weight > maxWeight;
      if (!over && entry.addedAt >= oldest) break;
      if (key === keep) continue;
      if (!this.canEvict(entry.value, key)) {
        busy.push([key, entry]);
        if (busy.length >= BUSY_PER_WRITE) break;
        continue;
      }
      this.#entries.delete(key);
      this.#weight -= entry.weight;
      this.onEvict(entry.value, key);
    }
    // An entry found in use goes to the back, as if added now: the next write starts from entries it may evict rather
    // than passing the same busy ones again (a store held over its limits by many logs someone follows would otherwise
    // ask about every one of them on each write). Its age counts from now, which keeps the entries in the order of
    // `addedAt`.
    if (busy.length === 0) return;
    const now = this.now();
    for (const [key, entry] of busy) {
      this.#entries.delete(key);
      entry.addedAt = now;
      this.#entries.set(key, entry);
    }
  }
}
