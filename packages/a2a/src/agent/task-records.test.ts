// A writer that died between appending an event and writing the task (a SIGKILL, a store gone) leaves an event in
// the log that the task does not show; a client may have been sent it already. Reads and writes catch the task up.
// The log is the task: a write appends its event (guarded by the log's last id) and rewrites the snapshot only now
// and then, and a read is the snapshot with the log's tail applied.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AgentStore, MemoryStore, openStore } from '@agentproto/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { type Message, type StreamResponse, type Task, validators } from '../generated/1.0/index.js';
import type { A2aAgent } from './agent.js';
import { eventLog, reduceStored, type StoredTask, TASK_INDEX, TASKS } from './stored-task.js';
import { variant } from './task-events.js';
import { keysOf } from './task-index.js';
import { TaskManager } from './task-manager.js';
import { SNAPSHOT_MAX_EVENTS, TaskRecords } from './task-records.js';

const task: Task = {
  id: 't',
  contextId: 'c',
  status: { state: 'TASK_STATE_WORKING' },
  artifacts: [{ artifactId: 'log', parts: [{ text: 'step 1\n' }] }],
};
const chunk = (n: number): StreamResponse => ({
  artifactUpdate: {
    taskId: 't',
    contextId: 'c',
    artifact: { artifactId: 'log', parts: [{ text: `step ${n}\n` }] },
    append: true,
  },
});

/** A store holding the task at event 1, and a log that reached event 2 before its writer died. */
async function interrupted(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.append(eventLog('t'), chunk(1));
  await store.put<StoredTask>(TASKS, 't', { task, lastEventId: 1 });
  await store.append(eventLog('t'), chunk(2));
  return store;
}

const texts = (t: Task) => (t.artifacts?.[0]?.parts ?? []).map((p) => ('text' in p ? p.text : ''));

describe('a2a > task records caught up with the log', () => {
  it('a read shows the event the dead writer appended', async () => {
    const records = new TaskRecords(await interrupted());
    expect(texts(await records.task('t'))).toEqual(['step 1\n', 'step 2\n']);
    expect((await records.stored('t')).lastEventId).toBe(2);
  });

  it('the next write stores it with its own event, in order', async () => {
    const store = await interrupted();
    const records = new TaskRecords(store);
    const { task: written } = await records.apply('t', () => ({
      statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_FAILED' } },
    }));
    expect(texts(written)).toEqual(['step 1\n', 'step 2\n']);
    const kept = (await store.get<StoredTask>(TASKS, 't'))?.value;
    expect(kept?.lastEventId).toBe(3);
    expect(texts(kept?.task ?? task)).toEqual(['step 1\n', 'step 2\n']);
    expect(kept?.task.status.state).toBe('TASK_STATE_FAILED');
  });

  it('a task the log has nothing more for reads as stored', async () => {
    const store = new MemoryStore();
    await store.append(eventLog('t'), chunk(1));
    await store.put<StoredTask>(TASKS, 't', { task, lastEventId: 1 });
    expect(await new TaskRecords(store).stored('t')).toEqual({ task, lastEventId: 1 });
  });
});

/** A memory store that counts the records it writes, and their bytes, per collection. */
class CountingStore extends MemoryStore {
  puts = new Map<string, { count: number; bytes: number }>();
  failPuts = false;
  override async put<T>(
    collection: string,
    id: string,
    value: T,
    expectRev?: number,
    index?: Readonly<Record<string, string>>,
  ) {
    if (this.failPuts) throw new Error('store unreachable');
    const seen = this.puts.get(collection) ?? { count: 0, bytes: 0 };
    this.puts.set(collection, { count: seen.count + 1, bytes: seen.bytes + JSON.stringify(value).length });
    return super.put(collection, id, value, expectRev, index);
  }
}

const kib = 'x'.repeat(1024);
const status = (state: Task['status']['state'], text: string): StreamResponse => ({
  statusUpdate: {
    taskId: 't',
    contextId: 'c',
    status: {
      state,
      timestamp: new Date().toISOString(),
      message: { messageId: crypto.randomUUID(), role: 'ROLE_AGENT', parts: [{ text }] },
    },
  },
});
const answer = (text: string): StreamResponse => ({
  message: {
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: [{ text }],
    taskId: 't',
  } satisfies Message,
});
/** The n-th event of a mixed turn: chunks of an artifact, status updates, and client messages. */
const mixed = (n: number): StreamResponse =>
  n % 7 === 0 ? answer(`answer ${n}`) : n % 5 === 0 ? status('TASK_STATE_WORKING', `step ${n}`) : chunk(n);

async function started(store: AgentStore): Promise<TaskRecords> {
  const records = new TaskRecords(store);
  expect(await records.create({ task, lastEventId: 0 })).toBe(true);
  return records;
}

