// createOperationApp: the Hono app every generated `create<Protocol>App` builds. Each operation is a pipeline of the
// steps in pipeline/: check the path and query, read the body within the limits, call the handler, check its answer
// against the declared responses (in development), and write it (JSON, YAML, bytes or a stream).
import { Hono } from 'hono';
import type { ProtoNames } from './body/proto-names.js';
import { honoPath, pathAffixes } from './http/path-template.js';
import type { RequestLimits } from './limits.js';
import { checkParams } from './pipeline/check-params.js';
import { checkResponse } from './pipeline/check-response.js';
import { dispatch, type OperationHandler } from './pipeline/dispatch.js';
import { thrownAsProblem, unknownRoutes } from './pipeline/fallbacks.js';
import { OperationState } from './pipeline/operation-state.js';
import { resolveBindingOptions } from './pipeline/options.js';
import { readBodyStep } from './pipeline/read-body.js';
import { ResponseFaults } from './pipeline/response-faults.js';
import { restateProblems } from './pipeline/restate-problems.js';
import { pipeline } from './pipeline/step.js';
import { writeResponse } from './pipeline/write-response.js';
import type { Problem } from './problem.js';
import type { StreamFraming } from './streams/read-frames.js';
import type { Validator } from './validation.js';

export { honoPath } from './http/path-template.js';

/** How one media type of a body is read, checked and written. */
export interface ContentSpec {
  mediaType: string;
  /**
   * `json`: parsed and validated; `yaml`: the same, written as YAML; `form`: multipart or urlencoded fields; `binary`:
   * bytes, not validated; `stream`: items sent one by one as SSE or NDJSON, each validated by `validate`.
   */
  kind: 'json' | 'yaml' | 'form' | 'binary' | 'stream';
  validate?: Validator;
  /** The schema type `validate` checks (a stream's item type), named in what a developer hears of a broken answer. */
  type?: string;
  /** For streams: how items are framed. */
  framing?: StreamFraming;
  /** For SSE: the item field sent as each event's `id:` line. */
  sseIdField?: string;
  /** For forms: fields that must arrive as file parts. */
  fileFields?: readonly string[];
  /**
   * For JSON bodies of a ProtoJSON binding (`x-protoJson`): where fields may come under their proto names, which are
   * rewritten to their JSON names before the body is validated.
   */
  protoNames?: ProtoNames;
}

/** What the generated code tells the runtime about one operation. */
export interface OperationSpec {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** OpenAPI path template, as `/tasks/{task_id}`. */
  path: string;
  /** Validates (and coerces) the path parameters, as an object of strings. */
  pathParams: Validator;
  /** Validates (coerces, fills defaults of) the query parameters, as an object of strings. */
  query: Validator;
  /**
   * Number and integer parameters, by location and name. Their text must be a canonical decimal (`12`, `-3`, `1.5`)
   * before it is coerced: ajv alone would also take `0x10`, ` 5` or `1e3`.
   */
  decimals?: {
    path?: Readonly<Record<string, 'integer' | 'number'>>;
    query?: Readonly<Record<string, 'integer' | 'number'>>;
  };
  /**
   * Boolean parameters, by location. Besides `true` and `false` they take `True`/`False` (what Python's `requests`
   * sends for a bool) and `1`/`0`; every other spelling is refused as before.
   */
  booleans?: { path?: readonly string[]; query?: readonly string[] };
  /**
   * For a ProtoJSON binding (`x-protoJson`): query parameters a client may name by their proto names, proto name →
   * declared name (`history_length` → `historyLength`).
   */
  queryProtoNames?: Readonly<Record<string, string>>;
  body?: { required: boolean; contents: readonly ContentSpec[] };
  /** Declared responses by response key: a status (`"200"`), a range (`"2XX"`) or `"default"`. */
  responses: Readonly<Record<string, readonly ContentSpec[]>>;
}

/** What a handler returns: a declared status and its body (for a stream, an async iterable of its items). */
export interface HandlerResult {
  status: number;
  body?: unknown;
  /**
   * Which declared media type to send. When omitted: the one the request's Accept header prefers among those declared
   * for the status, else the first declared.
   */
  contentType?: string;
  headers?: Record<string, string>;
}

/** What a handler receives: parameters and body, already validated and typed. */
export interface HandlerInput {
  params: unknown;
  query: unknown;
  body: unknown;
  request: Request;
  /** Aborts when the client goes away (it closed the connection or stopped reading a stream). */
  signal: AbortSignal;
}

