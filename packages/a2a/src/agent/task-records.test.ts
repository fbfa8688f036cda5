// A writer that died between appending an event and writing the task (a SIGKILL, a store gone) leaves an event in
// the log that the task does not show; a client may have been sent it already. Reads and writes catch the task up.
import { MemoryStore } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import type { StreamResponse, Task } from '../generated/1.0/index.js';
import { eventLog, type StoredTask, TASKS } from './stored-task.js';
import { TaskRecords } from './task-records.js';

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
