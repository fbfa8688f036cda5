import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryStore } from './memory-store.js';
import { openStore, StoreSpecError } from './open-store.js';
import { CHECKPOINT_EVERY_WRITES, type CheckpointResult, startCheckpointer } from './sqlite-checkpointer.js';
import { openSqliteStore, type SqliteDatabase, type SqliteStore } from './sqlite-store.js';
import { describeAgentStore } from './store.case.js';

const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const paths = new WeakMap<object, string>();

describeAgentStore('sqlite', {
  async open() {
    const file = path.join(dir, `store-${++files}.db`);
    const store = await openSqliteStore(file, { pollMs: 10 });
    paths.set(store, file);
    return store;
  },
  async openRetaining(retainFinishedMs, now) {
    return openSqliteStore(path.join(dir, `store-${++files}.db`), { retainFinishedMs, now });
  },
  // A second connection to the same file: what a second process opens.
  async openSame(store) {
    // sound: the suite gives openSame only stores that open made, and open records each one's file.
    return openSqliteStore(paths.get(store) as string, { pollMs: 10 });
  },
});

describe('sqlite store > durability', () => {
  it('a store closed and opened again on its file has every record, entry, counter and blob', async () => {
    const file = path.join(dir, 'reopen.db');
    const first: SqliteStore = await openSqliteStore(file);
    await first.put('runs', 'r', { kept: true });
    await first.append('log', 'one');
    await first.nextId('runs');
    await first.putBlob('b', new Uint8Array([1]));
    await first.close();
    const again = await openStore(`sqlite:${file}`);
    expect(again.kind).toBe('sqlite');
    expect(await again.get('runs', 'r')).toEqual({ value: { kept: true }, rev: 1 });
    expect(await again.append('log', 'two')).toBe(2);
    expect(await again.nextId('runs')).toBe(2);
    expect(await again.getBlob('b')).toEqual(new Uint8Array([1]));
    await again.close();
  });
});

describe('sqlite store > layout', () => {
  it('a file with log entries in the first layout (an events table) opens with every entry, and goes on from it', async () => {
    const file = path.join(dir, 'first-layout.db');
    const driver = 'better-sqlite3';
    const Database: new (file: string) => SqliteDatabase = (await import(driver)).default;
    const old = new Database(file);
    old.exec(`CREATE TABLE events (log TEXT NOT NULL, id INTEGER NOT NULL, value TEXT NOT NULL,
      PRIMARY KEY (log, id)) WITHOUT ROWID;
      INSERT INTO events VALUES ('a', 1, '"one"'), ('a', 2, '"two"'), ('b', 1, '{"n":1}');`);
    old.close();
    const store = await openSqliteStore(file);
    expect(await store.read('a', 0)).toEqual([
      { id: 1, value: 'one' },
      { id: 2, value: 'two' },
    ]);
    expect(await store.append('b', { n: 2 })).toBe(2);
    expect(await store.read('b', 0)).toEqual([
      { id: 1, value: { n: 1 } },
      { id: 2, value: { n: 2 } },
    ]);
    await store.close();
  });

  it('a file with log entries by log name (a log_entries table) opens with every entry, and goes on from it', async () => {
    const file = path.join(dir, 'named-layout.db');
    const driver = 'better-sqlite3';
    const Database: new (file: string) => SqliteDatabase = (await import(driver)).default;
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    // The tables of that layout as it wrote them, entries of two logs interleaved, and one log due to go.
    old.exec(`CREATE TABLE log_entries (log TEXT NOT NULL, id INTEGER NOT NULL, value TEXT NOT NULL);
      CREATE UNIQUE INDEX log_entries_by_id ON log_entries (log, id);
      CREATE TABLE expiring (kind TEXT NOT NULL, name TEXT NOT NULL, id TEXT NOT NULL, at INTEGER NOT NULL,
        PRIMARY KEY (kind, name, id)) WITHOUT ROWID;
      INSERT INTO log_entries VALUES ('run/1', 1, '"one"'), ('run 2', 1, '{"n":1}'), ('run/1', 2, '"two"'),
        ('run 2', 2, '{"n":2}'), ('gone', 1, 'true');
      INSERT INTO expiring VALUES ('log', 'gone', '', 1000);`);
    old.close();
    const store = await openSqliteStore(file, { now: () => 2000 });
    expect(await store.read('run/1', 0)).toEqual([
      { id: 1, value: 'one' },
      { id: 2, value: 'two' },
    ]);
    expect(await store.read('run 2', 1)).toEqual([{ id: 2, value: { n: 2 } }]);
    expect(await store.lastId('run 2')).toBe(2);
    expect(await store.append('run/1', 'three')).toBe(3);
    expect(await store.append('run 2', { n: 3 }, { lastId: 2 })).toBe(3);
    expect(await store.read('run/1', 2)).toEqual([{ id: 3, value: 'three' }]);
    // Opening swept the log that was due, by its name.
    expect(await store.read('gone', 0)).toEqual([]);
    await store.close();
    const check = new Database(file);
    const tables = check
      .prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all();
    check.close();
    expect(tables.map((t) => t.name)).not.toContain('log_entries');
  });
});

