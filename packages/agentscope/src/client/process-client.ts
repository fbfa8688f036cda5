// The AgentScope client of `POST /process`: a run's events as they arrive, each checked against the version's schemas
// and stream rules, and the final response assembled as upstream's clients do.
import { type ClientConnectionOptions, generatedClientOptions, type StreamIssue } from '@agentproto/runtime';
import { GENERATED } from '../generated/modules.js';
import { isObjectLike } from '../is-object-like.js';
import { AgentScopeStreamCheck, type AgentScopeVersion } from '../stream/stream-rules.js';

/** Options of an AgentScope client: where the agent is, plus whether to check each event. */
export interface AgentScopeClientOptions extends ClientConnectionOptions {
  /**
   * Check every event against its schema and the stream rules, and fail on the first broken one (default true).
   * Off, events are passed on as they come and only a missing terminal response fails.
   */
  validate?: boolean;
  /**
   * How many times to send a request again after a recoverable failure before any event arrived (upstream's
   * guidance: "implement retry logic for recoverable errors"): the connection failed, or the agent answered 429, 502,
   * 503 or 504. Default 2; 0 never retries. A stream that breaks after its first event is never sent again: its
   * events have been delivered.
   */
  retries?: number;
  /**
   * The wait before the first retry, in milliseconds, doubled for each further one (default 250); a `Retry-After`
   * the agent sends takes its place. Every wait is capped at 10 seconds, and ends early if the run is aborted.
   */
  retryDelayMs?: number;
}

// What is worth sending again: the agent was busy or a gateway in front of it was.
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_RETRY_WAIT_MS = 10_000;

