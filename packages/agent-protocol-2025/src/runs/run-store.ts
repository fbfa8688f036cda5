// How the 2025 draft's runs, requests and events sit in an AgentStore (memory, SQLite or Redis): one record per run
// and per request, one event log per run (the draft numbers events per run), one control log per agent through which
// any server process tells the one running a request to cancel or resume it.
import { type AgentStore, type LogEntry, OpenWork, type StoredRecord } from '@agentproto/runtime';
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
  /** The run's requests, oldest first. */
  requests: string[];
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
  /** The id of the request's last event, written when it completes (`AgentRuntime.status` fills it in before). */
  last_event_id: number;
  /** The server process running the request's handler (its `instance` name). */
  owner: string;
}

/** A message on an agent's control log: what one process asks of the process that runs a request. */
export type ControlMessage =
  | { type: 'cancel'; request_id: string }
  | { type: 'resume'; request_id: string; values: Record<string, unknown> };

/** An event as its run's log keeps it: everything but the id, which is the entry's. */
export type StoredEvent = Omit<AgentEvent, 'id'>;

/** An event read back from its run's log, with its id. */
export function eventOf(entry: LogEntry<StoredEvent>): AgentEvent {
  // sound: the log holds only what RequestWrites.publish appended, each an AgentEvent but for the id, the entry's.
  return { ...entry.value, id: entry.id } as AgentEvent;
}

/** The store's collections and logs for one agent, and the read-modify-write loops over them. */
export class RunRecords {
  readonly runs: string;
  readonly requests: string;
  readonly polls: string;
  /** Requests not yet completed, by id, with their owner: what a restarted process finishes. */
  readonly open: OpenWork<{ owner: string; request_id: string }>;
  readonly control: string;

  constructor(
    readonly store: AgentStore,
    readonly agent: string,
  ) {
    this.runs = `runs/${agent}`;
    this.requests = `requests/${agent}`;
    this.polls = `polls/${agent}`;
    this.open = new OpenWork(store, `open-requests/${agent}`);
    this.control = `control/${agent}`;
  }

  /** The event log of a run. */
  runLog(runId: number): string {
    return `events/${this.agent}/${runId}`;
  }

  async createRun(): Promise<RunRecord> {
    const run: RunRecord = {
      run_id: await this.store.nextId(this.runs),
      agent: this.agent,
      created_at: new Date().toISOString(),
      memory: [],
      config: {},
      state: {},
      requests: [],
    };
    await this.store.put(this.runs, String(run.run_id), run, 0);
    return run;
  }

  async getRun(runId: number): Promise<RunRecord | undefined> {
    return (await this.store.get<RunRecord>(this.runs, String(runId)))?.value;
  }

  /**
   * Changes a run by reading it, applying `change` and writing it back only if no one wrote in between (else again,
   * from what they wrote): two processes adding requests to one run both keep theirs.
   */
  async updateRun(runId: number, change: (run: RunRecord) => void): Promise<RunRecord | undefined> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const current = await this.store.get<RunRecord>(this.runs, String(runId));
      if (!current) return undefined;
      change(current.value);
      if ((await this.store.put(this.runs, String(runId), current.value, current.rev)) !== undefined)
        return current.value;
    }
    throw new Error(`run ${runId} kept changing under 100 attempts to update it`);
  }

  listRuns(): Promise<RunRecord[]> {
    return this.store.list<RunRecord>(this.runs);
  }

  getRequest(requestId: string): Promise<StoredRecord<RequestRecord> | undefined> {
    return this.store.get<RequestRecord>(this.requests, requestId);
  }

  /** Writes a request if it is still at `rev` (0: new); answers the new revision or undefined. */
  putRequest(record: RequestRecord, rev: number): Promise<number | undefined> {
    return this.store.put(this.requests, record.request_id, record, rev);
  }

  /** A request's events after `afterId`, in order (read from its run's log in pages). */
  async requestEvents(record: RequestRecord, afterId: number): Promise<AgentEvent[]> {
    const out: AgentEvent[] = [];
    for (let after = afterId; ; ) {
      const page = await this.store.read<StoredEvent>(this.runLog(record.run_id), after);
      if (page.length === 0) return out;
      for (const entry of page) if (entry.value.request_id === record.request_id) out.push(eventOf(entry));
      after = page.at(-1)?.id ?? after;
    }
  }

  /** A run's events after `afterId`, in order. */
  async runEvents(runId: number, afterId: number): Promise<AgentEvent[]> {
    const out: AgentEvent[] = [];
    for (let after = afterId; ; ) {
      const page = await this.store.read<StoredEvent>(this.runLog(runId), after);
      if (page.length === 0) return out;
      for (const entry of page) out.push(eventOf(entry));
      after = page.at(-1)?.id ?? after;
    }
  }

  /** The last event id a poll without `since` returned (the draft's "since the last call"). */
  async polled(requestId: string): Promise<number> {
    return (await this.store.get<number>(this.polls, requestId))?.value ?? 0;
  }

  async setPolled(requestId: string, id: number): Promise<void> {
    await this.store.put(this.polls, requestId, id);
  }
}
