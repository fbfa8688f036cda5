// What an agent keeps between requests, whatever the protocol: records (runs, tasks, requests, steps) with revisions,
// append-only event logs with increasing ids and live following, counters, and bytes. Three implementations share this
// contract (store.case.ts): memory (bounded, lost on exit), SQLite (one file, WAL) and Redis (shared by many
// processes). Protocol packages map their own records onto it.

/** A record as stored, with its revision: 1 after the first write, one more after each. */
export interface StoredRecord<T> {
  value: T;
  rev: number;
}

/** One entry of an event log. Ids start at 1 and grow by one per append, per log. */
export interface LogEntry<T = unknown> {
  id: number;
  value: T;
}

/** An append that holds only while a record is still at a revision: what keeps a canceled run from writing on. */
export interface AppendGuard {
  collection: string;
  id: string;
  rev: number;
}

/**
 * An append that holds only while the log's last id is still `lastId` (0: the log is empty): what keeps two writers
 * from both appending an event each computed from the same state of the log (one of them reads the log again).
 */
export interface LogGuard {
  lastId: number;
}

/** Which page of a collection to list. */
export interface ListOptions {
  /** Records to skip, oldest first (default 0). */
  offset?: number;
  /** Most records to return (default: all). */
  limit?: number;
}

/**
 * The keys a record is listed by, one per index: `{ recent: '2025-01-01T…|id', … }`. Keys are compared byte by byte
 * (keep them ASCII, so every store orders them alike); give each record a distinct key in an index (end it with the
 * id) so a key can serve as a page cursor.
 */
export type IndexKeys = Readonly<Record<string, string>>;

/** A range of an index's keys: `from` included, `before` left out; either open when not given. */
export interface IndexRange {
  from?: string;
  before?: string;
  /** Most ids to answer (default: all). */
  limit?: number;
}

/** A record or an event log, as `AgentStore.expire` names what is finished. */
export type StoredItem = { collection: string; id: string } | { log: string };

/**
 * How long a durable store keeps what it was told is finished (`AgentStore.expire`) unless told otherwise: 7 days,
 * time enough for clients to read a finished run or task again, resume its stream, or page through a list.
 */
export const DEFAULT_RETAIN_FINISHED_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The JSON text of a log entry: a value with none (`undefined`, a function, a symbol) is a TypeError, as a cycle or a
 * bigint is in JSON.stringify, so every store refuses it alike instead of keeping what it cannot read back.
 */
export function entryJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined)
    throw new TypeError(`a log entry must be a JSON value; ${typeof value} has no JSON text`);
  return json;
}

/** Most finished items one sweep lets go (a log goes whole): each sweep costs a bounded amount of work. */
export const SWEEP_LIMIT = 100;

/**
 * Where an agent's state lives. Every method answers with a promise; every write is atomic (a reader never sees half
 * of one). Values are JSON: what goes in comes out equal, not identical.
 */
