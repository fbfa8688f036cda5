// The validating proxy: a byte pipe on 127.0.0.1 (node:net; node:tls towards an https agent) that forwards every
// request to the agent and every answer back as it came (status line, headers and bytes; a stream chunk by chunk as it
// arrives), and checks copies of both directions on the way. An HTTP/1.1 framing reader on each direction only reads
// the bytes (http-framing.ts): where heads end, how bodies are framed, where messages end. A request's head is the
// one thing written anew: its Host names the agent, its target gains the agent's root path, and the hop-by-hop
// fields (Connection, Keep-Alive; RFC 9110 §7.6.1) stay on the client's hop. Each request and its answer are one
// Exchange (exchange.ts), which forwards them and checks them; discovery documents that name the agent's URLs are the
// one answer changed: they name the proxy instead.
//
// Connections: a client's requests are answered in order, one at a time; requests it pipelines (writes before the
// answer) wait, unread, until the answer before them has ended. Connections to the agent are a pool shared by every
// client (upstream-pool.ts), one exchange at a time each.
import net from 'node:net';
import tls from 'node:tls';
import {
  type ProtocolBinding,
  type ProxyLimits,
  resolveProxyLimits,
  type Surface,
  type SurfaceOperation,
  type SurfaceRpcMethod,
} from '@agentproto/runtime/contract';
import { SessionChecker } from '../inspect/session.js';
import { Exchange, writeProblem } from './exchange.js';
import { type FramingError, type MessageHead, MessageReader } from './http-framing.js';
import type { ProxyReport } from './reporters.js';
import { Router } from './route.js';
import type { SessionFile } from './session-file.js';
import { HeldBytes } from './taps.js';
import { UpstreamPool } from './upstream-pool.js';

/** How to start a proxy. */
export interface ProxyOptions {
  binding: ProtocolBinding;
  /** The agent's root URL: the proxy's root stands for it. */
  target: string;
  /** The port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  limits?: Partial<ProxyLimits>;
  /** Told of each invalid message and each note, as they happen. */
  onReport: (report: ProxyReport) => void;
  /** Where the traffic is recorded, when it is. */
  session?: SessionFile;
  /**
   * Certificates (PEM) an https agent's certificate may chain to, trusted besides Node's bundled CAs: an agent with a
   * self-signed or private-CA certificate. Verification is never turned off.
   */
  ca?: string;
}

/** What the proxy has done so far. */
export interface ProxyStats {
  exchanges: number;
  /** Messages reported invalid. */
  invalid: number;
  /** Bytes the checks hold now, and the most they ever held at once (the limits bound it). */
  heldBytes: number;
  heldBytesMax: number;
  /** Stream items checked. */
  items: number;
}

/** A proxy that listens. */
export interface RunningProxy {
  /** Its root URL (`http://127.0.0.1:<port>`), which stands for the target's. */
  url: string;
  stats(): ProxyStats;
  /** Stops listening and cuts open connections. */
  close(): Promise<void>;
}

/**
 * A TLS context that trusts Node's bundled CAs and the PEM certificates of `ca`: made once per proxy (a context made
 * per connection would read every CA again each time). Throws when `ca` holds no certificate Node can read.
 */
export function trustingAlso(ca: string): tls.SecureContext {
  if (!ca.includes('-----BEGIN CERTIFICATE-----'))
    throw new Error('no PEM certificate (-----BEGIN CERTIFICATE-----)');
  return tls.createSecureContext({ ca: [...tls.rootCertificates, ca] });
}

/** How long a connection to the agent stays open unused (an in-flight request, however quiet, is never cut by it). */
const IDLE_UPSTREAM_MS = 4_000;
/** How long a client's connection stays open with no request (node:http's keepAliveTimeout). */
const IDLE_CLIENT_MS = 5_000;

