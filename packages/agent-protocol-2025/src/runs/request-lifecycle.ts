// A request's life in the process that runs it: its record written and its run found or made, RequestStarted
// published, its work run with an OperationContext, and its one RequestCompleted published once the run's memory is
// saved. Cancel and resume from elsewhere are request-control.ts; reads are request-reads.ts.
import type { AgentEvent } from '../generated/draft-2025-02/index.js';
import { operationContext } from './operation-context.js';
import type { RequestWork } from './operations.js';
import { RequestRefused, type Submitted } from './request-outcome.js';
import type { CompletionBody, LiveRequest, RequestWrites } from './request-writes.js';
import type { RequestRecord, RunRecord, RunRecords } from './run-store.js';

/** Starts one agent's requests in this process and completes them when their work ends. */
export class RequestLifecycle {
  /**
   * @param agent the agent's name, written on its requests.
   * @param instance this process's name, written on the requests it runs as their owner.
   * @param running the requests this process runs, by id: `start` adds each one.
   */
  constructor(
    private readonly agent: string,
    private readonly instance: string,
    private readonly records: RunRecords,
    private readonly writes: RequestWrites,
    private readonly running: Map<string, LiveRequest>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Starts a request `r` (a run's next turn, or a new run's first) with its `work`, and answers once RequestStarted
   * is published; a ConfigureRequest answers with its RequestCompleted instead. Throws RequestRefused for an unknown
   * run (404) or a request id already taken (409).
   */
  async start(r: Record<string, unknown>, work: RequestWork): Promise<Submitted> {
    // A request names the run it continues (its memory and configuration), or starts a new one.
    let run: RunRecord | undefined;
    if (typeof r.run_id === 'number') {
      run = await this.records.getRun(r.run_id);
      if (!run) throw new RequestRefused(404, 'no-such-run', `${this.agent} has no run ${r.run_id}`);
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
      agent: this.agent,
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
    const live: LiveRequest = { record, rev, run, abort: new AbortController() };
    this.running.set(requestId, live);
    const started = await this.writes.publish(live, {
      type: 'RequestStarted',
      role: 'system',
      request_id: requestId,
    });
    if (!started) throw new Error(`request ${requestId} was completed before it started`);
    const context = operationContext(live, r, this.writes);
    // Configure answers with its completion; other requests with their start.
    const completion = this.complete(live, work(run, context));
    // Other requests complete in the background: a store that fails meanwhile (Redis gone, say) is reported, never
    // left as an unhandled rejection that would end the process.
    if (r.type !== 'ConfigureRequest') completion.catch((error) => this.onError(error));
    const first = r.type === 'ConfigureRequest' ? await completion : started;
    return { requestId, runId: run.run_id, first };
  }

  private async complete(live: LiveRequest, work: Promise<unknown>): Promise<AgentEvent> {
    let body: CompletionBody;
    try {
      const result = await work;
      body = {
        type: 'RequestCompleted',
        role: 'system',
        finish_reason: 'success',
        ...(result === undefined ? {} : { result }),
      };
    } catch (error) {
      if (live.abort.signal.aborted) return this.writes.lastCompletion(live.record);
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
    return (await this.writes.finish(live, body)) ?? this.writes.lastCompletion(live.record);
  }
}
