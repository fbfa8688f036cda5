// The binding-free core of an A2A agent: it runs the agent's turns in the background, keeps each task and its event
// log in an AgentStore, and answers the operations (send, stream, get, list, cancel, subscribe) the way the
// specification says, for the JSON-RPC and HTTP+JSON handlers alike. What a turn leans on lives beside it: the
// records and log (task-records), limits, events, listing, restart recovery (open-turns), views and stream shapes.
import { randomUUID } from 'node:crypto';
import { type AgentStore, defaultInstance, MemoryStore } from '@agentproto/runtime';
import { A2aError } from '../errors/a2a-error.js';
import type {
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  Task,
} from '../generated/1.0/index.js';
import { type A2aAgent, type AgentEvent, INTERRUPTED_STATES, TERMINAL_STATES } from './agent.js';
import { declaredMessage } from './declared-fields.js';
import { checkContent } from './input-modes.js';
import { OpenTurns } from './open-turns.js';
import { DEFAULT_SETTLE_RETRY, type SettleRetry, settleRetrying } from './settle-retry.js';
import { bytesOf, type StoredTask } from './stored-task.js';
import { once, withFirst } from './streams.js';
import { agentMessage, eventOf, status, statusEvent } from './task-events.js';
import { indexAll, listTasks } from './task-index.js';
import {
  checkEvent,
  checkMessage,
  DEFAULT_TASK_LIMITS,
  TaskLimitError,
  type TaskLimits,
} from './task-limits.js';
import { TaskRecords } from './task-records.js';
import { stateName, view } from './task-view.js';

export { DEFAULT_SETTLE_RETRY, type SettleRetry } from './settle-retry.js';
export { DEFAULT_TASK_LIMITS, type TaskLimits } from './task-limits.js';

/** Options of a TaskManager. */
export interface TaskManagerOptions {
  /** Where tasks and their events live (default: a MemoryStore with its default limits). */
  store?: AgentStore;
  /** Told when an agent's turn throws (the task fails) or a background write fails. Defaults to console.error. */
  onError?: (error: unknown, taskId: string) => void;
  /** What one task may hold (default `DEFAULT_TASK_LIMITS`). */
  limits?: Partial<TaskLimits>;
  /**
   * How the write of a turn's end (completed, failed) is tried again while the store is away (default
   * `DEFAULT_SETTLE_RETRY`: from 0.1 s up to every 5 s, for 10 minutes; past that, a restart fails the task).
   */
  settleRetry?: Partial<SettleRetry>;
  /**
   * This process's name among those sharing the store (default: the AGENTPROTO_INSTANCE environment variable, else the
   * host name). A process that starts again under the same name fails the tasks it was working on when it stopped;
   * two processes running at once need different names.
   */
  instance?: string;
  /**
   * Called once a message starts a turn on a task (not for a direct reply), before anything of the turn is stored:
   * `afterEventId` is the last event of the task's log before the turn (0 for a new task). A throw refuses the
   * message. Push notifications attach the config SendMessage carries here.
   */
  beforeTurn?: (taskId: string, afterEventId: number, request: SendMessageRequest) => Promise<void>;
}

/** Runs an A2A agent's turns and keeps its tasks. One per agent; share its store to run several processes. */
export class TaskManager {
  readonly store: AgentStore;
  readonly limits: Readonly<TaskLimits>;
  /** This process's name among those sharing the store. */
  readonly instance: string;
  /** Settles once the tasks this instance was working on when it last stopped are failed. */
  readonly ready: Promise<void>;
  readonly #tasks: TaskRecords;
  readonly #open: OpenTurns;
  readonly #onError: (error: unknown, taskId: string) => void;
  readonly #settleRetry: Readonly<SettleRetry>;
  readonly #beforeTurn: TaskManagerOptions['beforeTurn'];
  /** The turns running in this process, by task id: aborting one cancels it. */
  readonly #running = new Map<string, AbortController>();