describe('sqlite store > checkpoints', () => {
  it('a worker copies the committed WAL into the file once enough writes are counted, while the writer goes on', async () => {
    const file = path.join(dir, 'checkpointed.db');
    const driver = 'better-sqlite3';
    const Database: new (file: string) => SqliteDatabase = (await import(driver)).default;
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    // No checkpoint of the writer's own: whatever is copied, the worker copied.
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (n INTEGER)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    let first: (result: CheckpointResult) => void = () => {};
    const checkpointed = new Promise<CheckpointResult>((resolve) => {
      first = resolve;
    });
    const checkpointer = startCheckpointer(file, (result) => first(result));
    if (!checkpointer) throw new Error('better-sqlite3 is a dev dependency of the runtime');
    for (let n = 0; n < 8; n++) {
      insert.run(n);
      checkpointer.committed(1);
    }
    // Enough writes counted: the worker starts and checkpoints.
    checkpointer.committed(CHECKPOINT_EVERY_WRITES - 8);
    const result = await checkpointed;
    expect(result.log).toBeGreaterThan(0);
    expect(result.checkpointed).toBe(result.log);
    insert.run(-1);
    await checkpointer.stop();
    db.close();
  });
});

describe('open store > specs', () => {
  it.each([
    ['empty', '', 'memory'],
    ['memory', 'memory', 'memory'],
    ['sqlite in memory', 'sqlite::memory:', 'sqlite'],
    ['sqlite with a retention', 'sqlite::memory:?retain=12h', 'sqlite'],
  ])('%s', async (_name, spec, kind) => {
    const store = await openStore(spec);
    expect(store.kind).toBe(kind);
    await store.close();
  });

  it('retention > ?retain= sets how long finished items are kept', async () => {
    const store = await openStore('memory?retain=2h');
    expect(store instanceof MemoryStore && store.limits.retainFinishedMs).toBe(2 * 3_600_000);
  });

  it.each([
    [
      'a retention that is no duration',
      'sqlite::memory:?retain=soon',
      /retain must be a duration such as 7d/,
    ],
    ['an unknown kind', 'postgres://x', /names no store; use memory \| sqlite:<file>/],
    ['sqlite without a path', 'sqlite:', /sqlite: needs a file path/],
    [
      'a directory that does not exist',
      'sqlite:/no/such/dir/x.db',
      /cannot open the store "sqlite:\/no\/such\/dir\/x.db"/,
    ],
    [
      'a Redis server that is not there',
      'redis://127.0.0.1:1',
      /cannot open the store "redis:\/\/127.0.0.1:1": cannot reach Redis/,
    ],
  ])('refused > %s', async (_name, spec, message) => {
    await expect(openStore(spec)).rejects.toThrow(StoreSpecError);
    await expect(openStore(spec)).rejects.toThrow(message);
  });
});
