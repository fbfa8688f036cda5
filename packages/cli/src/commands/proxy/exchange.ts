// One exchange of the validating proxy: a client's request forwarded on a connection to the agent, and its answer
// passed back, each checked on the way. Each message becomes a record of the inspector's session format and is checked
// by the same SessionChecker `agentproto validate` replays a session with; the exchange adds only what a record cannot
// say (an undeclared status, a JSON-RPC envelope). A discovery document that names the agent's URLs is held whole and
// rewritten to name the proxy; every other answer passes as it came, byte for byte.
import type net from 'node:net';
import type { ParsedFrame, SurfaceOperation, SurfaceRpcMethod } from '@agentproto/runtime/contract';
import { type AnswerHead, declaredContent, framingOf } from '../inspect/exchange.js';
import type { SessionIssue, SessionRecord } from '../inspect/session.js';
import { got } from '../validate/got.js';
import { rewriteUrls } from './discovery.js';
import { type MessageHead, sameName } from './http-framing.js';
import type { ClientConnection, ProxyContext } from './proxy-server.js';
import type { Direction, ProxyIssue } from './reporters.js';
import type { Route } from './route.js';
import type { StreamItemSink } from './sse-items.js';
import { BodyTap, type ReadBody, StreamTap } from './taps.js';
import type { Upstream, UpstreamUser } from './upstream-pool.js';