/** What every connection and exchange of one proxy shares. */
export class ProxyContext {
  readonly limits: ProxyLimits;
  readonly router: Router;
  readonly checker: SessionChecker;
  readonly held = new HeldBytes();
  readonly stats = { exchanges: 0, invalid: 0, items: 0 };
  readonly pool: UpstreamPool;
  readonly rootPath: string;
  readonly targetRoot: string;
  readonly targetHost: string;
  readonly byStreamCheck: boolean;
  readonly clients = new Set<ClientConnection>();
  checking = 0;
  proxyUrl = '';
  private readonly discoveries = new Map<
    SurfaceOperation,
    ReadonlyMap<string, readonly string[]> | undefined
  >();

  constructor(
    readonly options: ProxyOptions,
    readonly binding: ProtocolBinding,
    surface: Surface,
  ) {
    this.limits = resolveProxyLimits(options.limits);
    this.router = new Router(surface);
    this.checker = new SessionChecker(binding);
    const target = new URL(options.target);
    let rootPath = target.pathname;
    while (rootPath.endsWith('/')) rootPath = rootPath.slice(0, -1);
    this.rootPath = rootPath;
    this.targetRoot = `${target.origin}${rootPath}`;
    this.targetHost = target.host;
    this.byStreamCheck = binding.streamCheck !== undefined;
    const https = target.protocol === 'https:';
    const host = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    this.pool = new UpstreamPool(
      {
        https,
        host,
        port: target.port === '' ? (https ? 443 : 80) : Number(target.port),
        servername: net.isIP(host) === 0 ? host : '',
        ...(https && options.ca !== undefined ? { secureContext: trustingAlso(options.ca) } : {}),
      },
      this.limits.headBytes,
      IDLE_UPSTREAM_MS,
    );
  }

  /** The discovery documents an operation may answer with: their type names and URL pointers, or undefined. */
  discoveryOf(op: SurfaceOperation): ReadonlyMap<string, readonly string[]> | undefined {
    const urls = this.binding.discoveryUrls;
    if (!urls) return undefined;
    // Worked out once per operation (the surface's operations are a fixed few), not per request.
    if (this.discoveries.has(op)) return this.discoveries.get(op);
    const found = new Map<string, readonly string[]>();
    for (const contents of Object.values(op.responses))
      for (const c of contents) {
        const pointers = c.typeName ? urls[c.typeName] : undefined;
        if (c.typeName && pointers) found.set(c.typeName, pointers);
      }
    this.discoveries.set(op, found.size > 0 ? found : undefined);
    return this.discoveries.get(op);
  }

  /**
   * The URL pointers of a JSON-RPC answer whose one call's result is a discovery document (`/result/...`), or
   * undefined; a batch is passed on as it came.
   */
  rpcDiscovery(calls: ReadonlyMap<string, SurfaceRpcMethod | undefined>): string[] | undefined {
    const [only, ...more] = [...calls.values()];
    const pointers = only && more.length === 0 ? this.binding.discoveryUrls?.[only.resultType] : undefined;
    return pointers?.map((p) => `/result${p}`);
  }
}

/** Starts a proxy in front of `options.target`; resolves once it listens. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { binding } = options;
  const surface: Surface = (await binding.surface?.()) ?? { schemas: [], operations: [], examples: {} };
  const ctx = new ProxyContext(options, binding, surface);
  const server = net.createServer({ noDelay: true }, (socket) => {
    ctx.clients.add(new ClientConnection(ctx, socket));
  });
  // Clients that keep a connection open with no request are let go, as node:http's server does.
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const client of ctx.clients) if (client.idleFor(now) >= IDLE_CLIENT_MS) client.socket.destroy();
  }, 1_000);
  sweeper.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // sound: a server listening on a TCP port has an AddressInfo (a string only for a pipe or a socket file)
  ctx.proxyUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: ctx.proxyUrl,
    stats: () => ({ ...ctx.stats, heldBytes: ctx.held.now, heldBytesMax: ctx.held.max }),
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweeper);
        server.close(() => resolve());
        for (const client of ctx.clients) client.socket.destroy();
        ctx.pool.destroy();
      }),
  };
}

/** One client's connection: its requests read in order, each forwarded as an exchange once the one before has ended. */
export class ClientConnection {
  readonly reader: MessageReader;
  /** The exchange under way. */
  current: Exchange | undefined;
  /** What the client sent after a request whose answer has not ended: read once it has. */
  private pending: Buffer | undefined;
  private closing = false;
  private lastActive = Date.now();

