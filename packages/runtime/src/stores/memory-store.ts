// The in-memory AgentStore: the default, lost when the process ends, and bounded so a long-running agent cannot be made
// to hold more than its limits (MemoryStoreLimits).
import {
  type AgentStore,
  type AppendGuard,
  DEFAULT_RETAIN_FINISHED_MS,
  entryJson,
  followLog,
  type IndexKeys,
  type IndexRange,
  type ListOptions,
  type LogEntry,
  type LogGuard,
  type LogListener,
  type StoredItem,
  type StoredRecord,
  SWEEP_LIMIT,
} from './agent-store.js';
import { RetainedMap } from './retained-map.js';

/** How much a MemoryStore keeps; past a limit the oldest go first. */
export interface MemoryStoreLimits {
  /** Most records kept per collection (default 10,000). */
  maxRecords: number;
  /** Most bytes of records kept per collection, as JSON (default 64 MiB); a larger record is refused (RangeError). */
  maxRecordBytes: number;
  /** Most event logs kept (default 1,000); a log someone follows is kept past it until they stop. */
  maxLogs: number;
  /** Most entries kept per log; past it the oldest go, and ids go on growing (default 20,000). */
  maxEventsPerLog: number;
  /** Most entries kept over all logs (default 200,000). */
  maxEvents: number;
  /** Most bytes of blobs kept (default 256 MiB). */
  maxBlobBytes: number;
  /** Records, logs and blobs older than this many milliseconds go at the next write (default: a day). */
  maxAgeMs: number;
  /**
   * Finished records and logs (`expire`) go this many milliseconds after they were said to be finished, unless a
   * limit above lets them go sooner (default DEFAULT_RETAIN_FINISHED_MS, 7 days, so `maxAgeMs` comes first).
   */
  retainFinishedMs: number;
}

/** What a MemoryStore keeps unless told otherwise. */
export const DEFAULT_MEMORY_LIMITS: Readonly<MemoryStoreLimits> = Object.freeze({
  maxRecords: 10_000,
  maxRecordBytes: 64 * 1024 * 1024,
  maxLogs: 1_000,
  maxEventsPerLog: 20_000,
  maxEvents: 200_000,
  maxBlobBytes: 256 * 1024 * 1024,
  maxAgeMs: 24 * 60 * 60 * 1000,
  retainFinishedMs: DEFAULT_RETAIN_FINISHED_MS,
});

/** A record as a MemoryStore keeps it: JSON text, revision, and the keys it is listed by. */
interface MemoryRecord {
  json: string;
  rev: number;
  index?: IndexKeys;
}

