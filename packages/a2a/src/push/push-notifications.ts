// Push notifications of an A2A agent (specification §3.1.7–3.1.10, §4.3, §13.2): the four config operations, the
// config SendMessage carries (§6.6), and the outbox that delivers. Configs live in the agent's AgentStore (one record
// per task, push-records.ts) until the task ends and its last update is delivered, or until they are deleted.
import { randomUUID } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import {
  type HostResolver,
  type OutboundAgents,
  type OutboundPolicy,
  outboundAgents,
} from '@agentproto/runtime';
import { TERMINAL_STATES } from '../agent/agent.js';
import { eventLog } from '../agent/stored-task.js';
import type { TaskManager } from '../agent/task-manager.js';
import { A2aError, InvalidParamsError } from '../errors/a2a-error.js';
import type {
  DeleteTaskPushNotificationConfigRequest,
  Empty,
  GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  SendMessageRequest,
  TaskPushNotificationConfig,
} from '../generated/1.0/index.js';
import { isVersion } from '../generated/versions.js';
import { HANDLER_VERSION, VERSION_TRAITS } from '../version-data.js';
import type { PostFunction } from './deliver.js';
import { type PushClock, PushOutbox, SYSTEM_CLOCK } from './outbox.js';
import { CheckedWebhooks, checkConfig, DEFAULT_PUSH_LIMITS, type PushLimits } from './push-config.js';
import { pushPayloads } from './push-payload.js';
import { PushRecords, type StoredConfig } from './push-records.js';

/** Options of an agent's push notifications (`createA2aServer({ push })`). */
export interface PushOptions {
  /**
   * Hosts webhooks may be on although they are, or resolve to, loopback, private, link-local, unique-local or
   * metadata addresses, as the URL spells them (`127.0.0.1`, `hooks.internal`). Empty by default: only public
   * addresses are called (§13.2).
   */
  allowHosts?: readonly string[];
  /** Limits and delivery tries (default `DEFAULT_PUSH_LIMITS`). */
  limits?: Partial<PushLimits>;
  /** Time as the worker waits it (default: real time). */
  clock?: PushClock;
  /** Resolves webhook host names when a config is made (default: the system resolver). */
  resolve?: HostResolver;
  /** The lookup each delivery's connection uses before the address policy filters it (default: `dns.lookup`). */
  lookup?: LookupFunction;
  /** Sends one delivery (default: the runtime's `postOutbound`). */
  post?: PostFunction;
}

/** Deliveries written to one webhook connection before the first is answered (`OutboundAgentOptions.pipelining`). */
const PIPELINING = 8;

/** Where SendMessage carries its config, as google.rpc.BadRequest names fields. */
const INLINE = 'configuration.taskPushNotificationConfig';

/** An agent's push notifications: its configs and their deliveries. */
export class PushNotifications {
  readonly limits: Readonly<PushLimits>;
  readonly policy: OutboundPolicy;
  readonly records: PushRecords;
  readonly outbox: PushOutbox;
  /** Connections to webhooks, kept between deliveries. */
  readonly #agents: OutboundAgents;
  /** Settles once the deliveries this instance owned when it last stopped are taken up again. */
  readonly ready: Promise<void>;
  /** The webhook URLs checked lately under `policy`. */
  readonly #webhooks: CheckedWebhooks;
  /**
   * The inline configs checkInline passed, by the object the request carries, as checked: attachInline takes them
   * from here instead of checking them again.
   */
  readonly #inline = new WeakMap<TaskPushNotificationConfig, TaskPushNotificationConfig>();

