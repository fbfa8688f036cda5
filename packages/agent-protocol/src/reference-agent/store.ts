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

/** The reference agent's in-memory store: tasks in creation order, each with its steps and artifacts. */
export class MemoryStore {
  readonly #tasks = new Map<string, StoredTask>();
  #nextId = 1;

  /** A new identifier, unique in this store. */
  newId(prefix: string): string {
    return `${prefix}-${String(this.#nextId++).padStart(6, '0')}`;
  }

  add(task: Task): StoredTask {
    const stored: StoredTask = { task, steps: [], artifacts: [] };
    this.#tasks.set(task.task_id, stored);
    return stored;
  }

  get(taskId: string): StoredTask | undefined {
    return this.#tasks.get(taskId);
  }

  /** Every task, oldest first. */
  list(): Task[] {
    return [...this.#tasks.values()].map((t) => t.task);
  }
}
