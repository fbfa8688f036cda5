// The run runtime behind each 2025-draft agent: runs and their memory, numbered events, cancel and resume with input,
// and custom operations typed with TypeBox. The server (create-server.ts) puts HTTP in front of it.
import { type AgentStore, defaultInstance, describeErrors, type ValidationIssue } from '@agentproto/runtime';
import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type {
  AgentDescriptor,
  AgentEvent,
  AgentOperation,
  Request,
} from '../generated/draft-2025-02/index.js';
import {
  type ControlMessage,
  eventOf,
  type MemoryMessage,
  type RequestRecord,
  type RunRecord,
  RunRecords,
  type StoredEvent,
} from './run-store.js';

/** What an operation's handler gets: the run's memory, event publishers, human-in-the-loop, cancellation. */
export interface OperationContext {
  /** The request being handled. */
  requestId: string;
  /** The run it belongs to, with `memory` (the chat so far), `config` and `state` kept across turns. */
  run: RunRecord;
  /** Aborts when the request is canceled. */
  signal: AbortSignal;
  /** The request's `request_metadata`: opaque data from the caller, such as the user id or the current time ({}). */
  metadata: Readonly<Record<string, unknown>>;
  /** The request's `run_context`: context the caller passes into the operation, such as `user_context` ({}). */
  runContext: Readonly<Record<string, unknown>>;
  /** The request's `logging_level`, when the caller asked for more (or less) detail. */
  loggingLevel?: string;
  /** Publishes a TextOutput. */
  text(content: string): Promise<void>;
  /** Publishes a ToolCall. */
  toolCall(functionName: string, args: Record<string, unknown>): Promise<void>;
  /** Publishes a ToolResult. */
  toolResult(functionName: string, textResult: string): Promise<void>;
  /** Publishes a ToolTextOutput. */
  toolText(content: string): Promise<void>;
  /** Publishes a ToolError. */
  toolError(content: string): Promise<void>;
  /** Publishes an ArtifactGenerated. */
  artifact(artifact: { name: string; artifact_id: string; url: string; mime_type: string }): Promise<void>;
  /** Publishes a CompletionCall, runs `complete`, publishes a CompletionResult, and returns what `complete` did. */
  completion<T>(complete: () => Promise<T> | T): Promise<T>;
  /**
   * Publishes WaitForInput with these keys (key → what to give) and pauses until a ResumeWithInput brings values.
   * Rejects when the request is canceled meanwhile.
   */
  waitForInput(keys: Record<string, string>): Promise<Record<string, unknown>>;
  /**
   * Publishes an event another agent produced for this one (the draft's caller chain): its content, role and agent as
   * they were, its `depth` one more than the callee's, numbered in this request's run. Only what a callee produces
   * is forwarded (text, tool calls and results, completions, artifacts); its own RequestStarted, RequestCompleted and
   * WaitForInput belong to its request, not to this one, and are refused with a TypeError.
   */
  forward(event: AgentEvent): Promise<void>;
}

// What a caller may forward from a callee's stream: everything but the callee's own request lifecycle.
const FORWARDABLE = new Set<string>([
  'TextOutput',
  'ToolCall',
  'ToolResult',
  'ToolTextOutput',
  'ToolError',
  'CompletionCall',
  'CompletionResult',
  'ArtifactGenerated',
]);

/** A custom operation: its schemas (TypeBox, so the handler is typed) and its handler. */
export interface OperationDefinition<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  name: string;
  description: string;
  input: I;
  output: O;
  handler(input: Static<I>, context: OperationContext): Promise<Static<O>> | Static<O>;
}

/**
 * Declares a custom operation. Its input and output are TypeBox schemas: the handler is typed from them, requests
 * are validated against the input, and both appear in `describe` as `input_schema` and `output_schema`.
 */
export function defineOperation<I extends TSchema, O extends TSchema>(
  operation: OperationDefinition<I, O>,
): OperationDefinition<I, O> {
  return operation;
}