  constructor(
    readonly agent: A2aAgent,
    options: TaskManagerOptions = {},
  ) {
    this.store = options.store ?? new MemoryStore();
    this.limits = Object.freeze({ ...DEFAULT_TASK_LIMITS, ...options.limits });
    this.#settleRetry = Object.freeze({ ...DEFAULT_SETTLE_RETRY, ...options.settleRetry });
    this.instance = options.instance ?? defaultInstance();
    this.#beforeTurn = options.beforeTurn;
    this.#onError = options.onError ?? ((error, taskId) => console.error(`[a2a task ${taskId}]`, error));
    this.#tasks = new TaskRecords(this.store, (error, taskId) => this.#onError(error, taskId));
    this.#open = new OpenTurns(this.store, this.instance);
    this.ready = this.#recover();
    // Callers see a failed start-up when they send; this keeps it from also being an unhandled rejection.
    this.ready.catch(() => {});
  }

  /** SendMessage: the agent's direct reply, or the task once it is terminal or interrupted (or at once when asked). */
  async send(request: SendMessageRequest, signal?: AbortSignal): Promise<SendMessageResponse> {
    const started = await this.#start(request);
    if ('message' in started) return { message: started.message };
    const { taskId } = started;
    if (request.configuration?.returnImmediately !== true) {
      // Blocking (the default): wait for the turn to end, or for the client to go away.
      for await (const _ of this.#tasks.follow(taskId, started.afterEventId, signal)) {
        /* the events are in the task already */
      }
    }
    return { task: view(await this.#tasks.task(taskId), request.configuration?.historyLength) };
  }

  /** SendStreamingMessage: the direct reply alone, or the task followed by its events until the turn ends. */
  async stream(request: SendMessageRequest, signal?: AbortSignal): Promise<AsyncIterable<StreamResponse>> {
    const started = await this.#start(request);
    if ('message' in started) return once({ message: started.message });
    const { taskId, snapshot, afterEventId } = started;
    const follow = (signal: AbortSignal) => this.#tasks.follow(taskId, afterEventId, signal);
    return withFirst({ task: view(snapshot, request.configuration?.historyLength) }, follow, signal);
  }

  /** GetTask: TASK_NOT_FOUND for a task of another tenant (`tenant` absent or '' is the default one). */
  async get(id: string, historyLength?: number, tenant?: string): Promise<Task> {
    return view((await this.#stored(id, tenant)).task, historyLength);
  }

  /** The task whatever its tenant: for the server's own work (push deliveries), never to answer a client. */
  async anyTenant(id: string, historyLength?: number): Promise<Task> {
    return view(await this.#tasks.task(id), historyLength);
  }

  /**
   * The task as its log stands, if it is `tenant`'s: a task of another tenant is not found, as if there were none
   * (DECISIONS 115), so that no tenant learns another's task ids.
   */
  async #stored(id: string, tenant: string | undefined): Promise<StoredTask> {
    const stored = await this.#tasks.stored(id);
    if ((stored.tenant ?? '') !== (tenant ?? ''))
      throw new A2aError('TASK_NOT_FOUND', `task ${id} not found`, { taskId: id });
    return stored;
  }

  /** ListTasks: newest status first, filtered, a page at a time. */
  async list(request: ListTasksRequest): Promise<ListTasksResponse> {
    return listTasks(this.store, request, (id) =>
      this.#tasks.task(id).catch((error: unknown) => {
        // A task the index still names but the store let go (a memory store over its limits) is left off the page.
        if (error instanceof A2aError && error.reason === 'TASK_NOT_FOUND') return undefined;
        throw error;
      }),
    );
  }

  /** CancelTask: the task, canceled; TASK_NOT_CANCELABLE once it is terminal. */
  async cancel(id: string, tenant?: string): Promise<Task> {
    await this.#stored(id, tenant);
    this.#running.get(id)?.abort(new Error('the task was canceled'));
    const result = await this.#tasks.apply(id, (task) =>
      TERMINAL_STATES.has(task.status.state) ? undefined : statusEvent(task, 'TASK_STATE_CANCELED'),
    );
    if (!result.applied)
      throw new A2aError('TASK_NOT_CANCELABLE', `task ${id} is ${stateName(result.task.status.state)}`, {
        taskId: id,
      });
    return view(result.task);
  }

  /** SubscribeToTask: the task as it stands, then its events until it is terminal; refused for a terminal task. */
  async subscribe(id: string, signal?: AbortSignal, tenant?: string): Promise<AsyncIterable<StreamResponse>> {
    const stored = await this.#stored(id, tenant);
    if (TERMINAL_STATES.has(stored.task.status.state))
      throw new A2aError(
        'UNSUPPORTED_OPERATION',
        `task ${id} is ${stateName(stored.task.status.state)}: there is nothing to subscribe to`,
        { taskId: id },
      );
    return withFirst(
      { task: view(stored.task) },
      (s) => this.#tasks.follow(id, stored.lastEventId, s),
      signal,
    );
  }

  /**
   * Begins a turn: checks the message against its task, runs the agent until its first event (which says whether it
   * answers directly or works on a task), stores the task, and leaves the rest of the turn running in the background.
   */
  async #start(
    request: SendMessageRequest,
  ): Promise<{ message: Message } | { taskId: string; snapshot: Task; afterEventId: number }> {
    await this.ready;
    const incoming = request.message;
    let task: Task;
    let existing = false;
    let lastEventId = 0;
    if (incoming.taskId) {
      const stored = await this.#stored(incoming.taskId, request.tenant);
      lastEventId = stored.lastEventId;
      const state = stored.task.status.state;
      if (TERMINAL_STATES.has(state))
        throw new A2aError(
          'UNSUPPORTED_OPERATION',
          `task ${incoming.taskId} is ${stateName(state)} and takes no more messages`,
          { taskId: incoming.taskId },
        );
      if (!INTERRUPTED_STATES.has(state))
        throw new A2aError(
          'UNSUPPORTED_OPERATION',
          `task ${incoming.taskId} is still ${stateName(state)}: send once it asks for input`,
          { taskId: incoming.taskId },
        );
      if (incoming.contextId && incoming.contextId !== stored.task.contextId)
        throw new A2aError('UNSUPPORTED_OPERATION', `task ${incoming.taskId} belongs to another context`, {
          taskId: incoming.taskId,
        });
      checkMessage(this.limits, stored, incoming);
      task = stored.task;
      existing = true;
    } else {
      task = {
        id: randomUUID(),
        contextId: incoming.contextId ?? randomUUID(),
        status: status('TASK_STATE_SUBMITTED'),
      };
      checkMessage(this.limits, { task, lastEventId: 0 }, incoming);
    }
    checkContent(this.agent.card.defaultInputModes, incoming);
    // Only what the Message schema declares is kept: unrecognized fields are ignored, not stored (DECISIONS 95).
    const message: Message = {
      ...declaredMessage(incoming),
      taskId: task.id,
      ...(task.contextId ? { contextId: task.contextId } : {}),
    };
    const abort = new AbortController();
    if (existing) {
      // Two answers to one question: the first one continues the task, the second is refused (in this process).
      if (this.#running.has(task.id))
        throw new A2aError('UNSUPPORTED_OPERATION', `task ${task.id} is already working on an answer`, {
          taskId: task.id,
        });
      this.#running.set(task.id, abort);
    }
    try {
      const working: Task = {
        ...task,
        status: status('TASK_STATE_WORKING'),
        history: [...(task.history ?? []), message],
      };
      const iterator = this.agent
        .run({ message, task: working, signal: abort.signal })
        [Symbol.asyncIterator]();
      let first: IteratorResult<AgentEvent> | undefined;
      let failure: unknown;
      try {
        first = await iterator.next();
      } catch (error) {
        failure = error;
      }
      if (first && !first.done && 'reply' in first.value && !existing) {
        await iterator.return?.();
        return { message: agentMessage(first.value.reply, task.contextId) };
      }
      if (this.#beforeTurn)
        try {
          await this.#beforeTurn(task.id, lastEventId, request);
        } catch (error) {
          await iterator.return?.().catch(() => {});
          throw error;
        }
      // The task exists from here on: stored as submitted (a new one) or with the message added (one that waited).
      const snapshot: Task = { ...task, history: [...(task.history ?? []), message] };
      let afterEventId: number;
      if (existing) {
        // The message joins the history as an event of the task's log (a turn costs what it adds, not the task).
        // Checked against the task caught up with its log: another turn may have started since the check above.
        const added = await this.#tasks.apply(
          task.id,
          (current, stored) => {
            if (!INTERRUPTED_STATES.has(current.status.state))
              throw new A2aError('UNSUPPORTED_OPERATION', `task ${task.id} no longer waits for input`, {
                taskId: task.id,
              });
            checkMessage(this.limits, stored, message);
            return { message };
          },
          // Another process writing the task meanwhile (it was waiting for input, so nobody should) fails the send.
          { retry: false },
        );
        // Open only once this process has the task: marking it first would take the mark of a process running it.
        await this.#open.open(task.id);
        afterEventId = added.lastEventId;
      } else {
        // Open before the task exists, so a crash at any point after leaves a mark that fails it on restart.
        await this.#open.open(task.id);
        const created = await this.#tasks.create({
          task: snapshot,
          lastEventId: 0,
          historyBytes: bytesOf(message),
          artifactBytes: 0,
          ...(request.tenant ? { tenant: request.tenant } : {}),
        });
        if (!created) throw new Error(`task id ${task.id} is taken`);
        afterEventId = 0;
      }
      this.#running.set(task.id, abort);
      void this.#runTurn(task.id, iterator, first, failure, abort.signal).finally(() => {
        if (this.#running.get(task.id) === abort) this.#running.delete(task.id);
      });
      return { taskId: task.id, snapshot, afterEventId };
    } catch (error) {
      // The turn never started: the task is free for the next message.
      abort.abort(error);
      if (this.#running.get(task.id) === abort) this.#running.delete(task.id);
      if (!existing) await this.#open.close(task.id).catch((e: unknown) => this.#onError(e, task.id));
      throw error;
    }
  }

  /** The rest of a turn: the agent's events applied one by one, until a final or interrupted state. */
  async #runTurn(
    taskId: string,
    iterator: AsyncIterator<AgentEvent>,
    first: IteratorResult<AgentEvent> | undefined,
    failure: unknown,
    signal: AbortSignal,
  ): Promise<void> {
    // Whether the turn's end (a final or interrupted state) is stored; until it is, the task stays open, and a restart
    // of this instance fails it.
    let ended = false;
    try {
      await this.#tasks.apply(taskId, (task) => statusEvent(task, 'TASK_STATE_WORKING'));
      let next = first;
      if (failure !== undefined) throw failure;
      while (next && !next.done && !signal.aborted) {
        const event = next.value;
        const result = await this.#tasks.apply(taskId, (task, stored) =>
          TERMINAL_STATES.has(task.status.state)
            ? undefined
            : checkEvent(this.limits, stored, eventOf(task, event)),
        );
        const state = result.task.status.state;
        if (!result.applied || TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state)) {
          ended = true;
          return;
        }
        next = await iterator.next();
      }
      // Aborted: CancelTask stores the canceled state.
      if (!signal.aborted)
        await this.#settle(taskId, (task) =>
          TERMINAL_STATES.has(task.status.state) ? undefined : statusEvent(task, 'TASK_STATE_COMPLETED'),
        );
      ended = true;
    } catch (error) {
      if (signal.aborted) {
        ended = true;
        return;
      }
      this.#onError(error, taskId);
      // The client learns which limit the task reached (its own numbers), never what else the agent threw.
      const text =
        error instanceof TaskLimitError ? error.message : 'The agent failed while working on the task.';
      await this.#settle(taskId, (task) =>
        TERMINAL_STATES.has(task.status.state)
          ? undefined
          : statusEvent(task, 'TASK_STATE_FAILED', [{ text }]),
      ).then(
        () => {
          ended = true;
        },
        (e: unknown) => this.#onError(e, taskId),
      );
    } finally {
      await iterator.return?.().catch(() => {});
      if (ended) await this.#open.close(taskId).catch((e: unknown) => this.#onError(e, taskId));
    }
  }

  /** Writes a turn's end, tried again while the store is away (settle-retry.ts). */
  #settle(taskId: string, change: Parameters<TaskRecords['apply']>[1]): ReturnType<TaskRecords['apply']> {
    return settleRetrying(
      () => this.#tasks.apply(taskId, change),
      this.#settleRetry,
      (e) => this.#onError(e, taskId),
    );
  }

  /** Start-up: indexes tasks stored before ListTasks had an index, then fails the turns this instance abandoned. */
  async #recover(): Promise<void> {
    await indexAll(this.store, (id) => this.#tasks.stored(id));
    await this.#open.failAbandoned(this.#tasks);
  }
}
