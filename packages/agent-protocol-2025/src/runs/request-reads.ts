// What clients read of an agent's requests and runs: a request's status, the runs, a run's events, and a request's
// events polled or followed live. Nothing here changes a request (a poll only moves its cursor), so any process
// sharing the store can serve these.
import type { AgentEvent } from '../generated/draft-2025-02/index.js';
import { RequestRefused } from './request-outcome.js';
import {
  eventOf,
  type RequestRecord,
  type RunRecord,
  type RunRecords,
  type StoredEvent,
} from './run-store.js';

/** A run as `runs()` lists it: its record and the id of its latest event. */
export type RunSummary = RunRecord & { last_event_id: number };

/**
 * Where a request stands. Its `last_event_id` is exact once it has completed; while it runs, it is the latest event
 * of its run (the same, unless another request of the run is publishing at the same time).
 */
export async function requestStatus(records: RunRecords, record: RequestRecord): Promise<RequestRecord> {
  if (record.status !== 'completed')
    record.last_event_id = await records.store.lastId(records.runLog(record.run_id));
  return record;
}

/** The agent's runs, oldest first, each with the id of its latest event. */
export async function runSummaries(records: RunRecords): Promise<RunSummary[]> {
  const runs = await records.listRuns();
  return Promise.all(
    runs.map(async (run) => ({
      ...run,
      last_event_id: await records.store.lastId(records.runLog(run.run_id)),
    })),
  );
}

/** A run's events after `since`; throws RequestRefused (404) when `agent` has no such run. */
export async function runEvents(
  records: RunRecords,
  agent: string,
  runId: number,
  since: number,
): Promise<AgentEvent[]> {
  if (!(await records.getRun(runId)))
    throw new RequestRefused(404, 'no-such-run', `${agent} has no run ${runId}`);
  return records.runEvents(runId, since);
}

/**
 * Polls a request's events: those after `since`, or, without it, those after the previous poll without `since`
 * (the draft's "queued since the last call").
 */
export async function pollEvents(
  records: RunRecords,
  record: RequestRecord,
  since: number | undefined,
): Promise<AgentEvent[]> {
  const requestId = record.request_id;
  const events = await records.requestEvents(record, since ?? (await records.polled(requestId)));
  const last = events.at(-1);
  if (since === undefined && last) await records.setPolled(requestId, last.id);
  return events;
}

/**
 * Follows a request's events: those after `since` from the store, then live ones as they are appended (by this
 * process or, with a shared store, another), until RequestCompleted or `signal` aborts. Any number of followers see
 * the same events in the same order, without gaps or repeats.
 */
export async function* followRequest(
  records: RunRecords,
  record: RequestRecord,
  since: number,
  signal?: AbortSignal,
): AsyncGenerator<AgentEvent> {
  // A cursor past the newest event (a Last-Event-ID from elsewhere) reads as "from now": the events still to come
  // get higher ids than anything stored, so none of them, RequestCompleted above all, may be skipped as seen.
  const log = records.runLog(record.run_id);
  since = Math.min(since, await records.store.lastId(log));
  if (record.status === 'completed') {
    // A finished request's events are all stored (unless a bounded store let them go): no need to wait for more.
    const stored = await records.requestEvents(record, since);
    if (stored.some((e) => e.type === 'RequestCompleted') || stored.length === 0) {
      yield* stored;
      return;
    }
  }
  const following = new AbortController();
  const stop = () => following.abort();
  signal?.addEventListener('abort', stop);
  try {
    for await (const entry of records.store.follow<StoredEvent>(log, since, following.signal)) {
      if (entry.value.request_id !== record.request_id) continue;
      const event = eventOf(entry);
      yield event;
      if (event.type === 'RequestCompleted') return;
    }
  } finally {
    following.abort();
    signal?.removeEventListener('abort', stop);
  }
}
