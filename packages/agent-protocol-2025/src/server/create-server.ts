// The HTTP side of a 2025-draft agent server: the draft's routes (describe, process, getevents, stream_request and the
// optional ones) over the generated routes, each agent backed by the run runtime (agent-runtime.ts).
import {
  type AgentStore,
  type AppOptions,
  MemoryStore,
  parseDecimalInteger,
  problem,
} from '@agentproto/runtime';
import type { Hono } from 'hono';
import type {
  AgentEvent,
  GetRunEventsInput,
  GetRunEventsResult,
  Problem,
} from '../generated/draft-2025-02/index.js';
import { GENERATED } from '../generated/modules.js';
import { LATEST, type Version } from '../generated/versions.js';
import { type AgentDefinition, AgentRuntime, RequestRefused } from '../runs/agent-runtime.js';

/** Options of {@link createAgentServer}. */
export interface AgentServerOptions {
  /** The agents to serve; each at `/<name>`. */
  agents: readonly AgentDefinition[];
  /**
   * Where runs, requests and events live (default: a bounded MemoryStore). A SQLite store keeps them across restarts;
   * a Redis store shares them with other processes serving the same agents (see `openStore`).
   */
  store?: AgentStore;
  /**
   * This process's name among those sharing the store (default: AGENTPROTO_INSTANCE, else the host name). A process
   * restarted under the same name finishes, as failed, the requests it was running when it stopped.
   */
  instance?: string;
  /** Told about errors operations throw. */
  onError?: (error: unknown, agent: string) => void;
  /** Options of the generated app (response validation). */
  app?: Omit<AppOptions, 'onError'>;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

type Refusal = { status: 404 | 409 | 422; body: Problem };
// Reading a request, a run or their events can only fail for want of it.
type NotFound = { status: 404; body: Problem };

/** A problem body (the runtime's `problem`), as this draft's schemas type it. */
function draftProblem(...args: Parameters<typeof problem>): Problem {
  // sound: the runtime's Problem is this shape, declared as an interface, which TypeScript will not take for a type
  // that allows other keys (as the generated Problem does).
  return problem(...args) as Problem;
}

/**
 * Serves agents of the 2025 draft: `/` lists them, and each answers `describe`, `process` (with `wait`), `getevents`
 * (polling with `since`, or SSE with `id:` lines that `Last-Event-ID` resumes), `stream_request`, and the optional
 * `request/{id}`, `runs` and `getevents/{run_id}`. The runtime behind each agent keeps the draft's semantics.
 */
export function createAgentServer(options: AgentServerOptions, version: Version = LATEST): Hono {
  const store = options.store ?? new MemoryStore();
  const runtimes = new Map<string, AgentRuntime>();
  for (const agent of options.agents) {
    if (!NAME.test(agent.name)) throw new TypeError(`agent name "${agent.name}" cannot be a path segment`);
    if (runtimes.has(agent.name)) throw new TypeError(`two agents are named "${agent.name}"`);
    const onError = options.onError;
    runtimes.set(
      agent.name,
      new AgentRuntime(agent, store, {
        ...(onError ? { onError: (e: unknown) => onError(e, agent.name) } : {}),
        ...(options.instance === undefined ? {} : { instance: options.instance }),
      }),
    );
  }
  const noAgent = (name: string): { status: 404; body: Problem } => ({
    status: 404,
    body: draftProblem(404, 'no-such-agent', `no agent is named "${name}"; GET / lists them`),
  });
  const refusal = (error: unknown): Refusal => {
    if (!(error instanceof RequestRefused)) throw error;
    const body = draftProblem(
      error.status,
      error.kind,
      error.message,
      error.issues ? { location: 'body', list: error.issues } : undefined,
    );
    return { status: error.status, body };
  };
  // sound: reads refuse only with 404 (no such request or run); the other statuses of RequestRefused come from
  // starting, cancelling and resuming requests.
  const missing = (error: unknown) => refusal(error) as NotFound;
  // Events to answer with: a JSON array, or SSE from `since` (or the Last-Event-ID a reconnecting client sends).
  const events = async (
    request: Request,
    stream: boolean,
    since: number | undefined,
    poll: (since: number | undefined) => Promise<AgentEvent[]>,
    follow: (since: number) => AsyncIterable<AgentEvent>,
  ) => {
    if (!stream) return { status: 200 as const, body: await poll(since) };
    const header = request.headers.get('last-event-id');
    // Our event ids are whole numbers: anything else was not sent by us, and resuming from it would guess.
    const lastEventId = header === null ? 0 : parseDecimalInteger(header);
    if (lastEventId === undefined || lastEventId < 0) {
      const detail = 'Last-Event-ID must be the decimal id of an event this agent sent';
      return {
        status: 400 as const,
        body: draftProblem(400, 'invalid-last-event-id', detail, {
          location: 'header',
          list: [{ pointer: '/last-event-id', message: 'must be a decimal integer', keyword: 'type' }],
        }),
      };
    }
    const from = since ?? lastEventId;
    return { status: 200 as const, contentType: 'text/event-stream' as const, body: follow(from) };
  };

  // Optional in the draft: every event of a run (or, for a non-integer id, of a request).
  const getRunEvents = async ({
    params,
    query,
    request,
    signal,
  }: GetRunEventsInput): Promise<GetRunEventsResult> => {
    const runtime = runtimes.get(params.agent);
    if (!runtime) return noAgent(params.agent);
    try {
      // An integer names a run; anything else a request, as the draft's own example does.
      if (/^\d+$/.test(params.run_id)) {
        const runId = Number(params.run_id);
        const all = await runtime.runEvents(runId, query.since ?? 0);
        if (!query.stream) return { status: 200, body: all };
        // A run has no end event of its own: its stream is what the run holds now.
        return { status: 200, contentType: 'text/event-stream', body: fromArray(all) };
      }
      const requestId = params.run_id;
      await runtime.status(requestId);
      return await events(
        request,
        query.stream,
        query.since,
        (since) => runtime.poll(requestId, since),
        (since) => runtime.subscribe(requestId, since, signal),
      );
    } catch (error) {
      return missing(error);
    }
  };

  // The version's own routes: requests and answers are checked against its schemas.
  return GENERATED[version].createAgentProtocol2025App(
    {
      // The root lists the agents this server hosts, each at its own path segment.
      listAgents: () => ({
        status: 200,
        body: [...runtimes.keys()].map((name) => ({ name, path: `/${name}` })),
      }),
      // Draft README "describe": the agent's name, purpose, and the operations it takes with their schemas.
      describeAgent: ({ params }) => {
        const runtime = runtimes.get(params.agent);
        return runtime ? { status: 200, body: runtime.describe() } : noAgent(params.agent);
      },
      // Draft README "process": the request is accepted at once (202 with where to follow it), or with `wait` the
      // answer is the request's first event.
      processRequest: async ({ params, query, body }) => {
        const runtime = runtimes.get(params.agent);
        if (!runtime) return noAgent(params.agent);
        try {
          const submitted = await runtime.submit(body);
          if (query.wait) return { status: 200, body: submitted.first };
          return {
            status: 202,
            headers: { location: `/${params.agent}/request/${encodeURIComponent(submitted.requestId)}` },
          };
        } catch (error) {
          return refusal(error);
        }
      },
      // Draft README "stream_request": one call that submits the request and streams its events to the end of the turn.
      streamRequest: async ({ params, body, signal }) => {
        const runtime = runtimes.get(params.agent);
        if (!runtime) return noAgent(params.agent);
        try {
          const submitted = await runtime.submit(body);
          return { status: 200, body: runtime.subscribe(submitted.requestId, 0, signal) };
        } catch (error) {
          return refusal(error);
        }
      },
      // Draft README "getevents": a request's events after `since`, as a JSON array (polling) or an SSE stream.
      getEvents: async ({ params, query, request, signal }) => {
        const runtime = runtimes.get(params.agent);
        if (!runtime) return noAgent(params.agent);
        try {
          await runtime.status(query.request_id);
          return await events(
            request,
            query.stream,
            query.since,
            (since) => runtime.poll(query.request_id, since),
            (since) => runtime.subscribe(query.request_id, since, signal),
          );
        } catch (error) {
          return missing(error);
        }
      },
      // Optional in the draft: where a request stands, without reading its events.
      getRequestStatus: async ({ params }) => {
        const runtime = runtimes.get(params.agent);
        if (!runtime) return noAgent(params.agent);
        try {
          const r = await runtime.status(params.request_id);
          return {
            status: 200,
            body: {
              request_id: r.request_id,
              run_id: r.run_id,
              type: r.type,
              status: r.status,
              last_event_id: r.last_event_id,
              ...(r.finish_reason ? { finish_reason: r.finish_reason } : {}),
            },
          };
        } catch (error) {
          return missing(error);
        }
      },
      // Optional in the draft: the agent's runs, each with how many requests it has seen.
      listRuns: async ({ params }) => {
        const runtime = runtimes.get(params.agent);
        if (!runtime) return noAgent(params.agent);
        const runs = await runtime.runs();
        return {
          status: 200,
          body: runs.map((r) => ({
            run_id: r.run_id,
            agent: r.agent,
            requests: r.requests.length,
            last_event_id: r.last_event_id,
            created_at: r.created_at,
          })),
        };
      },
      getRunEvents,
      // The draft's "Persisted Runs" example reads a run's history at /events/{run_id}: the same answer there.
      getPersistedRunEvents: getRunEvents,
    },
    {
      ...options.app,
      onError: (error, where) => (options.onError ?? ((e) => console.error(`[${where}]`, e)))(error, where),
    },
  );
}

/** The items of an array as a stream, for answers the runtime already holds whole. */
async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}
