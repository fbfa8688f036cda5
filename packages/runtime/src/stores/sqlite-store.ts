// The SQLite AgentStore: one file, through better-sqlite3 in WAL mode. Every write is one transaction, so a process
// killed at any point leaves each record and log entry either fully written or not at all.
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
import { GroupCommit } from './group-commit.js';
import { type Checkpointer, startCheckpointer } from './sqlite-checkpointer.js';

/** Options of a SqliteStore. */
export interface SqliteStoreOptions {
  /**
   * `normal` (default): a transaction survives the process being killed; a power loss or OS crash may lose the last
   * ones. `full`: each transaction reaches the disk before the write answers, which survives those too, slower.
   * In WAL mode NORMAL syncs at checkpoints only; a commit has written its pages to the WAL file (the OS holds them)
   * before it returns, so it outlives the process, SIGKILL included, whatever the setting
   * (https://www.sqlite.org/pragma.html#pragma_synchronous).
   */
  synchronous?: 'normal' | 'full';
  /**
   * How often, in milliseconds, the store checks whether another process wrote to the same file, while someone
   * follows a log (default 100): one cheap query, whatever the number of followers. Entries this process appends
   * reach its followers at once.
   */
  pollMs?: number;
  /**
   * How long finished records and logs (`expire`) are kept, in milliseconds (default DEFAULT_RETAIN_FINISHED_MS,
   * 7 days). They go at the first sweep after that: every `expire` call sweeps, and so does opening the store.
   */
  retainFinishedMs?: number;
  /** The clock retention reads (default Date.now; tests give their own). */
  now?: () => number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  collection TEXT NOT NULL, id TEXT NOT NULL, rev INTEGER NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (collection, id));
