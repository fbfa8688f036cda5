import type { AgentEvent } from '../generated/draft-2025-02/index.js';

/** A chat turn kept in a run's memory. */
export interface MemoryMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** What a store keeps of a run: its memory across turns and its configuration. */
export interface RunRecord {
  run_id: number;
  agent: string;
  created_at: string;
  /** The chat so far, oldest first: what lets the agent remember earlier turns. */
  memory: MemoryMessage[];
  /** Settings from ConfigureRequests that named this run. */
  config: Record<string, unknown>;
  /** Free state an agent keeps across turns. */
  state: Record<string, unknown>;
  requests: string[];
  last_event_id: number;
}

/** Where a request stands. */
export type RequestState = 'running' | 'waiting_for_input' | 'completed';

/** What a store keeps of a request. */
export interface RequestRecord {
  request_id: string;
  run_id: number;
  agent: string;
  type: string;
  status: RequestState;
  finish_reason?: 'success' | 'error' | 'canceled';
  last_event_id: number;
  /** The last event id a poll without `since` returned (the draft's "since the last call"). */
  polled: number;
}

/**
 * Where runs, requests and their events live. The runtime calls it for every change; an implementation over a
 * database makes runs survive restarts. Every method may answer synchronously or with a promise.
 */
export interface RunStore {
  createRun(agent: string): Promise<RunRecord>;
  getRun(agent: string, runId: number): Promise<RunRecord | undefined>;
  listRuns(agent: string): Promise<RunRecord[]>;
  saveRun(run: RunRecord): Promise<void>;
  createRequest(record: RequestRecord): Promise<void>;
  getRequest(agent: string, requestId: string): Promise<RequestRecord | undefined>;
  saveRequest(record: RequestRecord): Promise<void>;
  /** Appends an event to its run, giving it the run's next id; returns the event as stored. */
  appendEvent(agent: string, runId: number, event: Omit<AgentEvent, 'id'>): Promise<AgentEvent>;
  /** A run's events after `afterId`, in order. */
  runEvents(agent: string, runId: number, afterId: number): Promise<AgentEvent[]>;
  /** A request's events after `afterId`, in order. */
  requestEvents(agent: string, requestId: string, afterId: number): Promise<AgentEvent[]>;
}

/** A RunStore in memory: everything is lost when the process ends. */
export class MemoryRunStore implements RunStore {
  private nextRun = 1;
  private readonly runs = new Map<string, RunRecord>();
  private readonly requests = new Map<string, RequestRecord>();
  private readonly events = new Map<string, AgentEvent[]>();

  async createRun(agent: string): Promise<RunRecord> {
    const run: RunRecord = {
      run_id: this.nextRun++,
      agent,
      created_at: new Date().toISOString(),
      memory: [],
      config: {},
      state: {},
      requests: [],
      last_event_id: 0,
    };
    this.runs.set(key(agent, run.run_id), run);
    this.events.set(key(agent, run.run_id), []);
    return run;
  }

  async getRun(agent: string, runId: number): Promise<RunRecord | undefined> {
    return this.runs.get(key(agent, runId));
  }

  async listRuns(agent: string): Promise<RunRecord[]> {
    return [...this.runs.values()].filter((r) => r.agent === agent);
  }

  async saveRun(run: RunRecord): Promise<void> {
    this.runs.set(key(run.agent, run.run_id), run);
  }

  async createRequest(record: RequestRecord): Promise<void> {
    this.requests.set(key(record.agent, record.request_id), record);
  }

  async getRequest(agent: string, requestId: string): Promise<RequestRecord | undefined> {
    return this.requests.get(key(agent, requestId));
  }

  async saveRequest(record: RequestRecord): Promise<void> {
    this.requests.set(key(record.agent, record.request_id), record);
  }

  async appendEvent(agent: string, runId: number, event: Omit<AgentEvent, 'id'>): Promise<AgentEvent> {
    const run = this.runs.get(key(agent, runId));
    const list = this.events.get(key(agent, runId));
    if (!run || !list) throw new Error(`no run ${runId} for agent ${agent}`);
    run.last_event_id++;
    const stored = { ...event, id: run.last_event_id } as AgentEvent;
    list.push(stored);
    return stored;
  }

  async runEvents(agent: string, runId: number, afterId: number): Promise<AgentEvent[]> {
    return (this.events.get(key(agent, runId)) ?? []).filter((e) => e.id > afterId);
  }

  async requestEvents(agent: string, requestId: string, afterId: number): Promise<AgentEvent[]> {
    const request = this.requests.get(key(agent, requestId));
    if (!request) return [];
    return (await this.runEvents(agent, request.run_id, afterId)).filter((e) => e.request_id === requestId);
  }
}

function key(agent: string, id: string | number): string {
  return `${agent}\u0000${id}`;
}
