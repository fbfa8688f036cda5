// The delivery worker: for each config, it follows the task's event log from the config's cursor and POSTs each update
// to the webhook, in order, tries again with exponential backoff and jitter, then moves the cursor on. It runs beside
// the task, never in its way: a turn appends its events and goes on, whatever the webhooks do.
//
// At least once: the cursor moves only after an update was delivered (or given up on), so an update stored before the
// process died is delivered once it starts again, and one delivered just before is delivered again. Receivers must
// take duplicates (§4.3.3 says they may occur); the updates of one config arrive in the log's order.
import type { AgentStore, OutboundAgents, OutboundPolicy } from '@agentproto/runtime';
import { TERMINAL_STATES } from '../agent/agent.js';
import { eventLog } from '../agent/stored-task.js';
import { variant } from '../agent/task-events.js';
import { A2aError } from '../errors/a2a-error.js';
import type { StreamResponse, TaskState } from '../generated/1.0/index.js';
import {
  deliverOnce,
  deliveryHeaders,
  type PostFunction,
  PUSH_MEDIA_TYPE,
  type PushPayload,
} from './deliver.js';
import type { PushLimits } from './push-config.js';
import type { PushRecords, StoredConfig } from './push-records.js';

/** Time and chance as the worker sees them, so tests need no real waiting. */
export interface PushClock {
  /** Resolves after `ms` milliseconds, or at once when `signal` aborts (it never rejects). */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** A number in [0, 1), for jitter. */
  random(): number;
}

/** Real time. */
export const SYSTEM_CLOCK: PushClock = {
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    }),
  random: Math.random,
};

/**
 * The wait before attempt `attempt + 1`: the base doubled per attempt, capped, half of it fixed and half random
 * ("equal jitter"), so webhooks that failed together are not tried again together.
 */
