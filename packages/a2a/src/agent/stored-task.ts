// A task as the store keeps it, where it is kept, and how one event changes it: the new status joins the history, an
// artifact is added or grown, and the byte counts the limits read grow with them. Kept apart so every writer (turns,
// cancellation, recovery) and the limit checks apply an event the same way.
import type { StreamResponse, Task } from '../generated/1.0/index.js';
import { variant } from './task-events.js';

/** The collection of tasks, by id. */
export const TASKS = 'a2a/tasks';
/** Tasks whose turn is running, with the instance running it: what that instance fails when it starts again. */
export const OPEN_TASKS = 'a2a/open-tasks';
/** The log of a task's events, which followers read, and from which its state is folded. */
export const eventLog = (taskId: string): string => `a2a/events/${taskId}`;
/**
 * The entries ListTasks lists tasks by: one small record per task (the id of the event its keys were taken at), under
 * the keys of task-index.ts, written whenever an event changes them. Apart from the task's record, which is a
 * snapshot written now and then (task-records.ts), so that an event that moves the task in the list costs its size.
 */
export const TASK_INDEX = 'a2a/task-index';

/** A task's entry in TASK_INDEX: the event its keys reflect (an older one never replaces it). */
export interface TaskIndexEntry {
  lastEventId: number;
}

/**
 * A task as stored: the task, the id of the last event of its log it reflects, and the bytes its history and
 * artifacts hold (kept as they grow, so a limit is checked without measuring the whole task again).
 */
export interface StoredTask {
  task: Task;
  /**
   * The tenant the task was made under (the `tenant` of its SendMessage, DECISIONS 115); absent for the default
   * tenant. Only requests naming the same tenant see the task.
   */
  tenant?: string;
  lastEventId: number;
  historyBytes?: number;
  artifactBytes?: number;
}

/**
 * A task with one event applied: the new status (its message joins the history), the artifact added or grown, or the
 * client's message that starts a turn joining the history.
 */
export function reduce(task: Task, stored: StreamResponse): Task {
  const event = variant(stored);
  if (event.message) return { ...task, history: [...(task.history ?? []), event.message] };
  if (event.statusUpdate) {
    const s = event.statusUpdate.status;
    return { ...task, status: s, ...(s.message ? { history: [...(task.history ?? []), s.message] } : {}) };
  }
  if (event.artifactUpdate) {
    const { artifact, append } = event.artifactUpdate;
    const artifacts = [...(task.artifacts ?? [])];
    const at = artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
    const known = artifacts[at];
    if (!known) artifacts.push(artifact);
    else if (append) artifacts[at] = { ...known, parts: [...known.parts, ...artifact.parts] };
    else artifacts[at] = artifact;
    return { ...task, artifacts };
  }
  return task;
}

/** How many bytes a value takes as JSON: what the task limits count. */
export function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** A stored task with its byte counts filled in (measured once for a task stored before they were kept). */
export function sizesOf(stored: StoredTask): StoredTask {
  return {
    ...stored,
    historyBytes: stored.historyBytes ?? bytesOf(stored.task.history ?? []),
    artifactBytes: stored.artifactBytes ?? bytesOf(stored.task.artifacts ?? []),
  };
}

/** A stored task with one event applied, its byte counts grown by what the event added. */
export function reduceStored(stored: StoredTask, event: StreamResponse, lastEventId: number): StoredTask {
  const before = sizesOf(stored);
  let historyBytes = before.historyBytes ?? 0;
  let artifactBytes = before.artifactBytes ?? 0;
  const { statusUpdate, artifactUpdate, message } = variant(event);
  if (statusUpdate?.status.message) historyBytes += bytesOf(statusUpdate.status.message);
  if (message) historyBytes += bytesOf(message);
  if (artifactUpdate) {
    const { artifact, append } = artifactUpdate;
    const old = append ? undefined : stored.task.artifacts?.find((a) => a.artifactId === artifact.artifactId);
    artifactBytes += bytesOf(append ? artifact.parts : artifact) - (old ? bytesOf(old) : 0);
  }
  return {
    task: reduce(stored.task, event),
    lastEventId,
    historyBytes,
    artifactBytes,
    ...(stored.tenant === undefined ? {} : { tenant: stored.tenant }),
  };
}
