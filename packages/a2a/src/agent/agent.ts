// What an A2A agent written on this package is: its card, and a `run` function that answers one message with events.
// The task manager turns those events into tasks, status updates, artifacts and streams for both bindings.
import type { AgentCard, Artifact, Message, Part, Task, TaskState } from '../generated/1.0/index.js';

/** What `run` gets for one message. */
export interface AgentTurn {
  /** The message the client sent. */
  message: Message;
  /** The task the message belongs to, as it stands (history included), already `TASK_STATE_WORKING`. */
  task: Task;
  /** Aborts when the task is canceled: stop work and return. */
  signal: AbortSignal;
}

/** A change of the task's state, with an optional message from the agent (text, or parts). */
export interface StateEvent {
  state: TaskState;
  /** What the agent says with the state: the question when input is required, the reason for a failure. */
  text?: string;
  parts?: Part[];
}

/** An artifact, or a chunk of one (`append` adds its parts to the artifact of the same id). */
export interface ArtifactEvent {
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
}

/** A direct answer without a task: only as the first and only event of a turn that starts no task. */
export interface ReplyEvent {
  reply: string | Part[];
}

/** What `run` yields. */
export type AgentEvent = StateEvent | ArtifactEvent | ReplyEvent;

/** An agent card as an agent states it: the server adds the interfaces (the URLs it serves) when they are left out. */
export type AgentCardInput = {
  [K in keyof AgentCard as K extends 'supportedInterfaces' ? never : K]: AgentCard[K];
} & { supportedInterfaces?: AgentCard['supportedInterfaces'] };

/** An A2A agent: its card (the interfaces are filled in by the server) and how it answers a message. */
export interface A2aAgent {
  card: AgentCardInput;
  /**
   * Answers one message. Yield states and artifacts; return (or yield a terminal state) when done. Yield
   * `TASK_STATE_INPUT_REQUIRED` with a question to wait for the client's next message on the same task; `run` is
   * called again with it. Throwing fails the task (the client sees a generic message; the error goes to `onError`).
   */
  run(turn: AgentTurn): AsyncIterable<AgentEvent>;
}

/** States after which a task never changes (specification §4.1.3). */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/** States in which a task waits for the client. */
export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);