/** How long to wait before retry `attempt` (0-based): the agent's Retry-After (seconds or a date), else a backoff. */
export function retryWait(
  attempt: number,
  baseMs: number,
  retryAfter: string | null,
  now = Date.now(),
): number {
  let ms = baseMs * 2 ** attempt;
  if (retryAfter) {
    const seconds = /^\d+$/.test(retryAfter.trim())
      ? Number(retryAfter.trim()) * 1000
      : Date.parse(retryAfter) - now;
    if (Number.isFinite(seconds)) ms = Math.max(0, seconds);
  }
  return Math.min(ms, MAX_RETRY_WAIT_MS);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A request the agent refused (an HTTP error), a stream that broke the protocol, or an agent that failed. */
export class AgentScopeError extends Error {
  override name = 'AgentScopeError';
  constructor(
    message: string,
    /** The HTTP status, for a refused request. */
    readonly status?: number,
    /** The body of a refusal, or the issues of a broken stream. */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** One run of `POST /process`: iterate it for the events; await `response` for the final response. */
export interface AgentScopeRun<Event, Response> extends AsyncIterable<Event> {
  /**
   * The terminal response, with every completed message as its output. Rejects with AgentScopeError when the
   * request is refused, the stream breaks the protocol or ends early, or the response ends `failed`. Awaiting it
   * without iterating reads the stream to its end.
   */
  readonly response: Promise<Response>;
}

type Json = Record<string, unknown>;

/**
 * The `process` call of an AgentScope client of either version: sends the request, reads the SSE stream with the
 * generated client (eventsource-parser underneath), checks each event as it arrives and assembles the final
 * response. A dead connection or a silent agent fails instead of hanging.
 */
export function processRequest<Event, Response>(
  version: AgentScopeVersion,
  options: AgentScopeClientOptions,
  body: unknown,
  signal?: AbortSignal,
): AgentScopeRun<Event, Response> {
  const clientOptions = generatedClientOptions(options);
  const validate = options.validate ?? true;
  let settled = false;
  let settle!: { resolve: (r: Response) => void; reject: (e: unknown) => void };
  const response = new Promise<Response>((resolve, reject) => {
    settle = {
      resolve: (r) => {
        settled = true;
        resolve(r);
      },
      reject: (e) => {
        settled = true;
        reject(e);
      },
    };
  });
  // Whoever only iterates the events must not see an unhandled rejection from the promise they ignore.
  response.catch(() => {});

  async function* events(): AsyncGenerator<Event> {
    try {
      // sound: the body is the version's AgentRequest as forVersion types `process`; the agent validates it.
      const init = { body: body as never, ...(signal ? { signal } : {}) };
      // The version's own generated client: each version's `process` has the same shape, its own types.
      const client = GENERATED[version].createAgentscopeClient(clientOptions);
      const send = () => client.process(init);
      const retries = Math.max(0, options.retries ?? 2);
      const baseMs = options.retryDelayMs ?? 250;
      let answer!: Awaited<ReturnType<typeof send>>;
      for (let attempt = 0; ; attempt++) {
        const last = attempt >= retries || signal?.aborted === true;
        try {
          answer = await send();
        } catch (error) {
          // A connection that failed before any answer (fetch rejects with a TypeError) is worth another try.
          if (last || !(error instanceof TypeError)) throw error;
          await pause(retryWait(attempt, baseMs, null), signal);
          continue;
        }
        if (answer.items || last || !RETRY_STATUSES.has(answer.response.status)) break;
        await pause(retryWait(attempt, baseMs, answer.response.headers.get('retry-after')), signal);
      }
      if (!answer.items) {
        const problem = answer.error;
        const first = problem?.errors?.[0];
        const why = first
          ? `: ${first.pointer || '(body)'}: ${first.message}`
          : problem?.detail
            ? `: ${problem.detail}`
            : '';
        throw new AgentScopeError(
          `the agent refused the request: HTTP ${answer.response.status}${why}`,
          answer.response.status,
          answer.error,
        );
      }
      const check = new AgentScopeStreamCheck(version);
      const completed: Json[] = [];
      let index = 0;
      let terminal: Json | undefined;
      for await (const item of answer.items) {
        index++;
        const issues = check.push(item, { index });
        if (validate && issues.length > 0) throw brokenStream(issues);
        const event: Json = item;
        if (check.outcome === 'error-frame')
          throw new AgentScopeError(
            `the agent refused the request: ${String(event.error)}`,
            undefined,
            event,
          );
        if (event.object === 'message' && event.status === 'completed') completed.push(event);
        if (event.object === 'response' && check.outcome !== 'open') terminal = event;
        // sound: Event is the version's StreamEvent (forVersion binds it); the item is a StreamFrame, as the generated
        // client reads it, and not an error frame (that ended the run above); with `validate` on, the check held it.
        yield item as Event;
      }
      const endIssues = check.end();
      if (!terminal || (validate && endIssues.length > 0)) throw brokenStream(endIssues);
      if (terminal.status !== 'completed') {
        // AgentResponse's `error` is null or a code and a message; any other value says neither.
        const error = isObjectLike(terminal.error) ? terminal.error : {};
        const said = terminal.error ? `: ${String(error.code)}: ${String(error.message)}` : '';
        throw new AgentScopeError(
          `the response ended ${String(terminal.status)}${said}`,
          undefined,
          terminal,
        );
      }
      // Servers that leave `output` empty still streamed their messages: the assembled response carries them.
      const output =
        Array.isArray(terminal.output) && terminal.output.length > 0 ? terminal.output : completed;
      // sound: Response is the version's AgentResponse (forVersion binds it), which the terminal event is, and
      // `output` is its list of messages or the completed ones streamed.
      settle.resolve({ ...terminal, output } as Response);
    } catch (error) {
      settle.reject(error);
      throw error;
    } finally {
      // The caller stopped iterating early: the response will never come.
      if (!settled) settle.reject(new AgentScopeError('the run was abandoned before its response completed'));
    }
  }

  let started: AsyncGenerator<Event> | undefined;
  return {
    [Symbol.asyncIterator]() {
      if (started) throw new Error('a run can be iterated once');
      started = events();
      return started;
    },
    get response() {
      if (!started) {
        const run = events();
        started = run;
        void (async () => {
          try {
            for await (const _ of run);
          } catch {
            // The rejection reaches the caller through `response`.
          }
        })();
      }
      return response;
    },
  };
}

function brokenStream(issues: StreamIssue[]): AgentScopeError {
  const first = issues[0];
  const where = first
    ? `event ${first.index}: ${first.pointer || '(event)'}: ${first.message} [${first.rule}]`
    : '';
  return new AgentScopeError(`the stream breaks the protocol: ${where}`, undefined, issues);
}
