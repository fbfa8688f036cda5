// MCP's Streamable HTTP transport, every revision at one endpoint: each POST is read once, its revision picked (the
// `MCP-Protocol-Version` header; without it, the handshake revision, whose `initialize` comes without one), checked
// against that revision's transport rules (sessions, or the request headers that mirror the body), and answered by
// that revision's JSON-RPC dispatcher over the one handler set (rpc-handlers.ts), from the value read here: one read,
// one parse. A body that is not a JSON object goes to the revision's JSON-RPC app instead, which says why in its
// words (-32700, -32600).
import {
  JsonRpcError,
  parseJsonWithin,
  type RequestLimits,
  RPC_ERROR_CODES,
  type RpcAppOptions,
  type RpcDispatcher,
  readLimitedBytes,
  resolveLimits,
} from '@agentproto/runtime';
import { type Context, Hono } from 'hono';
import { NAMED_BY } from '../client/mirrored-headers.js';
import { GENERATED } from '../generated/modules.js';
import { isVersion, VERSIONS } from '../generated/versions.js';
import { type McpVersion, VERSION_TRAITS } from '../version-traits.js';
import type { McpServerDefinition } from './definition.js';
import {
  AnswerStream,
  attachExchange,
  DEFAULT_REPLY_LIMITS,
  type Exchange,
  type ReplyLimits,
  ReplyRouter,
} from './exchange.js';
import { type InputStateOptions, inputStateOptions } from './input-rounds.js';
import { type OriginPolicy, refuseForeign } from './origin.js';
import { rpcHandlersFor } from './rpc-handlers.js';
import { DEFAULT_SESSION_LIMITS, type Session, type SessionLimits, SessionStore } from './sessions.js';

/** Options of an MCP server app. Every limit has a documented default. */
export interface McpAppOptions extends Partial<OriginPolicy> {
  /** The endpoint (default `/mcp`). */
  path?: string;
  /** The revisions served (default: every revision this package speaks). */
  versions?: readonly McpVersion[];
  /** Sessions for revisions with a handshake: their bounds, or `false` to keep none (default 1,024, 30 min idle). */
  sessions?: Partial<SessionLimits> | false;
  /** Body size and nesting depth, as for every agentproto server (default 1 MiB, depth 64). */
  limits?: Partial<RequestLimits>;
  /**
   * The server's own requests on an answer's stream (sampling, elicitation, roots, in revisions with a handshake):
   * how many may wait for the client's reply at once, and for how long (default 1,024, 60 s).
   */
  replies?: Partial<ReplyLimits>;
  /** How multi-round-trip `requestState` is signed and how long it stays good (default: a key per process, 10 min). */
  inputState?: Partial<InputStateOptions>;
  /** Check every result against its schema (default: on unless NODE_ENV is `production`). */
  validateResults?: boolean;
  /** Told when a handler throws something other than a JsonRpcError, or answers with an invalid result. */
  onError?: RpcAppOptions['onError'];
}

/** The JSON-RPC codes MCP adds for its transport: a header that disagrees with the body, a revision not served. */
export const MCP_TRANSPORT_ERRORS = Object.freeze({
  sessionNotFound: -32001,
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
});

/** The `_meta` fields every request of a revision without a handshake must carry. */
const REQUIRED_META = [
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientCapabilities',
];

/** A JSON-RPC message as read from a POST: enough to route it. */
interface Message {
  id?: unknown;
  method?: unknown;
  params?: { _meta?: Record<string, unknown>; [k: string]: unknown };
}

