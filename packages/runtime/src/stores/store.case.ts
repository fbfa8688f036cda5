// The contract every AgentStore keeps, as one suite run against each implementation (memory-store.test.ts,
// sqlite-store.test.ts, and the Redis one in the second test stage): the same cases, whatever holds the data.
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentStore, LogEntry } from './agent-store.js';

/** How the suite gets stores of one kind. */
export interface StoreFactory {
  /** A fresh, empty store. */
  open(): Promise<AgentStore>;
  /** Another store over the same data as `store` (another process would open this), for durable and shared kinds. */
  openSame?(store: AgentStore): Promise<AgentStore>;
  /** A fresh, empty store that keeps finished items `retainFinishedMs` and reads the time from `now`. */
  openRetaining(retainFinishedMs: number, now: () => number): Promise<AgentStore>;
}

/** Takes `count` entries from a follow, then stops it. */
async function take<T>(entries: AsyncGenerator<LogEntry<T>>, count: number): Promise<LogEntry<T>[]> {
  const out: LogEntry<T>[] = [];
  if (count === 0) return out;
  for await (const entry of entries) {
    out.push(entry);
    if (out.length === count) break;
  }
  return out;
}

const ids = (entries: LogEntry[]) => entries.map((e) => e.id);

/** Runs the AgentStore contract against one kind of store. */
export function describeAgentStore(kind: string, factory: StoreFactory): void {
  describe(`${kind} store > contract`, () => {
    const opened: AgentStore[] = [];
    const open = async () => {
      const store = await factory.open();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it('records > a write answers revision 1, then one more per write; reads give equal copies', async () => {
      const store = await open();
      expect(await store.get('tasks', 'a')).toBeUndefined();
      const value = { name: 'first', list: [1, 2], nested: { ok: true, none: null } };
      expect(await store.put('tasks', 'a', value)).toBe(1);
      value.name = 'changed after the write';
      const read = await store.get<typeof value>('tasks', 'a');
      expect(read).toEqual({
        value: { name: 'first', list: [1, 2], nested: { ok: true, none: null } },
        rev: 1,
      });
      if (read) read.value.list.push(3);
      expect((await store.get<typeof value>('tasks', 'a'))?.value.list).toEqual([1, 2]);
      expect(await store.put('tasks', 'a', { name: 'second' })).toBe(2);
      expect(await store.get('tasks', 'a')).toEqual({ value: { name: 'second' }, rev: 2 });
    });

    it('records > a write that expects a revision holds only at that revision', async () => {
      const store = await open();
      expect(await store.put('runs', 'r', { v: 1 }, 0)).toBe(1);
      expect(await store.put('runs', 'r', { v: 'lost' }, 0)).toBeUndefined();
      expect(await store.put('runs', 'r', { v: 'stale' }, 5)).toBeUndefined();
      expect(await store.put('runs', 'r', { v: 2 }, 1)).toBe(2);
      expect(await store.get('runs', 'r')).toEqual({ value: { v: 2 }, rev: 2 });
      // Of two writers racing from the same revision, exactly one wins.
      const results = await Promise.all([
        store.put('runs', 'r', { v: 'a' }, 2),
        store.put('runs', 'r', { v: 'b' }, 2),
      ]);
      expect(results.filter((r) => r === 3)).toHaveLength(1);
      expect(results.filter((r) => r === undefined)).toHaveLength(1);
    });

    it('records > listed oldest first, by first write, in pages; counted; deleted', async () => {
      const store = await open();
      for (const id of ['c', 'a', 'b']) await store.put('things', id, { id });
      await store.put('things', 'c', { id: 'c', rewritten: true });
      await store.put('other', 'z', { id: 'z' });
      expect(await store.list('things')).toEqual([{ id: 'c', rewritten: true }, { id: 'a' }, { id: 'b' }]);
      expect(await store.list('things', { offset: 1, limit: 1 })).toEqual([{ id: 'a' }]);
      expect(await store.list('things', { offset: 5 })).toEqual([]);
      expect(await store.list('things', { limit: 0 })).toEqual([]);
      expect(await store.count('things')).toBe(3);
      expect(await store.count('nothing')).toBe(0);
      await store.delete('things', 'a');
      await store.delete('things', 'never-there');
      expect(await store.get('things', 'a')).toBeUndefined();
      expect(await store.list('things')).toEqual([{ id: 'c', rewritten: true }, { id: 'b' }]);
      expect(await store.count('things')).toBe(2);
    });

    it('indexes > ids by key, greatest first, within a range, in pages; counted; a write moves them, a delete drops them', async () => {
      const store = await open();
      const put = (id: string, at: string, state: string) =>
        store.put('tasks', id, { id, big: 'x'.repeat(1000) }, undefined, {
          recent: `${at}|${id}`,
          state: `${state}|${at}|${id}`,
        });
      await put('a', '2025-01-01', 'working');
      await put('b', '2025-01-03', 'done');
      await put('c', '2025-01-02', 'working');
      await put('d', '2025-01-02', 'done');
      await store.put('other', 'z', {}, undefined, { recent: '2099|z' });
      expect(await store.listByIndex('tasks', 'recent')).toEqual(['b', 'd', 'c', 'a']);
      expect(await store.listByIndex('tasks', 'recent', { limit: 2 })).toEqual(['b', 'd']);
      expect(await store.listByIndex('tasks', 'recent', { before: '2025-01-02|d', limit: 2 })).toEqual([
        'c',
        'a',
      ]);
      expect(await store.listByIndex('tasks', 'recent', { from: '2025-01-02' })).toEqual(['b', 'd', 'c']);
      expect(await store.listByIndex('tasks', 'recent', { limit: 0 })).toEqual([]);
      expect(await store.countByIndex('tasks', 'recent', { from: '2025-01-02', limit: 1 })).toBe(3);
      expect(await store.listByIndex('tasks', 'state', { from: 'working|', before: 'working}' })).toEqual([
        'c',
        'a',
      ]);
      expect(await store.countByIndex('tasks', 'state', { from: 'done|', before: 'done}' })).toBe(2);
      // A write with keys replaces the record's keys; one without keeps them.
      await put('a', '2025-01-04', 'done');
      await store.put('tasks', 'c', { id: 'c' });
      expect(await store.listByIndex('tasks', 'recent')).toEqual(['a', 'b', 'd', 'c']);
      expect(await store.listByIndex('tasks', 'state', { from: 'working|', before: 'working}' })).toEqual([
        'c',
      ]);
      await store.delete('tasks', 'b');
      expect(await store.listByIndex('tasks', 'recent')).toEqual(['a', 'd', 'c']);
      expect(await store.countByIndex('tasks', 'state')).toBe(3);
      expect(await store.listByIndex('tasks', 'none')).toEqual([]);
      expect(await store.countByIndex('nothing', 'recent')).toBe(0);
    });

    it('records > names with separators and any characters never collide', async () => {
      const store = await open();
      await store.put('a:b', 'c', { which: 1 });
      await store.put('a', 'b:c', { which: 2 });
      await store.put('a', 'b%3Ac', { which: 3 });
      await store.put('ünï', 'ʻokina 🙂', { which: 4 });
      expect((await store.get('a:b', 'c'))?.value).toEqual({ which: 1 });
      expect((await store.get('a', 'b:c'))?.value).toEqual({ which: 2 });
      expect((await store.get('a', 'b%3Ac'))?.value).toEqual({ which: 3 });
      expect((await store.get('ünï', 'ʻokina 🙂'))?.value).toEqual({ which: 4 });
    });

    it('counters > 1, 2, 3 per counter, never the same value twice', async () => {
      const store = await open();
      expect([await store.nextId('runs'), await store.nextId('runs'), await store.nextId('tasks')]).toEqual([
        1, 2, 1,
      ]);
      const many = await Promise.all(Array.from({ length: 100 }, () => store.nextId('runs')));
      expect(new Set(many).size).toBe(100);
      expect(Math.min(...many)).toBe(3);
      expect(Math.max(...many)).toBe(102);
    });

    it('logs > ids 1, 2, 3 per log; read after an id, in pages; the last id', async () => {
      const store = await open();
      expect(await store.lastId('run-1')).toBe(0);
      expect(await store.read('run-1', 0)).toEqual([]);
      for (let i = 1; i <= 5; i++) expect(await store.append('run-1', { n: i })).toBe(i);
      expect(await store.append('run-2', { n: 'other' })).toBe(1);
      expect(await store.lastId('run-1')).toBe(5);
      expect(await store.read('run-1', 2)).toEqual([
        { id: 3, value: { n: 3 } },
        { id: 4, value: { n: 4 } },
        { id: 5, value: { n: 5 } },
      ]);
      expect(ids(await store.read('run-1', 0, 2))).toEqual([1, 2]);
      expect(await store.read('run-1', 5)).toEqual([]);
    });

    it('logs > names and values with newlines, spaces, separators and any characters, appended together, never mix', async () => {
      const store = await open();
      // sound: a put without expectRev always writes, and answers the new revision.
      const rev = (await store.put('re quests\n', 'q 1\nr1 x', { status: 'running' })) as number;
      const logs = ['a\nb', 'a', 'b', 'l0', 'r1 x', 'ünï 🙂\n\n', ' ', 'a%0Ab', 'log:a', 'log-seq:a'];
      const values = [
        'line\nbreak',
        { text: 'two\nlines\r\n', nested: ['\n', ' ', '\u2028'] },
        '',
        0,
        null,
        { l: 1 },
        '\\n',
        ['r1 x', 'l0'],
        'ʻokina',
        true,
      ];
      // Sent at once, they go in one group commit; each guard holds.
      const got = await Promise.all(
        logs.map((log, i) =>
          store.append(
            log,
            values[i],
            i % 3 === 1
              ? { lastId: 0 }
              : i % 3 === 2
                ? { collection: 're quests\n', id: 'q 1\nr1 x', rev }
                : undefined,
          ),
        ),
      );
      expect(got).toEqual(logs.map(() => 1));
      for (const [i, log] of logs.entries()) {
        expect(await store.read(log, 0)).toEqual([{ id: 1, value: values[i] }]);
        expect(await store.lastId(log)).toBe(1);
      }
      // A stale guard on such a record still fails its own append only.
      const late = await Promise.all([
        store.append('a\nb', 'late', { collection: 're quests\n', id: 'q 1\nr1 x', rev: rev + 1 }),
        store.append('a\nb', 'kept', { lastId: 1 }),
      ]);
      expect(late).toEqual([undefined, 2]);
    });

    it('logs > a value JSON cannot write is refused as a rejection, and appends sent with it are kept', async () => {
      const store = await open();
      const cyclic: { self?: unknown } = {};
      cyclic.self = cyclic;
      let refused: Promise<number | undefined> | undefined;
      let bigint: Promise<number | undefined> | undefined;
      let nothing: Promise<number | undefined> | undefined;
      const kept = store.append('mixed', 'before');
      expect(() => {
        refused = store.append('mixed', cyclic);
        bigint = store.append('mixed', { n: 1n });
        nothing = store.append('mixed', undefined);
      }).not.toThrow();
      const after = store.append('mixed', 'after');
      await expect(refused).rejects.toThrow(TypeError);
      await expect(bigint).rejects.toThrow(TypeError);
      await expect(nothing).rejects.toThrow(/must be a JSON value; undefined has no JSON text/);
      expect([await kept, await after]).toEqual([1, 2]);
      expect((await store.read('mixed', 0)).map((e) => e.value)).toEqual(['before', 'after']);
    });

    it('logs > concurrent appends get distinct, gapless ids', async () => {
      const store = await open();
      const got = await Promise.all(Array.from({ length: 200 }, (_, i) => store.append('busy', { i })));
      expect([...got].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
      const stored = [];
      for (let after = 0; ; ) {
        const page = await store.read<{ i: number }>('busy', after, 64);
        if (page.length === 0) break;
        stored.push(...page);
        after = page.at(-1)?.id ?? after;
      }
      expect(ids(stored)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    });

    it('logs > a guarded append holds only while its record is at the revision', async () => {
      const store = await open();
      // sound: a put without expectRev always writes, and answers the new revision.
      const rev = (await store.put('requests', 'q', { status: 'running' })) as number;
      expect(await store.append('run', { e: 'started' }, { collection: 'requests', id: 'q', rev })).toBe(1);
      await store.put('requests', 'q', { status: 'canceled' });
      expect(
        await store.append('run', { e: 'late' }, { collection: 'requests', id: 'q', rev }),
      ).toBeUndefined();
      expect(
        await store.append('run', { e: 'x' }, { collection: 'requests', id: 'none', rev: 1 }),
      ).toBeUndefined();
      expect(await store.read('run', 0)).toEqual([{ id: 1, value: { e: 'started' } }]);
      expect(await store.lastId('run')).toBe(1);
    });

    it('logs > an append guarded by the last id holds only while the log ends there', async () => {
      const store = await open();
      expect(await store.append('turns', 'first', { lastId: 0 })).toBe(1);
      expect(await store.append('turns', 'again from 0', { lastId: 0 })).toBeUndefined();
      expect(await store.append('turns', 'second', { lastId: 1 })).toBe(2);
      expect(await store.append('turns', 'ahead', { lastId: 5 })).toBeUndefined();
      expect(await store.append('elsewhere', 'x', { lastId: 2 })).toBeUndefined();
      // Appends sent together (one group commit) are each checked against the log as the earlier ones left it.
      const racing = await Promise.all([
        store.append('turns', 'a', { lastId: 2 }),
        store.append('turns', 'b', { lastId: 2 }),
        store.append('turns', 'c', { lastId: 3 }),
      ]);
      expect(racing).toEqual([3, undefined, 4]);
      expect((await store.read('turns', 0)).map((e) => e.value)).toEqual(['first', 'second', 'a', 'c']);
      expect(await store.lastId('elsewhere')).toBe(0);
    });

    it('concurrency > 100 runs appending at once, each awaiting its appends: every log is numbered 1…n in its order', async () => {
      const store = await open();
      const runs = 100;
      const each = 12;
      const answered = await Promise.all(
        Array.from({ length: runs }, async (_, run) => {
          const got: Array<number | undefined> = [];
          for (let i = 1; i <= each; i++) got.push(await store.append(`run-${run}`, { run, i }));
          return got;
        }),
      );
      const numbered = Array.from({ length: each }, (_, i) => i + 1);
      for (const [run, got] of answered.entries()) {
        expect(got).toEqual(numbered);
        const stored = await store.read<{ run: number; i: number }>(`run-${run}`, 0);
        expect(stored.map((e) => [e.id, e.value.run, e.value.i])).toEqual(numbered.map((i) => [i, run, i]));
      }
    });

    it('concurrency > appends at once to one log, guarded by its last id: each guard sees the appends before it', async () => {
      const store = await open();
      // In call order: 0 holds (1), 0 again is refused, 1 holds (2), 5 is refused, 2 holds (3), an unguarded one (4),
      // 3 is refused (the unguarded one came first), 4 holds (5).
      const guards = [0, 0, 1, 5, 2, undefined, 3, 4];
      const got = await Promise.all(
        guards.map((lastId, i) => store.append('turns', i, lastId === undefined ? undefined : { lastId })),
      );
      expect(got).toEqual([1, undefined, 2, undefined, 3, 4, undefined, 5]);
      expect((await store.read('turns', 0)).map((e) => [e.id, e.value])).toEqual([
        [1, 0],
        [2, 2],
        [3, 4],
        [4, 5],
        [5, 7],
      ]);
      // Many writers at once over many logs, all from the same last id: exactly one per log holds.
      const logs = 30;
      const racing = await Promise.all(
        Array.from({ length: logs * 3 }, (_, i) => store.append(`race-${i % logs}`, i, { lastId: 0 })),
      );
      expect(racing.slice(0, logs)).toEqual(Array.from({ length: logs }, () => 1));
      expect(racing.slice(logs).every((id) => id === undefined)).toBe(true);
      for (let log = 0; log < logs; log++)
        expect(await store.read(`race-${log}`, 0)).toEqual([{ id: 1, value: log }]);
    });

    it('concurrency > appends at once guarded by records: a stale revision fails its own append, no other', async () => {
      const store = await open();
      // sound: a put without expectRev always writes, and answers the new revision.
      const live = (await store.put('requests', 'live', { status: 'running' })) as number;
      await store.put('requests', 'ended', { status: 'running' });
      // sound: as above.
      const ended = (await store.put('requests', 'ended', { status: 'canceled' })) as number;
      const got = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          store.append(`log-${i % 4}`, i, {
            collection: 'requests',
            id: i % 2 ? 'ended' : 'live',
            rev: i % 2 ? ended - 1 : live,
          }),
        ),
      );
      // Logs 0 and 2 take the live record's appends, 1 and 3 the stale ones: 10 each, numbered in call order.
      expect(got).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 ? undefined : Math.floor(i / 4) + 1)));
      expect(await store.lastId('log-1')).toBe(0);
      expect((await store.read('log-2', 0)).map((e) => e.value)).toEqual(
        Array.from({ length: 10 }, (_, k) => k * 4 + 2),
      );
    });

    it('retention > finished records and logs stay until their time, then go with their indexes; the rest stays', async () => {
      let now = Date.UTC(2030, 0, 1);
      const store = await factory.openRetaining(60_000, () => now);
      opened.push(store);
      for (const id of ['done', 'kept']) {
        await store.put('tasks', id, { id }, undefined, { recent: `2030|${id}` });
        await store.append(`log-${id}`, { id });
      }
      await store.expire([{ collection: 'tasks', id: 'done' }, { log: 'log-done' }]);
      now += 30_000;
      // Writes before the deadline neither fail nor keep the item longer.
      await store.put('tasks', 'done', { id: 'done', again: true });
      expect(await store.append('log-done', { id: 'done', again: true })).toBe(2);
      await store.expire([]);
      expect(await store.get('tasks', 'done')).toEqual({ value: { id: 'done', again: true }, rev: 2 });
      expect(await store.lastId('log-done')).toBe(2);
      now += 30_000;
      // A sweep (every expire call is one) lets go of what is due.
      await store.expire([{ log: 'never-written' }]);
      expect(await store.get('tasks', 'done')).toBeUndefined();
      expect(await store.listByIndex('tasks', 'recent')).toEqual(['kept']);
      expect(await store.count('tasks')).toBe(1);
      expect(await store.read('log-done', 0)).toEqual([]);
      expect(await store.lastId('log-done')).toBe(0);
      expect(await store.get('tasks', 'kept')).toEqual({ value: { id: 'kept' }, rev: 1 });
      expect(await store.read('log-kept', 0)).toEqual([{ id: 1, value: { id: 'kept' } }]);
      // A deleted log starts again at 1.
      expect(await store.append('log-done', 'new')).toBe(1);
    });

    it('follow > what is stored, then each new entry, with no gap and no repeat', async () => {
      const store = await open();
      for (let i = 1; i <= 3; i++) await store.append('live', { i });
      const abort = new AbortController();
      const first = store.follow<{ i: number }>('live', 1, abort.signal);
      const second = store.follow<{ i: number }>('live', 0, abort.signal);
      const writer = (async () => {
        for (let i = 4; i <= 50; i++) {
          await store.append('live', { i });
          if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const [a, b] = await Promise.all([take(first, 49), take(second, 50)]);
      await writer;
      abort.abort();
      expect(ids(a)).toEqual(Array.from({ length: 49 }, (_, i) => i + 2));
      expect(b.map((e) => e.value.i)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });

    it('follow > a log followed before its first entry; a follow ends when its signal aborts', async () => {
      const store = await open();
      const abort = new AbortController();
      const entries = store.follow('later', 0, abort.signal);
      const got = take(entries, 2);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await store.append('later', 'one');
      await store.append('later', 'two');
      expect(await got).toEqual([
        { id: 1, value: 'one' },
        { id: 2, value: 'two' },
      ]);
      const waiting = store.follow('later', 2, abort.signal);
      const next = waiting.next();
      setTimeout(() => abort.abort(), 20);
      expect(await next).toEqual({ done: true, value: undefined });
    });

    it('blobs > bytes come back as written; a key replaced; a missing key', async () => {
      const store = await open();
      const bytes = new Uint8Array([0, 1, 2, 255, 0, 10, 13]);
      await store.putBlob('artifact/1', bytes);
      bytes[0] = 99;
      expect(await store.getBlob('artifact/1')).toEqual(new Uint8Array([0, 1, 2, 255, 0, 10, 13]));
      await store.putBlob('artifact/1', new Uint8Array([7]));
      expect(await store.getBlob('artifact/1')).toEqual(new Uint8Array([7]));
      expect(await store.getBlob('artifact/none')).toBeUndefined();
      await store.putBlob('empty', new Uint8Array());
      expect(await store.getBlob('empty')).toEqual(new Uint8Array());
    });

    const openSame = factory.openSame;
    if (openSame) {
      it('shared > a second store over the same data sees every write, and follows the first one live', async () => {
        const a = await open();
        const b = await openSame(a);
        opened.push(b);
        await a.put('runs', 'r1', { by: 'a' });
        expect(await b.get('runs', 'r1')).toEqual({ value: { by: 'a' }, rev: 1 });
        expect(await b.nextId('c')).toBe(1);
        expect(await a.nextId('c')).toBe(2);
        await a.append('shared', 0);
        const abort = new AbortController();
        const got = take(b.follow<number>('shared', 0, abort.signal), 30);
        for (let i = 1; i < 30; i++) await (i % 2 ? a : b).append('shared', i);
        expect((await got).map((e) => e.value)).toEqual(Array.from({ length: 30 }, (_, i) => i));
        abort.abort();
        // Two processes appending from the same last id: one holds, the other is told to look again.
        const from = await a.lastId('shared');
        const both = await Promise.all([
          a.append('shared', 'from a', { lastId: from }),
          b.append('shared', 'from b', { lastId: from }),
        ]);
        expect(both.filter((id) => id !== undefined)).toEqual([from + 1]);
        expect(await b.lastId('shared')).toBe(from + 1);
        await a.putBlob('k', new Uint8Array([1, 2]));
        expect(await b.getBlob('k')).toEqual(new Uint8Array([1, 2]));
      });

      it('shared > an append is answered only once it is stored: another store over the data already has it', async () => {
        const a = await open();
        const b = await openSame(a);
        opened.push(b);
        const seen = await Promise.all(
          Array.from({ length: 50 }, async (_, i) => {
            const id = await a.append(`answered-${i % 5}`, i);
            return id !== undefined && (await b.lastId(`answered-${i % 5}`)) >= id;
          }),
        );
        expect(seen.every(Boolean)).toBe(true);
      });
    }
  });
}