export function backoffMs(
  attempt: number,
  limits: Pick<PushLimits, 'backoffBaseMs' | 'backoffMaxMs'>,
  random: number,
): number {
  const full = Math.min(limits.backoffMaxMs, limits.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(full / 2 + (full / 2) * random);
}

/** What the worker needs of the agent. */
export interface OutboxOptions {
  store: AgentStore;
  records: PushRecords;
  limits: Readonly<PushLimits>;
  policy: OutboundPolicy;
  clock: PushClock;
  /** The task's state, or TASK_NOT_FOUND: read when a config's delivery starts, to know whether it has ended. */
  taskState: (taskId: string) => Promise<TaskState>;
  /** Told of every update given up on, and every failure of the worker itself. */
  onError: (error: unknown, taskId: string) => void;
  /** Sends one POST (default: the runtime's postOutbound). */
  post?: PostFunction;
  /** Connections kept between deliveries. */
  agents?: OutboundAgents;
  /**
   * What a config made by a client of another version is sent for an update (push-payload.ts); without it, or for a
   * config of the handler version, the update itself as a StreamResponse.
   */
  payload?: (entry: StoredConfig, event: StreamResponse) => Promise<PushPayload>;
}

const key = (taskId: string, id: string) => `${taskId}\n${id}`;

/** The headers of a delivery to a config in a media type (deliveryHeaders), as one delivery run keeps them. */
type HeadersOf = (config: StoredConfig['config'], mediaType: string) => Record<string, string>;

/**
 * The headers of one delivery run (one config's), made again only when its config object or the media type changes:
 * its deliveries share them until its record is read again (every CURSOR_EVERY updates, and after a failed attempt),
 * instead of building them per delivery. Kept by the run, not in a table of every config: nothing outlives it.
 */
function runHeaders(): HeadersOf {
  let last:
    | { config: StoredConfig['config']; mediaType: string; headers: Record<string, string> }
    | undefined;
  return (config, mediaType) => {
    if (last?.config === config && last.mediaType === mediaType) return last.headers;
    last = { config, mediaType, headers: deliveryHeaders(config, mediaType) };
    return last.headers;
  };
}

/**
 * A config's cursor is written after this many updates (and when its delivery stops), and its record read again to
 * see whether another process deleted it: a process killed in between delivers up to this many updates again after its
 * restart. (A delete in this process stops the delivery at once.)
 */
export const CURSOR_EVERY = 16;

/** The deliveries of one agent in this process. */
export class PushOutbox {
  /** One running delivery per config: aborting it stops it (the config was deleted, or the agent closes). */
  readonly #running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  /** Every delivery not ended yet, stopped ones included: closing waits for them all. */
  readonly #ending = new Set<Promise<void>>();
  #closed = false;

  constructor(readonly options: OutboxOptions) {}

  /**
   * Starts delivering a config's updates, unless it is delivered already in this process. `entry` is the config as
   * its caller has just written it (without: it is read).
   */
  watch(taskId: string, id: string, entry?: StoredConfig): void {
    const k = key(taskId, id);
    if (this.#closed || this.#running.has(k)) return;
    const abort = new AbortController();
    const done = this.#deliverAll(taskId, id, abort.signal, entry)
      .catch((error: unknown) => {
        if (!abort.signal.aborted) this.options.onError(error, taskId);
      })
      .finally(() => {
        if (this.#running.get(k)?.abort === abort) this.#running.delete(k);
        this.#ending.delete(done);
      });
    this.#running.set(k, { abort, done });
    this.#ending.add(done);
  }

  /** Stops delivering a config in this process (it was deleted): no update is sent to it from here on. */
  stop(taskId: string, id: string): void {
    const k = key(taskId, id);
    this.#running.get(k)?.abort.abort();
    this.#running.delete(k);
  }

  /**
   * Takes up the deliveries this instance owned when it last stopped. A config whose task is gone, or ended with its
   * last update given already, owes nothing more: it is removed, unless it was made after the end (`ended`), which
   * stays until it is deleted.
   */
  async resume(): Promise<void> {
    const { records, store } = this.options;
    for (const taskId of await records.owned()) {
      const record = await records.read(taskId);
      if (!record) continue;
      let state: TaskState | undefined;
      try {
        state = await this.options.taskState(taskId);
      } catch (error) {
        if (!(error instanceof A2aError && error.reason === 'TASK_NOT_FOUND')) throw error;
      }
      const last = await store.lastId(eventLog(taskId));
      for (const { config, cursor, ended } of record.configs)
        if (state === undefined) await records.remove(taskId, config.id);
        else if (TERMINAL_STATES.has(state) && last <= cursor) {
          // Given every update: a config made after the end stays (it owes nothing), any other is done.
          if (!ended) await records.remove(taskId, config.id);
        } else this.watch(taskId, config.id);
    }
  }

  /** Stops every delivery and waits for them to end. What is left in the outbox is delivered after a restart. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const r of this.#running.values()) r.abort.abort();
    await Promise.all([...this.#ending]);
  }

  /** Follows the task's log from the config's cursor, delivering each update, until the task ends. */
  async #deliverAll(taskId: string, id: string, signal: AbortSignal, given?: StoredConfig): Promise<void> {
    const { store, records, limits } = this.options;
    let entry = given ?? (await records.config(taskId, id));
    if (!entry) return;
    const log = eventLog(taskId);
    let cursor = entry.cursor;
    /** The cursor as last written. */
    let saved = cursor;
    let sinceCheck = 0;
    const headersOf = runHeaders();
    const save = async () => {
      if (cursor > saved) await records.advance(taskId, id, cursor);
      saved = cursor;
    };
    try {
      while (!signal.aborted) {
        let skipTo: number | undefined;
        for await (const logged of store.follow<StreamResponse>(log, cursor, signal)) {
          const event = variant(logged.value);
          const state = event.statusUpdate?.status.state;
          const ended = state !== undefined && TERMINAL_STATES.has(state);
          // The client's own messages (each starting a turn) are in the log, but are not updates to push.
          if (!event.message) {
            // Deleted by another process: read the config again now and then (this process stops it at once).
            if (++sinceCheck >= CURSOR_EVERY) {
              sinceCheck = 0;
              entry = await records.config(taskId, id);
              if (!entry) return;
            }
            const given = await this.#deliver(entry, logged.value, signal, headersOf);
            if (signal.aborted) return;
            if (!given) {
              // Read again (a retry may have seen it deleted), and a webhook that fell too far behind loses the
              // oldest of what it is owed.
              entry = await records.config(taskId, id);
              if (!entry) return;
              const last = await store.lastId(log);
              if (last - logged.id > limits.maxPending) skipTo = last - limits.maxPending;
            }
          }
          if (ended) {
            await records.remove(taskId, id);
            saved = Number.POSITIVE_INFINITY;
            return;
          }
          cursor = logged.id;
          if (cursor - saved >= CURSOR_EVERY) await save();
          if (skipTo !== undefined) break;
        }
        if (skipTo === undefined) return;
        this.options.onError(
          new Error(
            `push config ${id}: the webhook fell more than ${limits.maxPending} updates behind; updates ${cursor + 1}–${skipTo} are dropped`,
          ),
          taskId,
        );
        cursor = skipTo;
        await save();
      }
    } finally {
      // Stopped (closing, or deleted: then there is nothing to write): what was delivered is not owed again.
      if (saved !== Number.POSITIVE_INFINITY)
        await save().catch((error: unknown) => this.options.onError(error, taskId));
    }
  }

  /** Delivers one update, trying again with backoff; false when given up on. */
  async #deliver(
    entry: StoredConfig,
    event: StreamResponse,
    signal: AbortSignal,
    headersOf: HeadersOf,
  ): Promise<boolean> {
    const { limits, clock, policy, records } = this.options;
    const { taskId, id } = entry.config;
    let config = entry.config;
    let reason = '';
    // Made once per update, whatever the attempts: a 0.3 config's Task is read from the store (push-payload.ts).
    let payload: PushPayload = { body: JSON.stringify(event), mediaType: PUSH_MEDIA_TYPE };
    if (entry.version !== undefined && this.options.payload)
      try {
        payload = await this.options.payload(entry, event);
      } catch (error) {
        this.options.onError(
          new Error(`push config ${id}: update given up: its body could not be made: ${String(error)}`),
          taskId,
        );
        return false;
      }
    for (let attempt = 1; attempt <= limits.maxAttempts; attempt++) {
      // One literal of a fixed shape per attempt (no spread: on Node 20 it makes a slow object).
      const post = {
        headers: headersOf(config, payload.mediaType),
        body: payload.body,
        timeoutMs: limits.timeoutMs,
        policy,
        signal,
        agents: this.options.agents,
      };
      const outcome = await deliverOnce(config.url, post, this.options.post);
      if (outcome.delivered) return true;
      reason = outcome.reason;
      if (!outcome.retry || attempt === limits.maxAttempts || signal.aborted) break;
      await clock.sleep(backoffMs(attempt, limits, clock.random()), signal);
      if (signal.aborted) return false;
      // Deleted while waiting: no further attempt.
      const now = await records.config(taskId, id);
      if (!now) return false;
      config = now.config;
    }
    if (!signal.aborted)
      this.options.onError(
        new Error(`push config ${id} (${config.url}): update given up: ${reason}`),
        taskId,
      );
    return false;
  }
}