/** Builds the Hono app of an MCP server: POST (and, with sessions, GET and DELETE) at one endpoint. */
export function createMcpApp(server: McpServerDefinition, options: McpAppOptions = {}): Hono {
  const path = options.path ?? '/mcp';
  const versions = options.versions ?? VERSIONS;
  const limits = resolveLimits(options.limits ?? {});
  const handshake = versions.filter((v) => VERSION_TRAITS[v].handshake);
  const sessions =
    options.sessions === false
      ? undefined
      : new SessionStore({ ...DEFAULT_SESSION_LIMITS, ...options.sessions });
  const replies = new ReplyRouter({ ...DEFAULT_REPLY_LIMITS, ...options.replies });
  const inputState = inputStateOptions(options.inputState);
  const eras = new Map(
    versions.map((v) => {
      // sound: the handler set is typed per method by the generated factory of each revision; rpcHandlersFor builds
      // every method of every revision from one definition, and each app serves (and validates) only its own methods.
      const handlers = rpcHandlersFor(v, server, { versions, inputState }) as never;
      const rpc: RpcAppOptions = {
        ...(options.validateResults !== undefined ? { validateResults: options.validateResults } : {}),
        ...(options.onError ? { onError: options.onError } : {}),
      };
      // The dispatcher answers as a web Response the transport still reads and shapes (never straight to the socket).
      const era: Era = {
        app: GENERATED[v].createMcpRpcApp(handlers, { ...rpc, path: '/', limits }),
        dispatch: GENERATED[v].createMcpRpcDispatcher(handlers, { ...rpc, nodeStreams: false }),
      };
      return [v, era] as const;
    }),
  );
  const app = new Hono();

  app.use(path, async (c, next) => {
    const why = refuseForeign(c.req.raw, options);
    if (why) return refuse(403, RPC_ERROR_CODES.invalidRequest, `Forbidden: ${why}`);
    await next();
  });

  app.get(path, () => {
    // No revision here offers the server's own stream: a client asking for it is told so, as the specification allows.
    const answer = refuse(
      405,
      RPC_ERROR_CODES.invalidRequest,
      'Method Not Allowed: this server sends nothing outside answers',
    );
    answer.headers.set('allow', sessions && handshake.length > 0 ? 'POST, DELETE' : 'POST');
    return answer;
  });

  app.delete(path, (c) => {
    if (!sessions || handshake.length === 0)
      return refuse(405, RPC_ERROR_CODES.invalidRequest, 'Method Not Allowed: this server keeps no sessions');
    const id = c.req.header('mcp-session-id');
    if (!id) return refuse(400, RPC_ERROR_CODES.invalidRequest, 'Bad Request: no Mcp-Session-Id to end');
    if (!sessions.end(id)) return refuse(404, MCP_TRANSPORT_ERRORS.sessionNotFound, 'Session not found');
    return c.body(null, 200);
  });

  app.post(path, async (c) => {
    const accept = c.req.header('accept') ?? '';
    if (!/application\/json|\*\/\*/.test(accept) || !/text\/event-stream|\*\/\*/.test(accept))
      return refuse(
        406,
        RPC_ERROR_CODES.invalidRequest,
        'Not Acceptable: the client must accept both application/json and text/event-stream',
      );
    const read = await readLimitedBytes(c.req.raw, limits.jsonBytes);
    if (!read.ok)
      return refuse(
        413,
        RPC_ERROR_CODES.invalidRequest,
        `Payload Too Large: the body exceeds ${limits.jsonBytes} bytes`,
      );
    const parsed = parseMessage(read.bytes, limits.depth);
    if (Array.isArray(parsed))
      return refuse(
        400,
        RPC_ERROR_CODES.invalidRequest,
        'Invalid Request: one JSON-RPC message per POST (no batches)',
      );
    const message = parsed;
    const header = c.req.header('mcp-protocol-version');
    if (header !== undefined && !(isVersion(header) && versions.includes(header)))
      return refuse(
        400,
        MCP_TRANSPORT_ERRORS.unsupportedProtocolVersion,
        'Unsupported protocol version',
        {
          supported: versions,
          requested: header,
        },
        message?.id,
      );
    const era = header ?? handshake.at(-1);
    if (era === undefined)
      return refuse(
        400,
        MCP_TRANSPORT_ERRORS.headerMismatch,
        'Bad Request: no MCP-Protocol-Version header',
        undefined,
        message?.id,
      );
    const traits = VERSION_TRAITS[era];
    if (Array.isArray(message))
      return refuse(
        400,
        RPC_ERROR_CODES.invalidRequest,
        'Invalid Request: one JSON-RPC message per POST (no batches)',
      );
    // A request's handlers may speak before its answer (an event stream); a notification's never do: it gets 202.
    const answersAfter = typeof message?.id === 'string' || typeof message?.id === 'number';
    const forward = (session?: Session) =>
      answerOrStream(answersAfter ? message?.id : undefined, (stream) =>
        answerWith(
          c,
          eras.get(era),
          message ?? read.bytes,
          exchange(answersAfter ? stream : undefined, replies, session),
        ),
      );
    // Not JSON, or not an object: no method can run, and the JSON-RPC app says which (-32700 or -32600).
    if (message === undefined) return forward();

    if (traits.handshake) {
      // A reply to a request of ours, for the request waiting on it (one that waits no more is ignored), within the
      // session it was asked in: without one it is 400, with one the server does not have 404, as for any message.
      if (message && message.method === undefined && ('result' in message || 'error' in message)) {
        if (!sessions) return c.body(null, 202);
        const id = c.req.header('mcp-session-id');
        if (!id) return refuse(400, RPC_ERROR_CODES.invalidRequest, 'Bad Request: no Mcp-Session-Id');
        if (!sessions.use(id)) return refuse(404, MCP_TRANSPORT_ERRORS.sessionNotFound, 'Session not found');
        replies.settle(id, message);
        return c.body(null, 202);
      }
      if (message?.method === 'initialize' || !sessions) {
        const answer = await forward();
        if (sessions && message?.method === 'initialize' && answer.status === 200) {
          const agreed = agreedVersion(answer);
          // What `input` checks is which capabilities the client declared: their names (at most 64), not their
          // contents, which the client chooses and a session would otherwise keep for 30 minutes.
          const declared = message.params?.capabilities;
          const capabilities =
            typeof declared === 'object' && declared !== null
              ? Object.fromEntries(
                  Object.keys(declared)
                    .slice(0, 64)
                    .map((k) => [k, {}]),
                )
              : {};
          if (agreed) answer.headers.set('mcp-session-id', sessions.open(agreed, capabilities).id);
        }
        return answer;
      }
      const id = c.req.header('mcp-session-id');
      if (!id)
        return refuse(
          400,
          RPC_ERROR_CODES.invalidRequest,
          'Bad Request: no Mcp-Session-Id (send initialize first)',
          undefined,
          message?.id,
        );
      const session = sessions.use(id);
      if (!session)
        return refuse(404, MCP_TRANSPORT_ERRORS.sessionNotFound, 'Session not found', undefined, message?.id);
      return forward(session);
    }

    if (message) {
      const mismatch = headerMismatch(c, message, era);
      if (mismatch)
        return refuse(
          400,
          MCP_TRANSPORT_ERRORS.headerMismatch,
          `Header mismatch: ${mismatch}`,
          undefined,
          message.id,
        );
    }
    const answer = await forward();
    const error = errorCode(answer);
    // A method this revision does not serve is 404 as well as -32601, so that it is told from a missing endpoint.
    if (error === RPC_ERROR_CODES.methodNotFound)
      return new Response(answer.body, { status: 404, headers: answer.headers });
    // A request refused for a capability the client did not declare, or for lacking the `_meta` fields every request
    // of a revision without a handshake carries (its schema's -32602), is malformed: HTTP says 400.
    const meta = message?.params?._meta;
    if (
      error === MCP_TRANSPORT_ERRORS.missingRequiredClientCapability ||
      (error === RPC_ERROR_CODES.invalidParams && REQUIRED_META.some((k) => meta?.[k] === undefined))
    )
      return new Response(answer.body, { status: 400, headers: answer.headers });
    if (message?.method === 'subscriptions/listen' && error === undefined && answer.status === 200)
      return listenStream(answer, message);
    return answer;
  });
  return app;
}