  constructor(
    private readonly ctx: ProxyContext,
    readonly socket: net.Socket,
  ) {
    this.reader = new MessageReader('request', ctx.limits.headBytes, this);
    socket.on('data', (buf: Buffer) => {
      this.lastActive = Date.now();
      this.read(buf, 0);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      ctx.clients.delete(this);
      this.current?.clientGone();
    });
  }

  /** How long the connection has waited for a request, or 0 while one is under way. */
  idleFor(now: number): number {
    return this.current || this.pending || !this.reader.idle ? 0 : now - this.lastActive;
  }

  /** A request's head was read: its exchange begins (reader event). */
  head(head: MessageHead): void {
    if (head.upgrade) {
      // RFC 9110 §15.6.2: 501, the proxy does not do what the request asks for (a tunnel, another protocol).
      this.refuse({
        status: 501,
        message: `agentproto proxy passes HTTP/1.1 exchanges only: ${head.method === 'CONNECT' ? 'CONNECT' : 'Upgrade'} is not supported`,
      });
      return;
    }
    this.current = new Exchange(this.ctx, this, head);
  }

  data(buf: Buffer, from: number, to: number): void {
    this.current?.requestData(buf, from, to);
  }

  end(): void {
    this.current?.requestEnded();
  }

  /** Reads what the client sent from `from`; holds what follows a whole request until its answer has ended. */
  read(buf: Buffer, from: number): void {
    let pos = from;
    while (pos < buf.length && !this.closing) {
      if (this.current?.requestDone) {
        // A pipelined request: it waits, and the client is not read meanwhile (what waits is one read at most).
        const rest = buf.subarray(pos);
        this.pending = this.pending ? Buffer.concat([this.pending, rest]) : rest;
        this.socket.pause();
        return;
      }
      const stop = this.reader.push(buf, pos);
      if (stop < 0) {
        // sound: push returns -1 only after setting error
        this.refuse(this.reader.error as FramingError);
        return;
      }
      const ex = this.current;
      const headEnd = this.reader.headEnd;
      if (ex && !this.closing) {
        ex.forwardRequest(buf, headEnd >= 0 ? headEnd : pos, stop);
        if (ex.requestDone) ex.requestForwarded();
      }
      pos = stop;
    }
  }

  /** The exchange under way has ended: the next request is read, or the connection closes. */
  exchangeEnded(close: boolean): void {
    this.current = undefined;
    this.lastActive = Date.now();
    if (close) {
      this.closing = true;
      this.socket.end();
      return;
    }
    const pending = this.pending;
    this.pending = undefined;
    this.socket.resume();
    if (pending) this.read(pending, 0);
  }

  /** Answers a request the proxy cannot pass on with a problem, and closes the connection after it. */
  refuse(error: FramingError | { status: 501; message: string }): void {
    this.closing = true;
    if (this.current) {
      // Bytes that break the framing in the middle of a request: nothing more can be read on this connection.
      this.socket.destroy();
      return;
    }
    const titles = {
      400: 'Bad Request',
      431: 'Request Header Fields Too Large',
      501: 'Not Implemented',
      505: 'HTTP Version Not Supported',
    };
    writeProblem(
      this.socket,
      error.status,
      titles[error.status],
      'bad-request',
      `agentproto proxy: ${error.message}`,
      true,
    );
    this.socket.end();
  }
}