/** An agent of the 2025 draft: a name, a purpose, the built-in chat operation, and optional custom operations. */
export interface AgentDefinition {
  name: string;
  purpose: string;
  /** Tools the agent uses, listed in `describe` for information. */
  tools?: readonly string[];
  /** The built-in `chat` operation: an input text in, an answer text out. `context.run.memory` holds earlier turns. */
  chat(input: string, context: OperationContext): Promise<string> | string;
  // biome-ignore lint/suspicious/noExplicitAny: operations of any input and output types are held together
  operations?: ReadonlyArray<OperationDefinition<any, any>>;
  /** Applies a ConfigureRequest's `args` (stored on the run as `run.config` in any case). */
  configure?(args: Record<string, unknown>, run: RunRecord): Promise<void> | void;
}

/** A request the runtime refuses, with the HTTP status and problem kind it maps to. */
export class RequestRefused extends Error {
  override name = 'RequestRefused';
  constructor(
    readonly status: 404 | 409 | 422,
    readonly kind: string,
    message: string,
    readonly issues?: readonly ValidationIssue[],
  ) {
    super(message);
  }
}

/** The outcome of submitting a request: the request it concerns, and its first answer. */
export interface Submitted {
  requestId: string;
  runId: number;
  /** The event `process?wait=true` answers with. */
  first: AgentEvent;
}

/** A run as `runs()` lists it: its record and the id of its latest event. */
export type RunSummary = RunRecord & { last_event_id: number };

/** Options of an AgentRuntime. */
export interface AgentRuntimeOptions {
  /** Told about errors operations throw (default: console.error). */
  onError?: (error: unknown) => void;
  /**
   * This process's name among those sharing the store (default: the AGENTPROTO_INSTANCE environment variable, else
   * the host name). A process that restarts under the same name finishes, as failed, the requests it was running when
   * it stopped; two processes running at once need different names.
   */
  instance?: string;
}

/** A request this process is running: its record as last written, and how to stop or resume its handler. */
interface Live {
  record: RequestRecord;
  rev: number;
  run: RunRecord;
  abort: AbortController;
  resume?: { resolve: (values: Record<string, unknown>) => void; reject: (error: unknown) => void };
}

type EventBody = Record<string, unknown> & { type: AgentEvent['type']; role: AgentEvent['role'] };

/** The instance name a runtime takes unless told (the runtime's, re-exported where it was first published). */
export { defaultInstance };

const CHAT_OPERATION: AgentOperation = {
  name: 'chat',
  description: 'Send a chat request: a text input, a text answer.',
  input_schema: { type: 'object', required: ['input'], properties: { input: { type: 'string' } } },
  output_schema: { type: 'object', required: ['output'], properties: { output: { type: 'string' } } },
};

/** The endpoints every agent of ours serves, relative to its path. */
export const AGENT_ENDPOINTS = [
  '/describe',
  '/process',
  '/getevents',
  '/stream_request',
  '/request/{request_id}',
  '/runs',
  '/getevents/{run_id}',
];

/**
 * Runs one agent's requests with the draft's semantics, so agents do not each reimplement them: a run keeps memory
 * across turns; every request's events start with RequestStarted and end with exactly one RequestCompleted; event ids
 * increase within a run; CancelRequest ends a request `canceled` and aborts its handler; WaitForInput pauses until
 * ResumeWithInput; any number of subscribers see the same events. State lives in an AgentStore: with a shared one
 * (Redis), any process can follow, cancel or resume a request that another one runs.
 */
export class AgentRuntime {
  private readonly live = new Map<string, Live>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly operations: ReadonlyMap<string, OperationDefinition>;
  private readonly records: RunRecords;
  private readonly onError: (error: unknown) => void;
  private readonly stopped = new AbortController();
  /** This process's name among those sharing the store. */
  readonly instance: string;
  /** Settles once requests left open by this instance's last life are finished and control messages are heard. */
  readonly ready: Promise<void>;

  constructor(
    readonly agent: AgentDefinition,
    store: AgentStore,
    options: AgentRuntimeOptions = {},
  ) {
    this.operations = new Map((agent.operations ?? []).map((o) => [o.name, o]));
    this.records = new RunRecords(store, agent.name);
    this.onError = options.onError ?? ((error) => console.error(`[${agent.name}]`, error));
    this.instance = options.instance ?? defaultInstance();
    this.ready = this.startUp();
    // Callers see a failed start-up when they use the runtime; this keeps it from also being an unhandled rejection.
    this.ready.catch(() => {});
  }

