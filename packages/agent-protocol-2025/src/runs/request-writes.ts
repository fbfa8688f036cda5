// Writes to one request under its revision in the store: its status changes and the events it publishes, each
// retried when another process wrote in between, so that nothing follows a request's one RequestCompleted. The rest
// of the runtime changes a request only through these.
import type { StoredRecord } from '@agentproto/runtime';
import type { AgentEvent } from '../generated/draft-2025-02/index.js';
import type { RequestRecord, RunRecord, RunRecords, StoredEvent } from './run-store.js';

/** A request this process is running: its record as last written, and how to stop or resume its handler. */
export interface LiveRequest {
  record: RequestRecord;
  rev: number;
  run: RunRecord;
  abort: AbortController;
  resume?: { resolve: (values: Record<string, unknown>) => void; reject: (error: unknown) => void };
}

/** An event to publish: its type, role and content; the publisher adds its run, request, agent, depth and id. */
export type EventBody = Record<string, unknown> & { type: AgentEvent['type']; role: AgentEvent['role'] };

/** The RequestCompleted that ends a request, with the reason its record keeps. */
export type CompletionBody = EventBody & {
  type: 'RequestCompleted';
  finish_reason: NonNullable<RequestRecord['finish_reason']>;
};

/**
 * A stand-in for a request as the store has it, to cancel, resume or recover it from a process that may not run
 * its handler: the record and revision, no memory, a controller of its own.
 */
export function standIn(found: StoredRecord<RequestRecord>): LiveRequest {
  return {
    record: found.value,
    rev: found.rev,
    // sound: a stand-in runs no handler; cancel, resume and recovery read its record, never its run, whose id is
    // all that is known of it here.
    run: { run_id: found.value.run_id } as RunRecord,
    abort: new AbortController(),
  };
}

/** The guarded writes to one agent's requests, shared by every part of its runtime. */
export class RequestWrites {
  /**
   * @param running the requests this process runs, by id: `finish` removes a request's own entry.
   */
  constructor(
    private readonly records: RunRecords,
    private readonly agent: string,
    private readonly running: Map<string, LiveRequest>,
  ) {}

  /**
   * Appends an event under the request's revision, so nothing follows a RequestCompleted that another process wrote;
   * answers undefined when the request was completed meanwhile. The record then notes the event's id.
   */
  async publish(live: LiveRequest, body: EventBody): Promise<AgentEvent | undefined> {
    const record = live.record;
    const stored: StoredEvent = {
      run_id: record.run_id,
      agent: this.agent,
      depth: 0,
      request_id: record.request_id,
      ...body,
    };
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
        await this.change(live, (r) => {
          r.last_event_id = Math.max(r.last_event_id, id);
          return true;
        });
      // sound: each publisher passes the fields its event type requires beside `type` and `role` (OperationContext's
      // methods, a forwarded event's own, the lifecycle's RequestStarted and RequestCompleted); with the log entry's id
      // the stored event is an AgentEvent.
      return { ...stored, id } as AgentEvent;
    }
    throw new Error(`request ${record.request_id} kept changing under 100 attempts to publish`);
  }

  /**
   * Ends a request with its one RequestCompleted: first the record says `completed` (a write that holds only if no
   * one completed it meanwhile, by cancel say), then the event is appended under that revision. Answers undefined when
   * someone else completed it first.
   */
  async finish(live: LiveRequest, body: CompletionBody): Promise<AgentEvent | undefined> {
    const reason = body.finish_reason;
    const mine = await this.change(live, (record) => {
      if (record.status === 'completed') return false;
      record.status = 'completed';
      record.finish_reason = reason;
      return true;
    });
    // Only the process's own entry goes: a cancel's stand-in leaves the running handler to hear the control message.
    if (this.running.get(live.record.request_id) === live) this.running.delete(live.record.request_id);
    if (!mine) return undefined;
    const event = await this.publish(live, body);
    await this.records.open.close(live.record.request_id);
    return event;
  }

  /** The RequestCompleted a completed request published (whoever completed it). */
  async lastCompletion(record: RequestRecord): Promise<AgentEvent> {
    const events = await this.records.requestEvents(record, 0);
    const done = events.findLast((e) => e.type === 'RequestCompleted');
    if (!done) throw new Error(`request ${record.request_id} completed without a RequestCompleted event`);
    return done;
  }

  /** Reads the request's record again; false when it is gone. */
  async refresh(live: LiveRequest): Promise<boolean> {
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
  async change(live: LiveRequest, change: (record: RequestRecord) => boolean): Promise<boolean> {
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
}
