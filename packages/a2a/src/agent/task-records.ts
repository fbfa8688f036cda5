// A task's event log and the records kept beside it in the store: reads, writes serialized per task in this process,
// changes appended to the log, and following the log. Kept apart because the writers and the followers share one rule
// (the log is the task; every record is derived from it) and it holds only if both sides live together.
//
// The log is the source. The task's record (TASKS) is a snapshot: the task as of one event (its `lastEventId`); the
// task as it stands is that snapshot with the log's later events applied (the tail), for every read and write alike.
//
// A change is one append, guarded by the log's last id: the id of the event the change was computed from. Of two
// writers that computed a change from the same state (in this process or another sharing the store), one append
// holds; the other is refused, reads the tail again and computes its change again. No other write takes part in that
// decision, so nothing else needs to be written per event:
// - the snapshot is written (guarded by its revision, so an older one never replaces a newer one) when the task ends,
//   and when the tail since the last snapshot holds as many bytes as the snapshot itself (at least SNAPSHOT_MIN_BYTES)
//   or SNAPSHOT_MAX_EVENTS events. A write costs its event, plus a share of the snapshot that is at most a constant
//   times the event's bytes once spread over the events between two snapshots; a cold read costs the snapshot and a
//   tail no larger than it (or SNAPSHOT_MAX_EVENTS small events). A task waiting for input is not written on each
//   turn: that would make every turn cost the whole task again.
// - ListTasks' entry (TASK_INDEX, task-index.ts) is written when an event changes the keys the task is listed by (a
//   status update: its state and timestamp), never with anything older than it holds.
// A process killed after the append and before either write loses nothing: the event is in the log, which every read
// applies; the list's entry is one status behind until the task's next status update.
//
// Each recent task is also kept folded in this process (bounded by CACHE). A hit is checked by reading the log after
// it, one query that is usually empty, so another process's events are never missed, and a turn neither reads nor
// parses the snapshot. What the methods answer is that shared value: read it, never change it.
import { type AgentStore, RetainedMap } from '@agentproto/runtime';
import { A2aError } from '../errors/a2a-error.js';
import type { StreamResponse, Task } from '../generated/1.0/index.js';
import { INTERRUPTED_STATES, TERMINAL_STATES } from './agent.js';
import {
  bytesOf,
  eventLog,
  reduceStored,
  type StoredTask,
  sizesOf,
  TASK_INDEX,
  TASKS,
  type TaskIndexEntry,
} from './stored-task.js';
import { FOLLOWING_DONE } from './streams.js';
import { variant } from './task-events.js';
import { keysOf } from './task-index.js';

/** Below this many bytes of tail, the snapshot is not written again (unless the task ends or the tail is long). */
export const SNAPSHOT_MIN_BYTES = 64 * 1024;
/** Most events in a tail: past it the snapshot is written again, so a cold read folds at most this many. */
export const SNAPSHOT_MAX_EVENTS = 200;
/** How many folded tasks, and how many bytes of them (history and artifacts), a process keeps at most. */
const CACHE = { maxEntries: 256, maxWeight: 64 * 1024 * 1024 };
/** Log entries read at a time while folding a tail. */
const PAGE = 1000;

/** A task folded up to an event of its log, and what its snapshot holds. */
interface Folded {
  stored: StoredTask;
  /** The revision of the task's record (its snapshot) as last seen, for the next guarded write of it. */
  snapshotRev: number;
  /** The event the snapshot reflects, and its bytes (history and artifacts). */
  snapshotAt: number;
  snapshotBytes: number;
  /** The events after the snapshot, and their bytes as JSON. */
  tailEvents: number;
  tailBytes: number;
}

/** A folded task with one more event of its log. */
function fold(folded: Folded, event: StreamResponse, eventId: number): Folded {
  return {
    ...folded,
    stored: reduceStored(folded.stored, event, eventId),
    tailEvents: folded.tailEvents + 1,
    tailBytes: folded.tailBytes + bytesOf(event),
  };
}

/** Whether the snapshot is due: the task ended, or its tail is as large as the snapshot, or long. */
function due(folded: Folded): boolean {
  return (
    TERMINAL_STATES.has(folded.stored.task.status.state) ||
    folded.tailEvents >= SNAPSHOT_MAX_EVENTS ||
    folded.tailBytes >= Math.max(SNAPSHOT_MIN_BYTES, folded.snapshotBytes)
  );
}

const weightOf = (stored: StoredTask) => (stored.historyBytes ?? 0) + (stored.artifactBytes ?? 0) + 1;

const sameKeys = (a: Task, b: Task) => JSON.stringify(keysOf(a)) === JSON.stringify(keysOf(b));