/** Where `entry` is, or would go, in a sorted array. */
function bisect(sorted: string[], entry: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // sound: lo <= mid < hi <= sorted.length, so the element exists.
    if ((sorted[mid] as string) < entry) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Log {
  /** Entries as JSON text, oldest first; `first` is the id of entries[0]. */
  entries: string[];
  first: number;
  listeners: Set<LogListener<unknown>>;
}

/**
 * An AgentStore in process memory. Values are kept as JSON text, so what a caller changes after a write is not
 * changed in the store (as with the durable stores). Bounded by `MemoryStoreLimits`.
 */
export class MemoryStore implements AgentStore {
  readonly kind = 'memory';
  readonly limits: Readonly<MemoryStoreLimits>;
  readonly #collections = new Map<string, RetainedMap<string, MemoryRecord>>();
  /** Per collection, per index: `key NUL id` of every record listed there, sorted. */
  readonly #indexes = new Map<string, Map<string, string[]>>();
  readonly #logs: RetainedMap<string, Log>;
  readonly #blobs: RetainedMap<string, Uint8Array>;
  readonly #counters = new Map<string, number>();
  /** Finished items (as JSON) and when each goes, in the order they were said to be finished. */
  readonly #expiring = new Map<string, { item: StoredItem; at: number }>();
  readonly #now: () => number;

  /** `now` is the clock retention reads (tests give their own). */
  constructor(limits: Partial<MemoryStoreLimits> = {}, now: () => number = Date.now) {
    this.limits = Object.freeze({ ...DEFAULT_MEMORY_LIMITS, ...limits });
    this.#now = now;
    const { maxLogs, maxEvents, maxBlobBytes, maxAgeMs } = this.limits;
    this.#logs = new RetainedMap<string, Log>(
      { maxEntries: maxLogs, maxWeight: maxEvents, maxAgeMs },
      // A log someone is following is in use.
      (log) => log.listeners.size === 0,
    );
    this.#blobs = new RetainedMap({
      maxEntries: Number.POSITIVE_INFINITY,
      maxWeight: maxBlobBytes,
      maxAgeMs,
    });
  }

  async get<T>(collection: string, id: string): Promise<StoredRecord<T> | undefined> {
    const found = this.#collections.get(collection)?.get(id);
    // sound: the record is the JSON of a value of the caller's type T (a store gives back what it was given).
    return found && { value: JSON.parse(found.json) as T, rev: found.rev };
  }

  async put<T>(
    collection: string,
    id: string,
    value: T,
    expectRev?: number,
    index?: IndexKeys,
  ): Promise<number | undefined> {
    let records = this.#collections.get(collection);
    if (!records) {
      const { maxRecords, maxRecordBytes, maxAgeMs } = this.limits;
      records = new RetainedMap<string, MemoryRecord>(
        { maxEntries: maxRecords, maxWeight: maxRecordBytes, maxAgeMs },
        undefined,
        (record, key) => this.#unindex(collection, key, record.index),
      );
      this.#collections.set(collection, records);
    }
    const current = records.get(id);
    if (expectRev !== undefined && (current?.rev ?? 0) !== expectRev) return undefined;
    const json = JSON.stringify(value);
    // One record over the whole collection's budget would stay past it (the record being written is never evicted).
    if (json.length > this.limits.maxRecordBytes)
      throw new RangeError(
        `record ${id} of ${collection} is ${json.length} bytes as JSON, over the store's ${this.limits.maxRecordBytes}`,
      );
    const rev = (current?.rev ?? 0) + 1;
    const keys = index ?? current?.index;
    if (index) {
      this.#unindex(collection, id, current?.index);
      this.#reindex(collection, id, index);
    }
    records.set(id, { json, rev, ...(keys ? { index: keys } : {}) }, json.length);
    return rev;
  }

  async listByIndex(collection: string, index: string, range: IndexRange = {}): Promise<string[]> {
    const sorted = this.#indexes.get(collection)?.get(index) ?? [];
    const [start, end] = this.#bounds(sorted, range);
    const limit = range.limit ?? Number.POSITIVE_INFINITY;
    const out: string[] = [];
    for (let i = end - 1; i >= start && out.length < limit; i--) {
      // sound: start <= i < end <= sorted.length (#bounds), so the element exists.
      const entry = sorted[i] as string;
      out.push(entry.slice(entry.indexOf('\0') + 1));
    }
    return out;
  }

  async countByIndex(collection: string, index: string, range: IndexRange = {}): Promise<number> {
    const [start, end] = this.#bounds(this.#indexes.get(collection)?.get(index) ?? [], range);
    return Math.max(0, end - start);
  }

  /** The positions of a range in a sorted index: from `start`, up to but not including `end`. */
  #bounds(sorted: string[], range: IndexRange): [number, number] {
    return [
      range.from === undefined ? 0 : bisect(sorted, range.from),
      range.before === undefined ? sorted.length : bisect(sorted, range.before),
    ];
  }

  #reindex(collection: string, id: string, keys: IndexKeys): void {
    let indexes = this.#indexes.get(collection);
    if (!indexes) {
      indexes = new Map();
      this.#indexes.set(collection, indexes);
    }
    for (const [name, key] of Object.entries(keys)) {
      let sorted = indexes.get(name);
      if (!sorted) {
        sorted = [];
        indexes.set(name, sorted);
      }
      const entry = `${key}\0${id}`;
      sorted.splice(bisect(sorted, entry), 0, entry);
    }
  }

  #unindex(collection: string, id: string, keys: IndexKeys | undefined): void {
    const indexes = this.#indexes.get(collection);
    if (!keys || !indexes) return;
    for (const [name, key] of Object.entries(keys)) {
      const sorted = indexes.get(name);
      if (!sorted) continue;
      const entry = `${key}\0${id}`;
      const at = bisect(sorted, entry);
      if (sorted[at] === entry) sorted.splice(at, 1);
    }
  }

  async list<T>(collection: string, options: ListOptions = {}): Promise<T[]> {
    const records = this.#collections.get(collection);
    if (!records) return [];
    const start = options.offset ?? 0;
    const end = options.limit === undefined ? Number.POSITIVE_INFINITY : start + options.limit;
    const out: T[] = [];
    let index = 0;
    for (const record of records.values()) {
      if (index >= end) break;
      if (index++ >= start) out.push(JSON.parse(record.json) as T); // sound: see get
    }
    return out;
  }

  async count(collection: string): Promise<number> {
    return this.#collections.get(collection)?.size ?? 0;
  }

  async delete(collection: string, id: string): Promise<void> {
    const records = this.#collections.get(collection);
    this.#unindex(collection, id, records?.get(id)?.index);
    records?.delete(id);
  }

  async nextId(counter: string): Promise<number> {
    const next = (this.#counters.get(counter) ?? 0) + 1;
    this.#counters.set(counter, next);
    return next;
  }

  async append<T>(name: string, value: T, guard?: AppendGuard | LogGuard): Promise<number | undefined> {
    const json = entryJson(value);
    if (guard && 'lastId' in guard) {
      if (this.#lastId(name) !== guard.lastId) return undefined;
    } else if (guard && this.#collections.get(guard.collection)?.get(guard.id)?.rev !== guard.rev)
      return undefined;
    let log = this.#logs.get(name);
    if (!log) {
      log = { entries: [], first: 1, listeners: new Set() };
      this.#logs.set(name, log, 0);
    }
    log.entries.push(json);
    const id = log.first + log.entries.length - 1;
    let added = 1;
    // The oldest entries of a long log go in batches, so trimming costs little per append.
    const { maxEventsPerLog } = this.limits;
    if (log.entries.length > maxEventsPerLog + Math.ceil(maxEventsPerLog / 10)) {
      const dropped = log.entries.length - maxEventsPerLog;
      log.entries.splice(0, dropped);
      log.first += dropped;
      added -= dropped;
    }
    this.#logs.grow(name, added);
    if (log.listeners.size > 0) {
      const entry = [{ id, value: JSON.parse(json) }];
      for (const listener of log.listeners) listener(entry);
    }
    return id;
  }

  async read<T>(name: string, afterId: number, limit = 1000): Promise<LogEntry<T>[]> {
    const log = this.#logs.get(name);
    if (!log) return [];
    const start = Math.max(0, afterId + 1 - log.first);
    return log.entries.slice(start, start + limit).map((json, i) => ({
      id: log.first + start + i,
      // sound: the entry is the JSON of a value of the caller's type T, appended to this log.
      value: JSON.parse(json) as T,
    }));
  }

  async lastId(name: string): Promise<number> {
    return this.#lastId(name);
  }

  #lastId(name: string): number {
    const log = this.#logs.get(name);
    return log ? log.first + log.entries.length - 1 : 0;
  }

  follow<T>(name: string, afterId: number, signal: AbortSignal): AsyncGenerator<LogEntry<T>> {
    return followLog<T>(
      (after) => this.read<T>(name, after),
      (listener) => {
        let log = this.#logs.get(name);
        if (!log) {
          // Following a log before its first entry: it exists from now on, so the append finds the listener.
          log = { entries: [], first: 1, listeners: new Set() };
          this.#logs.set(name, log, 0);
        }
        const listeners = log.listeners;
        // sound: a log holds values of the follower's type T, and append hands each of its listeners
        // entries of this log alone.
        listeners.add(listener as LogListener<unknown>);
        return () => listeners.delete(listener as LogListener<unknown>);
      },
      afterId,
      signal,
    );
  }

  async putBlob(key: string, bytes: Uint8Array): Promise<void> {
    this.#blobs.set(key, bytes.slice(), bytes.byteLength);
  }

  async getBlob(key: string): Promise<Uint8Array | undefined> {
    return this.#blobs.get(key)?.slice();
  }

  async expire(items: readonly StoredItem[]): Promise<void> {
    const at = this.#now() + this.limits.retainFinishedMs;
    for (const item of items) {
      const key = JSON.stringify(item);
      // Deleted first, so the map stays in deadline order (every deadline is now plus the same retention).
      this.#expiring.delete(key);
      this.#expiring.set(key, { item, at });
    }
    // The schedule is bounded like the rest: past as many entries as the store keeps records and logs of one
    // collection, the earliest go now (a memory store would have let most of them go already).
    const most = this.limits.maxRecords + this.limits.maxLogs;
    const now = this.#now();
    let swept = 0;
    for (const [key, { item, at: due }] of this.#expiring) {
      if (swept >= SWEEP_LIMIT && this.#expiring.size <= most) break;
      if (due > now && this.#expiring.size <= most) break;
      this.#expiring.delete(key);
      swept++;
      if ('log' in item) this.#logs.delete(item.log);
      else await this.delete(item.collection, item.id);
    }
  }

  async close(): Promise<void> {}
}
