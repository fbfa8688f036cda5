// createAgent: an AgentScope agent as a Hono app. The request is validated before the agent runs, and what the agent
// yields becomes a compliant event sequence (response-stream.ts), streamed as server-sent events.
import type { AppOptions } from '@agentproto/runtime';
import type { Hono } from 'hono';
import { GENERATED } from '../generated/modules.js';
import { isObjectLike } from '../is-object-like.js';
import type { SessionHistory, SessionMessage } from '../session/session-history.js';
import { type AgentOutput, responseStream } from '../stream/response-stream.js';
import { type AgentScopeVersion, VERSION_TRAITS } from '../version-traits.js';

/** What an agent's `run` receives besides the request. */
export interface RunContext {
  /** Aborts when the client disconnects: stop generating. */
  signal: AbortSignal;
  /** The HTTP request, for headers. */
  request: Request;
  /**
   * With a `history` and a request that names its `session_id`: what the session's earlier requests sent and the
   * agent answered, oldest first (input messages, then the completed output messages, per request). Empty otherwise.
   */
  history: readonly SessionMessage[];
}

/** An AgentScope agent: a function from a validated request to a stream of high-level output. */
export interface AgentDefinition<Req> {
  /**
   * Answers one request. Yield text deltas, data, function calls and their outputs, or an error; the runtime turns
   * them into the protocol's event sequence. Throwing ends the response `failed` without leaking the error.
   */
  run(request: Req, context: RunContext): AsyncIterable<AgentOutput>;
  /** The service name `GET /` reports (1.1). */
  service?: string;
  /** Told about errors the agent threw and answers that broke the protocol. */
  onError?: (error: unknown) => void;
  /** Options of the generated app (response validation, an app to mount on). */
  app?: Omit<AppOptions, 'onError'>;
  /**
   * Keeps each session's messages (by `session_id`) and gives them to `run` as `context.history`; a request's input
   * and completed output are added once its response completes. Without it, requests are independent.
   */
  history?: SessionHistory;
}

/**
 * Builds the Hono app of an AgentScope agent of any version: `POST /process` validates the AgentRequest (400,
 * 415, 422 with a problem body before any event is sent), then streams the agent's output as server-sent events;
 * `GET /health` and `GET /` answer as upstream does.
 */
export function createAgentScopeApp<Req extends { session_id?: string | null }>(
  version: AgentScopeVersion,
  agent: AgentDefinition<Req>,
): Hono {
  const onError = agent.onError ?? ((error: unknown) => console.error('[agentscope]', error));
  // A stream cut short (an event that breaks the schemas, in development) ends with the version's ErrorFrame where it
  // has one, so a client reads that it broke rather than an event stream that just stops.
  const errorFrame = VERSION_TRAITS[version].errorFrames
    ? { streamErrorItem: (reason: string) => ({ error: reason }) }
    : {};
  const appOptions = { ...errorFrame, ...agent.app, onError: (error: unknown) => onError(error) };
  const processRequest = async function* (
    body: Req & { id?: string | null; input?: unknown },
    request: Request,
    signal: AbortSignal,
  ) {
    const kept = agent.history;
    const session = kept && typeof body.session_id === 'string' ? { kept, id: body.session_id } : undefined;
    const history = session === undefined ? [] : await session.kept.messages(session.id);
    let terminal: Record<string, unknown> | undefined;
    for await (const event of responseStream(agent.run(body, { signal, request, history }), {
      version,
      ...(typeof body.id === 'string' ? { id: body.id } : {}),
      ...(typeof body.session_id === 'string' ? { sessionId: body.session_id } : {}),
      onError,
    })) {
      if (event.object === 'response') terminal = event;
      yield event;
    }
    // A completed turn joins the session: what was sent, then what was answered.
    if (session !== undefined && terminal?.status === 'completed') {
      // The input passed the request's schema and the output is the stream's own: both are lists of messages.
      const sent: SessionMessage[] = Array.isArray(body.input) ? body.input.filter(isObjectLike) : [];
      const answered: SessionMessage[] = Array.isArray(terminal.output)
        ? terminal.output.filter(isObjectLike)
        : [];
      await session.kept.append(session.id, [...sent, ...answered]).catch(onError);
    }
  };
  // The answer to POST /process: the event stream, or (stream: false, and a client that asks for JSON) the terminal
  // response alone, once the agent is done.
  const answer = async (
    body: Req & { id?: string | null; stream?: boolean },
    request: Request,
    signal: AbortSignal,
  ) => {
    const events = processRequest(body, request, signal);
    if (body.stream !== false || !wantsJson(request.headers.get('accept')))
      return { status: 200 as const, contentType: 'text/event-stream' as const, body: events };
    let last: unknown;
    for await (const event of events) if (event.object === 'response') last = event;
    return { status: 200 as const, contentType: 'application/json' as const, body: last };
  };
  // GET /health and GET / as upstream's AgentApp of the version's era answers them.
  const { health, serviceInfo } = VERSION_TRAITS[version].runnerInfo
    ? {
        health: { status: 'healthy', mode: 'agentproto', runner: 'ready' },
        serviceInfo: {
          service: agent.service ?? 'AgentScope agent',
          mode: 'agentproto',
          endpoints: { process: '/process', health: '/health' },
        },
      }
    : { health: { status: 'healthy' }, serviceInfo: { message: 'Agent Service is running' } };
  // sound: the version's own generated app, whose handlers take and answer these shapes with bodies typed by its
  // schemas; its routes validate requests (and, in development, answers) against them, so UntypedHandlers leaves the
  // bodies to it.
  const createApp = GENERATED[version].createAgentscopeApp as (
    handlers: UntypedHandlers,
    options?: AppOptions,
  ) => Hono;
  return createApp(
    {
      // sound: the app validated the body against the version's AgentRequest; Req is that type (forVersion binds it),
      // or a view of it (the reference agent's).
      process: ({ body, request, signal }) => answer(body as Req, request, signal),
      getHealth: () => ({ status: 200, body: health }),
      getServiceInfo: () => ({ status: 200, body: serviceInfo }),
    },
    appOptions,
  );
}

/** The handlers every version's app takes, with the bodies left to the version's schemas (checked by the app). */
interface UntypedHandlers {
  process(input: { body: unknown; request: Request; signal: AbortSignal }): unknown;
  getHealth(): { status: 200; body: unknown };
  getServiceInfo(): { status: 200; body: unknown };
}

/**
 * Whether an Accept header asks for JSON rather than a stream: it names `application/json` and neither
 * `text/event-stream` nor a wildcard that takes it (any type, or any text type). Upstream clients send the any-type
 * wildcard or nothing, and keep their stream.
 */
export function wantsJson(accept: string | null): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
  return (
    types.includes('application/json') &&
    !types.some((t) => t === 'text/event-stream' || t === '*/*' || t === 'text/*')
  );
}