/** What `apply` did: whether it appended an event, the task after it, and the task's last event. */
export interface Applied {
  applied: boolean;
  task: Task;
  lastEventId: number;
}

/** The tasks of one task manager as its store holds them. */
export class TaskRecords {
  /** Per task, the tail of its chain of writes: this process never writes one task twice at once. */
  readonly #writes = new Map<string, Promise<unknown>>();
  /** Recent tasks, folded: each is checked against the log before it is used. */
  readonly #folded = new RetainedMap<string, Folded>(CACHE);

  constructor(
    readonly store: AgentStore,
    /**
     * Told when a write that follows an append fails (the snapshot, the list's entry): the event is stored, so the
     * change holds, and the next event writes them again.
     */
    private readonly onError: (error: unknown, taskId: string) => void = (error, taskId) =>
      console.error(`[a2a task ${taskId}]`, error),
  ) {}

  /** The task as its log stands now (snapshot and tail); TASK_NOT_FOUND if there is none. */
  async stored(taskId: string): Promise<StoredTask> {
    return (await this.#current(taskId)).stored;
  }

  /** The task; TASK_NOT_FOUND if there is none. */
  async task(taskId: string): Promise<Task> {
    return (await this.stored(taskId)).task;
  }

  /**
   * Stores a new task (its first snapshot, before any event) and lists it; false, with nothing written, if the id is
   * taken.
   */
  async create(stored: StoredTask): Promise<boolean> {
    const taskId = stored.task.id;
    const rev = await this.store.put<StoredTask>(TASKS, taskId, stored, 0);
    if (rev === undefined) return false;
    const snapshotBytes = weightOf(stored) - 1;
    this.#remember(taskId, {
      stored,
      snapshotRev: rev,
      snapshotAt: stored.lastEventId,
      snapshotBytes,
      tailEvents: 0,
      tailBytes: 0,
    });
    await this.#index(stored).catch((error: unknown) => this.onError(error, taskId));
    return true;
  }

  /** The task folded to the log's end: the one kept in this process, else the snapshot, with the tail applied. */
  async #current(taskId: string): Promise<Folded> {
    const kept = this.#folded.get(taskId);
    const folded = await this.#tail(taskId, kept ?? (await this.#load(taskId)));
    this.#remember(taskId, folded);
    return folded;
  }

  /** The task's snapshot as stored; TASK_NOT_FOUND if there is none. */
  async #load(taskId: string): Promise<Folded> {
    const record = await this.store.get<StoredTask>(TASKS, taskId);
    if (!record) throw new A2aError('TASK_NOT_FOUND', `task ${taskId} not found`, { taskId });
    const stored = record.value;
    return {
      stored,
      snapshotRev: record.rev,
      snapshotAt: stored.lastEventId,
      snapshotBytes: weightOf(sizesOf(stored)) - 1,
      tailEvents: 0,
      tailBytes: 0,
    };
  }

  /** A folded task with the events its log holds after it applied. */
  async #tail(taskId: string, from: Folded): Promise<Folded> {
    let folded = from;
    for (;;) {
      const entries = await this.store.read<StreamResponse>(
        eventLog(taskId),
        folded.stored.lastEventId,
        PAGE,
      );
      for (const entry of entries) folded = fold(folded, entry.value, entry.id);
      if (entries.length < PAGE) return folded;
    }
  }

  /** Keeps a folded task, unless this process already keeps it further along. */
  #remember(taskId: string, folded: Folded): void {
    const kept = this.#folded.get(taskId);
    if (kept) {
      const ahead = kept.stored.lastEventId - folded.stored.lastEventId;
      if (ahead > 0 || (ahead === 0 && kept.snapshotAt > folded.snapshotAt)) return;
    }
    this.#folded.set(taskId, folded, weightOf(folded.stored));
  }

  /**
   * Applies one change to a task: `change` gets the task as it stands and answers the event to record (or nothing).
   * The event is appended only if the log still ends at the event the task was folded to; otherwise the task is
   * caught up and `change` asked again (or, with `retry: false`, the write fails). A follower reading the task and
   * then the log from its `lastEventId` sees every event exactly once.
   */
  apply(
    taskId: string,
    change: (task: Task, stored: StoredTask) => StreamResponse | undefined,
    options: { retry?: boolean } = {},
  ): Promise<Applied> {
    return this.write(taskId, async () => {
      let folded = await this.#current(taskId);
      for (let attempt = 0; attempt < 100; attempt++) {
        const current = folded.stored;
        const event = change(current.task, current);
        if (!event) return { applied: false, task: current.task, lastEventId: current.lastEventId };
        const eventId = await this.store.append(eventLog(taskId), event, { lastId: current.lastEventId });
        if (eventId === undefined) {
          // Another writer appended meanwhile: look again.
          if (options.retry === false) throw new Error(`task ${taskId} changed while this change was made`);
          folded = await this.#behind(taskId, folded);
          continue;
        }
        let next = fold(folded, event, eventId);
        this.#remember(taskId, next);
        // The change holds from here on, whatever becomes of the writes derived from it.
        try {
          if (!sameKeys(current.task, next.stored.task)) await this.#index(next.stored);
          if (due(next)) next = await this.#snapshot(next);
          // A task in a final state is finished: the store lets it go after its retention (AgentStore.expire).
          if (
            TERMINAL_STATES.has(next.stored.task.status.state) &&
            !TERMINAL_STATES.has(current.task.status.state)
          )
            await this.store.expire([
              { collection: TASKS, id: taskId },
              { collection: TASK_INDEX, id: taskId },
              { log: eventLog(taskId) },
            ]);
        } catch (error) {
          this.onError(error, taskId);
        }
        return { applied: true, task: next.stored.task, lastEventId: eventId };
      }
      throw new Error(`task ${taskId} kept changing under this write`);
    });
  }

  /**
   * The task caught up after an append was refused. A log that ends before the task's last event lost its entries
   * (only a memory store drops a log, when it is over its limits, and then starts it again at 1): the task is stored
   * again as of the log's end, so that what the log gets next is applied to it.
   */
  async #behind(taskId: string, folded: Folded): Promise<Folded> {
    const caught = await this.#tail(taskId, folded);
    if (caught.stored.lastEventId !== folded.stored.lastEventId) return caught;
    const last = await this.store.lastId(eventLog(taskId));
    if (last >= caught.stored.lastEventId) return caught;
    const stored: StoredTask = { ...caught.stored, lastEventId: last };
    const rev = await this.store.put<StoredTask>(TASKS, taskId, stored);
    await this.store.delete(TASK_INDEX, taskId);
    await this.#index(stored);
    const rebased: Folded = {
      stored,
      snapshotRev: rev ?? 0,
      snapshotAt: last,
      snapshotBytes: weightOf(stored) - 1,
      tailEvents: 0,
      tailBytes: 0,
    };
    this.#folded.delete(taskId);
    this.#remember(taskId, rebased);
    return rebased;
  }

  /** Writes the task's list entry, unless it already reflects this event or a later one. */
  async #index(stored: StoredTask): Promise<void> {
    const taskId = stored.task.id;
    for (let attempt = 0; attempt < 100; attempt++) {
      const entry = await this.store.get<TaskIndexEntry>(TASK_INDEX, taskId);
      if (entry && entry.value.lastEventId >= stored.lastEventId) return;
      const entryValue: TaskIndexEntry = { lastEventId: stored.lastEventId };
      const rev = await this.store.put(
        TASK_INDEX,
        taskId,
        entryValue,
        entry?.rev ?? 0,
        keysOf(stored.task, stored.tenant),
      );
      if (rev !== undefined) return;
    }
  }

  /** Writes the task's snapshot, unless another writer stored one as recent meanwhile. */
  async #snapshot(folded: Folded): Promise<Folded> {
    const { stored } = folded;
    const taskId = stored.task.id;
    let rev = folded.snapshotRev;
    for (let attempt = 0; attempt < 100; attempt++) {
      const written = await this.store.put<StoredTask>(TASKS, taskId, stored, rev);
      const record = written === undefined ? await this.store.get<StoredTask>(TASKS, taskId) : undefined;
      // A store that let the record go (a memory store over its limits) does not get it back from here.
      if (written === undefined && !record) return folded;
      if (written !== undefined || (record && record.value.lastEventId >= stored.lastEventId)) {
        const snapshotted: Folded = {
          ...folded,
          snapshotRev: written ?? record?.rev ?? rev,
          snapshotAt:
            written === undefined ? (record?.value.lastEventId ?? stored.lastEventId) : stored.lastEventId,
          snapshotBytes: weightOf(stored) - 1,
          tailEvents: 0,
          tailBytes: 0,
        };
        this.#remember(taskId, snapshotted);
        return snapshotted;
      }
      rev = record?.rev ?? rev;
    }
    return folded;
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
   * task continues only when the client sends again, which starts a stream of its own), or until `signal` aborts. The
   * client's messages the log holds (each starting a turn) are not stream events and are left out.
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
        const event = variant(entry.value);
        if (event.message) continue;
        yield entry.value;
        const state = event.statusUpdate?.status.state;
        if (state && (TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state))) return;
      }
    } finally {
      outer?.removeEventListener('abort', onAbort);
      abort.abort(FOLLOWING_DONE);
    }
  }
}