/** Options of a generated app factory. */
export interface AppOptions {
  /**
   * Check every handler answer against the declared responses, and answer 500 with the mismatch when it breaks them.
   * Defaults to on unless NODE_ENV is `production`.
   */
  validateResponses?: boolean;
  /** Called when a handler throws or returns an invalid answer. Defaults to console.error. */
  onError?: (error: unknown, operationId: string) => void;
  /** An existing app to mount the routes on. */
  app?: Hono;
  /**
   * What one request may carry at most (body bytes per kind of media type, form parts, nesting depth); each limit
   * left out keeps its default (DEFAULT_LIMITS). Requests over a limit get a problem answer before the handler runs.
   */
  limits?: Partial<RequestLimits>;
  /**
   * On `@hono/node-server`, write streamed answers (SSE, NDJSON) straight to the Node response instead of through a
   * web ReadableStream the adapter reads back: the same bytes, at nearly twice the speed. Defaults to on. Headers that
   * middleware sets before the handler (`c.header()`, `c.res.headers`) are sent; headers a middleware changes on
   * `c.res` after `await next()` do not reach a stream written this way, so turn this off for such middleware. Other
   * runtimes always take the web-stream path.
   */
  nodeStreams?: boolean;
  /**
   * Restates the runtime's own refusals (invalid path, query or body, unknown route or method, a failed handler) in the
   * protocol's error form, for protocols whose errors are not RFC 9457 problems. Gets the problem; answers the status
   * and body to send instead (as JSON, or `contentType`). Answers a handler returns itself are left alone.
   */
  errorBody?: (problem: Problem) => { status: number; body: unknown; contentType?: string };
  /**
   * A leading part of the paths (such as `/ap/v1`) the app also serves without, for clients of an older edition of
   * the protocol: with `/ap/v1`, `GET /agent/tasks` answers exactly as `GET /ap/v1/agent/tasks`. Off by default.
   */
  alsoWithout?: string;
  /**
   * The protocol's error item, sent last on a stream that stops early (an item broke its schema, or the handler threw
   * while streaming), given why it stopped. Without it such a stream just ends (and `onError` is told why).
   */
  streamErrorItem?: (reason: string) => unknown;
}

/**
 * Builds a Hono app that serves the given operations: it validates path, query and body (400 for what cannot be
 * read, 415 for an undeclared media type, 422 for a body that breaks its schema), calls the handler with typed
 * input, checks the answer in development, and answers 404 for unknown routes and 405 for unknown methods.
 */
export function createOperationApp(
  specs: readonly OperationSpec[],
  handlers: Readonly<Record<string, OperationHandler>>,
  options: AppOptions = {},
): Hono {
  const app = options.app ?? new Hono();
  const { validate, onError, limits, nodeStreams } = resolveBindingOptions({
    validate: options.validateResponses,
    onError: options.onError,
    limits: options.limits,
    nodeStreams: options.nodeStreams,
  });
  const methodsByPath = new Map<string, string[]>();
  if (options.errorBody) app.use(restateProblems(options.errorBody));
  const start = () => new OperationState();
  // One log of faults per app: a fault is told once, whichever request or operation meets it again.
  const faults = new ResponseFaults(onError);

  // Hono tries routes in the order they were added, and `/tasks/:id` also matches `/tasks/7:cancel`: routes whose
  // parameters share a segment with literal text go first.
  const ordered = [...specs].sort(
    (a, b) => Number(pathAffixes(b.path).size > 0) - Number(pathAffixes(a.path).size > 0),
  );
  for (const spec of ordered) {
    const handler = handlers[spec.operationId];
    if (typeof handler !== 'function') throw new TypeError(`no handler for operation "${spec.operationId}"`);
    const route = honoPath(spec.path);
    const without = options.alsoWithout;
    const routes =
      without && spec.path.startsWith(`${without}/`)
        ? [route, honoPath(spec.path.slice(without.length))]
        : [route];
    for (const r of routes) methodsByPath.set(r, [...(methodsByPath.get(r) ?? []), spec.method]);
    app.on(
      spec.method,
      routes,
      pipeline(start, [
        checkParams(spec),
        spec.body && readBodyStep(spec.body, limits),
        dispatch(spec.operationId, handler, onError),
        checkResponse(spec, validate, onError, faults),
        writeResponse(spec.operationId, onError, nodeStreams, options.streamErrorItem),
      ]),
    );
  }
  app.notFound(unknownRoutes(methodsByPath));
  // Whatever escapes a handler or a middleware still answers with a problem, never Hono's plain-text 500.
  app.onError(thrownAsProblem(onError));
  return app;
}