  /** Stops listening for control messages. Requests still running go on; their handlers are not aborted. */
  close(): void {
    this.stopped.abort();
  }

  /** The agent's descriptor. */
  describe(): AgentDescriptor {
    const custom = [...this.operations.values()].map((o) => ({
      name: o.name,
      description: o.description,
      // TypeBox schemas are JSON Schema; JSON drops its symbol-keyed markers.
      input_schema: JSON.parse(JSON.stringify(o.input)) as Record<string, unknown>,
      output_schema: JSON.parse(JSON.stringify(o.output)) as Record<string, unknown>,
    }));
    return {
      name: this.agent.name,
      purpose: this.agent.purpose,
      endpoints: AGENT_ENDPOINTS,
      operations: [CHAT_OPERATION, ...custom],
      tools: [...(this.agent.tools ?? [])],
    };
  }

  /** Takes a request (already valid against the Request schema) and starts, configures, cancels or resumes. */
  async submit(request: Request): Promise<Submitted> {
    const r = request as Request & Record<string, unknown>;
    switch (r.type) {
      // Draft README "Requests": CancelRequest stops the request it names, which then completes (cancelled).
      case 'CancelRequest':
        return this.cancel(String(r.request_id));
      // ResumeWithInput answers the WaitForInput event of a request paused for human input.
      case 'ResumeWithInput':
        return this.resume(String(r.request_id), (r.request_keys ?? {}) as Record<string, unknown>);
      // ConfigureRequest sets the run's configuration, for this turn and the next ones.
      case 'ConfigureRequest':
        return this.start(r, async (run) => {
          const args = (r.args ?? {}) as Record<string, unknown>;
          Object.assign(run.config, args);
          await this.agent.configure?.(args, run);
          return undefined;
        });
      // The built-in chat operation: the run's memory keeps both sides of every turn.
      case 'ChatRequest': {
        const input = String(r.input);
        return this.start(r, async (run, context) => {
          run.memory.push({ role: 'user', content: input });
          const answer = await this.agent.chat(input, context);
          run.memory.push({ role: 'assistant', content: answer } satisfies MemoryMessage);
          return answer;
        });
      }
      default: {
        const operation = this.operations.get(r.type);
        if (!operation) {
          throw new RequestRefused(
            422,
            'unknown-operation',
            `${this.agent.name} has no operation "${r.type}"`,
            [
              {
                pointer: '/type',
                message: `must name an operation of this agent: chat, ${[...this.operations.keys()].join(', ')}`,
                keyword: 'enum',
              },
            ],
          );
        }
        // A custom operation's input is checked against the input_schema describe advertises (422 before any event),
        // and its output against the output_schema: a handler that breaks it fails its turn, not the client.
        const validate = this.ajv.compile(operation.input);
        if (!validate(r.input)) {
          const issues = describeErrors(validate.errors).map((i) => ({
            ...i,
            pointer: `/input${i.pointer}`,
          }));
          throw new RequestRefused(
            422,
            'invalid-input',
            `the input breaks ${operation.name}'s input_schema`,
            issues,
          );
        }
        const checkOutput = this.ajv.compile(operation.output);
        return this.start(r, async (_run, context) => {
          const output = await operation.handler(r.input, context);
          if (!checkOutput(output)) {
            const first = describeErrors(checkOutput.errors)[0];
            throw new Error(
              `${operation.name} returned an output that breaks its output_schema: ${first?.pointer} ${first?.message}`,
            );
          }
          return output;
        });
      }
    }
  }

  /**
   * Where a request stands. Its `last_event_id` is exact once it has completed; while it runs, it is the latest event
   * of its run (the same, unless another request of the run is publishing at the same time).
   */
  async status(requestId: string): Promise<RequestRecord> {
    const { value } = await this.requireRequest(requestId);
    if (value.status !== 'completed')
      value.last_event_id = await this.records.store.lastId(this.records.runLog(value.run_id));
    return value;
  }

