// Work a server process has under way (a request running, a task being worked on), kept in its AgentStore under the
// process's instance name: a process killed mid-work cannot finish it, so when it starts again under the same name it
// reads what it left open and finishes each as failed (README, "Keeping state": requests running at a crash end
// `error` on restart). Every protocol package with long-running work shares this one mechanism.
import { hostname } from 'node:os';
import type { AgentStore } from './agent-store.js';

/** The instance name a process takes unless told: the AGENTPROTO_INSTANCE environment variable, else the host name. */
export function defaultInstance(): string {
  return process.env.AGENTPROTO_INSTANCE || hostname();
}

/** What every entry of an OpenWork list holds: the instance running the work. */
export interface OpenEntry {
  owner: string;
}

/**
 * One collection of open work, by id. Mark work open before it can be seen running and close it once its final
 * state is stored; an entry left open names work its owner must finish when it restarts. Two processes running at
 * once need different instance names.
 */
export class OpenWork<E extends OpenEntry> {
  constructor(
    readonly store: AgentStore,
    readonly collection: string,
  ) {}

  /** Marks work open, run by `entry.owner`. */
  async open(id: string, entry: E): Promise<void> {
    await this.store.put(this.collection, id, entry);
  }

  /** Marks work finished; closing work that is not open does nothing. */
  close(id: string): Promise<void> {
    return this.store.delete(this.collection, id);
  }

  /** The open work an instance owns (what it must finish at start-up), read a page at a time. */
  async ownedBy(instance: string): Promise<E[]> {
    const owned: E[] = [];
    const pageSize = 1000;
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.store.list<E>(this.collection, { offset, limit: pageSize });
      owned.push(...page.filter((entry) => entry.owner === instance));
      if (page.length < pageSize) return owned;
    }
  }
}
