// A task's record and its event log in the store: reads, writes serialized per task in this process, changes that
// go to the log and then to the task, and following the log. Kept apart because the writers and the followers share
// one rule (log first, task after, `lastEventId` between them) and it holds only if both sides live together.
import type { AgentStore } from '@agentproto/runtime';
import { A2aError } from '../errors/a2a-error.js';
import type { StreamResponse, Task } from '../generated/1.0/index.js';
import { INTERRUPTED_STATES, TERMINAL_STATES } from './agent.js';
import { eventLog, reduceStored, type StoredTask, TASKS } from './stored-task.js';
import { variant } from './task-events.js';
import { keysOf } from './task-index.js';

/** The tasks of one task manager as its store holds them. */
export class TaskRecords {
  /** Per task, the tail of its chain of writes: this process never writes one task twice at once. */
  readonly #writes = new Map<string, Promise<unknown>>();

  constructor(readonly store: AgentStore) {}

  /** The stored task, with any event its log holds beyond it; TASK_NOT_FOUND if there is none. */
  async stored(taskId: string): Promise<StoredTask> {
    return (await this.record(taskId)).value;
  }

  /**
   * The task's record as the store holds it (its `rev`, for a guarded write), its value caught up with its log;
   * TASK_NOT_FOUND if there is none.
   */
  async record(taskId: string): Promise<{ rev: number; value: StoredTask }> {
    const record = await this.store.get<StoredTask>(TASKS, taskId);
    if (!record) throw new A2aError('TASK_NOT_FOUND', `no task ${taskId}`, { taskId });
    return { rev: record.rev, value: await this.caughtUp(taskId, record.value) };
  }

  /**
   * A stored task with the events its log holds after its `lastEventId` applied. A writer appends to the log, then
   * writes the task: one that died between the two (a SIGKILL, a store gone) left an event that a client may have
   * been sent already and that the task does not show. Every read and every write starts from the task caught up,
   * so no such event is lost, and the next write stores it.
   */
  private async caughtUp(taskId: string, stored: StoredTask): Promise<StoredTask> {
    let caught = stored;
    for (const entry of await this.store.read<StreamResponse>(eventLog(taskId), stored.lastEventId))
      caught = reduceStored(caught, entry.value, entry.id);
    return caught;
  }

  /** The task; TASK_NOT_FOUND if there is none. */
  async task(taskId: string): Promise<Task> {
    return (await this.stored(taskId)).task;
  }

  /**
   * Applies one change to a task: `change` gets the task as it stands and answers the event to record (or nothing).
   * The event goes to the task's log, then the task is written with it: a follower reading the task and then the log
   * from the task's `lastEventId` sees every event exactly once.
   */
  apply(
    taskId: string,
    change: (task: Task, stored: StoredTask) => StreamResponse | undefined,
  ): Promise<{ applied: boolean; task: Task }> {
    return this.write(taskId, async () => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const record = await this.record(taskId);
        const current = record.value;
        const event = change(current.task, current);
        if (!event) return { applied: false, task: current.task };
        const eventId = await this.store.append(eventLog(taskId), event, {
          collection: TASKS,
          id: taskId,
          rev: record.rev,
        });
        if (eventId === undefined) continue; // another process wrote the task meanwhile: look again
        const next = reduceStored(current, event, eventId);
        if (
          (await this.store.put<StoredTask>(TASKS, taskId, next, record.rev, keysOf(next.task))) !== undefined
        )
          return { applied: true, task: next.task };
      }
      throw new Error(`task ${taskId} kept changing under this write`);
    });
  }

  /** Runs writes to one task one after another in this process. */
  write<T>(taskId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#writes.get(taskId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => {});
    this.#writes.set(taskId, tail);
    void tail.then(() => {
      if (this.#writes.get(taskId) === tail) this.#writes.delete(taskId);
    });
    return next;
  }

  /**
   * A task's events after `afterEventId`, until a terminal or interrupted state (the end of the turn: an interrupted
   * task continues only when the client sends again, which starts a stream of its own), or until `signal` aborts.
   */
  async *follow(taskId: string, afterEventId: number, outer?: AbortSignal): AsyncGenerator<StreamResponse> {
    const abort = new AbortController();
    const onAbort = () => abort.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const entry of this.store.follow<StreamResponse>(
        eventLog(taskId),
        afterEventId,
        abort.signal,
      )) {
        yield entry.value;
        const state = variant(entry.value).statusUpdate?.status.state;
        if (state && (TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state))) return;
      }
    } finally {
      outer?.removeEventListener('abort', onAbort);
      abort.abort();
    }
  }
}
