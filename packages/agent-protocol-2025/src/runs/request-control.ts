// Cancel and resume, from whichever process a request reaches: the store changes first (so it holds even when the
// process running the request is gone), then that process hears it on the agent's control log, which every process
// follows to abort or wake the handlers it runs.
import type { StoredRecord } from '@agentproto/runtime';
import { RequestRefused, type Submitted } from './request-outcome.js';
import { type LiveRequest, type RequestWrites, standIn } from './request-writes.js';
import type { ControlMessage, RequestRecord, RunRecords } from './run-store.js';

/** One agent's cancel and resume, and this process's end of its control log. */
export class RequestControl {
  private readonly stopped = new AbortController();

  /**
   * @param running the requests this process runs, by id: what a control message may abort or wake.
   * @param onError told when following the control log fails.
   */
  constructor(
    private readonly records: RunRecords,
    private readonly writes: RequestWrites,
    private readonly running: Map<string, LiveRequest>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * CancelRequest: the request is completed `canceled` in the store (so it holds even if the process running it is
   * gone), and the process running it is told to abort its handler. Throws RequestRefused (409) if it had completed.
   */
  async cancel(found: StoredRecord<RequestRecord>): Promise<Submitted> {
    const requestId = found.value.request_id;
    const done = await this.writes.finish(standIn(found), {
      type: 'RequestCompleted',
      role: 'system',
      finish_reason: 'canceled',
    });
    if (!done)
      throw new RequestRefused(409, 'request-completed', `request "${requestId}" has already completed`);
    await this.tell({ type: 'cancel', request_id: requestId });
    return { requestId, runId: found.value.run_id, first: done };
  }

  /**
   * ResumeWithInput: the request is marked running, and its process told to go on with `values`. Throws
   * RequestRefused (409) if the request is not waiting for input.
   */
  async resume(found: StoredRecord<RequestRecord>, values: Record<string, unknown>): Promise<Submitted> {
    const requestId = found.value.request_id;
    const live = standIn(found);
    let waiting = false;
    await this.writes.change(live, (record) => {
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
   * Follows the control log from after `from` until stop() is called, aborting or waking the handlers this process
   * runs. Never rejects: a failure while following is told to onError.
   */
  async listen(from: number): Promise<void> {
    try {
      for await (const { value } of this.records.store.follow<ControlMessage>(
        this.records.control,
        from,
        this.stopped.signal,
      )) {
        const live = this.running.get(value.request_id);
        if (!live) continue;
        if (value.type === 'cancel') {
          this.running.delete(value.request_id);
          live.abort.abort(new Error('the request was canceled'));
          live.resume?.reject(live.abort.signal.reason);
        } else if (live.resume) {
          const { resolve } = live.resume;
          delete live.resume;
          await this.writes.refresh(live);
          resolve(value.values);
        }
      }
    } catch (error) {
      if (!this.stopped.signal.aborted) this.onError(error);
    }
  }

  /** Stops following the control log. Requests still running go on; their handlers are not aborted. */
  stop(): void {
    this.stopped.abort();
  }

  /** Sends a control message to every process serving this agent (itself included). */
  private async tell(message: ControlMessage): Promise<void> {
    await this.records.store.append(this.records.control, message);
  }
}
