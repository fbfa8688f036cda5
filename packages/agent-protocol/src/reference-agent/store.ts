// What the reference agent keeps in memory: tasks with their steps and artifacts (with bytes), bounded by a retention
// policy, and the page arithmetic of Agent Protocol v1's list operations (`current_page`, `page_size`).
import { RetainedMap } from '@agentproto/runtime';
import type { Artifact, Step, Task } from '../generated/v1/index.js';

/** An artifact with its bytes. */
export interface StoredArtifact {
  artifact: Artifact;
  bytes: Uint8Array;
}

/** Everything the reference agent keeps about one task. */
export interface StoredTask {
  task: Task;
  steps: Step[];
  artifacts: StoredArtifact[];
  /** The bytes of the task's output.txt, made once by its last step and shared by each output.txt artifact. */
  output?: Uint8Array;
}

/** One page of a list, as Agent Protocol v1 describes it. */
export interface Page<T> {
  items: T[];
  pagination: { total_items: number; total_pages: number; current_page: number; page_size: number };
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
    pagination: {
      total_items: all.length,
      total_pages: Math.ceil(all.length / pageSize),
      current_page: currentPage,
      page_size: pageSize,
    },
  };
}

/** How much the reference agent's store keeps. */
export interface TaskRetention {
  /** Most tasks kept; past it the oldest go (default 1,000). */
  maxTasks: number;
  /** Most bytes kept over all tasks (inputs, steps, artifact bytes); past it the oldest tasks go (default 256 MiB). */
  maxBytes: number;
  /** Most steps one task may take; the next is refused (default 1,000). */
  maxStepsPerTask: number;
  /** Most artifacts one task may hold; the next upload is refused (default 100). */
  maxArtifactsPerTask: number;
}

/** What the reference store keeps unless told otherwise. */
export const DEFAULT_TASK_RETENTION: Readonly<TaskRetention> = Object.freeze({
  maxTasks: 1_000,
  maxBytes: 256 * 1024 * 1024,
  maxStepsPerTask: 1_000,
  maxArtifactsPerTask: 100,
});

/**
 * The reference agent's in-memory store: tasks in creation order, each with its steps and artifacts, within a
 * `TaskRetention`. Each task is weighed by the bytes it holds; past the count or byte limit the oldest tasks go.
 */
export class MemoryStore {
  readonly retention: TaskRetention;
  readonly #tasks: RetainedMap<string, StoredTask>;
  #nextId = 1;

  constructor(retention: Partial<TaskRetention> = {}) {
    this.retention = { ...DEFAULT_TASK_RETENTION, ...retention };
    this.#tasks = new RetainedMap({
      maxEntries: this.retention.maxTasks,
      maxWeight: this.retention.maxBytes,
    });
  }

  /** A new identifier, unique in this store. */
  newId(prefix: string): string {
    return `${prefix}-${String(this.#nextId++).padStart(6, '0')}`;
  }

  /** Keeps a new task (weighed by its JSON), which may let the oldest tasks go. */
  add(task: Task): StoredTask {
    const stored: StoredTask = { task, steps: [], artifacts: [] };
    this.#tasks.set(task.task_id, stored, weigh(task));
    return stored;
  }

  /** A task with its steps and artifacts, or undefined when it is unknown or no longer kept (both answer 404). */
  get(taskId: string): StoredTask | undefined {
    return this.#tasks.get(taskId);
  }

  /** Records that a task grew by this many bytes (a step, an artifact), which may let older tasks go. */
  grew(taskId: string, bytes: number): void {
    this.#tasks.grow(taskId, bytes);
  }

  /** Every task, oldest first. */
  list(): Task[] {
    return [...this.#tasks.values()].map((t) => t.task);
  }
}

/** The bytes a value takes as JSON: what the store weighs messages by. */
export function weigh(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}