/** Writes a problem answer (RFC 9457) to a client. */
export function writeProblem(
  socket: net.Socket,
  status: number,
  title: string,
  kind: string,
  detail: string,
  close: boolean,
): void {
  const body = JSON.stringify({ type: `https://agentproto.dev/problems/${kind}`, title, status, detail });
  socket.write(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${close ? 'Connection: close\r\n' : ''}\r\n${body}`,
  );
}

/** No JSON-RPC id: what no id a message carries is equal to. */
const NO_ID = Symbol('no id');

/** No issues beyond the checker's (shared: most messages have none). */
const NO_ISSUES: readonly ProxyIssue[] = Object.freeze([]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The methods a request may be sent again with (RFC 9110 §9.2.2: idempotent). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/** How an answer's bytes go to the client. */
const PASS = 0;
const HOLD = 1;

/**
 * One request and its answer: forwarded on a connection of the pool, and checked on the way. Its steps are methods of
 * one object made per request: under tsx (how the CLI runs) a function bound to a name costs a property definition
 * each time it is made, a method none.
 */
export class Exchange implements UpstreamUser, StreamItemSink {
  readonly number: number;
  readonly method: string;
  readonly path: string;
  readonly route: Route;
  readonly operationName: string;
  private conn: Upstream | undefined;
  private headSent = false;
  /** The request has passed whole / the answer has ended / the client has gone. */
  requestDone = false;
  private requestSent = false;
  private answerDone = false;
  private clientLeft = false;
  /** Bytes of the answer have gone to the client. */
  private answerSent = false;
  private answer: MessageHead | undefined;
  private readonly discovery: ReadonlyMap<string, readonly string[]> | undefined;
  /** The JSON-RPC calls of the request, by id, for the answer's results. */
  private readonly calls = new Map<string, SurfaceRpcMethod | undefined>();
  /** The request was read as JSON: `calls` holds every call it made, and an answer's id can be held to them. */
  private callsRead = false;
  /**
   * The id of the last stream item that was a well-formed result to a call of the request whose method answers with
   * many (A2A's `SendStreamingMessage`; none yet: a symbol).
   */
  private goodId: unknown = NO_ID;
  /** The answer's stream carries JSON-RPC messages: a call's answer, or the server's own stream (`ownStream`). */
  private rpcItems = false;
  /** The stream is the server's own (MCP's `GET /mcp`): it answers no call of this request. */
  private ownStream = false;
  /** The request resumes a stream (`Last-Event-ID`): the server's own stream may carry an earlier request's answers. */
  private resuming = false;
  /** The ids a stream has answered (calls answered once each), by the item that first did: made at its first answer. */
  private answered: Map<string, number> | undefined;
  private requestTap: BodyTap | undefined;
  private requestFree: (() => void) | undefined;
  // The answer's checks: a whole body, a stream, or a document held whole to be rewritten.
  private mode = PASS;
  private bodyTap: BodyTap | undefined;
  private streamTap: StreamTap | undefined;
  private streamComplete = false;
  /** The type a stream's items are checked against, when the operation declares one. */
  private itemType: string | undefined;
  private responseFree: (() => void) | undefined;
  private operation = '';
  private extra: readonly ProxyIssue[] = NO_ISSUES;
  private declaredType: string | undefined;
  private holdRaw: Buffer[] = [];
  private holdBody: Buffer[] = [];
  private holdSize = 0;
  private holdPointers: readonly string[] = [];
  private holdRpc = false;
  /**
   * The request's bytes as sent so far on a kept connection, held until the answer begins: an idempotent request is
   * sent again on a fresh connection when the agent had closed that one. Undefined when there is nothing to send again.
   */
  private replay: Buffer[] | undefined;
  private replaySize = 0;

  constructor(
    private readonly ctx: ProxyContext,
    private readonly client: ClientConnection,
    private readonly req: MessageHead,
  ) {
    const head = req;
    this.number = ++ctx.stats.exchanges;
    this.method = head.method;
    const rawUrl = head.target;
    const query = rawUrl.indexOf('?');
    this.path = query === -1 ? rawUrl : rawUrl.slice(0, query);
    this.route = ctx.router.route(this.method, this.path);
    this.operationName =
      this.route.kind === 'operation' ? this.route.operation.operationId : `${this.method} ${this.path}`;
    this.discovery = this.route.kind === 'operation' ? ctx.discoveryOf(this.route.operation) : undefined;
    if (this.route.kind !== 'unknown') {
      this.requestFree = this.slot('request');
      if (this.requestFree)
        this.requestTap = new BodyTap(ctx.limits.bodyBytes, ctx.held, header(head.raw, 'content-encoding'));
    }
    this.conn = ctx.pool.acquire(this);
    // RFC 9112 §6.3: an answer to HEAD has no body, whatever its headers say.
    this.conn.reader.noBody = this.method === 'HEAD';
  }

  /** The request's head as the agent gets it: Host names the agent, the target is under its root path. */
  private upstreamHead(): string {
    const { req: head, ctx } = this;
    let out = `${head.method} ${ctx.rootPath}${head.target} HTTP/1.${head.minor}\r\n`;
    let host = false;
    const raw = head.raw;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i] ?? '';
      let value = raw[i + 1] ?? '';
      const size = name.length;
      if (size === 4 && sameName(name, 'host')) {
        if (host) continue;
        host = true;
        value = ctx.targetHost;
      } else if (
        (size === 10 && (sameName(name, 'connection') || sameName(name, 'keep-alive'))) ||
        (size === 16 && sameName(name, 'proxy-connection'))
      )
        continue;
      // A document the proxy rewrites must come uncompressed.
      else if (this.discovery && size === 15 && sameName(name, 'accept-encoding')) continue;
      out += `${name}: ${value}\r\n`;
    }
    if (!host) out += `Host: ${ctx.targetHost}\r\n`;
    return `${out}\r\n`;
  }

  /** Bytes of the request's body (as sent, framing and all), `buf` from `from` to `to`; the head goes first. */
  forwardRequest(buf: Buffer, from: number, to: number): void {
    const conn = this.conn;
    if (!conn) return;
    let out: Buffer;
    if (!this.headSent) {
      this.headSent = true;
      const head = this.upstreamHead();
      // One write for the head and what came of the body with it: one system call.
      out = Buffer.allocUnsafe(head.length + (to - from));
      out.write(head, 0, 'latin1');
      buf.copy(out, head.length, from, to);
      if (conn.reused && IDEMPOTENT.has(this.method)) {
        this.replay = [out];
        this.replaySize = out.length;
      }
    } else if (to > from) {
      out = buf.subarray(from, to);
      if (this.replay) this.keep(out);
    } else return;
    this.send(conn, out);
  }

  /** Writes request bytes to the agent; the agent's pace sets the client's (backpressure). */
  private send(conn: Upstream, out: Buffer): void {
    if (conn.socket.write(out)) return;
    this.client.socket.pause();
    conn.socket.once('drain', () => {
      if (!this.requestDone && this.conn === conn) this.client.socket.resume();
    });
  }

  /** Keeps request bytes to send again, up to the replayBytes limit (the buffers the client's reads came in, not copies). */
  private keep(out: Buffer): void {
    this.replaySize += out.length;
    if (this.replaySize > this.ctx.limits.replayBytes) this.replay = undefined;
    else this.replay?.push(out);
  }

  requestData(buf: Buffer, from: number, to: number): void {
    this.requestTap?.push(buf.subarray(from, to));
  }

  /** The request has been read whole: it is checked. */
  requestEnded(): void {
    this.requestDone = true;
    const route = this.route;
    if (!this.requestTap) {
      if (route.kind === 'unknown')
        this.note(
          'request',
          `${this.ctx.binding.protocol}@${this.ctx.binding.version} declares no operation ${this.method} ${this.path}: not checked`,
        );
    } else {
      this.requestFree?.();
      const body = this.requestTap.read();
      this.requestTap = undefined;
      if (body.kind === 'unchecked') this.note('request', body.reason);
      else if (route.kind === 'operation') this.checkRequest(route.operation, body);
      else if (route.kind === 'rpc') this.checkRpcRequest(route.methods, body);
    }
  }

  /** The request's last bytes have gone to the agent: once its answer has ended too, the exchange has. */
  requestForwarded(): void {
    this.requestSent = true;
    if (this.answerDone && this.answer) this.finish();
  }

  // --- the answer ---------------------------------------------------------------------------------------------

  /** Bytes from the agent: read, and passed on (or held) up to the answer's end. */
  answerBytes(conn: Upstream, buf: Buffer): void {
    // The answer has begun: the request will not be sent again.
    this.replay = undefined;
    const reader = conn.reader;
    let pos = 0;
    while (pos < buf.length) {
      const stop = reader.push(buf, pos);
      if (stop < 0) return void this.badAnswer(conn, reader.error?.message ?? 'not HTTP/1.1');
      // The exchange was cut while reading (an answer that is not HTTP/1.1): nothing more goes to the client.
      if (this.conn !== conn) return;
      const headEnd = reader.headEnd;
      if (headEnd >= 0 && reader.headStart === -1) {
        // A head that came in pieces: the pieces joined, then what follows it.
        this.sendAnswer(reader.headBytes ?? Buffer.alloc(0), conn);
        if (stop > headEnd) this.sendAnswer(buf.subarray(headEnd, stop), conn);
      } else if (headEnd >= 0) this.sendAnswer(buf.subarray(reader.headStart, stop), conn);
      // Bytes of a head not yet whole stay with the reader until it is.
      else if (!reader.inHead && stop > pos) this.sendAnswer(buf.subarray(pos, stop), conn);
      pos = stop;
      if (this.answerDone) {
        // Bytes after the answer: not an answer to anything; the connection cannot be reused.
        if (pos < buf.length) {
          this.conn = undefined;
          conn.user = undefined;
          conn.socket.destroy();
        }
        this.answerEnded();
        return;
      }
    }
  }

  /** Records an answer's body (its value) as the session format has it, to be checked against the declared type. */
  private recordAnswer(status: number, value: unknown): void {
    this.record(
      {
        direction: 'response',
        status,
        ...(this.declaredType ? { type: this.declaredType } : {}),
        message: value,
      },
      this.operationName,
      this.extra,
    );
  }

  private sendAnswer(bytes: Buffer, conn: Upstream | undefined): void {
    if (bytes.length === 0 || this.clientLeft) return;
    if (this.mode === HOLD) {
      this.holdRaw.push(bytes);
      return;
    }
    this.answerSent = true;
    const client = this.client.socket;
    if (!client.write(bytes) && conn) {
      conn.socket.pause();
      // Only while this exchange still has the connection: once it is back in the pool, another's pace is not ours.
      client.once('drain', () => {
        if (this.conn === conn) conn.socket.resume();
      });
    }
  }

  /** An answer's head (an interim 1xx one, or the final one) was read (reader event). */
  head(head: MessageHead): void {
    if (head.status < 200) {
      // 101 answers an Upgrade, which the proxy never forwards; other 1xx pass on as they came.
      if (head.status === 101 && this.conn) this.badAnswer(this.conn, 'it switched protocols (101) unasked');
      return;
    }
    this.answer = head;
    const { ctx, route } = this;
    if (head.keepAliveSeconds !== undefined && this.conn)
      this.conn.agentIdleMs = head.keepAliveSeconds * 1000;
    const status = head.status;
    const raw = head.raw;
    const answerHead: AnswerHead = { status, headers: new RawHeaders(raw) };
    const framing = framingOf(answerHead);
    const op = route.kind === 'operation' ? route.operation : undefined;
    const declared = op ? declaredContent(op, answerHead) : undefined;
    this.declaredType = declared?.content?.typeName;
    this.extra =
      op && declared && !declared.status
        ? [
            {
              pointer: '',
              message: `status ${status} is not declared for ${op.method} ${op.path}`,
              rule: 'declared-status',
              got: String(status),
            },
          ]
        : NO_ISSUES;
    this.operation = this.operationName;
    if (route.kind === 'unknown' || head.body === 'none') return;

    // A discovery document naming the agent's URLs: held whole, rewritten, then sent.
    const pointers =
      this.discovery && declared?.content?.typeName
        ? this.discovery.get(declared.content.typeName)
        : undefined;
    // A JSON-RPC call whose result is one (a method answering with the card): its result's URLs.
    const rpcPointers = route.kind === 'rpc' ? ctx.rpcDiscovery(this.calls) : undefined;
    const found = rpcPointers ?? pointers;
    if (found && !framing && status >= 200 && status < 300) {
      // No slot: the document passes as it came, unchecked (the note says so).
      this.responseFree = this.slot('response');
      if (!this.responseFree) return;
      this.mode = HOLD;
      this.holdPointers = found;
      this.holdRpc = rpcPointers !== undefined;
      return;
    }

    if (framing) {
      const streamExtra: ProxyIssue[] = [...this.extra];
      const undeclared =
        route.kind === 'rpc'
          ? this.rpcStreamUndeclared(route.endpoint, answerHead)
          : op && declared?.content?.kind !== 'stream'
            ? `${op.method} ${op.path} declares no stream for status ${status} and ${header(raw, 'content-type')}`
            : undefined;
      if (undeclared !== undefined)
        streamExtra.push({ pointer: '', message: undeclared, rule: 'declared-stream' });
      this.operation = route.kind === 'rpc' ? rpcOperation(this.calls) : this.operationName;
      this.record(
        {
          direction: 'response',
          status,
          stream: true,
          message: { contentType: header(raw, 'content-type') },
        },
        this.operation,
        streamExtra,
      );
      this.responseFree = this.slot('response');
      if (!this.responseFree) return;
      this.itemType = declared?.content?.item?.typeName;
      this.ownStream = route.kind === 'operation' && route.ownStream;
      this.rpcItems = route.kind === 'rpc' || this.ownStream;
      this.resuming = this.ownStream && header(this.req.raw, 'last-event-id') !== undefined;
      this.streamTap = new StreamTap(
        framing,
        header(raw, 'content-encoding'),
        ctx.limits.itemLength,
        ctx.held,
        this,
        (reason) => this.note('event', reason),
      );
      return;
    }
    this.responseFree = this.slot('response');
    if (this.responseFree)
      this.bodyTap = new BodyTap(ctx.limits.bodyBytes, ctx.held, header(raw, 'content-encoding'));
  }

  /**
   * Why a JSON-RPC answer may not be a stream, or undefined when it may. An HTTP operation the surface declares at the
   * endpoint says, for every method (MCP's Streamable HTTP lets any answer be one); else the methods called do, each
   * by its OpenRPC `x-stream` (A2A's `SendStreamingMessage` streams, `SendMessage` does not). Calls not yet read, or
   * of no method the version has, say nothing.
   */
  private rpcStreamUndeclared(
    endpoint: SurfaceOperation | undefined,
    answer: AnswerHead,
  ): string | undefined {
    const type = answer.headers.get('content-type') ?? '';
    if (endpoint) {
      if (declaredContent(endpoint, answer).content?.kind === 'stream') return undefined;
      return `${endpoint.method} ${endpoint.path} declares no stream for status ${answer.status} and ${type}`;
    }
    const called: string[] = [];
    for (const method of this.calls.values()) {
      if (method?.stream) return undefined;
      if (method && !called.includes(method.name)) called.push(method.name);
    }
    if (called.length === 0) return undefined;
    const names = called.join(', ');
    return `${names} ${called.length === 1 ? 'declares' : 'declare'} no stream: answered with ${type}`;
  }

  /** A stream item that is not JSON, or too long to read (the stream tap's sink): reported. */
  itemFailed(frame: ParsedFrame): void {
    this.ctx.stats.items++;
    const error = frame.ok ? '' : frame.error;
    this.record(
      { direction: 'event', message: frame.data },
      this.operation,
      [{ pointer: '', message: error, rule: 'json' }],
      '',
      frame.index,
    );
  }

  /** A stream item's value (the stream tap's sink): checked. */
  itemValue(index: number, message: unknown): void {
    const ctx = this.ctx;
    ctx.stats.items++;
    const operation = this.operation;
    // Each item's record is one plain literal, made whole: no spread, no copy, no list made, per item.
    const at = ctx.options.session ? new Date().toISOString() : '';
    const exchange = this.number;
    const itemType = this.itemType;
    const item: SessionRecord = ctx.byStreamCheck
      ? { exchange, at, operation, direction: 'event', stream: true, message }
      : itemType
        ? { exchange, at, operation, direction: 'event', type: itemType, message }
        : { exchange, at, operation, direction: 'event', message };
    // A JSON-RPC stream's messages have their envelopes checked here: what is wrong in one is said once, by the
    // proxy's rule, and the stream check reads the message with its envelope put right.
    // Most items of a streaming method's stream answer its call: a result with the id of the last good one is not
    // read again.
    if (
      this.rpcItems &&
      isObject(message) &&
      (message.id !== this.goodId ||
        message.jsonrpc !== '2.0' ||
        'error' in message ||
        !('result' in message))
    ) {
      let wrong = envelopeIssues(message, '', this.callsRead ? this.calls : undefined);
      if (isAnswer(message)) {
        const again = this.answerIssue(message, index);
        if (again) wrong = [...wrong, again];
      }
      if (wrong.length > 0) return void this.check(item, wrong, '', index, envelopeRighted(message));
    }
    this.check(item, NO_ISSUES, '', index);
  }

  /**
   * What is wrong with a stream item that is a JSON-RPC response (besides its envelope), or undefined. The server's
   * own stream carries none unless it resumes an earlier request's stream (MCP 2025-11-25 basic/transports, "Listening
   * for Messages from the Server"). A call is answered once (JSON-RPC 2.0 §5, §6), unless its method answers with a
   * stream of responses (its OpenRPC `x-stream`, A2A's `SendStreamingMessage`): a second answer to an id is reported,
   * naming the item that had it first. An id no call of the request has is reported by the envelope's checks already,
   * a null one is an error's for a call whose id could not be read, and with the request unread no call is known.
   */
  private answerIssue(message: Record<string, unknown>, index: number): ProxyIssue | undefined {
    const id = message.id;
    if (this.ownStream && !this.resuming)
      return {
        pointer: '/id',
        message:
          "answers no call: the server's own stream (a GET without Last-Event-ID) carries its requests and notifications, never a response",
        rule: 'json-rpc-id',
        ...got(message, '/id'),
      };
    if (id === null || id === undefined) return undefined;
    const key = JSON.stringify(id);
    if (!this.ownStream) {
      if (!this.callsRead || !this.calls.has(key)) return undefined;
      if (this.calls.get(key)?.stream) {
        if ('result' in message && !('error' in message) && message.jsonrpc === '2.0') this.goodId = id;
        return undefined;
      }
    }
    const answered = this.answered ?? new Map<string, number>();
    this.answered = answered;
    const first = answered.get(key);
    if (first === undefined) return void answered.set(key, index);
    return {
      pointer: '/id',
      message: `answers the call with id ${key} a second time (item ${first} answered it)`,
      rule: 'json-rpc-id',
      ...got(message, '/id'),
    };
  }

  /** Body bytes of the answer, de-chunked (reader event). */
  data(buf: Buffer, from: number, to: number): void {
    if (!this.answer) return;
    if (this.streamTap) return void this.streamTap.push(buf, from, to);
    const piece = buf.subarray(from, to);
    if (this.bodyTap) this.bodyTap.push(piece);
    else if (this.mode === HOLD) this.holdPiece(piece);
  }

  /** The answer (or an interim one) has ended (reader event). */
  end(): void {
    if (!this.answer) return;
    this.answerDone = true;
  }

  /** After the answer's last bytes have gone: its checks, then the connections go on. */
  private answerEnded(): void {
    const status = this.answer?.status ?? 0;
    if (this.mode === HOLD) this.sendHeld();
    else if (this.streamTap) {
      this.streamComplete = true;
      this.endStream();
    } else if (this.bodyTap) {
      this.responseFree?.();
      const body = this.bodyTap.read();
      this.bodyTap = undefined;
      if (body.kind === 'unchecked') this.note('response', body.reason);
      else {
        const value = body.kind === 'value' ? body.value : undefined;
        if (this.route.kind === 'rpc') this.checkRpcAnswer(status, body, value);
        else this.recordAnswer(status, value);
      }
    } else if (this.route.kind !== 'unknown' && this.answer?.body === 'none')
      this.record({ direction: 'response', status }, this.operationName, this.extra);
    if (!this.streamTap) this.responseFree?.();
    if (this.requestSent) this.finish();
  }

  /** Request and answer have both passed: the agent's connection goes back to the pool, the client reads on. */
  private finish(): void {
    const conn = this.conn;
    const answer = this.answer;
    this.conn = undefined;
    if (conn) {
      // The answer has passed whole: a connection paused for the client's pace reads again (a client that has gone
      // says `drain` never, and a paused connection would hold the next exchange's answer unread).
      conn.socket.resume();
      if (answer && !answer.close && answer.body !== 'close' && this.req.minor === 1 && !conn.closed)
        this.ctx.pool.release(conn);
      else {
        conn.user = undefined;
        conn.socket.destroy();
      }
    }
    this.client.exchangeEnded(this.req.close || !answer || answer.close || answer.body === 'close');
  }

  private endStream(): void {
    const tap = this.streamTap;
    if (!tap) return;
    this.streamTap = undefined;
    tap.end();
    const free = this.responseFree;
    void tap.done.then(() => {
      free?.();
      // Past a limit the end rules have not seen every item: the stream is recorded as cut.
      this.record({ direction: 'end', complete: this.streamComplete && !tap.gaveUp }, this.operation);
    });
  }

  /** The client went away: so does the request to the agent. */
  clientGone(): void {
    if (this.answerDone && this.requestDone) return;
    this.clientLeft = true;
    this.dropTaps();
    const conn = this.conn;
    this.conn = undefined;
    if (conn) {
      conn.user = undefined;
      conn.socket.destroy();
    }
  }

  /** Frees what the checks of a cut exchange hold: its slots, its bodies; a stream is recorded as cut. */
  private dropTaps(): void {
    this.requestFree?.();
    this.requestTap?.dispose();
    this.requestTap = undefined;
    this.bodyTap?.dispose();
    this.bodyTap = undefined;
    if (this.mode === HOLD) {
      this.ctx.held.release(this.holdSize);
      this.holdBody = [];
      this.holdRaw = [];
      this.mode = PASS;
    }
    this.streamComplete = false;
    this.endStream();
    this.responseFree?.();
  }

  /**
   * The connection to the agent failed or closed before the exchange ended. A kept connection may have been closed by
   * the agent as the request went (it closes idle ones): when no byte of the answer came and the request is
   * idempotent (RFC 9110 §9.2.2), it goes again on a fresh connection, once. A request that is not idempotent is never
   * sent twice (its bytes may have reached the agent); one that found its connection ended before it was sent never
   * used it (the pool does not hand out ended connections).
   */
  lost(conn: Upstream, error: Error | undefined): void {
    if (this.conn !== conn || this.clientLeft) return;
    // A body that runs until the connection closes has ended.
    if (this.answer && conn.reader.end()) {
      this.conn = undefined;
      this.answerDone = true;
      this.answerEnded();
      return;
    }
    const replay = this.replay;
    if (replay) {
      this.replay = undefined;
      const fresh = this.ctx.pool.connect(this);
      this.conn = fresh;
      fresh.reader.noBody = this.method === 'HEAD';
      // The client may have been paused for the lost connection's sake.
      if (!this.requestDone) this.client.socket.resume();
      for (const out of replay) this.send(fresh, out);
      return;
    }
    this.conn = undefined;
    this.dropTaps();
    if (this.answerSent || this.answer) {
      this.note('response', 'the agent broke the connection before the answer ended');
      this.client.socket.destroy();
      return;
    }
    const reason = error ? unreachable(error) : 'the connection closed before an answer';
    this.note('response', `cannot reach the agent at ${this.ctx.options.target}: ${reason}`);
    this.badGateway(
      `cannot reach the agent at ${this.ctx.options.target}: ${reason}`,
      !this.requestDone || this.req.close,
    );
  }

  /** An answer that is not HTTP/1.1: a 502 when nothing of it has gone yet, else the client's connection is cut. */
  private badAnswer(conn: Upstream, why: string): void {
    this.conn = undefined;
    conn.user = undefined;
    conn.socket.destroy();
    this.dropTaps();
    this.note('response', `the agent's answer is not HTTP/1.1: ${why}`);
    if (this.answerSent) {
      this.client.socket.destroy();
      return;
    }
    this.badGateway(`the agent's answer is not HTTP/1.1: ${why}`, true);
  }

  /**
   * Answers the client 502 (RFC 9110 §15.6.3: no valid answer from the server the proxy forwards to) saying `detail`,
   * and ends the exchange; `close` also ends the client's connection.
   */
  private badGateway(detail: string, close: boolean): void {
    this.answerDone = true;
    writeProblem(
      this.client.socket,
      502,
      'Bad Gateway',
      'agent-unreachable',
      `agentproto proxy: ${detail}`,
      close,
    );
    this.client.exchangeEnded(close);
  }

  // --- a discovery document, held whole ---------------------------------------------------------------------

  private holdPiece(piece: Buffer): void {
    const limit = this.ctx.limits.bodyBytes;
    this.holdSize += piece.length;
    this.holdBody.push(piece);
    this.ctx.held.take(piece.length);
    if (this.holdSize <= limit) return;
    // Too long to hold: what was held goes first, unchanged, then the rest as it comes.
    this.ctx.held.release(this.holdSize);
    this.holdBody = [];
    this.note(
      'response',
      `the document is longer than ${limit} bytes (limit bodyBytes): passed on unchanged, not checked`,
    );
    this.mode = PASS;
    this.responseFree?.();
    // The raw bytes read so far; the ones of this read follow once the reader returns.
    const raw = this.holdRaw;
    this.holdRaw = [];
    for (const b of raw) this.sendAnswer(b, this.conn);
  }

  /** The held document: checked, rewritten when it names the agent, and sent. */
  private sendHeld(): void {
    const { ctx } = this;
    const answer = this.answer;
    this.mode = PASS;
    const raw = this.holdRaw;
    this.holdRaw = [];
    const bytes = Buffer.concat(this.holdBody);
    this.holdBody = [];
    ctx.held.release(this.holdSize);
    const passRaw = () => {
      for (const b of raw) this.sendAnswer(b, this.conn);
    };
    if (!answer) return void passRaw();
    const status = answer.status;
    const checkValue = (value: unknown) => {
      if (this.holdRpc)
        this.checkRpcAnswer(status, { kind: 'value', value, json: typeof value !== 'string' }, value);
      else this.recordAnswer(status, value);
    };
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch {
      value = undefined;
    }
    const encoded = (header(answer.raw, 'content-encoding') ?? 'identity').toLowerCase() !== 'identity';
    if (value === undefined || encoded) {
      if (encoded) this.note('response', 'the document came compressed: passed on unchanged, not checked');
      else checkValue(bytes.toString('utf8'));
      return void passRaw();
    }
    checkValue(value);
    const copy: unknown = structuredClone(value);
    const done = rewriteUrls(copy, this.holdPointers, ctx.targetRoot, ctx.proxyUrl);
    for (const url of done.outside)
      this.note(
        'response',
        `the document names ${url}, which is not under ${ctx.targetRoot}: a client that follows it bypasses the proxy`,
      );
    if (done.count === 0) return void passRaw();
    const rewritten = Buffer.from(JSON.stringify(copy));
    this.note(
      'response',
      `pointed ${done.count} URL${done.count === 1 ? '' : 's'} of the agent at the proxy (a signature over the document no longer verifies)`,
    );
    let head = `HTTP/1.${answer.minor} ${status} ${answer.reason}\r\n`;
    for (let i = 0; i + 1 < answer.raw.length; i += 2) {
      const name = answer.raw[i] ?? '';
      if (/^(content-length|transfer-encoding|etag|content-md5|digest)$/i.test(name)) continue;
      head += `${name}: ${answer.raw[i + 1] ?? ''}\r\n`;
    }
    head += `Content-Length: ${rewritten.length}\r\n\r\n`;
    this.sendAnswer(Buffer.concat([Buffer.from(head, 'latin1'), rewritten]), this.conn);
  }

  // --- checks -----------------------------------------------------------------------------------------------

  private note(direction: Direction, message: string): void {
    this.ctx.options.onReport({ kind: 'note', ...this.placeOf(direction), message });
  }

  private placeOf(direction: Direction, item?: number) {
    return {
      exchange: this.number,
      method: this.method,
      path: this.path,
      direction,
      ...(item === undefined ? {} : { item }),
    };
  }

  /**
   * Records one message: checks it (the session checker), writes it to the session, and reports it once when it is
   * invalid, with the `extra` issues the record cannot carry (their pointers are into the message as sent). `prefix`
   * puts the checker's pointers into the message as sent too (a JSON-RPC call's params are at `/params`).
   */
  private record(
    r: Omit<SessionRecord, 'exchange' | 'at' | 'operation'>,
    operation = this.operationName,
    extra: readonly ProxyIssue[] = NO_ISSUES,
    prefix = '',
    item?: number,
  ): void {
    // The time is for the session file; the checks do not read it.
    const at = this.ctx.options.session ? new Date().toISOString() : '';
    this.check({ exchange: this.number, at, operation, ...r }, extra, prefix, item);
  }

  /**
   * Checks, writes and reports one whole record (`record` without the copy: a stream's items come here). `checkedAs`,
   * when given, is the message the checker reads instead of the one sent: its JSON-RPC envelope put right, whose
   * faults `extra` says; the checker's issues at the pointer of one of them are the same faults, and are left out.
   */
  private check(
    full: SessionRecord,
    extra: readonly ProxyIssue[],
    prefix: string,
    item?: number,
    checkedAs?: unknown,
  ): void {
    const { ctx } = this;
    ctx.options.session?.write(full);
    let found = ctx.checker.push(checkedAs === undefined ? full : { ...full, message: checkedAs });
    // A valid message (nearly all of them) costs nothing more.
    if (found.length === 0 && extra.length === 0) return;
    if (checkedAs !== undefined)
      found = found.filter((i) => !extra.some((e) => e.pointer === `${prefix}${i.pointer}`));
    const checked = found.map(
      (i: SessionIssue): ProxyIssue => ({
        // A stream's end rules are about the whole stream, not a message: their pointers stay as they are.
        pointer: full.direction === 'end' ? i.pointer : `${prefix}${i.pointer}`,
        message: i.message,
        rule: i.rule,
        ...(full.direction === 'end' ? {} : got(full.message, i.pointer)),
      }),
    );
    const issues = [...checked, ...extra];
    if (issues.length === 0) return;
    ctx.stats.invalid++;
    ctx.options.onReport({
      kind: 'invalid',
      ...this.placeOf(full.direction, item),
      ...(full.type ? { type: full.type } : {}),
      issues,
    });
  }

  /** A slot among the `concurrent` bodies and streams checked at once, or a note that this one is not checked. */
  private slot(direction: Direction): (() => void) | undefined {
    const { ctx } = this;
    if (ctx.checking >= ctx.limits.concurrent) {
      this.note(
        direction,
        `more than ${ctx.limits.concurrent} bodies and streams are being checked at once (limit concurrent): passed on, not checked`,
      );
      return undefined;
    }
    ctx.checking++;
    let freed = false;
    return () => {
      if (!freed) ctx.checking--;
      freed = true;
    };
  }

  private checkRequest(op: SurfaceOperation, body: ReadBody): void {
    if (body.kind === 'empty') {
      if (op.body?.required)
        this.record({ direction: 'request' }, this.operationName, [
          { pointer: '', message: `${op.method} ${op.path} requires a body`, rule: 'required-body' },
        ]);
      else this.record({ direction: 'request' });
      return;
    }
    const type = header(this.req.raw, 'content-type')?.split(';')[0]?.trim().toLowerCase();
    const contents = op.body?.contents ?? [];
    const content = contents.find((c) => c.mediaType === type) ?? contents.find((c) => c.kind === 'json');
    // Forms and bytes are passed on unread: only JSON bodies are checked.
    const checked = content?.typeName && content.kind === 'json' ? { type: content.typeName } : {};
    if (body.kind === 'value') this.record({ direction: 'request', ...checked, message: body.value });
  }

  private checkRpcRequest(methods: ReadonlyMap<string, SurfaceRpcMethod>, body: ReadBody): void {
    const { binding } = this.ctx;
    if (body.kind !== 'value' || !body.json)
      return void this.record(
        { direction: 'request', ...(body.kind === 'value' ? { message: body.value } : {}) },
        'rpc',
        [
          {
            pointer: '',
            message: 'a JSON-RPC request is a JSON object (or a batch of them)',
            rule: 'json-rpc',
          },
        ],
      );
    this.callsRead = true;
    const batch = Array.isArray(body.value);
    const list: unknown[] = Array.isArray(body.value) ? body.value : [body.value];
    list.forEach((call, i) => {
      const base = batch ? `/${i}` : '';
      const envelope = isObject(call) ? call : {};
      const name = typeof envelope.method === 'string' ? envelope.method : undefined;
      const known = name === undefined ? undefined : methods.get(name);
      const extra: ProxyIssue[] = [];
      if (!isObject(call))
        extra.push({
          pointer: base,
          message: 'a JSON-RPC request is an object',
          rule: 'json-rpc',
          ...got(call, ''),
        });
      else if (envelope.jsonrpc !== '2.0')
        extra.push({
          pointer: `${base}/jsonrpc`,
          message: 'must be "2.0"',
          rule: 'json-rpc',
          ...got(call, '/jsonrpc'),
        });
      if (isObject(call) && !known)
        extra.push({
          pointer: `${base}/method`,
          message:
            name === undefined
              ? 'a JSON-RPC request names its method'
              : `${binding.protocol}@${binding.version} has no JSON-RPC method ${JSON.stringify(name)}`,
          rule: 'json-rpc-method',
          ...got(call, '/method'),
        });
      if ('id' in envelope) this.calls.set(JSON.stringify(envelope.id), known);
      this.record(
        {
          direction: 'request',
          ...(known ? { type: known.paramsType } : {}),
          message: known ? (envelope.params ?? {}) : call,
        },
        `rpc:${name ?? ''}`,
        extra,
        known ? `${base}/params` : base,
      );
    });
  }

  private checkRpcAnswer(status: number, body: ReadBody, value: unknown): void {
    const calls = this.calls;
    if (body.kind !== 'value' || !body.json)
      return void this.record({ direction: 'response', status, message: value }, rpcOperation(calls), [
        { pointer: '', message: 'a JSON-RPC answer is a JSON object (or a batch of them)', rule: 'json-rpc' },
      ]);
    const batch = Array.isArray(value);
    const list: unknown[] = Array.isArray(value) ? value : [value];
    // The ids a batch has answered, by the answer that first did: each call is answered once (JSON-RPC 2.0 §6).
    const answered = list.length > 1 ? new Map<string, number>() : undefined;
    for (const [i, answer] of list.entries()) {
      const base = batch ? `/${i}` : '';
      const envelope = isObject(answer) ? answer : {};
      const key = JSON.stringify(envelope.id);
      const known = calls.get(key);
      const operation = known ? `rpc:${known.name}` : rpcOperation(calls);
      let wrong = envelopeIssues(envelope, base, this.callsRead ? calls : undefined);
      // A null id is an error's for a call whose id could not be read (several may have one); an id no call has is
      // reported already.
      if (
        answered &&
        isAnswer(envelope) &&
        envelope.id !== null &&
        envelope.id !== undefined &&
        (!this.callsRead || calls.has(key))
      ) {
        const first = answered.get(key);
        if (first === undefined) answered.set(key, i);
        else
          wrong = [
            ...wrong,
            {
              pointer: `${base}/id`,
              message: `answers the call with id ${key} a second time (answer /${first} answered it)`,
              rule: 'json-rpc-id',
              ...got(answer, '/id'),
            },
          ];
      }
      if ('result' in envelope && !('error' in envelope)) {
        this.record(
          {
            direction: 'response',
            status,
            ...(known ? { type: known.resultType } : {}),
            message: envelope.result,
          },
          operation,
          wrong,
          `${base}/result`,
        );
        continue;
      }
      // A response with both a result and an error is read as an error (its result is not checked).
      const extra: ProxyIssue[] = [...wrong];
      const error = envelope.error;
      const issue = (pointer: string, message: string) =>
        extra.push({ pointer: `${base}${pointer}`, message, rule: 'json-rpc', ...got(answer, pointer) });
      if (!('error' in envelope)) issue('', 'not a JSON-RPC response (no result, no error)');
      else if (!isObject(error)) issue('/error', 'must be an object');
      else {
        if (!Number.isInteger(error.code)) issue('/error/code', 'must be an integer');
        if (typeof error.message !== 'string') issue('/error/message', 'must be a string');
      }
      this.record({ direction: 'response', status, message: answer }, operation, extra, base);
    }
  }
}