  /** The agent's runs, oldest first, each with the id of its latest event. */
  async runs(): Promise<RunSummary[]> {
    await this.ready;
    const runs = await this.records.listRuns();
    return Promise.all(
      runs.map(async (run) => ({
        ...run,
        last_event_id: await this.records.store.lastId(this.records.runLog(run.run_id)),
      })),
    );
  }

  /** A run's events after `since`; throws RequestRefused (404) for an unknown run. */
  async runEvents(runId: number, since = 0): Promise<AgentEvent[]> {
    await this.ready;
    if (!(await this.records.getRun(runId)))
      throw new RequestRefused(404, 'no-such-run', `${this.agent.name} has no run ${runId}`);
    return this.records.runEvents(runId, since);
  }

  /**
   * Polls a request's events: those after `since`, or, without it, those after the previous poll without `since`
   * (the draft's "queued since the last call").
   */
  async poll(requestId: string, since?: number): Promise<AgentEvent[]> {
    const { value: record } = await this.requireRequest(requestId);
    const events = await this.records.requestEvents(record, since ?? (await this.records.polled(requestId)));
    const last = events.at(-1);
    if (since === undefined && last) await this.records.setPolled(requestId, last.id);
    return events;
  }

  /**
   * Follows a request's events: those after `since` from the store, then live ones as they are appended (by this
   * process or, with a shared store, another), until RequestCompleted. Any number of subscribers see the same events
   * in the same order, without gaps or repeats.
   */
  async *subscribe(requestId: string, since = 0, signal?: AbortSignal): AsyncGenerator<AgentEvent> {
    const { value: record } = await this.requireRequest(requestId);
    // A cursor past the newest event (a Last-Event-ID from elsewhere) reads as "from now": the events still to come
    // get higher ids than anything stored, so none of them, RequestCompleted above all, may be skipped as seen.
    const log = this.records.runLog(record.run_id);
    since = Math.min(since, await this.records.store.lastId(log));
    if (record.status === 'completed') {
      // A finished request's events are all stored (unless a bounded store let them go): no need to wait for more.
      const stored = await this.records.requestEvents(record, since);
      if (stored.some((e) => e.type === 'RequestCompleted') || stored.length === 0) {
        yield* stored;
        return;
      }
    }
    const following = new AbortController();
    const stop = () => following.abort();
    signal?.addEventListener('abort', stop);
    try {
      for await (const entry of this.records.store.follow<StoredEvent>(log, since, following.signal)) {
        if (entry.value.request_id !== requestId) continue;
        const event = eventOf(entry);
        yield event;
        if (event.type === 'RequestCompleted') return;
      }
    } finally {
      following.abort();
      signal?.removeEventListener('abort', stop);
    }
  }

  private async requireRequest(requestId: string) {
    await this.ready;
    const found = await this.records.getRequest(requestId);
    if (!found)
      throw new RequestRefused(404, 'no-such-request', `${this.agent.name} has no request "${requestId}"`);
    return found;
  }

  private async start(
    r: Record<string, unknown>,
    work: (run: RunRecord, context: OperationContext) => Promise<unknown>,
  ): Promise<Submitted> {
    await this.ready;
    // A request names the run it continues (its memory and configuration), or starts a new one.
    let run: RunRecord | undefined;
    if (typeof r.run_id === 'number') {
      run = await this.records.getRun(r.run_id);
      if (!run) throw new RequestRefused(404, 'no-such-run', `${this.agent.name} has no run ${r.run_id}`);
    } else {
      run = await this.records.createRun();
    }
    const requestId =
      typeof r.request_id === 'string'
        ? r.request_id
        : `req_${await this.records.store.nextId(this.records.requests)}_${Date.now().toString(36)}`;
    const record: RequestRecord = {
      request_id: requestId,
      run_id: run.run_id,
      agent: this.agent.name,
      type: String(r.type),
      status: 'running',
      last_event_id: 0,
      owner: this.instance,
    };
    // A client may choose the request id (to follow it before the answer arrives); reusing one is a conflict. The
    // write only holds if there is no such request yet, so two processes cannot both take one id.
    const rev = await this.records.putRequest(record, 0);
    if (rev === undefined)
      throw new RequestRefused(409, 'request-id-in-use', `request id "${requestId}" is already in use`);
    await this.records.open.open(requestId, { request_id: requestId, owner: this.instance });
    run = (await this.records.updateRun(run.run_id, (latest) => latest.requests.push(requestId))) ?? run;
    const live: Live = { record, rev, run, abort: new AbortController() };
    this.live.set(requestId, live);
    const started = await this.publish(live, {
      type: 'RequestStarted',
      role: 'system',
      request_id: requestId,
    });
    if (!started) throw new Error(`request ${requestId} was completed before it started`);
    const context = this.context(live, r);
    // Configure answers with its completion; other requests with their start.
    const completion = this.complete(live, work(run, context));
    // Other requests complete in the background: a store that fails meanwhile (Redis gone, say) is reported, never
    // left as an unhandled rejection that would end the process.
    if (r.type !== 'ConfigureRequest') completion.catch((error) => this.onError(error));
    const first = r.type === 'ConfigureRequest' ? await completion : started;
    return { requestId, runId: run.run_id, first };
  }

