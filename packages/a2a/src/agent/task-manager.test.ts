import { type AgentStore, MemoryStore } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import { A2aError } from '../errors/a2a-error.js';
import { type Message, type SendMessageRequest, type Task, validators } from '../generated/1.0/index.js';
import { isObjectLike } from '../is-object-like.js';
import type { A2aAgent, AgentEvent, AgentTurn } from './agent.js';
import { TaskManager, type TaskManagerOptions } from './task-manager.js';

/** An agent whose turns are the given function. */
function agent(run: (turn: AgentTurn) => AsyncIterable<AgentEvent>): A2aAgent {
  return {
    card: {
      name: 'test',
      description: 'test agent',
      version: '1',
      capabilities: { streaming: true },
      defaultInputModes: ['*/*'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    },
    run,
  };
}

const send = (text: string, extra: Partial<Message> = {}): SendMessageRequest => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra },
});

/** Always asks for more input. */
const asking = agent(async function* () {
  yield { state: 'TASK_STATE_INPUT_REQUIRED', text: 'more?' };
});

function manager(a: A2aAgent, options: TaskManagerOptions = {}): { manager: TaskManager; errors: unknown[] } {
  const errors: unknown[] = [];
  return { manager: new TaskManager(a, { onError: (e) => errors.push(e), ...options }), errors };
}

/** The state a stream event tells: its task's, or its status update's; '?' for any other event. */
function stateOf(event: unknown): string {
  const member = isObjectLike(event) ? (event.task ?? event.statusUpdate) : undefined;
  const status = isObjectLike(member) ? member.status : undefined;
  return isObjectLike(status) && typeof status.state === 'string' ? status.state : '?';
}

async function taskOf(m: TaskManager, request: SendMessageRequest): Promise<Task> {
  const answer = await m.send(request);
  const task = 'task' in answer ? answer.task : undefined;
  if (!validators.Task(task)) throw new Error('expected a task');
  return task;
}

/** The A2A error a promise rejects with. */
async function refusal(promise: Promise<unknown>): Promise<A2aError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof A2aError)) throw new Error(`expected an A2aError, got ${String(error)}`);
  return error;
}