CREATE TABLE IF NOT EXISTS record_index (
  collection TEXT NOT NULL, name TEXT NOT NULL, key TEXT NOT NULL, id TEXT NOT NULL,
  PRIMARY KEY (collection, name, key, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS record_index_by_id ON record_index (collection, id);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS logs (num INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS entries (log INTEGER NOT NULL, id INTEGER NOT NULL, value TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS entries_by_id ON entries (log, id);
CREATE TABLE IF NOT EXISTS blobs (key TEXT PRIMARY KEY, bytes BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS expiring (
  kind TEXT NOT NULL, name TEXT NOT NULL, id TEXT NOT NULL, at INTEGER NOT NULL,
  PRIMARY KEY (kind, name, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS expiring_by_time ON expiring (at);
`;
// Log entries sit in the order they were appended (rowid), found by the (log, id) index: entries of many logs appended
// at once land together at the table's end, so a group commit writes a few table pages and small index entries. A log
// is named in them by its number (`logs`), not its name: an index entry of two small integers instead of a name of
// tens of bytes packs several times more entries in a page, so the 100 insertion points of 100 runs appending at once
// fall in fewer pages (a commit of 100 runs appending at once wrote 69 WAL pages, now 46). Earlier layouts are
// moved over when a file is opened (MIGRATIONS): `events`, keyed by (log name, id), which wrote one page per log per
// commit (100 runs at once were 2–3× slower), then `log_entries`, this layout with log names.
//
// Retention (AgentStore.expire): a row of `expiring` per finished item, with the time (ms since the epoch) it goes at;
// kind 'record' names a record by collection (`name`) and id, kind 'log' a log by `name` (id ''). A separate
// table, so a file written before retention existed opens unchanged.

// Moves the entries of a file in an earlier layout (a table of them by log name) into `logs` and `entries`, in one
// transaction on open: each table of those the file has, oldest first, in the order its entries were written.
const MIGRATIONS: ReadonlyArray<[table: string, order: string]> = [
  ['events', 'old.log, old.id'],
  ['log_entries', 'old.rowid'],
];
const migrate = (table: string, order: string) => `
INSERT OR IGNORE INTO logs (name) SELECT DISTINCT log FROM ${table};
INSERT INTO entries (log, id, value)
  SELECT logs.num, old.id, old.value FROM ${table} AS old JOIN logs ON logs.name = old.log ORDER BY ${order};
DROP TABLE ${table};
`;

// The part of better-sqlite3 this store uses, written out so that our declarations need neither it nor its types.
interface Statement<R> {
  get(...params: unknown[]): R | undefined;
  all(...params: unknown[]): R[];
  run(...params: unknown[]): unknown;
}
interface Transaction<A extends unknown[], R> {
  (...args: A): R;
  immediate(...args: A): R;
}
/** An open better-sqlite3 database, as far as a SqliteStore needs one. */
export interface SqliteDatabase {
  readonly open: boolean;
  /** The file's path, as it was opened. */
  readonly name: string;
  /** Whether the database lives in memory (no file). */
  readonly memory: boolean;
  prepare<R = unknown>(sql: string): Statement<R>;
  pragma(sql: string, options?: { simple: boolean }): unknown;
  exec(sql: string): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): Transaction<A, R>;
  close(): unknown;
}

/** Opens (creating when needed) a SQLite store at a file path; `:memory:` makes a private in-memory database. */
export async function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
  let Database: new (path: string) => SqliteDatabase;
  try {
    const driver = 'better-sqlite3';
    Database = (await import(driver)).default;
  } catch {
    throw new Error(
      'the SQLite store needs the better-sqlite3 package: npm install better-sqlite3 (it builds with node-gyp)',
    );
  }
  return new SqliteStore(new Database(path), options);
}

/**
 * An AgentStore in one SQLite file. Records keep their revision beside them; log entries are rows found by (log, id);
 * a guarded append reads the guard and writes the entry in one transaction. Appends that arrive while a batch is being
 * answered (many runs streaming at once) share the next transaction — a group commit — and each is answered once it
 * is committed with the store's `synchronous` setting, so an answered append survives the process being killed, as
 * one written alone does. Inside a batch each guard is checked against the store as the appends before it left it.
 */
export class SqliteStore implements AgentStore {
  readonly kind = 'sqlite';
  readonly #db: SqliteDatabase;
  readonly #listeners = new Map<string, Set<LogListener<unknown>>>();
  readonly #pollMs: number;
  readonly #sql;
  readonly #putTx;
  readonly #nextTx;
  readonly #deleteTx;
  readonly #expireTx;
  readonly #retainMs: number;
  readonly #now: () => number;
  /** Appends, committed in groups (group-commit.ts), in the order they were made. */
  readonly #appends: GroupCommit<PendingAppend, number | undefined>;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #dataVersion = 0;
  /** Checkpoints the WAL off the event loop (sqlite-checkpointer.ts); none for a database in memory. */
  readonly #checkpointer: Checkpointer | undefined;
  /** The number and last id of each log this connection appended to, as it committed them (see appendTx). */
  readonly #lastIds = new Map<string, KeptLog>();
  /** `data_version` when #lastIds was last known to hold; another connection's commit changes it. */
  #appendVersion: number | undefined;

  constructor(db: SqliteDatabase, options: SqliteStoreOptions = {}) {
    this.#db = db;
    this.#pollMs = options.pollMs ?? 100;
    this.#retainMs = options.retainFinishedMs ?? DEFAULT_RETAIN_FINISHED_MS;
    this.#now = options.now ?? Date.now;
    const journal = db.pragma('journal_mode = WAL', { simple: true });
    db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    // A checkpoint (copying the WAL into the database) syncs the file (with `synchronous` NORMAL or FULL); at SQLite's
    // default (every 1,000 pages) those syncs, not the commits, bounded many runs appending at once. A worker thread
    // checkpoints instead (sqlite-checkpointer.ts); this connection does too only past 10,000 pages (about 40 MB of
    // WAL) that the worker has not taken, and the WAL file is cut back to 64 MB after one.
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    // Another process holding the write lock makes a write wait for it (up to 5 s), not fail.
    db.pragma('busy_timeout = 5000');
    db.exec(SCHEMA);
    this.#checkpointer = journal === 'wal' && !db.memory ? startCheckpointer(db.name) : undefined;
    db.transaction(() => {
      const tables = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
      for (const [table, order] of MIGRATIONS) if (tables.get(table)) db.exec(migrate(table, order));
    }).immediate();
    this.#sql = {
      get: db.prepare<{ value: string; rev: number }>(
        'SELECT value, rev FROM records WHERE collection = ? AND id = ?',
      ),
      rev: db.prepare<{ rev: number }>('SELECT rev FROM records WHERE collection = ? AND id = ?'),
      upsert: db.prepare(
        `INSERT INTO records (collection, id, rev, value) VALUES (?, ?, 1, ?)
         ON CONFLICT (collection, id) DO UPDATE SET rev = rev + 1, value = excluded.value`,
      ),
      list: db.prepare<{ value: string }>(
        'SELECT value FROM records WHERE collection = ? ORDER BY rowid LIMIT ? OFFSET ?',
      ),
      count: db.prepare<{ n: number }>('SELECT count(*) AS n FROM records WHERE collection = ?'),
      delete: db.prepare('DELETE FROM records WHERE collection = ? AND id = ?'),
      unindex: db.prepare('DELETE FROM record_index WHERE collection = ? AND id = ?'),
      index: db.prepare('INSERT OR IGNORE INTO record_index (collection, name, key, id) VALUES (?, ?, ?, ?)'),
      // Open ends are bounds below and above every key (bounds()), so one statement serves every range.
      byIndex: db.prepare<{ id: string }>(
        `SELECT id FROM record_index WHERE collection = ? AND name = ? AND key >= ? AND key < ?
         ORDER BY key DESC, id DESC LIMIT ?`,
      ),
      countByIndex: db.prepare<{ n: number }>(
        'SELECT count(*) AS n FROM record_index WHERE collection = ? AND name = ? AND key >= ? AND key < ?',
      ),
      counter: db.prepare<{ value: number }>(
        `INSERT INTO counters (name, value) VALUES (?, 1)
         ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value`,
      ),
      lastId: db.prepare<{ id: number | null }>(
        `SELECT max(id) AS id FROM entries WHERE log = (SELECT num FROM logs WHERE name = ?)`,
      ),
      logNum: db.prepare<{ num: number }>('SELECT num FROM logs WHERE name = ?'),
      newLog: db.prepare<{ num: number }>('INSERT INTO logs (name) VALUES (?) RETURNING num'),
      lastIdOf: db.prepare<{ id: number | null }>('SELECT max(id) AS id FROM entries WHERE log = ?'),
      read: db.prepare<{ id: number; value: string }>(
        `SELECT id, value FROM entries WHERE log = (SELECT num FROM logs WHERE name = ?) AND id > ?
         ORDER BY id LIMIT ?`,
      ),
      putBlob: db.prepare('INSERT OR REPLACE INTO blobs (key, bytes) VALUES (?, ?)'),
      getBlob: db.prepare<{ bytes: Uint8Array }>('SELECT bytes FROM blobs WHERE key = ?'),
      expire: db.prepare('INSERT OR REPLACE INTO expiring (kind, name, id, at) VALUES (?, ?, ?, ?)'),
      due: db.prepare<{ kind: string; name: string; id: string }>(
        'SELECT kind, name, id FROM expiring WHERE at <= ? ORDER BY at LIMIT ?',
      ),
      expired: db.prepare('DELETE FROM expiring WHERE kind = ? AND name = ? AND id = ?'),
      deleteLog: db.prepare('DELETE FROM entries WHERE log = (SELECT num FROM logs WHERE name = ?)'),
      forgetLog: db.prepare('DELETE FROM logs WHERE name = ?'),
      dataVersion: db.prepare<{ data_version: number }>('PRAGMA data_version'),
    };
    const sql = this.#sql;
    this.#putTx = db.transaction(
      (collection: string, id: string, json: string, expectRev?: number, index?: IndexKeys) => {
        const current = sql.rev.get(collection, id)?.rev ?? 0;
        if (expectRev !== undefined && current !== expectRev) return undefined;
        sql.upsert.run(collection, id, json);
        if (index) {
          sql.unindex.run(collection, id);
          for (const [name, key] of Object.entries(index)) sql.index.run(collection, name, key, id);
        }
        return current + 1;
      },
    );
    this.#deleteTx = db.transaction((collection: string, id: string) => {
      sql.delete.run(collection, id);
      sql.unindex.run(collection, id);
    });
    // Marks the items, then lets go of what is due (SWEEP_LIMIT at most), all in one transaction; answers whether a
    // log went.
    this.#expireTx = db.transaction((items: readonly StoredItem[], at: number, now: number) => {
      for (const item of items)
        if ('log' in item) sql.expire.run('log', item.log, '', at);
        else sql.expire.run('record', item.collection, item.id, at);
      let logsDeleted = false;
      for (const { kind, name, id } of sql.due.all(now, SWEEP_LIMIT)) {
        if (kind === 'log') {
          sql.deleteLog.run(name);
          sql.forgetLog.run(name);
          logsDeleted = true;
        } else {
          sql.delete.run(name, id);
          sql.unindex.run(name, id);
        }
        sql.expired.run(kind, name, id);
      }
      return logsDeleted;
    });
    // Each append's id is its log's last id plus one. The numbers and last ids of the logs this connection wrote are
    // kept (#lastIds), so an append of a group reads none: they hold while no other connection has committed, which
    // `data_version` tells (it changes only for commits of other connections), read once per group under the write
    // lock. A log gets its number (a row of `logs`) with its first entry. The entries of a group go in a few
    // statements of up to INSERT_ROWS rows each, not one statement per entry. OR FAIL: a statement of many rows that
    // could be undone alone (OR ABORT, the default) keeps a statement journal, which past 64 KiB SQLite spills to a
    // temporary file, written on every group; a conflict cannot happen here (ids are picked under the write lock) and
    // would fail the whole transaction anyway.
    const lastIds = this.#lastIds;
    const inserts = new Map<number, Statement<unknown>>();
    const insertRows = (values: readonly unknown[], from: number, rows: number) => {
      let insert = inserts.get(rows);
      if (!insert) {
        const row = '(?, ?, ?)';
        insert = db.prepare(
          `INSERT OR FAIL INTO entries (log, id, value) VALUES ${`${row}, `.repeat(rows - 1)}${row}`,
        );
        inserts.set(rows, insert);
      }
      insert.run(...values.slice(from * 3, (from + rows) * 3));
    };
    const stored = (log: string): KeptLog => {
      const num = sql.logNum.get(log)?.num;
      return { num, last: num === undefined ? 0 : (sql.lastIdOf.get(num)?.id ?? 0) };
    };
    const appendTx = db.transaction((batch: readonly PendingAppend[], written: Map<string, KeptLog>) => {
      const version = sql.dataVersion.get()?.data_version;
      if (version !== this.#appendVersion) {
        lastIds.clear();
        this.#appendVersion = version;
      }
      // (log number, id, JSON) of each entry to insert, in the order of the batch.
      const values: Array<number | string> = [];
      const ids = batch.map(({ log, json, guard }) => {
        const kept = written.get(log) ?? lastIds.get(log) ?? stored(log);
        if (guard && 'lastId' in guard) {
          if (kept.last !== guard.lastId) return undefined;
        } else if (guard && sql.rev.get(guard.collection, guard.id)?.rev !== guard.rev) return undefined;
        // sound: an insert with RETURNING gives back the row it wrote, every time.
        const num = kept.num ?? (sql.newLog.get(log) as { num: number }).num;
        const id = kept.last + 1;
        values.push(num, id, json);
        written.set(log, { num, last: id });
        return id;
      });
      const rows = values.length / 3;
      for (let from = 0; from < rows; from += INSERT_ROWS)
        insertRows(values, from, Math.min(INSERT_ROWS, rows - from));
      return ids;
    });
    // IMMEDIATE: the write lock is taken before the last id is read, so two processes never pick the same id.
    // A failed commit fails every append of its batch (none is kept), and the ids it would have written are not kept.
    this.#appends = new GroupCommit((batch: readonly PendingAppend[]) => {
      const written = new Map<string, KeptLog>();
      const ids = appendTx.immediate(batch, written);
      this.#checkpointer?.committed(batch.length);
      if (lastIds.size + written.size > MAX_KEPT_LAST_IDS) lastIds.clear();
      for (const [log, kept] of written) lastIds.set(log, kept);
      // Followers in this process hear of each entry once it is committed, before its append is answered (as the
      // memory store tells them before its append returns); a batch with no follower costs one check.
      if (this.#listeners.size > 0) this.#tell(batch, ids);
      return ids;
    });
    // sound: an upsert with RETURNING gives back the row it wrote, every time.
    this.#nextTx = (counter: string) => (sql.counter.get(counter) as { value: number }).value;
    // Opening sweeps: what came due while no process had the file open goes now.
    this.#expireTx.immediate([], 0, this.#now());
  }

  async get<T>(collection: string, id: string): Promise<StoredRecord<T> | undefined> {
    const row = this.#sql.get.get(collection, id);
    // sound: the record is the JSON of a value of the caller's type T (a store gives back what it was given).
    return row && { value: JSON.parse(row.value) as T, rev: row.rev };
  }

  async put<T>(
    collection: string,
    id: string,
    value: T,
    expectRev?: number,
    index?: IndexKeys,
  ): Promise<number | undefined> {
    const rev = this.#putTx.immediate(collection, id, JSON.stringify(value), expectRev, index);
    this.#checkpointer?.committed(1);
    return rev;
  }

  async listByIndex(collection: string, index: string, range: IndexRange = {}): Promise<string[]> {
    return this.#sql.byIndex.all(collection, index, ...bounds(range), range.limit ?? -1).map((row) => row.id);
  }

  async countByIndex(collection: string, index: string, range: IndexRange = {}): Promise<number> {
    return this.#sql.countByIndex.get(collection, index, ...bounds(range))?.n ?? 0;
  }

  async list<T>(collection: string, options: ListOptions = {}): Promise<T[]> {
    return this.#sql.list
      .all(collection, options.limit ?? -1, options.offset ?? 0)
      .map((row) => JSON.parse(row.value) as T); // sound: see get
  }

  async count(collection: string): Promise<number> {
    return this.#sql.count.get(collection)?.n ?? 0;
  }

  async delete(collection: string, id: string): Promise<void> {
    this.#deleteTx.immediate(collection, id);
  }

  async nextId(counter: string): Promise<number> {
    return this.#nextTx(counter);
  }

  append<T>(log: string, value: T, guard?: AppendGuard | LogGuard): Promise<number | undefined> {
    // Not an async function: the group commit's promise is the answer (one promise per append, not two). A value
    // JSON cannot write is still refused as a rejection.
    let json: string;
    try {
      json = entryJson(value);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#appends.add({ log, json, guard });
  }

  /** Hands each committed entry of a batch (its id, else undefined: its guard did not hold) to its log's followers. */
  #tell(batch: readonly PendingAppend[], ids: ReadonlyArray<number | undefined>): void {
    for (const [i, { log, json }] of batch.entries()) {
      const id = ids[i];
      const listeners = this.#listeners.get(log);
      if (id === undefined || !listeners) continue;
      const entry = [{ id, value: JSON.parse(json) }];
      for (const listener of listeners) listener(entry);
    }
  }

  async expire(items: readonly StoredItem[]): Promise<void> {
    const now = this.#now();
    // A log the sweep deleted starts again from id 0: the kept last ids are read again from the file.
    if (this.#expireTx.immediate(items, now + this.#retainMs, now)) this.#lastIds.clear();
  }

  async read<T>(log: string, afterId: number, limit = 1000): Promise<LogEntry<T>[]> {
    return (
      this.#sql.read
        .all(log, afterId, limit)
        // sound: the entry is the JSON of a value of the caller's type T, appended to this log.
        .map((row) => ({ id: row.id, value: JSON.parse(row.value) as T }))
    );
  }

  async lastId(log: string): Promise<number> {
    return this.#sql.lastId.get(log)?.id ?? 0;
  }

  follow<T>(log: string, afterId: number, signal: AbortSignal): AsyncGenerator<LogEntry<T>> {
    return followLog<T>(
      (after) => this.read<T>(log, after),
      (listener) => {
        let set = this.#listeners.get(log);
        if (!set) {
          set = new Set();
          this.#listeners.set(log, set);
        }
        const listeners = set;
        // sound: a log holds values of the follower's type T, and append hands each of its listeners
        // entries of this log alone (here and in the callback below).
        listeners.add(listener as LogListener<unknown>);
        this.#watchOthers();
        return () => {
          listeners.delete(listener as LogListener<unknown>); // sound: the listener added above
          if (listeners.size === 0) this.#listeners.delete(log);
        };
      },
      afterId,
      signal,
    );
  }

  /**
   * While anyone follows, asks SQLite now and then whether another connection committed (`data_version` changes
   * only then) and, if so, tells every follower to read again.
   */
  #watchOthers(): void {
    if (this.#ticker) return;
    // sound: `data_version` is an integer pragma, and `simple` answers its one value.
    this.#dataVersion = this.#db.pragma('data_version', { simple: true }) as number;
    this.#ticker = setInterval(() => {
      if (this.#listeners.size === 0 || !this.#db.open) {
        clearInterval(this.#ticker);
        this.#ticker = undefined;
        return;
      }
      const version = this.#db.pragma('data_version', { simple: true }) as number; // sound: see above
      if (version === this.#dataVersion) return;
      this.#dataVersion = version;
      for (const listeners of this.#listeners.values()) for (const listener of listeners) listener(undefined);
    }, this.#pollMs);
    this.#ticker.unref();
  }

  async putBlob(key: string, bytes: Uint8Array): Promise<void> {
    this.#sql.putBlob.run(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  async getBlob(key: string): Promise<Uint8Array | undefined> {
    const row = this.#sql.getBlob.get(key);
    return row ? new Uint8Array(row.bytes) : undefined;
  }

  async close(): Promise<void> {
    // Appends asked for before the close are written (or fail) first.
    await this.#appends.settled();
    clearInterval(this.#ticker);
    this.#ticker = undefined;
    await this.#checkpointer?.stop();
    if (this.#db.open) this.#db.close();
  }
}

/** Most last ids a store keeps (about 100 bytes each); past it they are forgotten and read again from the file. */
const MAX_KEPT_LAST_IDS = 10_000;

/**
 * Most entries one INSERT statement writes (three parameters each, well under SQLite's limit of 32,766); a statement
 * is prepared, once, for each number of rows up to it.
 */
const INSERT_ROWS = 100;

/** A log's number (none before its first entry) and last id, as this connection knows them. */
interface KeptLog {
  num: number | undefined;
  last: number;
}

/** An append waiting for the next group commit. */
interface PendingAppend {
  log: string;
  json: string;
  guard: AppendGuard | LogGuard | undefined;
}

/** An index range as SQL bounds: '' is below every key, and a blob above every text (SQLite orders text before blobs). */
function bounds(range: IndexRange): [string, string | Buffer] {
  return [range.from ?? '', range.before ?? Buffer.from([0xff])];
}