/**
 * What the handlers of one request reach the client through: the answer's stream, and the session (its capabilities,
 * its log level, and the replies to the server's own requests).
 */
function exchange(
  stream: AnswerStream | undefined,
  replies: ReplyRouter,
  session: Session | undefined,
): Exchange {
  return {
    clientCapabilities: session?.clientCapabilities ?? {},
    logLevel: session?.logLevel,
    setLogLevel(level) {
      if (session) session.logLevel = level;
    },
    notify(method, params) {
      stream?.send({ jsonrpc: '2.0', method, params }, true);
    },
    request(method, params, signal) {
      if (!stream)
        return Promise.reject(new Error(`Cannot send ${method}: a notification has no answer to carry it`));
      if (!session)
        return Promise.reject(
          new JsonRpcError(
            RPC_ERROR_CODES.internalError,
            `Cannot send ${method}: without a session, the client's reply could not be told apart`,
          ),
        );
      return replies.wait(session.id, signal, (id) => stream.send({ jsonrpc: '2.0', id, method, params }));
    },
  };
}

/**
 * The answer to one request: its JSON when the handler sent nothing before it, else an SSE stream of what the handler
 * sent (progress, log messages, its own requests) that ends with the answer.
 */
async function answerOrStream(
  id: unknown,
  run: (stream: AnswerStream) => Promise<Response>,
): Promise<Response> {
  const stream = new AnswerStream();
  const answer = run(stream);
  const first = await Promise.race([answer, stream.opened.then(() => undefined)]);
  if (first !== undefined && !stream.started) return first;
  // The stream ends with the request's response: the JSON answer, or an internal error with the request's id.
  const failed = (why: string) =>
    JSON.stringify({
      jsonrpc: '2.0',
      ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}),
      error: { code: RPC_ERROR_CODES.internalError, message: `Internal error: ${why}` },
    });
  answer.then(
    async (done) =>
      stream.end(
        (done.headers.get('content-type') ?? '').includes('json')
          ? await done.text()
          : failed(`the answer was not JSON (HTTP ${done.status})`),
      ),
    (error: unknown) => stream.end(failed(String(error))),
  );
  return new Response(stream.readable, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}

