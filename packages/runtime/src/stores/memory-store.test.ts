import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memory-store.js';
import { describeAgentStore } from './store.case.js';

describeAgentStore('memory', {
  open: async () => new MemoryStore(),
  openRetaining: async (retainFinishedMs, now) => new MemoryStore({ retainFinishedMs }, now),
});

describe('memory store > limits', () => {
  it('records > past the count per collection the oldest go', async () => {
    const store = new MemoryStore({ maxRecords: 3 });
    for (let i = 1; i <= 5; i++) await store.put('tasks', `t${i}`, { i });
    expect(await store.count('tasks')).toBe(3);
    expect(await store.get('tasks', 't1')).toBeUndefined();
    expect((await store.list<{ i: number }>('tasks')).map((t) => t.i)).toEqual([3, 4, 5]);
  });

  it('indexes > a record evicted past the count leaves its indexes', async () => {
    const store = new MemoryStore({ maxRecords: 2 });
    for (const id of ['a', 'b', 'c']) await store.put('tasks', id, { id }, undefined, { recent: id });
    expect(await store.listByIndex('tasks', 'recent')).toEqual(['c', 'b']);
    expect(await store.countByIndex('tasks', 'recent')).toBe(2);
  });

  it('records > one record over the byte limit is refused, and the one before it is kept', async () => {
    const store = new MemoryStore({ maxRecordBytes: 100 });
    expect(await store.put('tasks', 't', { fits: 'x'.repeat(50) })).toBe(1);
    await expect(store.put('tasks', 't', { over: 'x'.repeat(100) })).rejects.toThrow(
      /record t of tasks is 111 bytes as JSON, over the store's 100/,
    );
    expect(await store.get('tasks', 't')).toEqual({ value: { fits: 'x'.repeat(50) }, rev: 1 });
  });

  it('logs > a long log keeps its newest entries and its ids go on growing', async () => {
    const store = new MemoryStore({ maxEventsPerLog: 10 });
    for (let i = 1; i <= 100; i++) await store.append('long', i);
    const kept = await store.read<number>('long', 0);
    expect(kept.length).toBeLessThanOrEqual(11);
    expect(kept.at(-1)).toEqual({ id: 100, value: 100 });
    expect(await store.append('long', 101)).toBe(101);
  });

  it('logs > past the count of logs the oldest go, but never one someone follows', async () => {
    const store = new MemoryStore({ maxLogs: 2 });
    const abort = new AbortController();
    await store.append('followed', 'x');
    const following = store.follow('followed', 0, abort.signal);
    await following.next();
    await store.append('second', 'y');
    await store.append('third', 'z');
    await store.append('fourth', 'w');
    expect(await store.lastId('followed')).toBe(1);
    expect(await store.lastId('second')).toBe(0);
    abort.abort();
    await following.return(undefined);
  });

  it('blobs > past the byte limit the oldest go', async () => {
    const store = new MemoryStore({ maxBlobBytes: 10 });
    await store.putBlob('a', new Uint8Array(6));
    await store.putBlob('b', new Uint8Array(6));
    expect(await store.getBlob('a')).toBeUndefined();
    expect(await store.getBlob('b')).toEqual(new Uint8Array(6));
  });
});
