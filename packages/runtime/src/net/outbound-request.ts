// One outbound POST to a URL a client named (a webhook), under the outbound policy (outbound-policy.ts): the address
// the socket connects to is checked (by the lookup it is given, and again once connected), redirects are answered as
// they come and never followed, and the whole exchange has a deadline. The answer's body is read and dropped, at most
// a small amount of it: only the status matters. Sent by undici's dispatcher (a Pool per origin under an Agent): per
// request it costs a third of what node:http's ClientRequest does, which a webhook taking every update of every task
// pays many times over.
import type { Socket } from 'node:net';
import { setImmediate } from 'node:timers';
import { Agent, buildConnector, Client, type Dispatcher } from 'undici';
import {
  blockedAddressKind,
  checkOutboundUrl,
  guardedLookup,
  isAllowedHost,
  type OutboundPolicy,
  OutboundRefusedError,
} from './outbound-policy.js';

/** What `postOutbound` sends. */
export interface OutboundPost {
  headers: Readonly<Record<string, string>>;
  body: string;
  /**
   * The deadline of the exchange, in milliseconds, from when the request is written to its connection: a request
   * waiting for a pooled connection (`agents`) has not started yet; one written behind others on a pipelined
   * connection (`OutboundAgentOptions.pipelining`) has. Making a connection has a deadline of its own
   * (`OutboundAgentOptions.connectTimeoutMs`; without `agents`, this one).
   */
  timeoutMs: number;
  policy?: OutboundPolicy | undefined;
  /** Aborts the request (the caller is shutting down). */
  signal?: AbortSignal | undefined;
  /**
   * Connections to keep between requests (`outboundAgents()`); without, each request has a connection of its own. A
   * kept connection was checked when it was made, under the same policy (connections are kept per policy object).
   */
  agents?: OutboundAgents | undefined;
}

/** How `outboundAgents` keeps connections. */
export interface OutboundAgentOptions {
  /** Connections per origin (default 8). */
  maxSockets?: number;
  /** Deadline of making one connection, in milliseconds (default 10,000). */
  connectTimeoutMs?: number;
  /**
   * Requests written to one connection before the first of them is answered (HTTP/1.1 pipelining; default 1: none).
   * Above 1, requests are sent as safe to repeat: when a connection drops (its receiver closed it, or a request on it
   * was given up at its deadline or aborted), the answered ones stand, the first unanswered one fails, and undici
   * sends the ones behind it again on a new connection, so a receiver may get a request twice. Answers come back in
   * the order the requests were written, so a request that hangs holds up those behind it on its connection until
   * its deadline. For callers that take duplicates and keep at most one request of each ordered sequence in flight
   * (a webhook's deliveries: at least once, each update after the previous one's answer).
   */
  pipelining?: number;
}

/** Checked URLs kept per policy; past it, they are forgotten and checked again. */
const CHECKED_URLS = 1024;

/** Where a checked URL's requests go: what undici's dispatch takes, worked out once per URL. */
export interface OutboundTarget {
  origin: string;
  /** The path and query. */
  path: string;
}

function targetOf(url: URL): OutboundTarget {
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}

/**
 * Kept-alive connection pools for outbound requests: one undici Agent per policy object, so a caller passes the same
 * policy object with every post (each new object gets pools of its own, kept until `destroy`).
 */
export class OutboundAgents {
  readonly #byPolicy = new WeakMap<OutboundPolicy, Agent>();
  readonly #all = new Set<Agent>();
  /** URLs checked under each policy, by their text. */
  readonly #checked = new WeakMap<OutboundPolicy, Map<string, OutboundTarget>>();
  #closed = false;
  /** The open connections, when pipelined: corked together while one turn of the event loop dispatches to them. */
  readonly #sockets = new Set<Socket>();
  #corked = false;
  /** Whether the uncork waits one more check phase (coalesce). */
  #again = false;

  /** Requests per connection in flight at once (`OutboundAgentOptions.pipelining`). */
  readonly pipelining: number;

