// The events a task's log holds, made from what the agent yields: status updates (with the agent's message) and
// artifact updates. Kept apart because turns, cancellation and recovery all write these events, and the reducer and
// the followers read them back.
import { randomUUID } from 'node:crypto';
import type {
  Message,
  Part,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from '../generated/1.0/index.js';
import type { AgentEvent } from './agent.js';

/** The event an agent's event makes of a task. */
export function eventOf(task: Task, event: AgentEvent): StreamResponse {
  if ('artifact' in event)
    return {
      artifactUpdate: {
        taskId: task.id,
        contextId: task.contextId ?? '',
        artifact: event.artifact,
        ...(event.append ? { append: true } : {}),
        ...(event.lastChunk ? { lastChunk: true } : {}),
      },
    };
  if ('reply' in event)
    return statusEvent(
      task,
      'TASK_STATE_COMPLETED',
      typeof event.reply === 'string' ? [{ text: event.reply }] : event.reply,
    );
  const parts = event.parts ?? (event.text === undefined ? undefined : [{ text: event.text }]);
  return statusEvent(task, event.state, parts);
}

/** A status update moving the task to `state`, with the agent saying `parts` if given. */
export function statusEvent(task: Task, state: TaskState, parts?: Part[]): StreamResponse {
  const s = status(state);
  if (parts) s.message = { ...agentMessage(parts, task.contextId), taskId: task.id };
  return { statusUpdate: { taskId: task.id, contextId: task.contextId ?? '', status: s } };
}

/** A status of `state`, stamped now. */
export function status(state: TaskState): TaskStatus {
  return { state, timestamp: new Date().toISOString() };
}

/** A message from the agent, with a fresh id. */
export function agentMessage(content: string | Part[], contextId: string | undefined): Message {
  return {
    messageId: randomUUID(),
    role: 'ROLE_AGENT',
    parts: typeof content === 'string' ? [{ text: content }] : content,
    ...(contextId ? { contextId } : {}),
  };
}

/**
 * A StreamResponse with its one member readable by name (the type is a union of the four). In a task's log a
 * `message` is the client's message joining the history at the start of a turn on a task that waited for input.
 */
export function variant(event: StreamResponse): {
  statusUpdate?: TaskStatusUpdateEvent;
  artifactUpdate?: TaskArtifactUpdateEvent;
  message?: Message;
} {
  // sound: the events read here are built by this module or the task manager (each with exactly one of the four
  // members) or validated against StreamResponse, whose oneOf admits one member; a `task` reads as none of the three.
  return event as {
    statusUpdate?: TaskStatusUpdateEvent;
    artifactUpdate?: TaskArtifactUpdateEvent;
    message?: Message;
  };
}
