// The proxy's connections to the agent: kept alive, and shared by every client. A connection carries one exchange at a
// time; once its answer has ended (and its request has gone whole) it waits in the pool, and the next request of any
// client takes it. Idle connections are dropped before the agent would close them (it says when: `Keep-Alive:
// timeout=`); a request that still meets a connection the agent has just closed is sent again by the exchange when
// that is safe (see Exchange.lost).
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
  /** The TLS context to verify the agent's certificate with, when not Node's default (`--ca`). */
  secureContext?: tls.SecureContext;
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
  /** The agent has ended the connection, or it has closed: nothing more can be sent on it. */
  closed = false;

  constructor(target: UpstreamTarget, maxHead: number, onGone: (conn: Upstream) => void) {
    this.socket = target.https
      ? tls.connect({
          host: target.host,
          port: target.port,
          servername: target.servername,
          ...(target.secureContext ? { secureContext: target.secureContext } : {}),
        })
      : net.connect({ host: target.host, port: target.port });
    this.socket.setNoDelay(true);
    this.reader = new MessageReader('response', maxHead, {
      head: (head: MessageHead) => this.user?.head(head),
      data: (buf, from, to) => this.user?.data(buf, from, to),
      end: () => this.user?.end(),
    });
    this.socket.on('data', (buf: Buffer) => {
      if (this.user) this.user.answerBytes(this, buf);
      // Bytes while idle: not an answer to anything; the connection cannot be trusted (nor handed out meanwhile).
      else {
        this.closed = true;
        this.socket.destroy();
      }
    });
    let error: Error | undefined;
    this.socket.on('error', (e) => {
      error = e;
    });
    // The agent's end of the connection (it closes an idle one): no request may start on it from now on.
    this.socket.on('end', () => {
      this.closed = true;
      onGone(this);
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

/**
 * How long a connection may wait unused before the proxy drops it: `idleMs`, and never past the agent's announced
 * timeout less a margin, as HTTP clients keep (node:http's Agent keeps one second): one second, or half the timeout
 * when that is shorter, so that a request is never sent just as the agent gives up on the connection.
 */
export function idleLimit(idleMs: number, agentIdleMs: number): number {
  return Math.min(idleMs, agentIdleMs - Math.min(1000, agentIdleMs / 2));
}

/** The pool of connections to one agent. */
export class UpstreamPool {
  private readonly idle: Upstream[] = [];
  private readonly all = new Set<Upstream>();
  private readonly sweeper: NodeJS.Timeout;

  /** `now` tells the time in ms (Date.now; a test passes its own clock). */
  constructor(
    private readonly target: UpstreamTarget,
    private readonly maxHead: number,
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {
    // One timer for every idle connection, not one per connection and request.
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.floor(idleMs / 8)));
    this.sweeper.unref();
  }

  /** An idle connection (the most recently used) that the agent still keeps open, or a new one. */
  acquire(user: UpstreamUser): Upstream {
    let conn = this.idle.pop();
    if (conn) {
      const now = this.now();
      // One whose time is up (the sweeper has not come by yet) is dropped here, as is one the agent has ended.
      while (conn && (conn.closed || now - conn.idleSince >= idleLimit(this.idleMs, conn.agentIdleMs))) {
        this.drop(conn);
        conn = this.idle.pop();
      }
    }
    if (!conn) return this.connect(user);
    conn.reused = true;
    conn.user = user;
    return conn;
  }

  /** A new connection, for `user`. */
  connect(user: UpstreamUser): Upstream {
    const conn = new Upstream(this.target, this.maxHead, (gone) => this.forget(gone));
    this.all.add(conn);
    conn.user = user;
    return conn;
  }

  /** Puts a connection whose exchange has ended back in the pool. */
  release(conn: Upstream): void {
    conn.user = undefined;
    if (conn.closed) return;
    conn.idleSince = this.now();
    this.idle.push(conn);
  }

  /** Closes every connection. */
  destroy(): void {
    clearInterval(this.sweeper);
    for (const conn of this.all) conn.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  /**
   * Closes an idle connection, and takes it out of the pool at once: a destroyed socket says `close` only later, and
   * a request written on it meanwhile would get no answer and no error.
   */
  private drop(conn: Upstream): void {
    conn.closed = true;
    this.forget(conn);
    conn.socket.destroy();
  }

  private forget(conn: Upstream): void {
    this.all.delete(conn);
    const i = this.idle.indexOf(conn);
    if (i !== -1) this.idle.splice(i, 1);
  }

  private sweep(): void {
    if (this.idle.length === 0) return;
    const now = this.now();
    for (const conn of [...this.idle])
      if (now - conn.idleSince >= idleLimit(this.idleMs, conn.agentIdleMs)) this.drop(conn);
  }
}