describe('task manager > limits', () => {
  it('history > a message past the byte limit is refused with UnsupportedOperationError; the task still waits', async () => {
    const { manager: m } = manager(asking, { limits: { maxHistoryBytes: 2_000 } });
    const task = await taskOf(m, send('start'));
    const error = await refusal(m.send(send('x'.repeat(2_000), { taskId: task.id })));
    expect(error.reason).toBe('UNSUPPORTED_OPERATION');
    expect(error.metadata).toEqual({ taskId: task.id, limit: 'maxHistoryBytes' });
    const after = await m.get(task.id);
    expect(after.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(after.history).toHaveLength(2);
  });

  it('history > a first message past the byte limit starts no task', async () => {
    const { manager: m } = manager(asking, { limits: { maxHistoryBytes: 500 } });
    const error = await refusal(m.send(send('x'.repeat(600))));
    expect(error.reason).toBe('UNSUPPORTED_OPERATION');
    expect((await m.list({})).tasks).toEqual([]);
  });

  it('history > once the count is reached the next message is refused; an agent past it fails the task', async () => {
    const { manager: m, errors } = manager(asking, { limits: { maxHistoryMessages: 4 } });
    const task = await taskOf(m, send('one')); // the message and the question: 2
    expect((await taskOf(m, send('two', { taskId: task.id }))).status.state).toBe(
      'TASK_STATE_INPUT_REQUIRED',
    ); // 4
    const error = await refusal(m.send(send('three', { taskId: task.id })));
    expect(error.metadata).toEqual({ taskId: task.id, limit: 'maxHistoryMessages' });

    const { manager: tight, errors: tightErrors } = manager(asking, { limits: { maxHistoryMessages: 3 } });
    const t = await taskOf(tight, send('one'));
    const failed = await taskOf(tight, send('two', { taskId: t.id })); // 3, then the question would be 4
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(failed.status.message?.parts).toEqual([
      { text: "The task reached its limit of 3 messages and cannot hold the agent's next update." },
    ]);
    expect(tightErrors).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('artifacts > an agent past the count fails the task, with the artifacts it had', async () => {
    const three = agent(async function* () {
      for (const id of ['a', 'b', 'c']) yield { artifact: { artifactId: id, parts: [{ text: id }] } };
    });
    const { manager: m } = manager(three, { limits: { maxArtifacts: 2 } });
    const task = await taskOf(m, send('go'));
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message?.parts[0]).toEqual({
      text: "The task reached its limit of 2 artifacts and cannot hold the agent's next update.",
    });
    expect(task.artifacts?.map((a) => a.artifactId)).toEqual(['a', 'b']);
  });

  it('artifacts > appended chunks count toward the byte limit', async () => {
    const chunks = agent(async function* () {
      for (let i = 0; i < 5; i++)
        yield { artifact: { artifactId: 'a', parts: [{ text: 'x'.repeat(300) }] }, append: i > 0 };
    });
    const { manager: m } = manager(chunks, { limits: { maxArtifactBytes: 1_000 } });
    const task = await taskOf(m, send('go'));
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.artifacts?.[0]?.parts).toHaveLength(3); // about 330 bytes each
    const { manager: roomy } = manager(chunks, { limits: { maxArtifactBytes: 2_000 } });
    expect((await taskOf(roomy, send('go'))).status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('defaults > a memory store keeps a task at its full default size', async () => {
    const store = new MemoryStore();
    const { manager: m } = manager(asking, { store });
    expect(m.limits).toEqual({
      maxHistoryMessages: 1_000,
      maxHistoryBytes: 8 * 1024 * 1024,
      maxArtifacts: 100,
      maxArtifactBytes: 16 * 1024 * 1024,
    });
    const { maxHistoryBytes, maxArtifactBytes } = m.limits;
    expect(maxHistoryBytes + maxArtifactBytes).toBeLessThan(store.limits.maxRecordBytes / 2);
  });
});

describe('task manager > a store outage', () => {
  /**
   * A memory store whose writes fail while `down`; `failed` settles at the first write refused, so a test acts on the
   * outage by events, never by time.
   */
  function flakyStore() {
    const inner = new MemoryStore();
    let down = false;
    let told: () => void = () => {};
    const failed = new Promise<void>((resolve) => {
      told = resolve;
    });
    const refuse = () => {
      told();
      return Promise.reject(new Error('store unreachable'));
    };
    const store: AgentStore = new Proxy(inner, {
      get(target, key, receiver) {
        if (down && (key === 'put' || key === 'append')) return refuse;
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { store, failed, setDown: (d: boolean) => (down = d) };
  }

  /**
   * Yields a first event, tells `atGate` once it is stored (the turn asks for the next event only then), waits for
   * `gate`, then does what `then` says: return, throw, or yield once more.
   */
  function pausing(gate: Promise<void>, then: 'return' | 'throw' | 'yield', atGate: () => void): A2aAgent {
    return agent(async function* () {
      yield { state: 'TASK_STATE_WORKING', text: 'on it' };
      atGate();
      await gate;
      if (then === 'throw') throw new Error('the agent broke');
      if (then === 'yield') yield { state: 'TASK_STATE_WORKING', text: 'one more' };
    });
  }

  async function states(stream: AsyncIterable<unknown>): Promise<string[]> {
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(stateOf(event));
    }
    return seen;
  }

  /** A manager whose agent works on a task until `go`; the store's writes fail from `go` until `back`. */
  async function outage(
    then: 'return' | 'throw' | 'yield',
    settleRetry: NonNullable<TaskManagerOptions['settleRetry']>,
  ) {
    const { store, failed, setDown } = flakyStore();
    let go: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      go = resolve;
    });
    let atGate: () => void = () => {};
    const working = new Promise<void>((resolve) => {
      atGate = resolve;
    });
    const { manager: m, errors } = manager(pausing(gate, then, atGate), { store, settleRetry });
    const task = await taskOf(m, { ...send('go'), configuration: { returnImmediately: true } });
    const subscription = states(await m.subscribe(task.id));
    // The outage starts once the turn's first event is stored, whatever the writes of an event take.
    await working;
    setDown(true);
    go();
    await failed;
    return { m, errors, taskId: task.id, subscription, back: () => setDown(false) };
  }

  it.each([
    ['the agent finishes: the task completes', 'return', 'TASK_STATE_COMPLETED'],
    ['the agent throws: the task fails', 'throw', 'TASK_STATE_FAILED'],
    ['an event of the agent is refused: the task fails', 'yield', 'TASK_STATE_FAILED'],
  ] as const)(
    'a turn ending while the store is away is written once it is back (%s); subscribers get the end',
    async (_, then, want) => {
      const { m, errors, taskId, subscription, back } = await outage(then, {
        firstDelayMs: 1,
        maxDelayMs: 5,
      });
      // The end could not be written: the task is still working, as the store holds it.
      expect((await m.get(taskId)).status.state).toBe('TASK_STATE_WORKING');
      back();
      const seen = await subscription;
      expect(seen.at(-1)).toBe(want);
      expect((await m.get(taskId)).status.state).toBe(want);
      expect(errors.map(String)).toContain('Error: store unreachable');
    },
  );

  it('the check can fail: with no time to try again, the task stays working', async () => {
    const { m, errors, taskId, back } = await outage('return', { forMs: 0 });
    // Both ends (completed, then failed) are refused and given up at once; the store comes back too late.
    await new Promise<void>((resolve) => {
      const wait = () => (errors.length >= 2 ? resolve() : setImmediate(wait));
      wait();
    });
    back();
    expect((await m.get(taskId)).status.state).toBe('TASK_STATE_WORKING');
  });
});

describe('task manager > a restart', () => {
  /** Works until its turn is aborted, as a process killed mid-turn never gets to finish. */
  const endless = agent(async function* ({ signal }) {
    yield { state: 'TASK_STATE_WORKING', text: 'on it' };
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  });

  /** Starts a task on `m` and waits, through its stream, until the agent is working on it. */
  async function working(m: TaskManager): Promise<string> {
    const stream = await m.stream(send('go'));
    let taskId = '';
    for await (const event of stream) {
      const { task, statusUpdate } = isObjectLike(event) ? event : {};
      if (isObjectLike(task) && typeof task.id === 'string') taskId = task.id;
      if (isObjectLike(statusUpdate) && isObjectLike(statusUpdate.status) && statusUpdate.status.message)
        break;
    }
    return taskId;
  }

  it('tasks working when their instance stopped fail when it starts again; subscribers get the end', async () => {
    const store = new MemoryStore();
    const { manager: first } = manager(endless, { store, instance: 'a' });
    const { manager: other } = manager(endless, { store, instance: 'b' });
    const mine = await working(first);
    const theirs = await working(other);
    // A subscriber in a third process follows the task the stopped process was working on.
    const { manager: watcher } = manager(endless, { store, instance: 'c' });
    const subscription = await watcher.subscribe(mine);
    const seen: string[] = [];
    const watched = (async () => {
      for await (const event of subscription) {
        seen.push(stateOf(event));
      }
    })();

    const { manager: restarted } = manager(endless, { store, instance: 'a' });
    await restarted.ready;
    const failed = await restarted.get(mine);
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(failed.status.message?.parts).toEqual([{ text: 'The agent stopped while working on the task.' }]);
    // Another instance's task is its own business; it is still working.
    expect((await restarted.get(theirs)).status.state).toBe('TASK_STATE_WORKING');
    await watched;
    expect(seen).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_FAILED']);
    // Recovered once: a second restart has nothing left to fail.
    const { manager: again } = manager(endless, { store, instance: 'a' });
    await again.ready;
    expect((await again.get(mine)).status.state).toBe('TASK_STATE_FAILED');
    await first.cancel(mine).catch(() => {});
    await other.cancel(theirs);
  });

  it('a task that ended or waits for input is not open: a restart leaves it as it is', async () => {
    const store = new MemoryStore();
    const { manager: first } = manager(asking, { store, instance: 'a' });
    const waiting = await taskOf(first, send('start'));
    const { manager: done } = manager(
      agent(async function* () {
        yield { state: 'TASK_STATE_COMPLETED', text: 'done' };
      }),
      { store, instance: 'a' },
    );
    const completed = await taskOf(done, send('go'));
    const { manager: restarted } = manager(asking, { store, instance: 'a' });
    await restarted.ready;
    expect((await restarted.get(waiting.id)).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await restarted.get(completed.id)).status.state).toBe('TASK_STATE_COMPLETED');
    expect(await store.count('a2a/open-tasks')).toBe(0);
  });
});

describe('task manager > ListTasks', () => {
  /** A memory store that counts the records it reads. */
  class CountingStore extends MemoryStore {
    reads = 0;
    override async get<T>(collection: string, id: string) {
      if (collection === 'a2a/tasks') this.reads++;
      return super.get<T>(collection, id);
    }
    override async list<T>(collection: string, options?: { offset?: number; limit?: number }) {
      const values = await super.list<T>(collection, options);
      if (collection === 'a2a/tasks') this.reads += values.length;
      return values;
    }
  }
  const done = agent(async function* () {
    yield { state: 'TASK_STATE_COMPLETED', text: 'done' };
  });

  it('a page reads its own tasks and no others, whatever the filter', async () => {
    const store = new CountingStore();
    const { manager: m } = manager(done, { store });
    const { manager: waits } = manager(asking, { store });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await taskOf(i % 2 ? waits : m, send(`t${i}`, { contextId: `c${i % 3}` }))).id);
    const cases: Array<[string, Parameters<TaskManager['list']>[0], number]> = [
      ['all', { pageSize: 1 }, 6],
      ['by context', { pageSize: 1, contextId: 'c0' }, 2],
      ['by state', { pageSize: 1, status: 'TASK_STATE_INPUT_REQUIRED' }, 3],
      ['by both', { pageSize: 1, contextId: 'c1', status: 'TASK_STATE_INPUT_REQUIRED' }, 1],
    ];
    for (const [name, request, total] of cases) {
      // A manager that has read no task yet (one keeps the tasks it read, checked against their logs).
      const { manager: fresh } = manager(done, { store });
      await fresh.ready;
      store.reads = 0;
      const seen: string[] = [];
      let page = await fresh.list(request);
      expect(store.reads, name).toBe(1);
      seen.push(...page.tasks.map((t) => t.id));
      while (page.nextPageToken) {
        page = await m.list({ ...request, pageToken: page.nextPageToken });
        seen.push(...page.tasks.map((t) => t.id));
      }
      expect(page.totalSize, name).toBe(total);
      expect(new Set(seen).size, name).toBe(total);
    }
    const everything = await m.list({ pageSize: 10 });
    expect(everything.tasks.map((t) => t.id)).toEqual(
      [...everything.tasks]
        .sort((a, b) => (b.status.timestamp ?? '').localeCompare(a.status.timestamp ?? ''))
        .map((t) => t.id),
    );
    expect(new Set(everything.tasks.map((t) => t.id))).toEqual(new Set(ids));
  });

  it('tasks stored before the index are indexed when the manager starts', async () => {
    const store = new MemoryStore();
    const task: Task = {
      id: 'old',
      contextId: 'c',
      status: { state: 'TASK_STATE_COMPLETED', timestamp: '2024-01-01T00:00:00.000Z' },
    };
    await store.put('a2a/tasks', 'old', { task, lastEventId: 0 });
    const { manager: m } = manager(done, { store });
    await m.ready;
    expect((await m.list({ contextId: 'c' })).tasks).toEqual([task]);
  });
});

describe('task manager > unrecognized message fields', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['top level > dropped', { tckUnknownField: 1 }, {}],
    [
      'in a part > dropped, the part kept',
      { parts: [{ text: 'x', extra: true }] },
      { parts: [{ text: 'x' }] },
    ],
    [
      'free-form members > metadata and a data part keep every key',
      { metadata: { any_key: { deep: 1 } }, parts: [{ data: { own: 1 }, metadata: { m: 2 } }] },
      { metadata: { any_key: { deep: 1 } }, parts: [{ data: { own: 1 }, metadata: { m: 2 } }] },
    ],
    [
      'declared lists > kept',
      { extensions: ['urn:x'], referenceTaskIds: ['t1'] },
      { extensions: ['urn:x'], referenceTaskIds: ['t1'] },
    ],
  ];
  it.each(cases)('%s', async (_, given, kept) => {
    const { manager: m } = manager(asking);
    // sound: the test sends fields the Message type does not name, as a client on the wire may.
    const task = await taskOf(m, send('hi', given as Partial<Message>));
    const [stored] = (await m.get(task.id)).history ?? [];
    expect(stored).toEqual({
      messageId: expect.any(String),
      role: 'ROLE_USER',
      parts: [{ text: 'hi' }],
      taskId: task.id,
      contextId: task.contextId,
      ...kept,
    });
  });
});
