// Where the 2025 draft's runs live between turns: each run's memory and configuration, and the state of its requests.
// MemoryRunStore keeps them in memory with bounds; a durable store implements the same interface.
import { RetainedMap } from '@agentproto/runtime';
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

/** How much a MemoryRunStore keeps. */
export interface RunRetention {
  /** Most runs kept, over all agents (default 1,000). */
  maxRuns: number;
  /** Most events kept, over all runs (default 200,000). */
  maxEvents: number;
  /** Most events kept per run; past it the oldest go, so a run that talks forever stays bounded (default 20,000). */
  maxEventsPerRun: number;
  /** Runs older than this many milliseconds go (default: a day). */
  maxAgeMs: number;
}

/** What a MemoryRunStore keeps unless told otherwise. */
export const DEFAULT_RUN_RETENTION: Readonly<RunRetention> = Object.freeze({
  maxRuns: 1_000,
  maxEvents: 200_000,
  maxEventsPerRun: 20_000,
  maxAgeMs: 24 * 60 * 60 * 1000,
});

interface StoredRun {
  run: RunRecord;
  events: AgentEvent[];
}

/**
 * A RunStore in memory: everything is lost when the process ends, and it keeps only so much (`RunRetention`): past
 * a limit the oldest runs whose requests have all completed go, with their requests and events.
 */
export class MemoryRunStore implements RunStore {
  private nextRun = 1;
  private readonly runs: RetainedMap<string, StoredRun>;
  private readonly requests = new Map<string, RequestRecord>();
  private readonly maxEventsPerRun: number;

  constructor(retention: Partial<RunRetention> = {}) {
    const limits = { ...DEFAULT_RUN_RETENTION, ...retention };
    this.maxEventsPerRun = limits.maxEventsPerRun;
    this.runs = new RetainedMap<string, StoredRun>(
      { maxEntries: limits.maxRuns, maxWeight: limits.maxEvents, maxAgeMs: limits.maxAgeMs },
      // A run with a request still going is in use: its events are being written and read.
      ({ run }) => run.requests.every((id) => this.requests.get(key(run.agent, id))?.status === 'completed'),
      ({ run }) => {
        for (const id of run.requests) this.requests.delete(key(run.agent, id));
      },
    );
  }

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
    this.runs.set(key(agent, run.run_id), { run, events: [] }, 0);
    return run;
  }

  async getRun(agent: string, runId: number): Promise<RunRecord | undefined> {
    return this.runs.get(key(agent, runId))?.run;
  }

  async listRuns(agent: string): Promise<RunRecord[]> {
    return [...this.runs.values()].filter((r) => r.run.agent === agent).map((r) => r.run);
  }

  async saveRun(run: RunRecord): Promise<void> {
    const stored = this.runs.get(key(run.agent, run.run_id));
    if (stored) stored.run = run;
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
    const stored = this.runs.get(key(agent, runId));
    if (!stored) throw new Error(`no run ${runId} for agent ${agent}`);
    stored.run.last_event_id++;
    const saved = { ...event, id: stored.run.last_event_id } as AgentEvent;
    stored.events.push(saved);
    let added = 1;
    // The oldest events of a long run go in batches, so trimming costs little per event.
    if (stored.events.length > this.maxEventsPerRun + Math.ceil(this.maxEventsPerRun / 10)) {
      const dropped = stored.events.length - this.maxEventsPerRun;
      stored.events.splice(0, dropped);
      added -= dropped;
    }
    this.runs.grow(key(agent, runId), added);
    return saved;
  }

  async runEvents(agent: string, runId: number, afterId: number): Promise<AgentEvent[]> {
    return (this.runs.get(key(agent, runId))?.events ?? []).filter((e) => e.id > afterId);
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