  private context(live: Live, r: Record<string, unknown>): OperationContext {
    const emit = async (body: EventBody) => {
      // A canceled request publishes nothing more: its RequestCompleted was its last event.
      if (live.abort.signal.aborted) return;
      await this.publish(live, body);
    };
    const object = (x: unknown): Record<string, unknown> =>
      typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : {};
    return {
      requestId: live.record.request_id,
      run: live.run,
      signal: live.abort.signal,
      metadata: object(r.request_metadata),
      runContext: object(r.run_context),
      ...(typeof r.logging_level === 'string' ? { loggingLevel: r.logging_level } : {}),
      text: (content) => emit({ type: 'TextOutput', role: 'assistant', content }),
      toolCall: (function_name, args) => emit({ type: 'ToolCall', role: 'assistant', function_name, args }),
      toolResult: (function_name, text_result) =>
        emit({ type: 'ToolResult', role: 'tool', function_name, text_result }),
      toolText: (content) => emit({ type: 'ToolTextOutput', role: 'tool', content }),
      toolError: (content) => emit({ type: 'ToolError', role: 'tool', content }),
      artifact: (a) => emit({ type: 'ArtifactGenerated', role: 'assistant', ...a }),
      // A model call, bracketed by CompletionCall and CompletionResult events so clients can show it happening.
      completion: async (complete) => {
        await emit({ type: 'CompletionCall', role: 'assistant' });
        const result = await complete();
        await emit({ type: 'CompletionResult', role: 'assistant' });
        return result;
      },
      // Human in the loop (draft README "WaitForInput"): the request pauses, publishes the keys it needs, and goes on
      // when ResumeWithInput brings their values (or ends when it is cancelled). The ResumeWithInput may reach any
      // process sharing the store; it reaches this one through the control log.
      waitForInput: async (keys) => {
        if (live.abort.signal.aborted) throw live.abort.signal.reason;
        const values = new Promise<Record<string, unknown>>((resolve, reject) => {
          live.resume = { resolve, reject };
        });
        const paused = await this.changeRequest(live, (record) => {
          if (record.status === 'completed') return false;
          record.status = 'waiting_for_input';
          return true;
        });
        if (!paused) throw new Error('the request was canceled');
        await emit({ type: 'WaitForInput', role: 'assistant', request_keys: keys });
        return values;
      },
      forward: async (event) => {
        if (!FORWARDABLE.has(event.type))
          throw new TypeError(
            `${event.type} belongs to the callee's own request: forward what it produced (text, tools, completions, artifacts)`,
          );
        // The callee's numbering, run and request are its own; this request's take their place.
        const {
          id: _id,
          run_id: _run,
          request_id: _request,
          ...produced
        } = event as AgentEvent & {
          request_id?: string;
        };
        await emit({ ...produced, depth: (event.depth ?? 0) + 1 } as EventBody);
      },
    };
  }

