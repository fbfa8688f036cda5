// The run runtime behind each 2025-draft agent: runs and their memory, numbered events, cancel and resume with input,
// and custom operations typed with TypeBox. The server (create-server.ts) puts HTTP in front of it.
import { describeErrors, type ValidationIssue } from '@agentproto/runtime';
import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type {
  AgentDescriptor,
  AgentEvent,
  AgentOperation,
  Request,
} from '../generated/draft-2025-02/index.js';
import type { MemoryMessage, RequestRecord, RunRecord, RunStore } from './run-store.js';

/** What an operation's handler gets: the run's memory, event publishers, human-in-the-loop, cancellation. */
export interface OperationContext {
  /** The request being handled. */
  requestId: string;
  /** The run it belongs to, with `memory` (the chat so far), `config` and `state` kept across turns. */
  run: RunRecord;
  /** Aborts when the request is canceled. */
  signal: AbortSignal;
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
}

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

interface Live {
  /** The request's record, shared by its handler, cancel and resume while it runs. */
  record: RequestRecord;
  abort: AbortController;
  listeners: Set<(event: AgentEvent) => void>;
  resume?: { resolve: (values: Record<string, unknown>) => void; reject: (error: unknown) => void };
}

type EventBody = Record<string, unknown> & { type: AgentEvent['type']; role: AgentEvent['role'] };

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
 * ResumeWithInput; any number of subscribers see the same events. State lives in a RunStore.
 */
export class AgentRuntime {
  private readonly live = new Map<string, Live>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly operations: ReadonlyMap<string, OperationDefinition>;
  private nextRequest = 1;