  constructor(
    readonly manager: TaskManager,
    options: PushOptions = {},
    onError: (error: unknown, taskId: string) => void = (error, taskId) =>
      console.error(`[a2a push ${taskId}]`, error),
  ) {
    this.limits = Object.freeze({ ...DEFAULT_PUSH_LIMITS, ...options.limits });
    // Pipelined: each config has one delivery in flight at a time (the next update goes once this one is answered),
    // so the deliveries sharing a connection are of different configs, and their order is kept; a request undici sends
    // again after a dropped connection is a duplicate, which at least once allows (§4.3.3). Without it, a receiver
    // answering slower than tasks finish leaves most deliveries waiting for one of the pooled connections.
    this.#agents = outboundAgents({ connectTimeoutMs: this.limits.timeoutMs, pipelining: PIPELINING });
    this.policy = {
      allowHosts: [...(options.allowHosts ?? [])],
      ...(options.resolve ? { resolve: options.resolve } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
    };
    this.#webhooks = new CheckedWebhooks(this.policy, this.limits.maxCheckedUrls);
    this.records = new PushRecords(manager.store, manager.instance);
    this.outbox = new PushOutbox({
      store: manager.store,
      records: this.records,
      limits: this.limits,
      policy: this.policy,
      clock: options.clock ?? SYSTEM_CLOCK,
      taskState: async (taskId) => (await manager.anyTenant(taskId, 0)).status.state,
      onError,
      agents: this.#agents,
      payload: pushPayloads(manager),
      ...(options.post ? { post: options.post } : {}),
    });
    this.ready = manager.ready.then(() => this.outbox.resume());
    this.ready.catch((error: unknown) => onError(error, 'push outbox start-up'));
  }

  /**
   * CreateTaskPushNotificationConfig (§3.1.7): the config, stored with its id; its task's updates go to it from now.
   * A task that has ended has no updates left: its config is stored all the same (the section lists no error for it)
   * and delivers nothing; it stays until it is deleted or its task is gone (DECISIONS 103).
   * `version` is the protocol version of the client that asks: its deliveries are in that version's shape.
   */
  async create(params: TaskPushNotificationConfig, version?: string): Promise<TaskPushNotificationConfig> {
    const taskId = requireString(params.taskId, 'taskId');
    const config = checkConfig(params, this.limits, undefined, this.#webhooks.has(params.url));
    // Updates from now on: the log's last event is the config's starting point. Read before the state, so a task
    // that ends meanwhile has its final update after the cursor (and the delivery sees it end).
    const log = eventLog(taskId);
    const cursor = await this.manager.store.lastId(log);
    const task = await this.manager.get(taskId, 0, params.tenant);
    const ended = TERMINAL_STATES.has(task.status.state) && (await this.manager.store.lastId(log)) <= cursor;
    await this.#webhooks.check(config.url, 'url');
    const id =
      params.id === undefined || params.id === '' ? newId(taskId, version) : requireString(params.id, 'id');
    return this.#add(taskId, { ...config, id, taskId }, cursor, version, ended);
  }

  /** GetTaskPushNotificationConfig (§3.1.8); a config that is not there is TaskNotFoundError, as the section says. */
  async get(params: GetTaskPushNotificationConfigRequest): Promise<TaskPushNotificationConfig> {
    const taskId = requireString(params.taskId, 'taskId');
    const id = requireString(params.id, 'id');
    await this.manager.get(taskId, 0, params.tenant);
    const entry = await this.records.config(taskId, id);
    if (!entry)
      throw new A2aError('TASK_NOT_FOUND', `task ${taskId} has no push notification config ${id}`, {
        taskId,
        configId: id,
      });
    return entry.config;
  }

  /** ListTaskPushNotificationConfigs (§3.1.9): the task's configs, in the order they were made, a page at a time. */
  async list(
    params: ListTaskPushNotificationConfigsRequest,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const taskId = requireString(params.taskId, 'taskId');
    await this.manager.get(taskId, 0, params.tenant);
    const configs = (await this.records.read(taskId))?.configs.map((c) => c.config) ?? [];
    const token = params.pageToken ?? '';
    const from = token === '' ? 0 : Number(token);
    if (!/^\d{1,9}$/.test(token === '' ? '0' : token) || from > configs.length)
      throw new InvalidParamsError('pageToken', 'not a page token this agent gave');
    const size = params.pageSize === undefined || params.pageSize <= 0 ? configs.length : params.pageSize;
    const page = configs.slice(from, from + size);
    const next = from + page.length;
    return { configs: page, nextPageToken: next < configs.length ? String(next) : '' };
  }

  /** DeleteTaskPushNotificationConfig (§3.1.10): idempotent; a config that is not there is already deleted. */
  async delete(params: DeleteTaskPushNotificationConfigRequest): Promise<Empty> {
    const taskId = requireString(params.taskId, 'taskId');
    const id = requireString(params.id, 'id');
    await this.manager.get(taskId, 0, params.tenant);
    // Stopped first: nothing more is sent from this process once the answer leaves.
    this.outbox.stop(taskId, id);
    await this.records.remove(taskId, id);
    return {};
  }

  /** Checks the config a SendMessage carries before the turn starts; InvalidParams when it cannot be used. */
  async checkInline(given: TaskPushNotificationConfig | undefined): Promise<void> {
    if (!given) return;
    const config = checkConfig(given, this.limits, atInline, this.#webhooks.has(given.url));
    await this.#webhooks.check(config.url, `${INLINE}.url`);
    this.#inline.set(given, config);
  }

  /**
   * Stores the config a SendMessage carries for the task the turn works on, before the turn's first update (the
   * TaskManager's `beforeTurn`): every update of the turn from `afterEventId` on goes to it.
   */
  async attachInline(
    taskId: string,
    afterEventId: number,
    request: SendMessageRequest,
    version?: string,
  ): Promise<void> {
    const given = request.configuration?.taskPushNotificationConfig;
    if (!given) return;
    // Checked by checkInline already when the request came through the server; checked here otherwise.
    const config = this.#inline.get(given) ?? checkConfig(given, this.limits, atInline);
    this.#inline.delete(given);
    const id = given.id === undefined || given.id === '' ? newId(taskId, version) : given.id;
    await this.#add(taskId, { ...config, id, taskId }, afterEventId, version);
  }

  /** Stops every delivery of this process; what is left is delivered when the instance starts again. */
  async close(): Promise<void> {
    await this.outbox.close();
    await this.#agents.destroy();
  }

  /**
   * Stores a config (replacing one of the same id) within the per-task limit, and starts delivering it, unless it was
   * made after its task ended and was given every update (`ended`): then nothing is owed to it.
   */
  async #add(
    taskId: string,
    config: StoredConfig['config'],
    cursor: number,
    version?: string,
    ended = false,
  ): Promise<TaskPushNotificationConfig> {
    // The handler version's shape is the default: only another version is written down.
    const made = {
      ...(version === undefined || version === HANDLER_VERSION ? {} : { version }),
      ...(ended ? { ended: true as const } : {}),
    };
    const max = this.limits.maxConfigsPerTask;
    let written: StoredConfig | undefined;
    await this.records.change(taskId, (record) => {
      const others = (record?.configs ?? []).filter((c) => c.config.id !== config.id);
      if (others.length >= max)
        throw new InvalidParamsError(
          'taskId',
          `task ${taskId} has ${others.length} push notification configs, the most one task may have (${max}); delete one first`,
        );
      const kept = record?.configs.find((c) => c.config.id === config.id);
      const entry: StoredConfig = { config, cursor: kept ? Math.max(kept.cursor, cursor) : cursor, ...made };
      written = entry;
      return { taskId, owner: record?.owner ?? this.records.instance, configs: [...others, entry] };
    });
    // A config replaced while it was being delivered starts again, with its new URL and credentials.
    this.outbox.stop(taskId, config.id);
    // The delivery starts from the entry just written, not from a read of it.
    if (!ended) this.outbox.watch(taskId, config.id, written);
    return config;
  }
}

/** The id of a config made without one, as the version of the client that made it gives it. */
function newId(taskId: string, version: string | undefined): string {
  const traits = version !== undefined && isVersion(version) ? VERSION_TRAITS[version] : undefined;
  return traits?.pushConfigIdWhenUnsaid === 'taskId' ? taskId : randomUUID();
}

/** Where a field of the config SendMessage carries sits. */
const atInline = (field: string) => `${INLINE}.${field}`;

/** A required string parameter, or InvalidParams naming it. */
function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '')
    throw new InvalidParamsError(
      field,
      `a non-empty string is required, got ${JSON.stringify(value ?? null)}`,
    );
  return value;
}
