// The sessions a server keeps for revisions with a handshake: created by a successful `initialize`, named by
// `Mcp-Session-Id`, ended by DELETE, bounded in number and in idle time.
import { randomUUID } from 'node:crypto';
import type { LoggingLevel } from './definition.js';

/** How many sessions a server keeps, and for how long an idle one lives. */
export interface SessionLimits {
  /** Most sessions at once; the least recently used is dropped for a new one (default 1,024). */
  maxSessions: number;
  /** A session unused for this long is gone (default 30 minutes). */
  idleMs: number;
}

/** The session bounds a server has unless its options say otherwise. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxSessions: 1024, idleMs: 30 * 60_000 };

/** One session: the revision `initialize` agreed on, what the client declared, and the log level it asked for. */
export interface Session {
  id: string;
  version: string;
  clientCapabilities: Record<string, unknown>;
  logLevel?: LoggingLevel;
  lastUsed: number;
}

/** The live sessions, most recently used last (a Map keeps insertion order; a use moves the session to the end). */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  constructor(
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Opens a session for a revision and a client's capabilities; drops the least recently used one when full. */
  open(version: string, clientCapabilities: Record<string, unknown> = {}): Session {
    this.#sweep();
    while (this.#sessions.size >= this.limits.maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
    const session: Session = { id: randomUUID(), version, clientCapabilities, lastUsed: this.now() };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id, marked as used; undefined when there is none (never was, ended, or idle too long). */
  use(id: string): Session | undefined {
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    this.#sessions.delete(id);
    const now = this.now();
    if (now - session.lastUsed > this.limits.idleMs) return undefined;
    session.lastUsed = now;
    this.#sessions.set(id, session);
    return session;
  }

  /** Ends a session; whether it was live. */
  end(id: string): boolean {
    return this.use(id) !== undefined && this.#sessions.delete(id);
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Drops the sessions idle too long, oldest first, stopping at the first that is not. */
  #sweep(): void {
    for (const [id, session] of this.#sessions) {
      if (this.now() - session.lastUsed <= this.limits.idleMs) break;
      this.#sessions.delete(id);
    }
  }
}
