// The run runtime behind each 2025-draft agent: runs and their memory, numbered events, cancel and resume with input,
// and custom operations typed with TypeBox. The server (create-server.ts) puts HTTP in front of it. This file composes
// the parts, one concern each beside it, and holds the API that agents and the server import.
import { type AgentStore, defaultInstance, type StoredRecord } from '@agentproto/runtime';
import type { AgentDescriptor, AgentEvent, Request } from '../generated/draft-2025-02/index.js';
import { isObjectLike } from '../is-object-like.js';
import type { AgentDefinition } from './agent-definition.js';
import { describeAgent } from './descriptor.js';
import { Operations } from './operations.js';
import { recoverOpenRequests } from './recovery.js';
import { RequestControl } from './request-control.js';
import { RequestLifecycle } from './request-lifecycle.js';
import { RequestRefused, type Submitted } from './request-outcome.js';
import {
  followRequest,
  pollEvents,
  type RunSummary,
  requestStatus,
  runEvents,
  runSummaries,
} from './request-reads.js';
import { type LiveRequest, RequestWrites } from './request-writes.js';
import { type RequestRecord, RunRecords } from './run-store.js';

export {
  type AgentDefinition,
  defineOperation,
  type OperationContext,
  type OperationDefinition,
} from './agent-definition.js';
export { AGENT_ENDPOINTS } from './descriptor.js';
export { RequestRefused, type Submitted } from './request-outcome.js';
export type { RunSummary } from './request-reads.js';
/** The instance name a runtime takes unless told (the runtime's, re-exported where it was first published). */
export { defaultInstance };

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

/**
 * Runs one agent's requests with the draft's semantics, so agents do not each reimplement them: a run keeps memory
 * across turns; every request's events start with RequestStarted and end with exactly one RequestCompleted; event ids
 * increase within a run; CancelRequest ends a request `canceled` and aborts its handler; WaitForInput pauses until
 * ResumeWithInput; any number of subscribers see the same events. State lives in an AgentStore: with a shared one
 * (Redis), any process can follow, cancel or resume a request that another one runs.
 */
export class AgentRuntime {
  private readonly operations: Operations;
  private readonly records: RunRecords;
  private readonly writes: RequestWrites;
  private readonly lifecycle: RequestLifecycle;
  private readonly control: RequestControl;
  /** This process's name among those sharing the store. */
  readonly instance: string;
  /** Settles once requests left open by this instance's last life are finished and control messages are heard. */
  readonly ready: Promise<void>;

  constructor(
    readonly agent: AgentDefinition,
    store: AgentStore,
    options: AgentRuntimeOptions = {},
  ) {
    this.operations = new Operations(agent);
    this.records = new RunRecords(store, agent.name);
    const onError = options.onError ?? ((error: unknown) => console.error(`[${agent.name}]`, error));
    this.instance = options.instance ?? defaultInstance();
    // The requests this process runs, by id: the lifecycle adds them, their end or a cancel heard removes them.
    const running = new Map<string, LiveRequest>();
    this.writes = new RequestWrites(this.records, agent.name, running);
    this.lifecycle = new RequestLifecycle(
      agent.name,
      this.instance,
      this.records,
      this.writes,
      running,
      onError,
    );
    this.control = new RequestControl(this.records, this.writes, running, onError);
    this.ready = this.startUp();
    // Callers see a failed start-up when they use the runtime; this keeps it from also being an unhandled rejection.
    this.ready.catch(() => {});
  }

  /** Stops listening for control messages. Requests still running go on; their handlers are not aborted. */
  close(): void {
    this.control.stop();
  }

  /** The agent's descriptor. */
  describe(): AgentDescriptor {
    return describeAgent(this.agent, this.operations.custom.values());
  }

  /** Takes a request (already valid against the Request schema) and starts, configures, cancels or resumes. */
  async submit(request: Request): Promise<Submitted> {
    const r: Record<string, unknown> = request;
    switch (r.type) {
      // Draft README "Requests": CancelRequest stops the request it names, which then completes (cancelled).
      case 'CancelRequest':
        return this.control.cancel(await this.requireRequest(String(r.request_id)));
      // ResumeWithInput answers the WaitForInput event of a request paused for human input.
      case 'ResumeWithInput': {
        const requestId = String(r.request_id);
        // The request passed its schema: a ResumeWithInput's request_keys are an object.
        const values = isObjectLike(r.request_keys) ? r.request_keys : {};
        return this.control.resume(await this.requireRequest(requestId), values);
      }
      // ConfigureRequest, ChatRequest and custom operations: a turn of a run. An unknown operation or an input that
      // breaks its schema is refused before anything is written.
      default: {
        const work = this.operations.workFor(r);
        await this.ready;
        return this.lifecycle.start(r, work);
      }
    }
  }

  /**
   * Where a request stands. Its `last_event_id` is exact once it has completed; while it runs, it is the latest event
   * of its run (the same, unless another request of the run is publishing at the same time).
   */
  async status(requestId: string): Promise<RequestRecord> {
    const { value } = await this.requireRequest(requestId);
    return requestStatus(this.records, value);
  }

  /** The agent's runs, oldest first, each with the id of its latest event. */
  async runs(): Promise<RunSummary[]> {
    await this.ready;
    return runSummaries(this.records);
  }

  /** A run's events after `since`; throws RequestRefused (404) for an unknown run. */
  async runEvents(runId: number, since = 0): Promise<AgentEvent[]> {
    await this.ready;
    return runEvents(this.records, this.agent.name, runId, since);
  }

  /**
   * Polls a request's events: those after `since`, or, without it, those after the previous poll without `since`
   * (the draft's "queued since the last call").
   */
  async poll(requestId: string, since?: number): Promise<AgentEvent[]> {
    const { value: record } = await this.requireRequest(requestId);
    return pollEvents(this.records, record, since);
  }

  /**
   * Follows a request's events: those after `since` from the store, then live ones as they are appended (by this
   * process or, with a shared store, another), until RequestCompleted. Any number of subscribers see the same events
   * in the same order, without gaps or repeats.
   */
  async *subscribe(requestId: string, since = 0, signal?: AbortSignal): AsyncGenerator<AgentEvent> {
    const { value: record } = await this.requireRequest(requestId);
    yield* followRequest(this.records, record, since, signal);
  }

  /** A request's stored record, once start-up is done; throws RequestRefused (404) for an unknown request. */
  private async requireRequest(requestId: string): Promise<StoredRecord<RequestRecord>> {
    await this.ready;
    const found = await this.records.getRequest(requestId);
    if (!found)
      throw new RequestRefused(404, 'no-such-request', `${this.agent.name} has no request "${requestId}"`);
    return found;
  }

  /**
   * Start-up: finish, as failed, the requests this instance was running when it last stopped (their handlers died
   * with it), then listen for control messages from now on.
   */
  private async startUp(): Promise<void> {
    const from = await this.records.store.lastId(this.records.control);
    await recoverOpenRequests(this.records, this.writes, this.instance);
    void this.control.listen(from);
  }
}
