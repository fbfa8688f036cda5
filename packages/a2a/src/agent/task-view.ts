// How a task shows to the client: trimmed to the history and artifacts an answer asks for, and its state named in
// error messages. Kept apart because every operation answers with it, and none of it touches the store.
import type { Task, TaskState } from '../generated/1.0/index.js';

/** A task as an answer shows it: the last `historyLength` messages (none for 0), artifacts unless left out. */
export function view(task: Task, historyLength?: number, withArtifacts = true): Task {
  const { history, artifacts, ...rest } = task;
  const out: Task = { ...rest };
  if (history && history.length > 0 && historyLength !== 0)
    out.history = historyLength === undefined ? history : history.slice(-historyLength);
  if (withArtifacts && artifacts && artifacts.length > 0) out.artifacts = artifacts;
  return out;
}

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`, for messages. */
export function stateName(state: TaskState): string {
  return state.replace('TASK_STATE_', '').toLowerCase().replaceAll('_', '-');
}
