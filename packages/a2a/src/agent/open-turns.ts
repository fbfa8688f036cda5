// The marks of the turns this instance is running, kept in the store so they outlive it, and what it does with the
// marks it left behind when it starts again: those tasks fail. Kept apart as the restart-recovery concern.
import { type AgentStore, OpenWork } from '@agentproto/runtime';
import { A2aError } from '../errors/a2a-error.js';
import { INTERRUPTED_STATES, TERMINAL_STATES } from './agent.js';
import { OPEN_TASKS } from './stored-task.js';
import { statusEvent } from './task-events.js';
import type { TaskRecords } from './task-records.js';

/** The running turns of one instance among those sharing a store. */
export class OpenTurns {
  readonly #open: OpenWork<{ owner: string; taskId: string }>;

  constructor(
    store: AgentStore,
    readonly instance: string,
  ) {
    this.#open = new OpenWork(store, OPEN_TASKS);
  }

  /** Marks a task's turn as running in this instance. */
  open(taskId: string): Promise<void> {
    return this.#open.open(taskId, { owner: this.instance, taskId });
  }

  /** Marks a task's turn as ended (its final or interrupted state is stored, or it never started). */
  close(taskId: string): Promise<void> {
    return this.#open.close(taskId);
  }

  /**
   * Fails the tasks this instance was working on when it last stopped (their turns died with it). Their subscribers,
   * in any process, get the failed state and their streams end.
   */
  async failAbandoned(records: TaskRecords): Promise<void> {
    for (const { taskId } of await this.#open.ownedBy(this.instance)) {
      await records
        .apply(taskId, (task) =>
          TERMINAL_STATES.has(task.status.state) || INTERRUPTED_STATES.has(task.status.state)
            ? undefined
            : statusEvent(task, 'TASK_STATE_FAILED', [
                { text: 'The agent stopped while working on the task.' },
              ]),
        )
        .catch((error: unknown) => {
          // A mark whose task was never stored (the process stopped in between) has nothing to fail.
          if (!(error instanceof A2aError && error.reason === 'TASK_NOT_FOUND')) throw error;
        });
      await this.#open.close(taskId);
    }
  }
}