const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-task-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a2a > task records: events appended, not rewritten', () => {
  it('a write costs its event: 50 events of 1 KiB rewrite no task record', async () => {
    const store = new CountingStore();
    const records = await started(store);
    store.puts.clear();
    for (let i = 0; i < 50; i++)
      await records.apply('t', () => ({
        artifactUpdate: {
          taskId: 't',
          contextId: 'c',
          artifact: { artifactId: 'log', parts: [{ text: kib }] },
          append: true,
        },
      }));
    // Before: 50 puts of the whole task, 1.3 MB in all.
    expect(store.puts.get(TASKS)).toBeUndefined();
    expect(await store.lastId(eventLog('t'))).toBe(50);
    expect(texts(await new TaskRecords(store).task('t'))).toHaveLength(51);
  });

  it('a read is the snapshot with the tail applied, equal to every event folded in order', async () => {
    const store = await openStore(`sqlite:${path.join(dir, 'fold.db')}`);
    try {
      const records = await started(store);
      let folded: StoredTask = { task, lastEventId: 0 };
      const events = 2 * SNAPSHOT_MAX_EVENTS + 37;
      for (let n = 1; n <= events; n++) {
        const { applied } = await records.apply('t', () => mixed(n));
        expect(applied).toBe(true);
        folded = reduceStored(folded, mixed(n), n);
      }
      const snapshot = (await store.get<StoredTask>(TASKS, 't'))?.value;
      // Snapshots were written along the way, and the last events are in the log alone.
      expect(snapshot?.lastEventId).toBeGreaterThan(0);
      expect(snapshot?.lastEventId).toBeLessThan(events);
      const cold = await new TaskRecords(store).stored('t');
      const strip = (t: Task) =>
        JSON.parse(JSON.stringify(t, (k, v) => (k === 'messageId' || k === 'timestamp' ? undefined : v)));
      expect(cold.lastEventId).toBe(events);
      expect(strip(cold.task)).toEqual(strip(folded.task));
      expect(cold.historyBytes).toBe(folded.historyBytes);
      expect(cold.artifactBytes).toBe(folded.artifactBytes);
      expect(await records.stored('t')).toEqual(cold);
    } finally {
      await store.close();
    }
  });

  it('two writers on one SQLite file never both apply a change computed from the same state', async () => {
    const file = path.join(dir, 'race.db');
    const [a, b] = [await openStore(`sqlite:${file}`), await openStore(`sqlite:${file}`)];
    try {
      await started(a);
      // Each store answers its reads and appends a little late, at random, as a process across the machine would:
      // the other writer gets in between a writer's read and its append, and between its append and what follows.
      const late = (store: AgentStore): AgentStore =>
        new Proxy(store, {
          get(target, key) {
            const value = Reflect.get(target, key, target);
            if (typeof value !== 'function') return value;
            if (key !== 'append' && key !== 'read' && key !== 'get') return value.bind(target);
            return async (...args: unknown[]) => {
              const answer = await Reflect.apply(value, target, args);
              await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
              return answer;
            };
          },
        });
      const writers = [new TaskRecords(late(a)), new TaskRecords(late(b))];
      const each = 40;
      // Each change says which state it was computed from (the task's last event) and who made it.
      await Promise.all(
        writers.map(async (records, w) => {
          for (let i = 0; i < each; i++)
            await records.apply('t', (_, stored) => ({
              artifactUpdate: {
                taskId: 't',
                contextId: 'c',
                artifact: { artifactId: 'log', parts: [{ text: `${w}@${stored.lastEventId}` }] },
                append: true,
              },
            }));
        }),
      );
      const log = await a.read<StreamResponse>(eventLog('t'), 0);
      const made = log.map((entry) => {
        const part = variant(entry.value).artifactUpdate?.artifact.parts[0];
        const text = part && 'text' in part ? part.text : undefined;
        const [writer, from] = (typeof text === 'string' ? text : '').split('@');
        return { id: entry.id, writer, from: Number(from) };
      });
      // Every event was computed from the state just before it, and each writer's changes went in once each.
      for (const event of made) expect(event.from).toBe(event.id - 1);
      expect(made.filter((e) => e.writer === '0')).toHaveLength(each);
      expect(made.filter((e) => e.writer === '1')).toHaveLength(each);
      expect(texts(await new TaskRecords(b).task('t'))).toHaveLength(2 * each + 1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a snapshot that cannot be written loses nothing: the change holds, and a read shows it', async () => {
    const store = new CountingStore();
    const errors: unknown[] = [];
    const records = new TaskRecords(store, (error) => errors.push(error));
    await records.create({ task, lastEventId: 0 });
    store.failPuts = true;
    // Ending the task writes its snapshot and its list entry: both fail, as for a writer killed after the append.
    const ended = await records.apply('t', () => status('TASK_STATE_COMPLETED', 'done'));
    expect(ended.applied).toBe(true);
    expect(errors.map(String)).toContain('Error: store unreachable');
    expect((await store.get<StoredTask>(TASKS, 't'))?.value.lastEventId).toBe(0);
    const read = await new TaskRecords(store).task('t');
    expect(read.status.state).toBe('TASK_STATE_COMPLETED');
    store.failPuts = false;
    // The next writer, in another process, finds the task ended.
    const next = await new TaskRecords(store).apply('t', (t) =>
      t.status.state === 'TASK_STATE_COMPLETED' ? undefined : chunk(9),
    );
    expect(next).toMatchObject({ applied: false, lastEventId: 1 });
  });

  it("a memory store that dropped a task's log: the task is written as it was, and goes on from there", async () => {
    const store = new MemoryStore({ maxLogs: 1 });
    const records = await started(store);
    await records.apply('t', () => chunk(2));
    // Another task's log pushes this one out (the memory store keeps one log here).
    await store.append(eventLog('other'), chunk(1));
    expect(await store.lastId(eventLog('t'))).toBe(0);
    await records.apply('t', () => chunk(3));
    const cold = await new TaskRecords(store).task('t');
    expect(texts(cold)).toEqual(['step 1\n', 'step 2\n', 'step 3\n']);
  });
});

