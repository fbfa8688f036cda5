// Where an Agent Protocol v1 agent keeps its tasks: one record per task (the task, its steps, its artifacts' metadata)
// and the artifacts' bytes as blobs, in an AgentStore (memory by default, SQLite or Redis to survive restarts or to
// share tasks between processes). Also the page arithmetic of v1's list operations (`current_page`, `page_size`).
import { type AgentStore, MemoryStore } from '@agentproto/runtime';
import type { Artifact, Step, Task } from '../generated/v1/index.js';

/** Everything kept about one task but the artifacts' bytes. */
export interface StoredTask {
  task: Task;
  steps: Step[];
  artifacts: Artifact[];
  /** Artifact id → the blob key of its bytes (every output.txt of a task shares one). */
  blobs: Record<string, string>;
}

/** One page of a list, as Agent Protocol v1 describes it. */
export interface Page<T> {
  items: T[];
  pagination: { total_items: number; total_pages: number; current_page: number; page_size: number };
}

/** The pagination block of a page of `total` items. */
function pagination(total: number, currentPage: number, pageSize: number): Page<never>['pagination'] {
  return {
    total_items: total,
    total_pages: Math.ceil(total / pageSize),
    current_page: currentPage,
    page_size: pageSize,
  };
}

/**
 * Slices a list into a page. `current_page` counts from 1; a page past the end is empty but still reports the
 * real totals, so a client can tell it walked off the end.
 */
export function paginate<T>(all: readonly T[], currentPage: number, pageSize: number): Page<T> {
  // Pages count from 1 (AIEF v1: `current_page` has minimum 1); a page past the end is an empty page.
  const start = (currentPage - 1) * pageSize;
  return {
    items: all.slice(start, start + pageSize),
    pagination: pagination(all.length, currentPage, pageSize),
  };
}

/** What one task may hold. How many tasks are kept is the store's business (MemoryStoreLimits for memory). */
export interface TaskLimits {
  /** Most steps one task may take; the next is refused (default 1,000). */
  maxStepsPerTask: number;
  /** Most artifacts one task may hold; the next upload is refused (default 100). */
  maxArtifactsPerTask: number;
}

/** What a TaskStore allows unless told otherwise. */
export const DEFAULT_TASK_LIMITS: Readonly<TaskLimits> = Object.freeze({
  maxStepsPerTask: 1_000,
  maxArtifactsPerTask: 100,
});

const TASKS = 'ap-v1/tasks';

/**
 * An Agent Protocol v1 agent's tasks in an AgentStore. Changes go through `update`, which writes only if no one
 * changed the task meanwhile and otherwise applies the change again to what they wrote: two processes adding steps to
 * one task both keep theirs.
 */
export class TaskStore {
  readonly limits: Readonly<TaskLimits>;

  constructor(
    readonly store: AgentStore = new MemoryStore(),
    limits: Partial<TaskLimits> = {},
  ) {
    this.limits = Object.freeze({ ...DEFAULT_TASK_LIMITS, ...limits });
  }

  /** A new identifier, unique in the store (and among every process sharing it). */
  async newId(prefix: string): Promise<string> {
    return `${prefix}-${String(await this.store.nextId(`ap-v1/${prefix}`)).padStart(6, '0')}`;
  }

  /** Keeps a new task. */
  async add(task: Task): Promise<StoredTask> {
    const stored: StoredTask = { task, steps: [], artifacts: [], blobs: {} };
    await this.store.put(TASKS, task.task_id, stored, 0);
    return stored;
  }

  /** A task with its steps and artifacts, or undefined when it is unknown or no longer kept (both answer 404). */
  async get(taskId: string): Promise<StoredTask | undefined> {
    return (await this.store.get<StoredTask>(TASKS, taskId))?.value;
  }

  /**
   * Changes a task: `change` gets its latest state, changes it in place, and answers a result and whether to write
   * (a refused step writes nothing). Answers the result, or undefined for an unknown task.
   */
  async update<R>(
    taskId: string,
    change: (task: StoredTask) => { result: R; write: boolean },
  ): Promise<R | undefined> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const current = await this.store.get<StoredTask>(TASKS, taskId);
      if (!current) return undefined;
      const { result, write } = change(current.value);
      if (!write) return result;
      if ((await this.store.put(TASKS, taskId, current.value, current.rev)) !== undefined) return result;
    }
    throw new Error(`task ${taskId} kept changing under 100 attempts to update it`);
  }

  /** One page of the tasks, oldest first. */
  async page(currentPage: number, pageSize: number): Promise<Page<Task>> {
    const total = await this.store.count(TASKS);
    const stored = await this.store.list<StoredTask>(TASKS, {
      offset: (currentPage - 1) * pageSize,
      limit: pageSize,
    });
    return { items: stored.map((s) => s.task), pagination: pagination(total, currentPage, pageSize) };
  }

  /** Keeps an artifact's bytes under a key of the task's. */
  async putBytes(taskId: string, name: string, bytes: Uint8Array): Promise<string> {
    const key = `ap-v1/${taskId}/${name}`;
    await this.store.putBlob(key, bytes);
    return key;
  }

  /** The bytes of a task's artifact, or undefined. */
  async bytes(task: StoredTask, artifactId: string): Promise<Uint8Array | undefined> {
    const key = task.blobs[artifactId];
    return key === undefined ? undefined : this.store.getBlob(key);
  }
}
