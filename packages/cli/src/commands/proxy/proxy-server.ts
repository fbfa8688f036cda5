// The validating proxy: a node:http server on 127.0.0.1 that forwards every request to the agent and every answer back
// as it came (status, headers and bytes; a stream chunk by chunk as it arrives), and checks copies of both directions
// on the way. Each message becomes a record of the inspector's session format and is checked by the same
// SessionChecker `agentproto validate` replays a session with; the proxy adds only what a record cannot say (an
// undeclared status, a JSON-RPC envelope). Discovery documents that name the agent's URLs (the binding's
// `discoveryUrls`) are the one thing changed: they name the proxy instead.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  type ParsedFrame,
  type ProtocolBinding,
  type ProxyLimits,
  resolveProxyLimits,
  type Surface,
  type SurfaceOperation,
  type SurfaceRpcMethod,
} from '@agentproto/runtime/contract';
import { type AnswerHead, declaredContent, framingOf } from '../inspect/exchange.js';
import { SessionChecker, type SessionIssue, type SessionRecord } from '../inspect/session.js';
import { got } from '../validate/got.js';
import { rewriteUrls } from './discovery.js';
import type { Direction, ProxyIssue, ProxyReport } from './reporters.js';
import { Router } from './route.js';
import type { SessionFile } from './session-file.js';
import { BodyTap, HeldBytes, type ReadBody, StreamTap } from './taps.js';

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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Starts a proxy in front of `options.target`; resolves once it listens. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { binding } = options;
  const limits = resolveProxyLimits(options.limits);
  const surface: Surface = (await binding.surface?.()) ?? { schemas: [], operations: [], examples: {} };
  const router = new Router(surface);
  const checker = new SessionChecker(binding);
  const target = new URL(options.target);
  let rootPath = target.pathname;
  while (rootPath.endsWith('/')) rootPath = rootPath.slice(0, -1);
  const targetRoot = `${target.origin}${rootPath}`;
  const transport = target.protocol === 'https:' ? https : http;
  // Idle connections to the agent are closed before the agent closes them: a request sent on one the agent is closing
  // fails with a reset (and the client gets a 502). node:http's Agent takes the agent's `Keep-Alive: timeout=` hint,
  // less a second, but only below a timeout of its own, so it needs one; node:http servers close at 5 s by default.
  const agent = new transport.Agent({ keepAlive: true, timeout: IDLE_UPSTREAM_MS });
  // What every request to the agent shares, parsed once: only the path and the headers differ.
  const upstreamOptions = {
    protocol: target.protocol,
    hostname: target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
    port: target.port === '' ? undefined : Number(target.port),
    agent,
  };
  const held = new HeldBytes();
  const discoveries = new Map<SurfaceOperation, ReadonlyMap<string, readonly string[]> | undefined>();
  const byStreamCheck = binding.streamCheck !== undefined;
  const stats = { exchanges: 0, invalid: 0, items: 0 };
  let checking = 0;
  let proxyUrl = '';

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const exchange = ++stats.exchanges;
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const query = rawUrl.indexOf('?');
    const path = query === -1 ? rawUrl : rawUrl.slice(0, query);
    const route = router.route(method, path);
    const operationName = route.kind === 'operation' ? route.operation.operationId : `${method} ${path}`;
    // What one exchange does, as methods of one object made per request: under tsx (how the CLI runs) a function
    // bound to a name (`const note = () => …`) costs a property definition each time it is made, a method none; and
    // the ones that run per stream item make no function.
    const ex = {
      note(direction: Direction, message: string): void {
        options.onReport({ kind: 'note', ...placeOf(exchange, method, path, direction), message });
      },
      /**
       * Records one message: checks it (the session checker), writes it to the session, and reports it once when it is
       * invalid, with the `extra` issues the record cannot carry (their pointers are into the message as sent). `prefix`
       * puts the checker's pointers into the message as sent too (a JSON-RPC call's params are at `/params`).
       */
      record(
        r: Omit<SessionRecord, 'exchange' | 'at' | 'operation'>,
        operation = operationName,
        extra: readonly ProxyIssue[] = NO_ISSUES,
        prefix = '',
        item?: number,
      ): void {
        // The time is for the session file; the checks do not read it.
        const at = options.session ? new Date().toISOString() : '';
        ex.check({ exchange, at, operation, ...r }, extra, prefix, item);
      },
      /** Checks, writes and reports one whole record (`record` without the copy: a stream's items come here). */
      check(full: SessionRecord, extra: readonly ProxyIssue[], prefix: string, item?: number): void {
        options.session?.write(full);
        const found = checker.push(full);
        // A valid message (nearly all of them) costs nothing more.
        if (found.length === 0 && extra.length === 0) return;
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
        stats.invalid++;
        options.onReport({
          kind: 'invalid',
          ...placeOf(exchange, method, path, full.direction, item),
          ...(full.type ? { type: full.type } : {}),
          issues,
        });
      },
      /** A slot among the `concurrent` bodies and streams checked at once, or a note that this one is not checked. */
      slot(direction: Direction): (() => void) | undefined {
        if (checking >= limits.concurrent) {
          ex.note(
            direction,
            `more than ${limits.concurrent} bodies and streams are being checked at once (limit concurrent): passed on, not checked`,
          );
          return undefined;
        }
        checking++;
        let freed = false;
        return () => {
          if (!freed) checking--;
          freed = true;
        };
      },
      checkRequest(op: SurfaceOperation, body: ReadBody): void {
        if (body.kind === 'empty') {
          if (op.body?.required)
            ex.record({ direction: 'request' }, operationName, [
              { pointer: '', message: `${op.method} ${op.path} requires a body`, rule: 'required-body' },
            ]);
          else ex.record({ direction: 'request' });
          return;
        }
        const type = header(req.rawHeaders, 'content-type')?.split(';')[0]?.trim().toLowerCase();
        const contents = op.body?.contents ?? [];
        const content = contents.find((c) => c.mediaType === type) ?? contents.find((c) => c.kind === 'json');
        // Forms and bytes are passed on unread: only JSON bodies are checked.
        const checked = content?.typeName && content.kind === 'json' ? { type: content.typeName } : {};
        if (body.kind === 'value') ex.record({ direction: 'request', ...checked, message: body.value });
      },
      checkRpcRequest(methods: ReadonlyMap<string, SurfaceRpcMethod>, body: ReadBody): void {
        if (body.kind !== 'value' || !body.json)
          return void ex.record(
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
          if ('id' in envelope) calls.set(JSON.stringify(envelope.id), known);
          ex.record(
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
      },
      checkRpcAnswer(status: number, body: ReadBody, value: unknown): void {
        if (body.kind !== 'value' || !body.json)
          return void ex.record({ direction: 'response', status, message: value }, rpcOperation(calls), [
            {
              pointer: '',
              message: 'a JSON-RPC answer is a JSON object (or a batch of them)',
              rule: 'json-rpc',
            },
          ]);
        const batch = Array.isArray(value);
        const list: unknown[] = Array.isArray(value) ? value : [value];
        for (const [i, answer] of list.entries()) {
          const base = batch ? `/${i}` : '';
          const envelope = isObject(answer) ? answer : {};
          const known = calls.get(JSON.stringify(envelope.id));
          const operation = known ? `rpc:${known.name}` : rpcOperation(calls);
          if ('result' in envelope && !('error' in envelope)) {
            ex.record(
              {
                direction: 'response',
                status,
                ...(known ? { type: known.resultType } : {}),
                message: envelope.result,
              },
              operation,
              [],
              `${base}/result`,
            );
            continue;
          }
          const extra: ProxyIssue[] = [];
          const error = envelope.error;
          const issue = (pointer: string, message: string) =>
            extra.push({ pointer: `${base}${pointer}`, message, rule: 'json-rpc', ...got(answer, pointer) });
          if (!('error' in envelope)) issue('', 'not a JSON-RPC response (no result, no error)');
          else if (!isObject(error)) issue('/error', 'must be an object');
          else {
            if (!Number.isInteger(error.code)) issue('/error/code', 'must be an integer');
            if (typeof error.message !== 'string') issue('/error/message', 'must be a string');
          }
          ex.record({ direction: 'response', status, message: answer }, operation, extra, base);
        }
      },
      /** Holds a discovery document whole (up to bodyBytes), records it as it came, and sends it rewritten. */
      holdAndRewrite(
        answer: IncomingMessage,
        pointers: readonly string[],
        checkValue: (value: unknown) => void,
      ): void {
        const chunks: Buffer[] = [];
        let size = 0;
        let passing = false;
        const sendOn = (chunk: Buffer) => {
          if (!res.write(chunk)) {
            answer.pause();
            res.once('drain', () => answer.resume());
          }
        };
        answer.on('data', (chunk: Buffer) => {
          if (passing) return sendOn(chunk);
          size += chunk.length;
          chunks.push(chunk);
          held.take(chunk.length);
          if (size <= limits.bodyBytes) return;
          // Too long to hold: what was held goes first, unchanged, then the rest as it comes.
          passing = true;
          held.release(size);
          ex.note(
            'response',
            `the document is longer than ${limits.bodyBytes} bytes (limit bodyBytes): passed on unchanged, not checked`,
          );
          res.writeHead(statusOf(answer), answer.statusMessage, answer.rawHeaders);
          for (const c of chunks.splice(0)) sendOn(c);
        });
        answer.on('end', () => {
          if (passing) return void res.end();
          const bytes = Buffer.concat(chunks);
          held.release(size);
          let value: unknown;
          try {
            value = JSON.parse(bytes.toString('utf8'));
          } catch {
            value = undefined;
          }
          const encoded =
            (header(answer.rawHeaders, 'content-encoding') ?? 'identity').toLowerCase() !== 'identity';
          if (value === undefined || encoded) {
            if (encoded)
              ex.note('response', 'the document came compressed: passed on unchanged, not checked');
            else checkValue(bytes.toString('utf8'));
            res.writeHead(statusOf(answer), answer.statusMessage, answer.rawHeaders);
            return void res.end(bytes);
          }
          checkValue(value);
          const copy: unknown = structuredClone(value);
          const done = rewriteUrls(copy, pointers, targetRoot, proxyUrl);
          for (const url of done.outside)
            ex.note(
              'response',
              `the document names ${url}, which is not under ${targetRoot}: a client that follows it bypasses the proxy`,
            );
          if (done.count === 0) {
            res.writeHead(statusOf(answer), answer.statusMessage, answer.rawHeaders);
            return void res.end(bytes);
          }
          const rewritten = Buffer.from(JSON.stringify(copy));
          ex.note(
            'response',
            `pointed ${done.count} URL${done.count === 1 ? '' : 's'} of the agent at the proxy (a signature over the document no longer verifies)`,
          );
          const kept: string[] = [];
          for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
            const name = answer.rawHeaders[i] ?? '';
            if (/^(content-length|transfer-encoding|etag|content-md5|digest)$/i.test(name)) continue;
            kept.push(name, answer.rawHeaders[i + 1] ?? '');
          }
          res.writeHead(statusOf(answer), answer.statusMessage, [
            ...kept,
            'Content-Length',
            String(rewritten.length),
          ]);
          res.end(rewritten);
        });
      },
    };

    // The request: forwarded as it comes, its Host naming the target.
    const discovery = route.kind === 'operation' ? discoveryOf(route.operation) : undefined;
    const headers: string[] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] ?? '';
      const lower = name.toLowerCase();
      // A document the proxy rewrites must come uncompressed; every other request goes as it came.
      if (discovery && lower === 'accept-encoding') continue;
      headers.push(name, lower === 'host' ? target.host : (req.rawHeaders[i + 1] ?? ''));
    }
    // Field by field: a literal that starts with a spread (`{ ...upstreamOptions, path }`) is slow in V8 (Node 20).
    const upstream = transport.request({
      protocol: upstreamOptions.protocol,
      hostname: upstreamOptions.hostname,
      port: upstreamOptions.port,
      agent,
      path: `${rootPath}${rawUrl}`,
      method,
      headers,
    });
    let answered: IncomingMessage | undefined;
    let clientLeft = false;
    res.on('close', () => {
      // The client went away: so does the request to the agent.
      if (!res.writableFinished) {
        clientLeft = true;
        upstream.destroy();
        answered?.destroy();
      }
    });

    // The JSON-RPC calls of the request, by id, for the answer's results.
    const calls = new Map<string, SurfaceRpcMethod | undefined>();
    const requestFree = route.kind === 'unknown' ? undefined : ex.slot('request');
    const requestTap = requestFree
      ? {
          tap: new BodyTap(limits.bodyBytes, held, header(req.rawHeaders, 'content-encoding')),
          free: requestFree,
        }
      : undefined;
    // Each chunk goes on first; the tap sees it after. The agent's pace sets the client's (backpressure).
    req.on('data', (chunk: Buffer) => {
      if (!upstream.write(chunk)) {
        req.pause();
        upstream.once('drain', () => req.resume());
      }
      requestTap?.tap.push(chunk);
    });
    // A request cut before its end frees its slot too (freeing twice frees once).
    req.on('close', () => requestTap?.free());
    req.on('end', () => {
      upstream.end();
      if (!requestTap) {
        if (route.kind === 'unknown')
          ex.note(
            'request',
            `${binding.protocol}@${binding.version} declares no operation ${method} ${path}: not checked`,
          );
        return;
      }
      requestTap.free();
      const body = requestTap.tap.read();
      if (body.kind === 'unchecked') return ex.note('request', body.reason);
      if (route.kind === 'operation') return ex.checkRequest(route.operation, body);
      if (route.kind === 'rpc') return ex.checkRpcRequest(route.methods, body);
    });

    upstream.on('error', (error) => {
      requestTap?.free();
      // The client left first (and the proxy cut this request): nothing to say about the agent.
      if (answered || clientLeft) return;
      const reason = unreachable(error);
      ex.note('response', `cannot reach the agent at ${options.target}: ${reason}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // RFC 9110 §15.6.3: 502, the proxy got no valid answer from the server it forwards to.
      const problem = JSON.stringify({
        type: 'https://agentproto.dev/problems/agent-unreachable',
        title: 'Bad Gateway',
        status: 502,
        detail: `agentproto proxy: cannot reach the agent at ${options.target}: ${reason}`,
      });
      res.writeHead(502, {
        'content-type': 'application/problem+json',
        'content-length': Buffer.byteLength(problem),
      });
      res.end(problem);
    });

    upstream.on('response', (answer) => {
      answered = answer;
      const status = answer.statusCode ?? 0;
      const raw = answer.rawHeaders;
      const head: AnswerHead = {
        status,
        headers: new RawHeaders(raw),
      };
      const framing = framingOf(head);
      const encoding = header(raw, 'content-encoding');
      const bodiless = method === 'HEAD' || status === 204 || status === 304 || status < 200;
      const op = route.kind === 'operation' ? route.operation : undefined;
      const declared = op ? declaredContent(op, head) : undefined;
      const extra: ProxyIssue[] =
        op && declared && !declared.status
          ? [
              {
                pointer: '',
                message: `status ${status} is not declared for ${op.method} ${op.path}`,
                rule: 'declared-status',
                got: String(status),
              },
            ]
          : [];
      // An answer cut before its end (by the agent, not because the client left) cuts the client's answer too.
      answer.on('close', () => {
        if (answer.complete || clientLeft) return;
        res.destroy();
        ex.note('response', 'the agent broke the connection before the answer ended');
      });
      answer.on('error', () => res.destroy());

      if (route.kind === 'unknown' || bodiless) {
        passOn(answer, res, framing !== undefined);
        if (route.kind !== 'unknown')
          answer.on('end', () => ex.record({ direction: 'response', status }, operationName, extra));
        return;
      }

      // A discovery document naming the agent's URLs: held whole, rewritten, then sent.
      const pointers =
        discovery && declared?.content?.typeName ? discovery.get(declared.content.typeName) : undefined;
      // A JSON-RPC call whose result is one (a method answering with the card): its result's URLs.
      const rpcPointers = route.kind === 'rpc' ? rpcDiscovery(calls) : undefined;
      if (rpcPointers && !framing && status >= 200 && status < 300) {
        const free = ex.slot('response');
        if (!free) return passOn(answer, res, false);
        answer.on('close', free);
        ex.holdAndRewrite(answer, rpcPointers, (value) =>
          ex.checkRpcAnswer(status, { kind: 'value', value, json: typeof value !== 'string' }, value),
        );
        return;
      }
      if (pointers && !framing && status >= 200 && status < 300) {
        const free = ex.slot('response');
        // No slot: the document passes as it came, unchecked (the note says so).
        if (!free) return passOn(answer, res, false);
        answer.on('close', free);
        ex.holdAndRewrite(answer, pointers, (value) =>
          ex.record(
            {
              direction: 'response',
              status,
              ...(declared?.content?.typeName ? { type: declared.content.typeName } : {}),
              message: value,
            },
            operationName,
            extra,
          ),
        );
        return;
      }

      passOn(answer, res, framing !== undefined);
      if (framing) {
        const free = ex.slot('response');
        const streamExtra: ProxyIssue[] = [...extra];
        if (op && declared?.content?.kind !== 'stream')
          streamExtra.push({
            pointer: '',
            message: `${op.method} ${op.path} declares no stream for status ${status} and ${header(raw, 'content-type')}`,
            rule: 'declared-stream',
          });
        const operation = route.kind === 'rpc' ? rpcOperation(calls) : operationName;
        ex.record(
          {
            direction: 'response',
            status,
            stream: true,
            message: { contentType: header(raw, 'content-type') },
          },
          operation,
          streamExtra,
        );
        if (!free) return;
        const itemType = declared?.content?.item?.typeName;
        let complete = false;
        const tap = new StreamTap(
          framing,
          encoding,
          limits.itemLength,
          held,
          (frame: ParsedFrame) => {
            stats.items++;
            if (!frame.ok)
              return ex.record(
                { direction: 'event', message: frame.data },
                operation,
                [{ pointer: '', message: frame.error, rule: 'json' }],
                '',
                frame.index,
              );
            // Each item's record is one plain literal, made whole: no spread, no copy, no list made, per item.
            const at = options.session ? new Date().toISOString() : '';
            const message = frame.value;
            const item: SessionRecord = byStreamCheck
              ? { exchange, at, operation, direction: 'event', stream: true, message }
              : itemType
                ? { exchange, at, operation, direction: 'event', type: itemType, message }
                : { exchange, at, operation, direction: 'event', message };
            ex.check(item, NO_ISSUES, '', frame.index);
          },
          (reason) => ex.note('event', reason),
        );
        answer.on('data', (chunk: Buffer) => tap.push(chunk));
        answer.on('end', () => {
          complete = true;
          tap.end();
        });
        answer.on('close', () => {
          tap.end();
          void tap.done.then(() => {
            free();
            // Past a limit the end rules have not seen every item: the stream is recorded as cut.
            ex.record({ direction: 'end', complete: complete && !tap.gaveUp }, operation);
          });
        });
        return;
      }

      const free = ex.slot('response');
      if (!free) return;
      const tap = new BodyTap(limits.bodyBytes, held, encoding);
      answer.on('data', (chunk: Buffer) => tap.push(chunk));
      answer.on('end', () => {
        free();
        const body = tap.read();
        if (body.kind === 'unchecked') return ex.note('response', body.reason);
        const value = body.kind === 'value' ? body.value : undefined;
        if (route.kind === 'rpc') return ex.checkRpcAnswer(status, body, value);
        const type = declared?.content?.typeName;
        ex.record(
          { direction: 'response', status, ...(type ? { type } : {}), message: value },
          operationName,
          extra,
        );
      });
      answer.on('close', free);
    });
  };

  const server = http.createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // sound: a server listening on a TCP port has an AddressInfo (a string only for a pipe or a socket file)
  proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: proxyUrl,
    stats: () => ({ ...stats, heldBytes: held.now, heldBytesMax: held.max }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };

  /**
   * The URL pointers of a JSON-RPC answer whose one call's result is a discovery document (`/result/...`), or
   * undefined; a batch is passed on as it came.
   */
  function rpcDiscovery(calls: ReadonlyMap<string, SurfaceRpcMethod | undefined>): string[] | undefined {
    const [only, ...more] = [...calls.values()];
    const pointers = only && more.length === 0 ? binding.discoveryUrls?.[only.resultType] : undefined;
    return pointers?.map((p) => `/result${p}`);
  }

  /** The discovery documents an operation may answer with: their type names and URL pointers, or undefined. */
  function discoveryOf(op: SurfaceOperation): ReadonlyMap<string, readonly string[]> | undefined {
    const urls = binding.discoveryUrls;
    if (!urls) return undefined;
    // Worked out once per operation (the surface's operations are a fixed few), not per request.
    if (discoveries.has(op)) return discoveries.get(op);
    const found = new Map<string, readonly string[]>();
    for (const contents of Object.values(op.responses))
      for (const c of contents) {
        const pointers = c.typeName ? urls[c.typeName] : undefined;
        if (c.typeName && pointers) found.set(c.typeName, pointers);
      }
    discoveries.set(op, found.size > 0 ? found : undefined);
    return discoveries.get(op);
  }
}

/**
 * Sends an answer on as it comes: its status and headers as the agent wrote them, then each chunk as it arrives, at
 * the client's pace (backpressure). Checks listen to the same chunks after this has written them.
 */
function passOn(answer: IncomingMessage, res: ServerResponse, stream: boolean): void {
  res.writeHead(statusOf(answer), answer.statusMessage, answer.rawHeaders);
  let sent = false;
  // A stream's headers go at once: the client sees the answer begin before its first event. When that event came
  // with them (read with them from the agent), both go in one write; otherwise the headers go alone, once what was
  // read has been handled.
  if (stream)
    setImmediate(() => {
      if (!sent && !res.writableEnded) res.flushHeaders();
    });
  // What one read from the agent brings (the last chunk, and the end of a chunked answer, which node:http hands over
  // in separate steps) goes to the client in one write, once that read has been handled: one system call, not two.
  // (The callbacks are unnamed arrows, made when needed: a named one costs a property definition under tsx.)
  let corked = false;
  answer.on('data', (chunk: Buffer) => {
    sent = true;
    if (!corked) {
      corked = true;
      res.cork();
      setImmediate(() => {
        corked = false;
        res.uncork();
      });
    }
    if (!res.write(chunk)) {
      answer.pause();
      res.once('drain', () => answer.resume());
    }
  });
  answer.on('end', () => res.end());
}

/** No issues beyond the checker's (shared: most messages have none). */
const NO_ISSUES: readonly ProxyIssue[] = Object.freeze([]);

/** How long a connection to the agent stays open unused (an in-flight request, however quiet, is never cut by it). */
const IDLE_UPSTREAM_MS = 4_000;

/** Where a report belongs. */
function placeOf(exchange: number, method: string, path: string, direction: Direction, item?: number) {
  return { exchange, method, path, direction, ...(item === undefined ? {} : { item }) };
}

/** An answer's headers as the exchange helpers read them (`get`), straight from its raw list. */
class RawHeaders {
  constructor(private readonly raw: readonly string[]) {}
  get(name: string): string | null {
    return header(this.raw, name.toLowerCase()) ?? null;
  }
}

function statusOf(answer: IncomingMessage): number {
  return answer.statusCode ?? 502;
}

/**
 * A header of a message, from its raw list (`name` in lower case), as node:http's `headers` reads it without building
 * that object: repeats joined with commas, except Content-Type and Content-Length, whose first one counts.
 */
function header(raw: readonly string[], name: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i] ?? '';
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    const value = raw[i + 1] ?? '';
    if (found === undefined) found = value;
    else if (name === 'content-type' || name === 'content-length') break;
    else found = `${found}, ${value}`;
  }
  return found;
}

/** The operation name of a JSON-RPC exchange's answer: its one method's, when it has one. */
function rpcOperation(calls: ReadonlyMap<string, SurfaceRpcMethod | undefined>): string {
  const methods = [...calls.values()];
  return methods.length === 1 && methods[0] ? `rpc:${methods[0].name}` : 'rpc';
}

/** Why the agent could not be reached, in words. */
function unreachable(error: Error): string {
  // sound: node:http's request errors are system errors, whose code names the cause; others have none
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'connection refused (is the agent running?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'no such host';
  if (code === 'ECONNRESET') return 'the connection was reset';
  return error.message;
}