/** One revision's JSON-RPC surface over the handler set: its dispatcher, and its app for bodies that are no message. */
interface Era {
  app: Hono;
  dispatch: RpcDispatcher;
}

/**
 * Passes the message to a revision's JSON-RPC dispatcher (or the body that holds none to its app, which refuses it);
 * a notification's "no answer" (204) is MCP's 202.
 */
async function answerWith(
  c: Context,
  era: Era | undefined,
  sent: Message | Uint8Array,
  link: Exchange,
): Promise<Response> {
  if (!era) throw new Error('no JSON-RPC app for the revision picked');
  let answer: Response;
  if (sent instanceof Uint8Array) {
    const request = new Request(new URL('/', c.req.url), {
      method: 'POST',
      headers: c.req.raw.headers,
      // sound: a request body's bytes lie in an ArrayBuffer (never a SharedArrayBuffer), which BodyInit asks for.
      body: sent as Uint8Array<ArrayBuffer>,
      signal: c.req.raw.signal,
    });
    attachExchange(request, link);
    answer = await era.app.fetch(request);
  } else {
    // The handlers see the request as it came (their context's `request`), with this exchange on it.
    attachExchange(c.req.raw, link);
    answer = await era.dispatch(c, sent);
  }
  if (answer.status === 204) return new Response(null, { status: 202 });
  if (!(answer.headers.get('content-type') ?? '').includes('json')) return answer;
  // Read once: the answer's parsed body stays beside it (ANSWERS) for what the transport decides from it.
  const text = await answer.text();
  let body: AnswerBody | undefined;
  try {
    // sound: the dispatcher's own JSON-RPC answer; each field AnswerBody names is optional and is compared or
    // tested with typeof where it is read.
    body = JSON.parse(text) as AnswerBody;
  } catch {}
  const code = body?.error?.code;
  // A body that is not a JSON-RPC message at all (-32700, -32600) is the transport's 400, as the specification says;
  // and an error about a message whose id could not be read leaves the id out (MCP's schema), where JSON-RPC writes
  // `id: null`.
  const unreadable = code === RPC_ERROR_CODES.parseError || code === RPC_ERROR_CODES.invalidRequest;
  let out: Response;
  if (body?.error !== undefined && (unreadable || body.id === null)) {
    const { id, ...rest } = body;
    body = id === null ? rest : body;
    out = new Response(JSON.stringify(body), {
      status: unreadable ? 400 : answer.status,
      headers: { 'content-type': 'application/json' },
    });
  } else out = new Response(text, { status: answer.status, headers: answer.headers });
  if (body) ANSWERS.set(out, body);
  return out;
}