  private async complete(live: Live, work: Promise<unknown>): Promise<AgentEvent> {
    let body: EventBody;
    try {
      const result = await work;
      body = {
        type: 'RequestCompleted',
        role: 'system',
        finish_reason: 'success',
        ...(result === undefined ? {} : { result }),
      };
    } catch (error) {
      if (live.abort.signal.aborted) return this.lastCompletion(live.record);
      this.onError(error);
      body = {
        type: 'RequestCompleted',
        role: 'system',
        finish_reason: 'error',
        error: 'the operation failed; the agent logged why',
      };
    }
    // The run's memory is written before the turn's end is published: a client that sees RequestCompleted and sends
    // the next turn finds this one remembered.
    const { memory, config, state } = live.run;
    await this.records.updateRun(live.run.run_id, (latest) =>
      Object.assign(latest, { memory, config, state }),
    );
    return (await this.finish(live, body)) ?? this.lastCompletion(live.record);
  }

  /**
   * Ends a request with its one RequestCompleted: first the record says `completed` (a write that holds only if no
   * one completed it meanwhile, by cancel say), then the event is appended under that revision. Answers undefined when
   * someone else completed it first.
   */
  private async finish(live: Live, body: EventBody): Promise<AgentEvent | undefined> {
    const reason = body.finish_reason as NonNullable<RequestRecord['finish_reason']>;
    const mine = await this.changeRequest(live, (record) => {
      if (record.status === 'completed') return false;
      record.status = 'completed';
      record.finish_reason = reason;
      return true;
    });
    // Only the process's own entry goes: a cancel's stand-in leaves the running handler to hear the control message.
    if (this.live.get(live.record.request_id) === live) this.live.delete(live.record.request_id);
    if (!mine) return undefined;
    const event = await this.publish(live, body);
    await this.records.open.close(live.record.request_id);
    return event;
  }

  private async lastCompletion(record: RequestRecord): Promise<AgentEvent> {
    const events = await this.records.requestEvents(record, 0);
    const done = events.findLast((e) => e.type === 'RequestCompleted');
    if (!done) throw new Error(`request ${record.request_id} completed without a RequestCompleted event`);
    return done;
  }

  /**
   * CancelRequest, from whichever process it reaches: the request is completed `canceled` in the store (so it holds
   * even if the process running it is gone), and the process running it is told to abort its handler.
   */
  private async cancel(requestId: string): Promise<Submitted> {
    const found = await this.requireRequest(requestId);
    const live: Live = {
      record: found.value,
      rev: found.rev,
      run: { run_id: found.value.run_id } as RunRecord,
      abort: new AbortController(),
    };
    const done = await this.finish(live, {
      type: 'RequestCompleted',
      role: 'system',
      finish_reason: 'canceled',
    });
    if (!done)
      throw new RequestRefused(409, 'request-completed', `request "${requestId}" has already completed`);
    await this.tell({ type: 'cancel', request_id: requestId });
    return { requestId, runId: found.value.run_id, first: done };
  }

  /** ResumeWithInput, from whichever process it reaches: the request is marked running, and its process told. */
  private async resume(requestId: string, values: Record<string, unknown>): Promise<Submitted> {
    const found = await this.requireRequest(requestId);
    const live: Live = {
      record: found.value,
      rev: found.rev,
      run: {} as RunRecord,
      abort: new AbortController(),
    };
    let waiting = false;
    await this.changeRequest(live, (record) => {
      waiting = record.status === 'waiting_for_input';
      if (!waiting) return false;
      record.status = 'running';
      return true;
    });
    if (!waiting)
      throw new RequestRefused(409, 'not-waiting', `request "${requestId}" is not waiting for input`);
    await this.tell({ type: 'resume', request_id: requestId, values });
    const started = (await this.records.requestEvents(live.record, 0))[0];
    if (!started) throw new Error(`request ${requestId} has no events`);
    return { requestId, runId: live.record.run_id, first: started };
  }

