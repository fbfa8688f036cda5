// Push notification configs as the AgentStore keeps them: one record per task holding its configs, each with the id
// of the last event of the task's log it has been given (its cursor). The task's event log is the outbox: an update is
// in it before any client hears of it, so whatever lies between a config's cursor and the log's end is still owed to
// that webhook, after a restart too. Records are listed by the instance that delivers them, so a process that starts
// again under its name takes its deliveries up where they stopped.
import type { AgentStore } from '@agentproto/runtime';
import type { TaskPushNotificationConfig } from '../generated/1.0/index.js';

/** The collection of push records, by task id. */
export const PUSH_CONFIGS = 'a2a/push-configs';
/** The index that lists a task's record under the instance delivering it: `<instance>|<taskId>`. */
const BY_OWNER = 'owner';

/** One config and how far into the task's log it has been delivered. */
export interface StoredConfig {
  config: TaskPushNotificationConfig & { id: string; taskId: string };
  /** The id of the last event of the task's log this webhook needs no more (given, or dropped). */
  cursor: number;
  /**
   * The protocol version of the client that made the config, when it is not the handler version (0.3, through the
   * translation): its deliveries are in that version's shape (push-payload.ts).
   */
  version?: string;
  /**
   * Made after its task ended, with every update given already: nothing is delivered to it, and it stays until it is
   * deleted or its task is gone (a config made before the end goes once the final update is delivered).
   */
  ended?: true;
}

/** A task's configs. */
export interface PushRecord {
  taskId: string;
  /** The instance that delivers them (TaskManager.instance). */
  owner: string;
  configs: StoredConfig[];
}

/** How many times a change of a record is tried again when another writer changed it meanwhile. */
const ATTEMPTS = 100;

/** The push records of one agent's store. */
export class PushRecords {
  constructor(
    readonly store: AgentStore,
    readonly instance: string,
  ) {}

  /** A task's record, or undefined when it has no config. */
  async read(taskId: string): Promise<PushRecord | undefined> {
    return (await this.store.get<PushRecord>(PUSH_CONFIGS, taskId))?.value;
  }

  /** One config of a task, or undefined. */
  async config(taskId: string, id: string): Promise<StoredConfig | undefined> {
    return (await this.read(taskId))?.configs.find((c) => c.config.id === id);
  }

  /**
   * Changes a task's record: `change` gets it (or undefined) and answers the record to write, `null` to remove it,
   * or undefined to leave it. Tried again when another writer changed it meanwhile. Answers what `change` answered.
   */
  async change(
    taskId: string,
    change: (record: PushRecord | undefined) => PushRecord | null | undefined,
  ): Promise<PushRecord | null | undefined> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const stored = await this.store.get<PushRecord>(PUSH_CONFIGS, taskId);
      const next = change(stored?.value);
      if (next === undefined) return undefined;
      if (next === null || next.configs.length === 0) {
        if (!stored) return null;
        // A removal guarded by a write: whoever changed the record meanwhile makes this one look again.
        const rev = await this.store.put(PUSH_CONFIGS, taskId, { ...stored.value, configs: [] }, stored.rev);
        if (rev === undefined) continue;
        await this.store.delete(PUSH_CONFIGS, taskId);
        return null;
      }
      const rev = await this.store.put(PUSH_CONFIGS, taskId, next, stored?.rev ?? 0, {
        [BY_OWNER]: `${next.owner}|${taskId}`,
      });
      if (rev !== undefined) return next;
    }
    throw new Error(`the push configs of task ${taskId} kept changing under this write`);
  }

  /** Moves a config's cursor forward to `eventId` (never back). */
  async advance(taskId: string, id: string, eventId: number): Promise<void> {
    await this.change(taskId, (record) => {
      const entry = record?.configs.find((c) => c.config.id === id);
      if (!record || !entry || entry.cursor >= eventId) return undefined;
      return {
        ...record,
        configs: record.configs.map((c) => (c === entry ? { ...c, cursor: eventId } : c)),
      };
    });
  }

  /** Removes a config (nothing happens when it is not there); the record goes with its last config. */
  async remove(taskId: string, id: string): Promise<boolean> {
    let removed = false;
    await this.change(taskId, (record) => {
      if (!record?.configs.some((c) => c.config.id === id)) return undefined;
      removed = true;
      return { ...record, configs: record.configs.filter((c) => c.config.id !== id) };
    });
    return removed;
  }

  /** The ids of the tasks whose configs this instance delivers. */
  owned(): Promise<string[]> {
    // `}` follows `|` in ASCII: the range holds exactly the keys that start with `<instance>|`.
    return this.store.listByIndex(PUSH_CONFIGS, BY_OWNER, {
      from: `${this.instance}|`,
      before: `${this.instance}}`,
    });
  }
}
