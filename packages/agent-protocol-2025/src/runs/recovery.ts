// Start-up after a stop: the requests this instance was running when it last stopped (their handlers died with it)
// end as failed, and one stopped between being marked completed and publishing its RequestCompleted publishes it.
// Runs once per runtime, before it listens for control messages.
import { type RequestWrites, standIn } from './request-writes.js';
import type { RunRecords } from './run-store.js';

/** Finishes the requests `instance` left open, so each has its one RequestCompleted, and forgets them as open. */
export async function recoverOpenRequests(
  records: RunRecords,
  writes: RequestWrites,
  instance: string,
): Promise<void> {
  for (const { request_id } of await records.open.ownedBy(instance)) {
    const found = await records.getRequest(request_id);
    if (found) {
      const live = standIn(found);
      if (found.value.status !== 'completed') {
        await writes.finish(live, {
          type: 'RequestCompleted',
          role: 'system',
          finish_reason: 'error',
          error: 'the agent stopped while this request ran',
        });
      } else if (!(await records.requestEvents(found.value, 0)).some((e) => e.type === 'RequestCompleted')) {
        // Stopped between marking the request completed and publishing its RequestCompleted: publish it now.
        await writes.publish(live, {
          type: 'RequestCompleted',
          role: 'system',
          finish_reason: found.value.finish_reason ?? 'error',
        });
      }
    }
    await records.open.close(request_id);
  }
}
