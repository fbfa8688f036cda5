import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, StoreSpecError } from './open-store.js';
import { openSqliteStore, type SqliteStore } from './sqlite-store.js';
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

describe('open store > specs', () => {
  it.each([
    ['empty', '', 'memory'],
    ['memory', 'memory', 'memory'],
    ['sqlite in memory', 'sqlite::memory:', 'sqlite'],
  ])('%s', async (_name, spec, kind) => {
    const store = await openStore(spec);
    expect(store.kind).toBe(kind);
    await store.close();
  });

  it.each([
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