  constructor(readonly options: Readonly<OutboundAgentOptions> = {}) {
    this.pipelining = Math.max(1, Math.floor(options.pipelining ?? 1));
  }

  /** The dispatcher of connections made under `policy`. */
  dispatcher(policy: OutboundPolicy): Dispatcher {
    if (this.#closed) throw new Error('these outbound connections are closed');
    let agent = this.#byPolicy.get(policy);
    if (!agent) {
      agent = new Agent({
        connections: this.options.maxSockets ?? 8,
        pipelining: this.pipelining,
        connect: policyConnector(
          policy,
          this.options.connectTimeoutMs ?? 10_000,
          this.pipelining > 1 ? this.#keep : undefined,
        ),
        // postOutbound keeps the deadline of the whole exchange itself.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      this.#byPolicy.set(policy, agent);
      this.#all.add(agent);
    }
    return agent;
  }

  /**
   * `url` as checkOutboundUrl answers it under `policy` without resolving names, kept: that check reads the text and
   * the policy alone, so a webhook called again and again is parsed once (names are resolved by each connection).
   */
  async target(url: string, policy: OutboundPolicy): Promise<OutboundTarget> {
    const known = this.known(url, policy);
    if (known) return known;
    const checked = targetOf(await checkOutboundUrl(url, policy, false));
    let urls = this.#checked.get(policy);
    if (!urls) {
      urls = new Map();
      this.#checked.set(policy, urls);
    }
    if (urls.size >= CHECKED_URLS) urls.clear();
    urls.set(url, checked);
    return checked;
  }

  /** `url` as `target` answered it under `policy` before, without waiting; undefined when it has not been checked. */
  known(url: string, policy: OutboundPolicy): OutboundTarget | undefined {
    return this.#checked.get(policy)?.get(url);
  }

  readonly #keep = (socket: Socket): void => {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
  };

  /**
   * Holds what is written to the open connections until the check phase of the event loop's next turn, then writes
   * it: the requests dispatched meanwhile (the next deliveries of the configs whose answers came in, on any
   * connection, and those undici writes from its queue as answers free room) leave in one write per connection, not
   * one each. A request for a connection that has gone idle is written by undici from a check phase (setImmediate:
   * it lets what the receiver sent on it meanwhile be read first), so the writes are let go one check phase later
   * than that: the next turn's, which comes at once (a pending Immediate keeps the loop from waiting for I/O).
   * undici corks and uncorks around each request it writes; corks nest, so those writes wait for this one's uncork.
   */
  coalesce(): void {
    if (this.#corked || this.#sockets.size === 0) return;
    this.#corked = true;
    this.#again = true;
    for (const socket of this.#sockets) socket.cork();
    setImmediate(this.#uncork);
  }

  readonly #uncork = (): void => {
    if (this.#again) {
      this.#again = false;
      setImmediate(this.#uncork);
      return;
    }
    this.#corked = false;
    for (const socket of this.#sockets) socket.uncork();
  };

  /** Closes every connection, aborting what is in flight on them. */
  async destroy(): Promise<void> {
    this.#closed = true;
    const agents = [...this.#all];
    this.#all.clear();
    await Promise.all(agents.map((a) => a.destroy()));
  }
}

/** Connection pools that keep connections open between requests. */
export function outboundAgents(options: OutboundAgentOptions = {}): OutboundAgents {
  return new OutboundAgents(options);
}

/**
 * Makes connections under `policy`: a host the policy does not allow is resolved by the guarded lookup, and the
 * address the socket connected to is checked again, whatever resolved it.
 */
function policyConnector(
  policy: OutboundPolicy,
  timeout: number,
  keep?: (socket: Socket) => void,
): buildConnector.connector {
  const open = buildConnector({ timeout });
  const guarded = buildConnector({ timeout, lookup: guardedLookup(policy) });
  return (options, given) => {
    const callback: buildConnector.Callback = keep
      ? (...answer) => {
          if (answer[1]) keep(answer[1]);
          given(...answer);
        }
      : given;
    if (isAllowedHost(options, policy)) return open(options, callback);
    return guarded(options, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error('no connection'), null);
      const address = socket.remoteAddress ?? '';
      const kind = blockedAddressKind(address);
      if (!kind) return callback(null, socket);
      socket.destroy();
      callback(
        new OutboundRefusedError(`${options.hostname} connected to ${address}, a ${kind} address`),
        null,
      );
    });
  };
}

/** The receiver's answer: its status (a 3xx is answered as is: the `location` is never followed). */
export interface OutboundAnswer {
  status: number;
}

/** The policy of a post that names none: one object, so its pooled connections are one Agent. */
const NO_POLICY: OutboundPolicy = Object.freeze({});

/** Bytes of an answer's body read before the connection is dropped: the body is not used. */
const ANSWER_BYTES = 64 * 1024;

/**
 * POSTs `body` to `url`. Rejects with OutboundRefusedError when the policy refuses the URL or the address connected
 * to, with an Error whose message says `timed out` past the deadline, and with the socket's error otherwise.
 */
export function postOutbound(url: string, post: OutboundPost): Promise<OutboundAnswer> {
  const policy = post.policy ?? NO_POLICY;
  const agents = post.agents;
  // A webhook posted to again and again: its URL was checked already, and nothing is awaited before the dispatch.
  const known = agents?.known(url, policy);
  if (known) return send(known, post, policy, undefined);
  return postChecked(url, post, policy);
}

async function postChecked(url: string, post: OutboundPost, policy: OutboundPolicy): Promise<OutboundAnswer> {
  const agents = post.agents;
  // The URL itself is checked here; the addresses a name resolves to are checked by the connection's lookup (one
  // resolution per connection, at the moment that counts).
  if (agents) return send(await agents.target(url, policy), post, policy, undefined);
  const target = targetOf(await checkOutboundUrl(url, policy, false));
  // Without pooled connections, a client of one connection, closed once the exchange is over.
  const own = new Client(target.origin, {
    connect: policyConnector(policy, post.timeoutMs),
    pipelining: 1,
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  return send(target, post, policy, own);
}

/** Dispatches one POST to a checked target, on `own` or the pooled connections; settles as its Exchange does. */
function send(
  target: OutboundTarget,
  post: OutboundPost,
  policy: OutboundPolicy,
  own: Client | undefined,
): Promise<OutboundAnswer> {
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const exchange = new Exchange(post, resolve, reject, own);
    try {
      const dispatcher = own ?? post.agents?.dispatcher(policy);
      if (!dispatcher) throw new Error('no dispatcher');
      // undici writes a POST on a connection with requests in flight only when told it is safe to repeat, and one
      // after a request still waiting for its answer only when that one is not `blocking`.
      const pipelined = !own && (post.agents?.pipelining ?? 1) > 1;
      if (pipelined) post.agents?.coalesce();
      dispatcher.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: 'POST',
          headers: post.headers,
          body: post.body,
          idempotent: pipelined,
          blocking: !pipelined,
        },
        exchange,
      );
    } catch (error) {
      // A header undici refuses, or pools closed meanwhile.
      exchange.onResponseError(undefined, error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/**
 * The deadlines of every exchange in flight, kept by one timer armed for the earliest of them (instead of a timer
 * per request, which a webhook taking every update of every task would set and clear many times over). Deadlines are
 * read on performance.now(), a clock that never goes back.
 */
class Deadlines {
  readonly #pending = new Set<Exchange>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (Infinity: none is armed). */
  #armedFor = Number.POSITIVE_INFINITY;

  /** Keeps `exchange` until it settles; it expires at its `deadline` (on performance.now(), which is `now`). */
  add(exchange: Exchange, now: number): void {
    this.#pending.add(exchange);
    // A timer armed for a moment already past has not run yet, or never will (one set under a clock that was swapped,
    // as test fakes do): a check now finds what is due and arms for the earliest of the rest.
    if (this.#armedFor < now) this.#arm(now);
    else if (exchange.deadline < this.#armedFor) this.#arm(exchange.deadline);
  }

  /** Forgets an exchange that settled; the timer stays armed, and finds nothing due when it fires for it. */
  delete(exchange: Exchange): void {
    this.#pending.delete(exchange);
  }

  #arm(at: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#armedFor = at;
    this.#timer = setTimeout(this.#fire, Math.max(0, at - performance.now()));
    // A request in flight keeps the process up by its socket; the timer alone need not.
    this.#timer.unref?.();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    // Expiring an exchange deletes it from the set: a Set's iteration goes on past deletions.
    for (const exchange of this.#pending)
      if (exchange.deadline <= now) exchange.expire();
      else if (exchange.deadline < next) next = exchange.deadline;
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  };
}

const DEADLINES = new Deadlines();

/**
 * The exchanges in flight under each caller's signal. A caller passes one signal with many requests (a webhook's
 * deliveries, one after another, all under the signal that stops them): one abort listener per signal, added with
 * its first request, instead of a listener added and removed per request.
 */
const BY_SIGNAL = new WeakMap<AbortSignal, Set<Exchange>>();

function watchSignal(signal: AbortSignal, exchange: Exchange): void {
  let inFlight = BY_SIGNAL.get(signal);
  if (!inFlight) {
    const exchanges = new Set<Exchange>();
    inFlight = exchanges;
    BY_SIGNAL.set(signal, exchanges);
    // Each settling exchange leaves the set: a Set's iteration goes on past deletions.
    signal.addEventListener('abort', () => {
      for (const e of exchanges) e.abort();
    });
  }
  inFlight.add(exchange);
}

/** One POST's handler: settles once, on the status, a failure, the deadline or the caller's abort. */
class Exchange implements Dispatcher.DispatchHandler {
  #settled = false;
  #answered = 0;
  #status = 0;
  /** When the exchange times out, on performance.now(); Infinity until its request has a connection. */
  deadline = Number.POSITIVE_INFINITY;
  #controller: Dispatcher.DispatchController | undefined;

  constructor(
    readonly post: OutboundPost,
    readonly resolve: (answer: OutboundAnswer) => void,
    readonly reject: (error: Error) => void,
    readonly own: Client | undefined,
  ) {
    if (post.signal?.aborted) this.#finish(new Error('aborted'));
    else if (post.signal) watchSignal(post.signal, this);
  }

  /** The caller's signal aborted. */
  abort(): void {
    this.#finish(new Error('aborted'));
  }

  /** The deadline passed (Deadlines). */
  expire(): void {
    this.#finish(new Error(`timed out after ${this.post.timeoutMs} ms`));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    // Given up already (aborted while it waited for a connection): it is not sent.
    if (this.#settled) {
      controller.abort(new Error('aborted'));
      return;
    }
    // The clock starts when the request has its connection: behind a busy pool, a request that waited its turn was
    // not slow (a webhook that hangs still frees each pooled connection at its own deadline).
    const now = performance.now();
    this.deadline = now + this.post.timeoutMs;
    DEADLINES.add(this, now);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.#status = statusCode;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#answered += chunk.length;
    // Too long to read to its end: the status is known, the connection is dropped.
    if (this.#answered > ANSWER_BYTES) this.#finish(undefined);
  }

  onResponseEnd(): void {
    // An answer frees room on a pipelined connection: what undici writes from its queue now, and what the caller
    // sends next once told, leave together.
    if ((this.post.agents?.pipelining ?? 1) > 1 && !this.own) this.post.agents?.coalesce();
    this.#finish(undefined);
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.#finish(error);
  }

  #finish(error: Error | undefined): void {
    if (this.#settled) return;
    this.#settled = true;
    DEADLINES.delete(this);
    if (this.post.signal) BY_SIGNAL.get(this.post.signal)?.delete(this);
    // A pooled connection is dropped only when the exchange failed or the answer is not read to its end.
    if (error || this.#answered > ANSWER_BYTES)
      this.#controller?.abort(error ?? new Error('answer too long'));
    this.own?.destroy().catch(() => {});
    if (error) this.reject(error);
    else this.resolve({ status: this.#status });
  }
}