describe('a2a > ListTasks shows each task as its log stands', () => {
  const asking: A2aAgent = {
    card: {
      name: 'test',
      description: 'asks',
      version: '1',
      capabilities: {},
      defaultInputModes: ['*/*'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    },
    async *run() {
      yield { artifact: { artifactId: 'notes', parts: [{ text: 'noted' }] } };
      yield { state: 'TASK_STATE_INPUT_REQUIRED', text: 'more?' };
    },
  };

  it('events after the snapshot are on the page, as GetTask shows them', async () => {
    const store = await interrupted();
    // The task as stored before (listed by its record's keys): the snapshot is at event 1, the log at event 2.
    await store.put<StoredTask>(TASKS, 't', { task, lastEventId: 1 }, undefined, keysOf(task));
    const manager = new TaskManager(asking, { store });
    await manager.ready;
    const page = await manager.list({ includeArtifacts: true });
    expect(page.tasks.map(texts)).toEqual([['step 1\n', 'step 2\n']]);
    expect(page.tasks[0]).toEqual(await manager.get('t'));
  });

  it('a task whose state changed since its snapshot is listed under its new state, by a process that never read it', async () => {
    const store = new MemoryStore();
    const writer = new TaskManager(asking, { store });
    const sent = await writer.send({
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
    });
    const sentTask = 'task' in sent ? sent.task : undefined;
    if (!validators.Task(sentTask)) throw new Error('expected a task');
    const id = sentTask.id;
    // The snapshot is the task as submitted; its turn (working, an artifact, input required) is in the log.
    expect((await store.get<StoredTask>(TASKS, id))?.value.task.status.state).toBe('TASK_STATE_SUBMITTED');
    const reader = new TaskManager(asking, { store });
    const waiting = await reader.list({ status: 'TASK_STATE_INPUT_REQUIRED', includeArtifacts: true });
    expect(waiting.tasks.map((t) => t.id)).toEqual([id]);
    expect(waiting.tasks[0]).toEqual(await reader.get(id));
    expect(waiting.tasks[0]?.artifacts?.[0]?.parts).toEqual([{ text: 'noted' }]);
    expect((await reader.list({ status: 'TASK_STATE_SUBMITTED' })).tasks).toEqual([]);
  });
});

describe('a2a > retention of finished tasks', () => {
  it('a task that reaches a final state goes, with its list entry and log, once the store’s retention has passed', async () => {
    let now = Date.UTC(2030, 0, 1);
    const store = new MemoryStore({ retainFinishedMs: 60_000 }, () => now);
    const records = new TaskRecords(store);
    await records.create({ task, lastEventId: 0 });
    const done: StreamResponse = {
      statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } },
    };
    await records.apply('t', () => chunk(2));
    now += 120_000;
    // Still working: a sweep leaves it alone.
    await store.expire([]);
    expect(await store.lastId(eventLog('t'))).toBe(1);
    await records.apply('t', () => done);
    await store.expire([]);
    expect(await store.get(TASKS, 't')).toBeDefined();
    now += 60_000;
    await store.expire([]);
    expect(await store.get(TASKS, 't')).toBeUndefined();
    expect(await store.get(TASK_INDEX, 't')).toBeUndefined();
    expect(await store.lastId(eventLog('t'))).toBe(0);
  });
});
