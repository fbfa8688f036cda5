/** How much an in-memory store keeps before it lets its oldest entries go. */
export interface Retention {
  /** Most entries kept. */
  maxEntries: number;
  /** Most weight kept, summed over entries (bytes, events: whatever the store weighs its entries by). */
  maxWeight: number;
  /** Entries older than this many milliseconds (since they were added) go at the next write. Default: no age limit. */
  maxAgeMs?: number;
}

interface Entry<V> {
  value: V;
  weight: number;
  addedAt: number;
}

/**
 * A Map for in-memory stores that stays within a count, a total weight and an age: each write evicts the oldest
 * entries (in the order they were added) until it fits again. Entries that `canEvict` says are still in use (a run
 * with a request running, say) are passed over, and so is the entry being written; the store may then stand over its
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
    for (const [key, entry] of this.#entries) {
      const over = this.#entries.size > maxEntries || this.#weight > maxWeight;
      if (!over && entry.addedAt >= oldest) return;
      if (key === keep || !this.canEvict(entry.value, key)) continue;
      this.#entries.delete(key);
      this.#weight -= entry.weight;
      this.onEvict(entry.value, key);
    }
  }
}