  /**
   * Appends an event under the request's revision, so nothing follows a RequestCompleted that another process wrote;
   * answers undefined when the request was completed meanwhile. The record then notes the event's id.
   */
  private async publish(live: Live, body: EventBody): Promise<AgentEvent | undefined> {
    const record = live.record;
    const stored = {
      run_id: record.run_id,
      agent: this.agent.name,
      depth: 0,
      request_id: record.request_id,
      ...body,
    } as StoredEvent;
    const log = this.records.runLog(record.run_id);
    // Only a RequestCompleted is published on a completed request (by whoever completed it).
    const ending = body.type === 'RequestCompleted';
    if (live.record.status === 'completed' && !ending) return undefined;
    for (let attempt = 0; attempt < 100; attempt++) {
      const id = await this.records.store.append(log, stored, {
        collection: this.records.requests,
        id: record.request_id,
        rev: live.rev,
      });
      if (id === undefined) {
        // Someone else wrote the record: a cancel (then this event is not to be), or a resume (then carry on).
        if (!(await this.refresh(live)) || (live.record.status === 'completed' && !ending)) return undefined;
        continue;
      }
      // One write per event: the record notes its last event id only at the end (status() reads the run's log while
      // a request runs), so the revision the guard holds changes only when the request's state does.
      if (ending)
        await this.changeRequest(live, (r) => {
          r.last_event_id = Math.max(r.last_event_id, id);
          return true;
        });
      return { ...stored, id } as AgentEvent;
    }
    throw new Error(`request ${record.request_id} kept changing under 100 attempts to publish`);
  }

  /** Reads the request's record again; false when it is gone. */
  private async refresh(live: Live): Promise<boolean> {
    const fresh = await this.records.getRequest(live.record.request_id);
    if (!fresh) return false;
    live.record = fresh.value;
    live.rev = fresh.rev;
    return true;
  }

  /**
   * Applies `change` to the request's record and writes it if no one wrote in between; otherwise reads it again and
   * applies it again. Gives up (false) when the record is gone or `change` answers false (it found the request in a
   * state it does not apply to: completed, say); it answers true when it changed the record.
   */
  private async changeRequest(live: Live, change: (record: RequestRecord) => boolean): Promise<boolean> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const next = structuredClone(live.record);
      if (change(next) === false) return false;
      const rev = await this.records.putRequest(next, live.rev);
      if (rev !== undefined) {
        live.record = next;
        live.rev = rev;
        return true;
      }
      if (!(await this.refresh(live))) return false;
    }
    throw new Error(`request ${live.record.request_id} kept changing under 100 attempts to update it`);
  }

  /** Sends a control message to every process serving this agent (itself included). */
  private async tell(message: ControlMessage): Promise<void> {
    await this.records.store.append(this.records.control, message);
  }

  /**
   * Start-up: finish, as failed, the requests this instance was running when it last stopped (their handlers died
   * with it), then listen for control messages from now on.
   */
  private async startUp(): Promise<void> {
    const from = await this.records.store.lastId(this.records.control);
    await this.recover();
    void this.listen(from);
  }

  private async recover(): Promise<void> {
    for (const { request_id } of await this.records.open.ownedBy(this.instance)) {
      const found = await this.records.getRequest(request_id);
      if (found) {
        const live: Live = {
          record: found.value,
          rev: found.rev,
          run: { run_id: found.value.run_id } as RunRecord,
          abort: new AbortController(),
        };
        if (found.value.status !== 'completed') {
          await this.finish(live, {
            type: 'RequestCompleted',
            role: 'system',
            finish_reason: 'error',
            error: 'the agent stopped while this request ran',
          });
        } else if (
          !(await this.records.requestEvents(found.value, 0)).some((e) => e.type === 'RequestCompleted')
        ) {
          // Stopped between marking the request completed and publishing its RequestCompleted: publish it now.
          await this.publish(live, {
            type: 'RequestCompleted',
            role: 'system',
            finish_reason: found.value.finish_reason ?? 'error',
          });
        }
      }
      await this.records.open.close(request_id);
    }
  }

  private async listen(from: number): Promise<void> {
    try {
      for await (const { value } of this.records.store.follow<ControlMessage>(
        this.records.control,
        from,
        this.stopped.signal,
      )) {
        const live = this.live.get(value.request_id);
        if (!live) continue;
        if (value.type === 'cancel') {
          this.live.delete(value.request_id);
          live.abort.abort(new Error('the request was canceled'));
          live.resume?.reject(live.abort.signal.reason);
        } else if (live.resume) {
          const { resolve } = live.resume;
          delete live.resume;
          await this.refresh(live);
          resolve(value.values);
        }
      }
    } catch (error) {
      if (!this.stopped.signal.aborted) this.onError(error);
    }
  }
}