/** An answer's headers as the exchange helpers read them (`get`), straight from its raw list. */
class RawHeaders {
  constructor(private readonly raw: readonly string[]) {}
  get(name: string): string | null {
    return header(this.raw, name.toLowerCase()) ?? null;
  }
}

/**
 * A header of a message, from its raw list (`name` in lower case), as node:http's `headers` reads it without building
 * that object: repeats joined with commas, except Content-Type and Content-Length, whose first one counts.
 */
function header(raw: readonly string[], name: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i] ?? '';
    if (key.length !== name.length || !sameName(key, name)) continue;
    const value = raw[i + 1] ?? '';
    if (found === undefined) found = value;
    else if (name === 'content-type' || name === 'content-length') break;
    else found = `${found}, ${value}`;
  }
  return found;
}

/**
 * What breaks JSON-RPC 2.0 (§4, §5) in the envelope of one message an agent sent, `base` its pointer in the body: a
 * `jsonrpc` that is not "2.0", a response with both a result and an error, a response whose id is no call's of the
 * request (`calls`, when the request was read; an error response's null or absent id is the one for a call whose id
 * could not be read). A message with a method (in a stream, the agent's own request or notification) is held to the
 * first rule alone; one with neither a method, a result nor an error is not a response, which its checks say.
 */
