// The proxy's connections to the agent: kept alive, and shared by every client. A connection carries one exchange at a
// time; once its answer has ended (and its request has gone whole) it waits in the pool, and the next request of any
// client takes it. Idle connections are closed before the agent would close them: a request sent on a connection the
// agent is closing fails with a reset (and the client gets a 502).
import net from 'node:net';
import tls from 'node:tls';
import { type FramingEvents, type MessageHead, MessageReader } from './http-framing.js';

/** What a connection tells the exchange it carries. */
export interface UpstreamUser extends FramingEvents {
  /** Bytes of the answer arrived (the reader has not read them yet). */
  answerBytes(conn: Upstream, buf: Buffer): void;
  /** The connection failed (`error`) or closed. */
  lost(conn: Upstream, error: Error | undefined): void;
}

/** Where the agent is. */
export interface UpstreamTarget {
  https: boolean;
  host: string;
  port: number;
  /** The name TLS sends (SNI) and checks the agent's certificate against; empty for an IP address (RFC 6066 §3). */
  servername: string;
}

/** One connection to the agent. */
export class Upstream {
  readonly socket: net.Socket;
  /** Reads the answers on this connection. */
  readonly reader: MessageReader;
  user: UpstreamUser | undefined;
  /** Whether the connection was used before (a reset on it may be the agent closing an idle connection). */
  reused = false;
  idleSince = 0;
  /** How long the agent keeps it open unused, as its last answer said (`Keep-Alive: timeout=`), in ms. */
  agentIdleMs = Number.POSITIVE_INFINITY;
  closed = false;

  constructor(target: UpstreamTarget, maxHead: number, onGone: (conn: Upstream) => void) {
    this.socket = target.https
      ? tls.connect({ host: target.host, port: target.port, servername: target.servername })
      : net.connect({ host: target.host, port: target.port });
    this.socket.setNoDelay(true);
    this.reader = new MessageReader('response', maxHead, {
      head: (head: MessageHead) => this.user?.head(head),
      data: (buf, from, to) => this.user?.data(buf, from, to),
      end: () => this.user?.end(),
    });
    this.socket.on('data', (buf: Buffer) => {
      if (this.user) this.user.answerBytes(this, buf);
      // Bytes while idle: not an answer to anything; the connection cannot be trusted.
      else this.socket.destroy();
    });
    let error: Error | undefined;
    this.socket.on('error', (e) => {
      error = e;
    });
    this.socket.on('close', () => {
      this.closed = true;
      onGone(this);
      const user = this.user;
      this.user = undefined;
      user?.lost(this, error);
    });
  }
}

/** The pool of connections to one agent. */
export class UpstreamPool {
  private readonly idle: Upstream[] = [];
  private readonly all = new Set<Upstream>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly target: UpstreamTarget,
    private readonly maxHead: number,
    private readonly idleMs: number,
  ) {
    // One timer for every idle connection, not one per connection and request.
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.floor(idleMs / 8)));
    this.sweeper.unref();
  }

  /** An idle connection (the most recently used), or a new one. */
  acquire(user: UpstreamUser): Upstream {
    let conn = this.idle.pop();
    while (conn?.closed) conn = this.idle.pop();
    if (!conn) {
      conn = new Upstream(this.target, this.maxHead, (gone) => this.forget(gone));
      this.all.add(conn);
    } else conn.reused = true;
    conn.user = user;
    return conn;
  }

  /** Puts a connection whose exchange has ended back in the pool. */
  release(conn: Upstream): void {
    conn.user = undefined;
    if (conn.closed) return;
    conn.idleSince = Date.now();
    this.idle.push(conn);
  }

  /** Closes every connection. */
  destroy(): void {
    clearInterval(this.sweeper);
    for (const conn of this.all) conn.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  private forget(conn: Upstream): void {
    this.all.delete(conn);
    const i = this.idle.indexOf(conn);
    if (i !== -1) this.idle.splice(i, 1);
  }

  private sweep(): void {
    if (this.idle.length === 0) return;
    const now = Date.now();
    // The agent's own hint, less a second (as node:http's Agent reads it), and never above ours.
    for (const conn of [...this.idle])
      if (now - conn.idleSince >= Math.min(this.idleMs, conn.agentIdleMs - 1000)) conn.socket.destroy();
  }
}
