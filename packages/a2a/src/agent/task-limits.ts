// What one task may hold, and the checks that keep it there: a client message with no room is refused, an agent
// event with no room fails the task. Kept apart so the limits and their two outcomes read in one place.
import { A2aError } from '../errors/a2a-error.js';
import type { Message, StreamResponse } from '../generated/1.0/index.js';
import { bytesOf, reduceStored, type StoredTask, sizesOf } from './stored-task.js';

/**
 * What one task may hold. A client message that would pass a history limit is refused with UnsupportedOperationError
 * (the task cannot take it); an agent event that would pass a limit fails the task instead. How many tasks are kept is
 * the store's business (MemoryStoreLimits for memory).
 */
export interface TaskLimits {
  /** Most messages in a task's history, the client's and the agent's (default 1,000). */
  maxHistoryMessages: number;
  /** Most bytes of history, as JSON (default 8 MiB). */
  maxHistoryBytes: number;
  /** Most artifacts of one task (default 100). */
  maxArtifacts: number;
  /** Most bytes of artifacts, as JSON, appended chunks included (default 16 MiB). */
  maxArtifactBytes: number;
}

/** What a TaskManager allows unless told otherwise: together well under the memory store's 64 MiB per collection. */
export const DEFAULT_TASK_LIMITS: Readonly<TaskLimits> = Object.freeze({
  maxHistoryMessages: 1_000,
  maxHistoryBytes: 8 * 1024 * 1024,
  maxArtifacts: 100,
  maxArtifactBytes: 16 * 1024 * 1024,
});

/** An agent event that would take its task past a limit: the task fails. */
export class TaskLimitError extends Error {
  override name = 'TaskLimitError';
}

/** UNSUPPORTED_OPERATION for a client message the task's history has no room for. */
export function checkMessage(limits: Readonly<TaskLimits>, stored: StoredTask, message: Message): void {
  const { maxHistoryMessages, maxHistoryBytes } = limits;
  const taskId = stored.task.id;
  const count = (stored.task.history?.length ?? 0) + 1;
  const bytes = (sizesOf(stored).historyBytes ?? 0) + bytesOf(message);
  if (count > maxHistoryMessages)
    throw new A2aError(
      'UNSUPPORTED_OPERATION',
      `task ${taskId} holds its limit of ${maxHistoryMessages} messages and takes no more`,
      { taskId, limit: 'maxHistoryMessages' },
    );
  if (bytes > maxHistoryBytes)
    throw new A2aError(
      'UNSUPPORTED_OPERATION',
      `this message would take the history of task ${taskId} past its limit of ${maxHistoryBytes} bytes`,
      { taskId, limit: 'maxHistoryBytes' },
    );
}

/** The event, if the task has room for it; a TaskLimitError (the task fails) if not. */
export function checkEvent(
  limits: Readonly<TaskLimits>,
  stored: StoredTask,
  event: StreamResponse,
): StreamResponse {
  const { maxHistoryMessages, maxHistoryBytes, maxArtifacts, maxArtifactBytes } = limits;
  const next = reduceStored(stored, event, stored.lastEventId);
  const over = (what: string) =>
    new TaskLimitError(`The task reached its limit of ${what} and cannot hold the agent's next update.`);
  if ((next.task.history?.length ?? 0) > maxHistoryMessages) throw over(`${maxHistoryMessages} messages`);
  if ((next.historyBytes ?? 0) > maxHistoryBytes) throw over(`${maxHistoryBytes} bytes of history`);
  if ((next.task.artifacts?.length ?? 0) > maxArtifacts) throw over(`${maxArtifacts} artifacts`);
  if ((next.artifactBytes ?? 0) > maxArtifactBytes) throw over(`${maxArtifactBytes} bytes of artifacts`);
  return event;
}