export interface AgentStore {
  /** `memory`, `sqlite` or `redis`. */
  readonly kind: string;
  /** A record, or undefined when there is none. */
  get<T>(collection: string, id: string): Promise<StoredRecord<T> | undefined>;
  /**
   * Writes a record and answers its new revision. With `expectRev` the write holds only if the record is still at
   * that revision (0: only if there is no record yet); otherwise nothing is written and the answer is undefined.
   */
  put<T>(
    collection: string,
    id: string,
    value: T,
    expectRev?: number,
    /** The keys the record is listed by from now on, replacing those it had (without: it keeps them). */
    index?: IndexKeys,
  ): Promise<number | undefined>;
  /**
   * Ids of a collection's records whose key in an index lies in a range, greatest key first: a page costs its own
   * size, whatever the collection holds. A record deleted (or, in memory, evicted) leaves its indexes.
   */
  listByIndex(collection: string, index: string, range?: IndexRange): Promise<string[]>;
  /** How many records of a collection have a key in an index within a range (`limit` is ignored). */
  countByIndex(collection: string, index: string, range?: IndexRange): Promise<number>;
  /** Records of a collection, oldest first (in the order they were first written). */
  list<T>(collection: string, options?: ListOptions): Promise<T[]>;
  /** How many records a collection holds. */
  count(collection: string): Promise<number>;
  /** Removes a record; removing one that is not there does nothing. */
  delete(collection: string, id: string): Promise<void>;
  /** The next value of a counter: 1, 2, 3… Every process sharing the store draws from the same sequence. */
  nextId(counter: string): Promise<number>;
  /**
   * Appends to a log and answers the entry's id (one more than the log's last). With a guard, appends only while the
   * record it names is at that revision (AppendGuard), or while the log's last id is the one it names (LogGuard);
   * otherwise nothing is written and the answer is undefined.
   */
  append<T>(log: string, value: T, guard?: AppendGuard | LogGuard): Promise<number | undefined>;
  /** A log's entries after `afterId`, oldest first, at most `limit` of them (default 1,000). */
  read<T>(log: string, afterId: number, limit?: number): Promise<LogEntry<T>[]>;
  /** The id of a log's last entry; 0 when it has none. */
  lastId(log: string): Promise<number>;
  /**
   * A log's entries after `afterId`: those stored, then each new one as it is appended (by this process or, for
   * shared stores, any other), in order, without gaps or repeats. Ends only when `signal` aborts.
   */
  follow<T>(log: string, afterId: number, signal: AbortSignal): AsyncGenerator<LogEntry<T>>;
  /** Keeps bytes under a key (replacing what was there). */
  putBlob(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes under a key, or undefined. */
  getBlob(key: string): Promise<Uint8Array | undefined>;
  /**
   * Retention: says these records and logs are finished (a run or task reached a final state), so the store deletes
   * each once its retention has passed (the store's `retainFinishedMs` option, default DEFAULT_RETAIN_FINISHED_MS).
   * Until then they read and write as before; a write does not keep them longer, another `expire` moves the deadline.
   * Every call also lets go of up to SWEEP_LIMIT items whose time has come (a sweep; durable stores sweep when opened
   * too). A deleted record leaves its indexes; a deleted log starts again at id 1. Without `expire` a durable store
   * keeps everything; a memory store is bounded by its limits whether or not anything is finished.
   */
  expire(items: readonly StoredItem[]): Promise<void>;
  /** Lets go of connections and files; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** Listens for a log's new entries: given them when it can, or told (undefined) that there may be some. */
export type LogListener<T> = (entries: LogEntry<T>[] | undefined) => void;

/**
 * The follow loop every store shares: read what is stored after the cursor, then wait for the store to say there is
 * more (pushing the entries when it has them at hand), and read again. The listener is attached before the first
 * read, so an entry appended in between is never missed; entries at or before the cursor are skipped, so none repeats.
 */
export async function* followLog<T>(
  read: (afterId: number) => Promise<LogEntry<T>[]>,
  listen: (listener: LogListener<T>, afterId: number) => () => void,
  afterId: number,
  signal: AbortSignal,
  /** Reads again after this many milliseconds even without news (for writers the store cannot hear). */
  pollMs?: number,
): AsyncGenerator<LogEntry<T>> {
  let last = afterId;
  // Entries handed over, taken from `head` on: a queue read by index, not copied per entry.
  const pushed: LogEntry<T>[] = [];
  let head = 0;
  let news = false;
  let wake: (() => void) | undefined;
  const stop = listen((entries) => {
    if (entries) pushed.push(...entries);
    news = true;
    wake?.();
  }, afterId);
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);
  try {
    while (!signal.aborted) {
      // Entries handed over that carry on exactly where the cursor is need no read; those at or before it are past.
      while (head < pushed.length && (pushed[head]?.id ?? 0) <= last) head++;
      if (head === pushed.length) {
        pushed.length = 0;
        head = 0;
      } else if (head >= 256) {
        // A follower that stays behind the writer: what it took is let go now and then, not kept until it catches up.
        pushed.splice(0, head);
        head = 0;
      }
      const next = pushed[head];
      if (next?.id === last + 1) {
        head++;
        last = next.id;
        yield next;
        continue;
      }
      news = false;
      const batch = await read(last);
      if (batch.length > 0) {
        for (const entry of batch) {
          if (entry.id <= last) continue;
          last = entry.id;
          yield entry;
          if (signal.aborted) return;
        }
        continue;
      }
      if (news || signal.aborted) continue;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (pollMs !== undefined) timer = setTimeout(resolve, pollMs);
      });
      wake = undefined;
      if (timer) clearTimeout(timer);
    }
  } finally {
    stop();
    signal.removeEventListener('abort', onAbort);
  }
}
