// The last step of a POST: the message answered by its revision's JSON-RPC dispatcher over the one handler set, from
// the value read before (one read, one parse), and the answer shaped as the transport says: JSON, or an event stream
// when the handlers spoke before the answer; 202 for a notification; the statuses HTTP adds to some errors; the
// session `initialize` opens.
import {
  JsonRpcError,
  RPC_ERROR_CODES,
  type RpcDispatcher,
  rpcAnswerBody,
  type Step,
} from '@agentproto/runtime';
import type { Context, Hono } from 'hono';
import { isObjectLike } from '../../is-object-like.js';
import { VERSION_TRAITS } from '../../version-traits.js';
import { AnswerStream, attachExchange, type Exchange, type ReplyRouter } from '../exchange.js';
import type { Session, SessionStore } from '../sessions.js';
import { eraOf, isRequest, MCP_TRANSPORT_ERRORS, type Message, type PostState } from './post-state.js';

/** One revision's JSON-RPC surface over the handler set: its dispatcher, and its app for bodies that are no message. */
export interface Era {
  app: Hono;
  dispatch: RpcDispatcher;
}

/** The `_meta` fields every request of a revision without a handshake must carry. */
const REQUIRED_META = [
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientCapabilities',
];

/** Answers the message in its revision, through `eras`; with `sessions`, `initialize` opens one. */
export function answerMessage(
  eras: ReadonlyMap<string, Era>,
  replies: ReplyRouter,
  sessions: SessionStore | undefined,
): Step<PostState> {
  return async (c, state) => {
    const era = eraOf(state);
    const message = state.message;
    // A request's handlers may speak before its answer (an event stream); a notification's never do: it gets 202.
    const id = isRequest(message) ? message?.id : undefined;
    const answer = await answerOrStream(id, (stream) =>
      answerWith(
        c,
        eras.get(era),
        message ?? state.bytes,
        exchange(id === undefined ? undefined : stream, replies, state.session),
      ),
    );
    if (!message) return answer;
    if (VERSION_TRAITS[era].handshake) {
      if (sessions && message.method === 'initialize' && answer.status === 200)
        openSession(answer, message, sessions);
      return answer;
    }
    const error = errorCode(answer);
    // A method this revision does not serve is 404 as well as -32601, so that it is told from a missing endpoint.
    if (error === RPC_ERROR_CODES.methodNotFound)
      return new Response(answer.body, { status: 404, headers: answer.headers });
    // A request refused for a capability the client did not declare, or for lacking the `_meta` fields every request
    // of a revision without a handshake carries (its schema's -32602), is malformed: HTTP says 400.
    const meta = message.params?._meta;
    if (
      error === MCP_TRANSPORT_ERRORS.missingRequiredClientCapability ||
      (error === RPC_ERROR_CODES.invalidParams && REQUIRED_META.some((k) => meta?.[k] === undefined))
    )
      return new Response(answer.body, { status: 400, headers: answer.headers });
    if (message.method === 'subscriptions/listen' && error === undefined && answer.status === 200)
      return listenStream(answer, message);
    return answer;
  };
}

/**
 * The session an `initialize` answer opens, named in its Mcp-Session-Id header. What `input` checks is which
 * capabilities the client declared: their names (at most 64), not their contents, which the client chooses and a
 * session would otherwise keep for 30 minutes.
 */
function openSession(answer: Response, message: Message, sessions: SessionStore): void {
  const agreed = ANSWERS.get(answer)?.result?.protocolVersion;
  if (typeof agreed !== 'string') return;
  const declared = message.params?.capabilities;
  const capabilities =
    typeof declared === 'object' && declared !== null
      ? Object.fromEntries(
          Object.keys(declared)
            .slice(0, 64)
            .map((k) => [k, {}]),
        )
      : {};
  answer.headers.set('mcp-session-id', sessions.open(agreed, capabilities).id);
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
  // Whichever comes first: the answer, or the stream opening (the handler may have sent before it first waited).
  let opened = () => {};
  const stream = new AnswerStream(() => opened());
  const answer = run(stream);
  const first = stream.started
    ? undefined
    : await new Promise<Response | undefined>((resolve, reject) => {
        opened = () => resolve(undefined);
        answer.then(resolve, reject);
      });
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
  // The dispatcher's answers carry the response object they are the JSON of: no second read or parse. Any other JSON
  // answer is read once, and its parsed body kept beside it (ANSWERS) for what the transport decides from it.
  const sentBody = rpcAnswerBody(answer);
  let text: string | undefined;
  let body: AnswerBody | undefined;
  if (sentBody !== undefined) {
    // sound: the dispatcher's own JSON-RPC answer as it serialized it; each field AnswerBody names is optional and is
    // compared or tested with typeof where it is read.
    body = isObjectLike(sentBody) ? (sentBody as AnswerBody) : undefined;
  } else {
    if (!(answer.headers.get('content-type') ?? '').includes('json')) return answer;
    text = await answer.text();
    try {
      // sound: as above, read back from its text.
      body = JSON.parse(text) as AnswerBody;
    } catch {}
  }
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
  } else if (text === undefined) out = answer;
  else out = new Response(text, { status: answer.status, headers: answer.headers });
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
