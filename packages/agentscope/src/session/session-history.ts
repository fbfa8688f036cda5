// Conversation continuity by `session_id` (upstream's best practice: "use session_id for conversation continuity"):
// what earlier requests of a session sent and what the agent answered, kept in an AgentStore so that every process
// serving the agent shares it and a durable store keeps it across restarts.
import { type AgentStore, MemoryStore } from '@agentproto/runtime';

/** A message as a session keeps it: whatever the request held, or the completed message the agent answered. */
export type SessionMessage = Record<string, unknown>;

/** Options of a session history. */
export interface SessionHistoryOptions {
  /** The most messages one session keeps; older ones are let go first (default 200). */
  maxMessages?: number;
}

// The store's collection of sessions: one record per session id, its messages oldest first.
const SESSIONS = 'agentscope-sessions';

/** The messages of each session, in a store: read before a request runs, added to once its response completes. */
export class SessionHistory {
  private readonly maxMessages: number;

  constructor(
    readonly store: AgentStore = new MemoryStore(),
    options: SessionHistoryOptions = {},
  ) {
    this.maxMessages = options.maxMessages ?? 200;
    if (!Number.isInteger(this.maxMessages) || this.maxMessages < 1)
      throw new RangeError(`maxMessages must be a positive whole number, not ${options.maxMessages}`);
  }

  /** The session's messages so far, oldest first (none for a session not seen before). */
  async messages(sessionId: string): Promise<SessionMessage[]> {
    const found = await this.store.get<{ messages: SessionMessage[] }>(SESSIONS, sessionId);
    return found?.value.messages ?? [];
  }

  /**
   * Adds messages to the end of a session. Two requests of one session finishing at once both land: each write only
   * holds if nobody wrote in between, and is tried again on the newer record otherwise.
   */
  async append(sessionId: string, messages: readonly SessionMessage[]): Promise<void> {
    if (messages.length === 0) return;
    for (let attempt = 0; attempt < 20; attempt++) {
      const found = await this.store.get<{ messages: SessionMessage[] }>(SESSIONS, sessionId);
      const all = [...(found?.value.messages ?? []), ...messages].slice(-this.maxMessages);
      if ((await this.store.put(SESSIONS, sessionId, { messages: all }, found?.rev ?? 0)) !== undefined)
        return;
    }
    throw new Error(`session ${sessionId}: too many writers at once; the messages were not kept`);
  }
}