function envelopeIssues(
  message: Record<string, unknown>,
  base: string,
  calls: ReadonlyMap<string, unknown> | undefined,
): readonly ProxyIssue[] {
  const request = 'method' in message;
  const result = 'result' in message;
  const error = 'error' in message;
  if (!request && !result && !error) return NO_ISSUES;
  const version = message.jsonrpc !== '2.0';
  const both = !request && result && error;
  const id = message.id;
  const unmatched =
    !request &&
    calls !== undefined &&
    !(error && (id === null || id === undefined)) &&
    !calls.has(JSON.stringify(id) ?? '');
  // A well-formed envelope (nearly all of them) costs no list.
  if (!version && !both && !unmatched) return NO_ISSUES;
  const issues: ProxyIssue[] = [];
  const add = (pointer: string, text: string, rule: string) =>
    issues.push({ pointer: `${base}${pointer}`, message: text, rule, ...got(message, pointer) });
  if (version) add('/jsonrpc', 'must be "2.0"', 'json-rpc');
  if (both) add('', 'a JSON-RPC response has a result or an error, not both', 'json-rpc');
  if (unmatched && calls) add('/id', `answers no call of the request (${idsOf(calls)})`, 'json-rpc-id');
  return issues;
}

/** A JSON-RPC response: no method, and a result or an error. */
function isAnswer(message: Record<string, unknown>): boolean {
  return !('method' in message) && ('result' in message || 'error' in message);
}

/** The ids of a request's calls, as an issue names them: the first few. */
function idsOf(calls: ReadonlyMap<string, unknown>): string {
  if (calls.size === 0) return 'it made none with an id';
  const ids = [...calls.keys()];
  return `its ids: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`;
}

/**
 * A copy of a JSON-RPC message with its envelope put right, for the checks of what it carries: `jsonrpc` "2.0", and a
 * response with both a result and an error read as the error (as an answer's body is).
 */
function envelopeRighted(message: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...message, jsonrpc: '2.0' };
  if ('result' in copy && 'error' in copy) delete copy.result;
  return copy;
}

/** The operation name of a JSON-RPC exchange's answer: its one method's, when it has one. */
function rpcOperation(calls: ReadonlyMap<string, SurfaceRpcMethod | undefined>): string {
  const methods = [...calls.values()];
  return methods.length === 1 && methods[0] ? `rpc:${methods[0].name}` : 'rpc';
}

/** Why the agent could not be reached, in words. */
function unreachable(error: Error): string {
  // sound: socket errors are system errors, whose code names the cause; others have none
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'connection refused (is the agent running?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'no such host';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'the connection was reset';
  return error.message;
}
