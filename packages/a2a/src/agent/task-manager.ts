// The binding-free core of an A2A agent: it runs the agent's turns in the background, keeps each task and its event
// log in an AgentStore, and answers the operations (send, stream, get, list, cancel, subscribe) the way the
// specification says, for the JSON-RPC and HTTP+JSON handlers alike.
import { randomUUID } from 'node:crypto';
import { type AgentStore, defaultInstance, type IndexKeys, MemoryStore, OpenWork } from '@agentproto/runtime';
import { A2aError } from '../errors/a2a-error.js';
import type {
  Artifact,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  Part,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from '../generated/1.0/index.js';
import { type A2aAgent, type AgentEvent, INTERRUPTED_STATES, TERMINAL_STATES } from './agent.js';

/** Options of a TaskManager. */
export interface TaskManagerOptions {
  /** Where tasks and their events live (default: a MemoryStore with its default limits). */
  store?: AgentStore;
  /** Told when an agent's turn throws (the task fails) or a background write fails. Defaults to console.error. */
  onError?: (error: unknown, taskId: string) => void;
  /** What one task may hold (default `DEFAULT_TASK_LIMITS`). */
  limits?: Partial<TaskLimits>;
  /**
   * This process's name among those sharing the store (default: the AGENTPROTO_INSTANCE environment variable, else the
   * host name). A process that starts again under the same name fails the tasks it was working on when it stopped;
   * two processes running at once need different names.
   */
  instance?: string;
}

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

/**
 * A task as stored: the task, the id of the last event of its log it reflects, and the bytes its history and
 * artifacts hold (kept as they grow, so a limit is checked without measuring the whole task again).
 */
interface StoredTask {
  task: Task;
  lastEventId: number;
  historyBytes?: number;
  artifactBytes?: number;
}

/** An agent event that would take its task past a limit: the task fails. */
class TaskLimitError extends Error {
  override name = 'TaskLimitError';
}

const TASKS = 'a2a/tasks';
/** Tasks whose turn is running, with the instance running it: what that instance fails when it starts again. */
const OPEN_TASKS = 'a2a/open-tasks';
const eventLog = (taskId: string) => `a2a/events/${taskId}`;
/** ListTasks' page size when the request names none (the proto's comment). */
const DEFAULT_PAGE_SIZE = 50;

/** Runs an A2A agent's turns and keeps its tasks. One per agent; share its store to run several processes. */
export class TaskManager {
  readonly store: AgentStore;
  readonly limits: Readonly<TaskLimits>;
  /** This process's name among those sharing the store. */
  readonly instance: string;
  /** Settles once the tasks this instance was working on when it last stopped are failed. */
  readonly ready: Promise<void>;
  readonly #open: OpenWork<{ owner: string; taskId: string }>;
  readonly #onError: (error: unknown, taskId: string) => void;
  /** The turns running in this process, by task id: aborting one cancels it. */
  readonly #running = new Map<string, AbortController>();
  /** Per task, the tail of its chain of writes: this process never writes one task twice at once. */
  readonly #writes = new Map<string, Promise<unknown>>();

  constructor(
    readonly agent: A2aAgent,
    options: TaskManagerOptions = {},
  ) {
    this.store = options.store ?? new MemoryStore();
    this.limits = Object.freeze({ ...DEFAULT_TASK_LIMITS, ...options.limits });
    this.instance = options.instance ?? defaultInstance();
    this.#open = new OpenWork(this.store, OPEN_TASKS);
    this.ready = this.#recover();
    // Callers see a failed start-up when they send; this keeps it from also being an unhandled rejection.
    this.ready.catch(() => {});
    this.#onError = options.onError ?? ((error, taskId) => console.error(`[a2a task ${taskId}]`, error));
  }

  /** SendMessage: the agent's direct reply, or the task once it is terminal or interrupted (or at once when asked). */
  async send(request: SendMessageRequest, signal?: AbortSignal): Promise<SendMessageResponse> {
    const started = await this.#start(request);
    if ('message' in started) return { message: started.message };
    const { taskId } = started;
    if (request.configuration?.returnImmediately !== true) {
      // Blocking (the default): wait for the turn to end, or for the client to go away.
      for await (const _ of this.#follow(taskId, started.afterEventId, signal)) {
        /* the events are in the task already */
      }
    }
    return { task: view(await this.#task(taskId), request.configuration?.historyLength) };
  }

  /** SendStreamingMessage: the direct reply alone, or the task followed by its events until the turn ends. */
  async stream(request: SendMessageRequest, signal?: AbortSignal): Promise<AsyncIterable<StreamResponse>> {
    const started = await this.#start(request);
    if ('message' in started) return once({ message: started.message });
    const { taskId, snapshot, afterEventId } = started;
    const follow = (signal: AbortSignal) => this.#follow(taskId, afterEventId, signal);
    return withFirst({ task: view(snapshot, request.configuration?.historyLength) }, follow, signal);
  }

  /** GetTask. */
  async get(id: string, historyLength?: number): Promise<Task> {
    return view(await this.#task(id), historyLength);
  }

  /**
   * ListTasks: newest status first, filtered, a page at a time (the page token is the last task's position). Read
   * through the store's index of the filter asked for, so a page reads the tasks on it and no others.
   */
  async list(request: ListTasksRequest): Promise<ListTasksResponse> {
    const state = request.status && request.status !== 'TASK_STATE_UNSPECIFIED' ? request.status : undefined;
    const { index, prefix } = indexFor(request.contextId || undefined, state);
    const from =
      prefix + (request.statusTimestampAfter ? new Date(request.statusTimestampAfter).toISOString() : '');
    const cursor = request.pageToken ? readCursor(request.pageToken) : undefined;
    const before = cursor ? `${prefix}${cursor.status.timestamp ?? ''}|${keyPart(cursor.id)}` : `${prefix}}`;
    const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
    const [ids, totalSize] = await Promise.all([
      this.store.listByIndex(TASKS, index, { from, before, limit: pageSize + 1 }),
      this.store.countByIndex(TASKS, index, { from, before: `${prefix}}` }),
    ]);
    const page = (
      await Promise.all(ids.slice(0, pageSize).map((id) => this.store.get<StoredTask>(TASKS, id)))
    ).flatMap((record) => (record ? [record.value.task] : []));
    const last = page.at(-1);
    return {
      tasks: page.map((t) => view(t, request.historyLength, request.includeArtifacts === true)),
      nextPageToken: ids.length > pageSize && last ? cursorOf(last) : '',
      pageSize,
      totalSize,
    };
  }

  /** CancelTask: the task, canceled; TASK_NOT_CANCELABLE once it is terminal. */
  async cancel(id: string): Promise<Task> {
    await this.#task(id);
    this.#running.get(id)?.abort(new Error('the task was canceled'));
    const result = await this.#apply(id, (task) =>
      TERMINAL_STATES.has(task.status.state) ? undefined : statusEvent(task, 'TASK_STATE_CANCELED'),
    );
    if (!result.applied)
      throw new A2aError('TASK_NOT_CANCELABLE', `task ${id} is ${stateName(result.task.status.state)}`, {
        taskId: id,
      });
    return view(result.task);
  }

  /** SubscribeToTask: the task as it stands, then its events until it is terminal; refused for a terminal task. */
  async subscribe(id: string, signal?: AbortSignal): Promise<AsyncIterable<StreamResponse>> {
    const stored = await this.#stored(id);
    if (TERMINAL_STATES.has(stored.task.status.state))
      throw new A2aError(
        'UNSUPPORTED_OPERATION',
        `task ${id} is ${stateName(stored.task.status.state)}: there is nothing to subscribe to`,
        { taskId: id },
      );
    return withFirst({ task: view(stored.task) }, (s) => this.#follow(id, stored.lastEventId, s), signal);
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
    if (incoming.taskId) {
      const stored = await this.store.get<StoredTask>(TASKS, incoming.taskId);
      if (!stored)
        throw new A2aError('TASK_NOT_FOUND', `no task ${incoming.taskId}`, { taskId: incoming.taskId });
      const state = stored.value.task.status.state;
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
      if (incoming.contextId && incoming.contextId !== stored.value.task.contextId)
        throw new A2aError('UNSUPPORTED_OPERATION', `task ${incoming.taskId} belongs to another context`, {
          taskId: incoming.taskId,
        });
      this.#checkMessage(stored.value, incoming);
      task = stored.value.task;
      existing = true;
    } else {
      task = {
        id: randomUUID(),
        contextId: incoming.contextId ?? randomUUID(),
        status: status('TASK_STATE_SUBMITTED'),
      };
      this.#checkMessage({ task, lastEventId: 0 }, incoming);
    }
    this.#checkContent(incoming);
    const message: Message = {
      ...incoming,
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
      // The task exists from here on: stored as submitted (a new one) or with the message added (one that waited).
      const snapshot: Task = { ...task, history: [...(task.history ?? []), message] };
      let afterEventId: number;
      if (existing) {
        afterEventId = await this.#write(task.id, async () => {
          const record = await this.store.get<StoredTask>(TASKS, task.id);
          if (!record) throw new A2aError('TASK_NOT_FOUND', `no task ${task.id}`, { taskId: task.id });
          const { task: current, lastEventId } = record.value;
          if (!INTERRUPTED_STATES.has(current.status.state))
            throw new A2aError('UNSUPPORTED_OPERATION', `task ${task.id} no longer waits for input`, {
              taskId: task.id,
            });
          this.#checkMessage(record.value, message);
          const next: StoredTask = {
            ...sizesOf(record.value),
            task: { ...current, history: [...(current.history ?? []), message] },
            lastEventId,
          };
          next.historyBytes = (next.historyBytes ?? 0) + bytesOf(message);
          // Another process writing the task meanwhile (it was waiting for input, so nobody should) fails the send.
          if (
            (await this.store.put<StoredTask>(TASKS, task.id, next, record.rev, keysOf(next.task))) ===
            undefined
          )
            throw new Error(`task ${task.id} changed while its message was added`);
          // Open only once this process has the task: marking it first would take the mark of a process running it.
          await this.#openTurn(task.id);
          return lastEventId;
        });
      } else {
        // Open before the task exists, so a crash at any point after leaves a mark that fails it on restart.
        await this.#openTurn(task.id);
        if (
          (await this.store.put<StoredTask>(
            TASKS,
            task.id,
            { task: snapshot, lastEventId: 0, historyBytes: bytesOf(message), artifactBytes: 0 },
            0,
            keysOf(snapshot),
          )) === undefined
        )
          throw new Error(`task id ${task.id} is taken`);
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
      await this.#apply(taskId, (task) => statusEvent(task, 'TASK_STATE_WORKING'));
      let next = first;
      if (failure !== undefined) throw failure;
      while (next && !next.done && !signal.aborted) {
        const event = next.value;
        const result = await this.#apply(taskId, (task, stored) =>
          TERMINAL_STATES.has(task.status.state) ? undefined : this.#checkEvent(stored, eventOf(task, event)),
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
        await this.#apply(taskId, (task) =>
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
      await this.#apply(taskId, (task) =>
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

  /** Indexes tasks stored before ListTasks read an index (once: afterwards every write keeps the index). */
  async #indexAll(): Promise<void> {
    if ((await this.store.countByIndex(TASKS, 'recent')) >= (await this.store.count(TASKS))) return;
    const pageSize = 100;
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.store.list<StoredTask>(TASKS, { offset, limit: pageSize });
      for (const { task } of page) {
        const record = await this.store.get<StoredTask>(TASKS, task.id);
        // A task written meanwhile was indexed by that write.
        if (record) await this.store.put(TASKS, task.id, record.value, record.rev, keysOf(record.value.task));
      }
      if (page.length < pageSize) return;
    }
  }

  /** Marks a task's turn as running in this instance. */
  #openTurn(taskId: string): Promise<void> {
    return this.#open.open(taskId, { owner: this.instance, taskId });
  }

  /**
   * Start-up: fails the tasks this instance was working on when it last stopped (their turns died with it). Their
   * subscribers, in any process, get the failed state and their streams end.
   */
  async #recover(): Promise<void> {
    await this.#indexAll();
    for (const { taskId } of await this.#open.ownedBy(this.instance)) {
      await this.#apply(taskId, (task) =>
        TERMINAL_STATES.has(task.status.state) || INTERRUPTED_STATES.has(task.status.state)
          ? undefined
          : statusEvent(task, 'TASK_STATE_FAILED', [
              { text: 'The agent stopped while working on the task.' },
            ]),
      ).catch((error: unknown) => {
        // A mark whose task was never stored (the process stopped in between) has nothing to fail.
        if (!(error instanceof A2aError && error.reason === 'TASK_NOT_FOUND')) throw error;
      });
      await this.#open.close(taskId);
    }
  }

  /**
   * Applies one change to a task: `change` gets the task as it stands and answers the event to record (or nothing).
   * The event goes to the task's log, then the task is written with it: a follower reading the task and then the log
   * from the task's `lastEventId` sees every event exactly once.
   */
  #apply(
    taskId: string,
    change: (task: Task, stored: StoredTask) => StreamResponse | undefined,
  ): Promise<{ applied: boolean; task: Task }> {
    return this.#write(taskId, async () => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const record = await this.store.get<StoredTask>(TASKS, taskId);
        if (!record) throw new A2aError('TASK_NOT_FOUND', `no task ${taskId}`, { taskId });
        const event = change(record.value.task, record.value);
        if (!event) return { applied: false, task: record.value.task };
        const eventId = await this.store.append(eventLog(taskId), event, {
          collection: TASKS,
          id: taskId,
          rev: record.rev,
        });
        if (eventId === undefined) continue; // another process wrote the task meanwhile: look again
        const next = reduceStored(record.value, event, eventId);
        if (
          (await this.store.put<StoredTask>(TASKS, taskId, next, record.rev, keysOf(next.task))) !== undefined
        )
          return { applied: true, task: next.task };
      }
      throw new Error(`task ${taskId} kept changing under this write`);
    });
  }

  /** Runs writes to one task one after another in this process. */
  #write<T>(taskId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#writes.get(taskId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => {});
    this.#writes.set(taskId, tail);
    void tail.then(() => {
      if (this.#writes.get(taskId) === tail) this.#writes.delete(taskId);
    });
    return next;
  }

  /**
   * A task's events after `afterEventId`, until a terminal or interrupted state (the end of the turn: an interrupted
   * task continues only when the client sends again, which starts a stream of its own), or until `signal` aborts.
   */
  async *#follow(taskId: string, afterEventId: number, outer?: AbortSignal): AsyncGenerator<StreamResponse> {
    const abort = new AbortController();
    const onAbort = () => abort.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const entry of this.store.follow<StreamResponse>(
        eventLog(taskId),
        afterEventId,
        abort.signal,
      )) {
        yield entry.value;
        const state = variant(entry.value).statusUpdate?.status.state;
        if (state && (TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state))) return;
      }
    } finally {
      outer?.removeEventListener('abort', onAbort);
      abort.abort();
    }
  }

  async #stored(taskId: string): Promise<StoredTask> {
    const record = await this.store.get<StoredTask>(TASKS, taskId);
    if (!record) throw new A2aError('TASK_NOT_FOUND', `no task ${taskId}`, { taskId });
    return record.value;
  }

  async #task(taskId: string): Promise<Task> {
    return (await this.#stored(taskId)).task;
  }

  /** UNSUPPORTED_OPERATION for a client message the task's history has no room for. */
  #checkMessage(stored: StoredTask, message: Message): void {
    const { maxHistoryMessages, maxHistoryBytes } = this.limits;
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
  #checkEvent(stored: StoredTask, event: StreamResponse): StreamResponse {
    const { maxHistoryMessages, maxHistoryBytes, maxArtifacts, maxArtifactBytes } = this.limits;
    const next = reduceStored(stored, event, stored.lastEventId);
    const over = (what: string) =>
      new TaskLimitError(`The task reached its limit of ${what} and cannot hold the agent's next update.`);
    if ((next.task.history?.length ?? 0) > maxHistoryMessages) throw over(`${maxHistoryMessages} messages`);
    if ((next.historyBytes ?? 0) > maxHistoryBytes) throw over(`${maxHistoryBytes} bytes of history`);
    if ((next.task.artifacts?.length ?? 0) > maxArtifacts) throw over(`${maxArtifacts} artifacts`);
    if ((next.artifactBytes ?? 0) > maxArtifactBytes) throw over(`${maxArtifactBytes} bytes of artifacts`);
    return event;
  }

  /** CONTENT_TYPE_NOT_SUPPORTED for a part whose media type the agent does not take (the card's input modes). */
  #checkContent(message: Message): void {
    const accepted = this.agent.card.defaultInputModes;
    if (accepted.includes('*/*')) return;
    for (const part of message.parts) {
      const type =
        part.mediaType ?? ('text' in part ? 'text/plain' : 'data' in part ? 'application/json' : undefined);
      if (type && !accepted.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1)))))
        throw new A2aError(
          'CONTENT_TYPE_NOT_SUPPORTED',
          `this agent takes ${accepted.join(', ')}, not ${type}`,
          { mediaType: type },
        );
    }
  }
}