  constructor(
    readonly agent: AgentDefinition,
    private readonly store: RunStore,
    private readonly onError: (error: unknown) => void = (error) => console.error(`[${agent.name}]`, error),
  ) {
    this.operations = new Map((agent.operations ?? []).map((o) => [o.name, o]));
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

  /** Where a request stands. */
  async status(requestId: string): Promise<RequestRecord> {
    return this.requireRequest(requestId);
  }

  /** The agent's runs. */
  runs(): Promise<RunRecord[]> {
    return this.store.listRuns(this.agent.name);
  }

  /** A run's events after `since`; throws RequestRefused (404) for an unknown run. */
  async runEvents(runId: number, since = 0): Promise<AgentEvent[]> {
    if (!(await this.store.getRun(this.agent.name, runId)))
      throw new RequestRefused(404, 'no-such-run', `${this.agent.name} has no run ${runId}`);
    return this.store.runEvents(this.agent.name, runId, since);
  }

  /**
   * Polls a request's events: those after `since`, or, without it, those after the previous poll without `since`
   * (the draft's "queued since the last call").
   */
  async poll(requestId: string, since?: number): Promise<AgentEvent[]> {
    const record = await this.requireRequest(requestId);
    const events = await this.store.requestEvents(this.agent.name, requestId, since ?? record.polled);
    if (since === undefined && events.length > 0) {
      record.polled = events.at(-1)?.id ?? record.polled;
      await this.store.saveRequest(record);
    }
    return events;
  }

  /**
   * Follows a request's events: those after `since` from the store, then live ones as they are published, until
   * RequestCompleted. Any number of subscribers see the same events in the same order, without gaps or repeats.
   */
  async *subscribe(requestId: string, since = 0, signal?: AbortSignal): AsyncGenerator<AgentEvent> {
    const record = await this.requireRequest(requestId);
    // A cursor past the newest event (a Last-Event-ID from elsewhere) reads as "from now": the events still to come
    // get higher ids than anything stored, so none of them, RequestCompleted above all, may be skipped as seen.
    since = Math.min(since, record.last_event_id);
    const queue: AgentEvent[] = [];
    let wake: (() => void) | undefined;
    const listener = (event: AgentEvent) => {
      queue.push(event);
      wake?.();
    };
    // Listen first, then read the store: an event published in between is in both, and is skipped by its id.
    const live = this.live.get(requestId);
    live?.listeners.add(listener);
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort);
    try {
      let last = since;
      for (const event of await this.store.requestEvents(this.agent.name, requestId, since)) {
        last = event.id;
        yield event;
        if (event.type === 'RequestCompleted') return;
      }
      if (!live) return;
      while (!signal?.aborted) {
        const event = queue.shift();
        if (!event) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        if (event.id <= last) continue;
        last = event.id;
        yield event;
        if (event.type === 'RequestCompleted') return;
      }
    } finally {
      live?.listeners.delete(listener);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private async requireRequest(requestId: string): Promise<RequestRecord> {
    const record = await this.store.getRequest(this.agent.name, requestId);
    if (!record)
      throw new RequestRefused(404, 'no-such-request', `${this.agent.name} has no request "${requestId}"`);
    return record;
  }

  private async start(
    r: Record<string, unknown>,
    work: (run: RunRecord, context: OperationContext) => Promise<unknown>,
  ): Promise<Submitted> {
    // A request names the run it continues (its memory and configuration), or starts a new one.
    let run: RunRecord | undefined;
    if (typeof r.run_id === 'number') {
      run = await this.store.getRun(this.agent.name, r.run_id);
      if (!run) throw new RequestRefused(404, 'no-such-run', `${this.agent.name} has no run ${r.run_id}`);
    } else {
      run = await this.store.createRun(this.agent.name);
    }
    const requestId =
      typeof r.request_id === 'string'
        ? r.request_id
        : `req_${this.nextRequest++}_${Date.now().toString(36)}`;
    // A client may choose the request id (to follow it before the answer arrives); reusing one is a conflict.
    if (await this.store.getRequest(this.agent.name, requestId))
      throw new RequestRefused(409, 'request-id-in-use', `request id "${requestId}" is already in use`);
    const record: RequestRecord = {
      request_id: requestId,
      run_id: run.run_id,
      agent: this.agent.name,
      type: String(r.type),
      status: 'running',
      last_event_id: 0,
      polled: 0,
    };
    await this.store.createRequest(record);
    run.requests.push(requestId);
    await this.store.saveRun(run);
    const live: Live = { record, abort: new AbortController(), listeners: new Set() };
    this.live.set(requestId, live);
    const started = await this.publish(record, {
      type: 'RequestStarted',
      role: 'system',
      request_id: requestId,
    });
    const context = this.context(record, run, live);
    // Configure answers with its completion; other requests with their start.
    const completion = this.complete(record, run, live, work(run, context));
    const first = r.type === 'ConfigureRequest' ? await completion : started;
    return { requestId, runId: run.run_id, first };
  }

  private context(record: RequestRecord, run: RunRecord, live: Live): OperationContext {
    const emit = async (body: EventBody) => {
      // A canceled request publishes nothing more: its RequestCompleted was its last event.
      if (record.status === 'completed') return;
      await this.publish(record, body);
    };
    return {
      requestId: record.request_id,
      run,
      signal: live.abort.signal,
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
      // when ResumeWithInput brings their values (or ends when it is cancelled).
      waitForInput: async (keys) => {
        if (live.abort.signal.aborted) throw live.abort.signal.reason;
        const values = new Promise<Record<string, unknown>>((resolve, reject) => {
          live.resume = { resolve, reject };
        });
        record.status = 'waiting_for_input';
        await this.store.saveRequest(record);
        await emit({ type: 'WaitForInput', role: 'assistant', request_keys: keys });
        return values;
      },
    };
  }

  private async complete(
    record: RequestRecord,
    run: RunRecord,
    live: Live,
    work: Promise<unknown>,
  ): Promise<AgentEvent> {
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
      if (live.abort.signal.aborted) return this.lastCompletion(record);
      this.onError(error);
      body = {
        type: 'RequestCompleted',
        role: 'system',
        finish_reason: 'error',
        error: 'the operation failed; the agent logged why',
      };
    }
    if (record.status === 'completed') return this.lastCompletion(record);
    await this.store.saveRun(run);
    return this.finish(record, live, body);
  }

  private async finish(record: RequestRecord, live: Live, body: EventBody): Promise<AgentEvent> {
    record.status = 'completed';
    record.finish_reason = body.finish_reason as NonNullable<RequestRecord['finish_reason']>;
    const event = await this.publish(record, body);
    this.live.delete(record.request_id);
    live.listeners.clear();
    return event;
  }

  private async lastCompletion(record: RequestRecord): Promise<AgentEvent> {
    const events = await this.store.requestEvents(this.agent.name, record.request_id, 0);
    const done = events.findLast((e) => e.type === 'RequestCompleted');
    if (!done) throw new Error(`request ${record.request_id} completed without a RequestCompleted event`);
    return done;
  }

  private async cancel(requestId: string): Promise<Submitted> {
    const live = this.live.get(requestId);
    const record = live?.record ?? (await this.requireRequest(requestId));
    if (record.status === 'completed' || !live)
      throw new RequestRefused(409, 'request-completed', `request "${requestId}" has already completed`);
    // The request ends now, whatever the handler does next: exactly one RequestCompleted, `canceled`.
    const done = await this.finish(record, live, {
      type: 'RequestCompleted',
      role: 'system',
      finish_reason: 'canceled',
    });
    live.abort.abort(new Error('the request was canceled'));
    live.resume?.reject(live.abort.signal.reason);
    return { requestId, runId: record.run_id, first: done };
  }

  private async resume(requestId: string, values: Record<string, unknown>): Promise<Submitted> {
    const live = this.live.get(requestId);
    const record = live?.record ?? (await this.requireRequest(requestId));
    if (record.status !== 'waiting_for_input' || !live?.resume)
      throw new RequestRefused(409, 'not-waiting', `request "${requestId}" is not waiting for input`);
    record.status = 'running';
    await this.store.saveRequest(record);
    const { resolve } = live.resume;
    delete live.resume;
    resolve(values);
    const started = (await this.store.requestEvents(this.agent.name, requestId, 0))[0];
    if (!started) throw new Error(`request ${requestId} has no events`);
    return { requestId, runId: record.run_id, first: started };
  }

  private async publish(record: RequestRecord, body: EventBody): Promise<AgentEvent> {
    const event = await this.store.appendEvent(this.agent.name, record.run_id, {
      run_id: record.run_id,
      agent: this.agent.name,
      depth: 0,
      request_id: record.request_id,
      ...body,
    } as Omit<AgentEvent, 'id'>);
    record.last_event_id = event.id;
    await this.store.saveRequest(record);
    for (const listener of this.live.get(record.request_id)?.listeners ?? []) listener(event);
    return event;
  }
}