/** What the transport reads of a JSON answer. */
interface AnswerBody {
  id?: unknown;
  result?: { protocolVersion?: unknown };
  error?: { code?: unknown };
}

/** The parsed body of each JSON answer answerWith made. */
const ANSWERS = new WeakMap<Response, AnswerBody>();

/**
 * The message a body holds (an array for a batch), or undefined when it holds none: not JSON within the nesting limit,
 * or not an object (the JSON-RPC app answers those with -32700 or -32600).
 */
function parseMessage(bytes: Uint8Array, depth: number): Message | Message[] | undefined {
  const value = parseJsonWithin(bytes, depth)?.value;
  // sound: an object or array; the fields the transport reads are checked where it reads them (typeof, Array.isArray)
  return typeof value === 'object' && value !== null ? (value as Message | Message[]) : undefined;
}

/** Where a revision's mirrored headers disagree with the body, or undefined when they agree. */
function headerMismatch(c: Context, message: Message, era: string): string | undefined {
  const method = c.req.header('mcp-method');
  if (method !== message.method)
    return `Mcp-Method is ${JSON.stringify(method ?? null)}, the body's method ${JSON.stringify(message.method ?? null)}`;
  const meta = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  if (meta !== undefined && meta !== era)
    return `MCP-Protocol-Version is "${era}", the body's _meta says ${JSON.stringify(meta)}`;
  const param = typeof message.method === 'string' ? NAMED_BY[message.method] : undefined;
  if (param) {
    const name = decodeHeaderValue(c.req.header('mcp-name'));
    const value = message.params?.[param];
    if (name !== value)
      return `Mcp-Name is ${JSON.stringify(name ?? null)}, the body's ${param} ${JSON.stringify(value ?? null)}`;
  }
  return undefined;
}

/** A header value as sent, or decoded from the `=?base64?…?=` form used for values that are not plain ASCII. */
export function decodeHeaderValue(value: string | undefined): string | undefined {
  const encoded = value === undefined ? null : /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  if (!encoded) return value;
  return Buffer.from(encoded[1] ?? '', 'base64').toString('utf8');
}

/** The revision an `initialize` answer agreed on. */
function agreedVersion(answer: Response): string | undefined {
  const v = ANSWERS.get(answer)?.result?.protocolVersion;
  return typeof v === 'string' ? v : undefined;
}

/** The error code of a JSON answer; undefined for a result or a stream. */
function errorCode(answer: Response): number | undefined {
  const code = ANSWERS.get(answer)?.error?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * The answer to `subscriptions/listen` as the stream it is: the acknowledgement, tagged with the subscription's id,
 * then the result that ends it. This server's catalogue never changes, so there is nothing to send in between.
 */
async function listenStream(answer: Response, message: Message): Promise<Response> {
  const result = await answer.text();
  const ack = {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: {
      notifications: message.params?.notifications ?? {},
      _meta: { 'io.modelcontextprotocol/subscriptionId': message.id ?? null },
    },
  };
  return new Response(`data: ${JSON.stringify(ack)}\n\ndata: ${result}\n\n`, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}

/** A refusal before any method runs: an HTTP status and a JSON-RPC error response (with the request's id if known). */
function refuse(status: number, code: number, message: string, data?: unknown, id?: unknown): Response {
  const error = new JsonRpcError(code, message, data).toObject();
  const body = { jsonrpc: '2.0', ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}), error };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