/** The event an agent's event makes of a task. */
function eventOf(task: Task, event: AgentEvent): StreamResponse {
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

function statusEvent(task: Task, state: TaskState, parts?: Part[]): StreamResponse {
  const s = status(state);
  if (parts) s.message = { ...agentMessage(parts, task.contextId), taskId: task.id };
  return { statusUpdate: { taskId: task.id, contextId: task.contextId ?? '', status: s } };
}

/** A task with one event applied: the new status (its message joins the history), or the artifact added or grown. */
function reduce(task: Task, stored: StreamResponse): Task {
  const event = variant(stored);
  if (event.statusUpdate) {
    const s = event.statusUpdate.status;
    return { ...task, status: s, ...(s.message ? { history: [...(task.history ?? []), s.message] } : {}) };
  }
  if (event.artifactUpdate) {
    const { artifact, append } = event.artifactUpdate;
    const artifacts = [...(task.artifacts ?? [])];
    const at = artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
    if (at < 0) artifacts.push(artifact);
    else if (append)
      artifacts[at] = {
        ...(artifacts[at] as Artifact),
        parts: [...(artifacts[at] as Artifact).parts, ...artifact.parts],
      };
    else artifacts[at] = artifact;
    return { ...task, artifacts };
  }
  return task;
}

/** How many bytes a value takes as JSON: what the task limits count. */
function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** A stored task with its byte counts filled in (measured once for a task stored before they were kept). */
function sizesOf(stored: StoredTask): StoredTask {
  return {
    ...stored,
    historyBytes: stored.historyBytes ?? bytesOf(stored.task.history ?? []),
    artifactBytes: stored.artifactBytes ?? bytesOf(stored.task.artifacts ?? []),
  };
}

/** A stored task with one event applied, its byte counts grown by what the event added. */
function reduceStored(stored: StoredTask, event: StreamResponse, lastEventId: number): StoredTask {
  const before = sizesOf(stored);
  let historyBytes = before.historyBytes ?? 0;
  let artifactBytes = before.artifactBytes ?? 0;
  const { statusUpdate, artifactUpdate } = variant(event);
  if (statusUpdate?.status.message) historyBytes += bytesOf(statusUpdate.status.message);
  if (artifactUpdate) {
    const { artifact, append } = artifactUpdate;
    const old = append ? undefined : stored.task.artifacts?.find((a) => a.artifactId === artifact.artifactId);
    artifactBytes += bytesOf(append ? artifact.parts : artifact) - (old ? bytesOf(old) : 0);
  }
  return { task: reduce(stored.task, event), lastEventId, historyBytes, artifactBytes };
}

function status(state: TaskState): TaskStatus {
  return { state, timestamp: new Date().toISOString() };
}

function agentMessage(content: string | Part[], contextId: string | undefined): Message {
  return {
    messageId: randomUUID(),
    role: 'ROLE_AGENT',
    parts: typeof content === 'string' ? [{ text: content }] : content,
    ...(contextId ? { contextId } : {}),
  };
}

/** A task as an answer shows it: the last `historyLength` messages (none for 0), artifacts unless left out. */
function view(task: Task, historyLength?: number, withArtifacts = true): Task {
  const { history, artifacts, ...rest } = task;
  const out: Task = { ...rest };
  if (history && history.length > 0 && historyLength !== 0)
    out.history = historyLength === undefined ? history : history.slice(-historyLength);
  if (withArtifacts && artifacts && artifacts.length > 0) out.artifacts = artifacts;
  return out;
}

/** An id or context id as an index key part: escaped, so it holds no `|` and sorts alike in every store. */
function keyPart(value: string): string {
  return encodeURIComponent(value);
}

/**
 * The keys ListTasks reads a task by, one index per combination of its filters; each key ends with the status
 * timestamp and the id, so an index lists the most recent status first (ties by id, greatest first).
 */
function keysOf(task: Task): IndexKeys {
  const tail = `${task.status.timestamp ?? ''}|${keyPart(task.id)}`;
  const context = keyPart(task.contextId ?? '');
  return {
    recent: tail,
    context: `${context}|${tail}`,
    state: `${task.status.state}|${tail}`,
    'context-state': `${context}|${task.status.state}|${tail}`,
  };
}

/** The index and key prefix that serve a ListTasks filter ('}' follows '|', so `${prefix}}` ends the range). */
function indexFor(
  contextId: string | undefined,
  state: TaskState | undefined,
): { index: string; prefix: string } {
  if (contextId && state) return { index: 'context-state', prefix: `${keyPart(contextId)}|${state}|` };
  if (contextId) return { index: 'context', prefix: `${keyPart(contextId)}|` };
  if (state) return { index: 'state', prefix: `${state}|` };
  return { index: 'recent', prefix: '' };
}

function cursorOf(task: Task): string {
  return Buffer.from(JSON.stringify([task.status.timestamp ?? '', task.id])).toString('base64url');
}

function readCursor(token: string): Pick<Task, 'id' | 'status'> {
  try {
    const [timestamp, id] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    if (typeof timestamp === 'string' && typeof id === 'string')
      return { id, status: { state: 'TASK_STATE_SUBMITTED', timestamp } };
  } catch {
    // fall through
  }
  throw new A2aError('UNSUPPORTED_OPERATION', 'the page token is not one this agent gave');
}

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`, for messages. */
function stateName(state: TaskState): string {
  return state.replace('TASK_STATE_', '').toLowerCase().replaceAll('_', '-');
}

/** A StreamResponse with its one member readable by name (the type is a union of the four). */
function variant(event: StreamResponse): {
  statusUpdate?: TaskStatusUpdateEvent;
  artifactUpdate?: TaskArtifactUpdateEvent;
} {
  return event as never;
}

/** A stream of one item. */
async function* once<T>(item: T): AsyncGenerator<T> {
  yield item;
}

/**
 * A stream that starts with `first`, then follows; following stops when the consumer does, or when `outer` aborts (the
 * client went away): a follower waiting for an event that may never come must hear that, since an async generator
 * cannot be closed while it waits.
 */
async function* withFirst<T>(
  first: T,
  follow: (signal: AbortSignal) => AsyncIterable<T>,
  outer?: AbortSignal,
): AsyncGenerator<T> {
  const abort = new AbortController();
  const onAbort = () => abort.abort(outer?.reason);
  if (outer?.aborted) abort.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  try {
    yield first;
    yield* follow(abort.signal);
  } finally {
    outer?.removeEventListener('abort', onAbort);
    abort.abort();
  }
}
