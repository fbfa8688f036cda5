// createOperationApp: the Hono app every generated `create<Protocol>App` builds. Per operation it validates path, query
// and body (with the limits), calls the handler, and writes its answer (JSON, YAML, bytes or a stream), checking it in
// development against the declared responses.
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { accepts } from 'hono/accepts';
import { HTTPException } from 'hono/http-exception';
import { stringify as stringifyYaml } from 'yaml';
import { readBody } from './body/read-body.js';
import { pointerOf } from './documents/pointer.js';
import { invalidHeader } from './http/headers.js';
import { declaredResponse } from './http/status.js';
import { type RequestLimits, resolveLimits } from './limits.js';
import { PROBLEM_MEDIA_TYPE, type Problem, problem, problemResponse } from './problem.js';
import type { StreamFraming } from './streams/read-frames.js';
import { nodeResponseOf, takeOver, writeNodeStream } from './streams/write-node.js';
import { type WriteStreamOptions, writeStream } from './streams/write-stream.js';
import { check, type ValidationIssue, type Validator } from './validation.js';

/** How one media type of a body is read, checked and written. */
export interface ContentSpec {
  mediaType: string;
  /**
   * `json`: parsed and validated; `yaml`: the same, written as YAML; `form`: multipart or urlencoded fields; `binary`:
   * bytes, not validated; `stream`: items sent one by one as SSE or NDJSON, each validated by `validate`.
   */
  kind: 'json' | 'yaml' | 'form' | 'binary' | 'stream';
  validate?: Validator;
  /** For streams: how items are framed. */
  framing?: StreamFraming;
  /** For SSE: the item field sent as each event's `id:` line. */
  sseIdField?: string;
  /** For forms: fields that must arrive as file parts. */
  fileFields?: readonly string[];
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
}

type AnyHandler = (input: HandlerInput, c: Context) => HandlerResult | Promise<HandlerResult>;

/**
 * Hono's path syntax for an OpenAPI path template: `/tasks/{task_id}` → `/tasks/:task_id`. A parameter with literal
 * text around it in its segment (`/tasks/{id}:cancel`, a custom method in Google's API style) becomes a parameter
 * whose pattern holds that text: `/tasks/:id{[^/]+:cancel}`; `pathAffixes` says what to strip from its value.
 */
export function honoPath(template: string): string {
  return template
    .split('/')
    .map((segment) => {
      const m = AFFIXED.exec(segment);
      if (!m) return segment.replace(/\{([^{}]+)\}/g, ':$1');
      const [, prefix = '', name = '', suffix = ''] = m;
      return prefix === '' && suffix === ''
        ? `:${name}`
        : `:${name}{${escapeRegExp(prefix)}[^/]+${escapeRegExp(suffix)}}`;
    })
    .join('/');
}

/** A segment holding one parameter, with the literal text before and after it. */
const AFFIXED = /^([^{}]*)\{([^{}]+)\}([^{}]*)$/;

/** The literal text around each parameter that shares its segment with some (`{id}:cancel` → id: ['', ':cancel']). */
export function pathAffixes(template: string): ReadonlyMap<string, readonly [string, string]> {
  const out = new Map<string, readonly [string, string]>();
  for (const segment of template.split('/')) {
    const m = AFFIXED.exec(segment);
    if (m && (m[1] !== '' || m[3] !== '')) out.set(m[2] ?? '', [m[1] ?? '', m[3] ?? '']);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&');
}

/**
 * Builds a Hono app that serves the given operations: it validates path, query and body (400 for what cannot be
 * read, 415 for an undeclared media type, 422 for a body that breaks its schema), calls the handler with typed
 * input, checks the answer in development, and answers 404 for unknown routes and 405 for unknown methods.
 */
export function createOperationApp(
  specs: readonly OperationSpec[],
  handlers: Readonly<Record<string, AnyHandler>>,
  options: AppOptions = {},
): Hono {
  const app = options.app ?? new Hono();
  const validateResponses = options.validateResponses ?? process.env.NODE_ENV !== 'production';
  const onError = options.onError ?? ((error, id) => console.error(`[${id}]`, error));
  const limits = resolveLimits(options.limits);
  const nodeStreams = options.nodeStreams ?? true;
  const methodsByPath = new Map<string, string[]>();
  if (options.errorBody) app.use(restateProblems(options.errorBody));

  // Hono tries routes in the order they were added, and `/tasks/:id` also matches `/tasks/7:cancel`: routes whose
  // parameters share a segment with literal text go first.
  const ordered = [...specs].sort(
    (a, b) => Number(pathAffixes(b.path).size > 0) - Number(pathAffixes(a.path).size > 0),
  );
  for (const spec of ordered) {
    const handler = handlers[spec.operationId];
    if (typeof handler !== 'function') throw new TypeError(`no handler for operation "${spec.operationId}"`);
    const route = honoPath(spec.path);
    const affixes = pathAffixes(spec.path);
    const hasPathParams = route.includes(':');
    const without = options.alsoWithout;
    const routes =
      without && spec.path.startsWith(`${without}/`)
        ? [route, honoPath(spec.path.slice(without.length))]
        : [route];
    for (const r of routes) methodsByPath.set(r, [...(methodsByPath.get(r) ?? []), spec.method]);
    // A parameter validator that takes an empty object as it is gives the same answer every time it gets one: a path
    // without parameters, or a URL without a query, skips it. One that fills in defaults still runs.
    const noPathParams = !hasPathParams && takesEmpty(spec.pathParams);
    const noQuery = takesEmpty(spec.query);
    const responses = new ResponseTable(spec.responses);
    app.on(spec.method, routes, async (c) => {
      const params: Record<string, string> = hasPathParams ? { ...c.req.param() } : {};
      for (const [name, [prefix, suffix]] of affixes) {
        const value = params[name];
        if (value !== undefined) params[name] = value.slice(prefix.length, value.length - suffix.length);
      }
      if (!noPathParams) {
        spellBooleans(spec.booleans?.path, params);
        const pathIssues = decimalIssues(spec.decimals?.path, params) ?? check(spec.pathParams, params);
        if (pathIssues.length > 0)
          return problemResponse(
            problem(400, 'invalid-path', 'a path parameter is invalid', {
              location: 'path',
              list: pathIssues,
            }),
          );
      }
      const hasQuery = c.req.url.includes('?');
      const query: Record<string, string> = hasQuery ? { ...c.req.query() } : {};
      if (hasQuery || !noQuery) {
        spellBooleans(spec.booleans?.query, query);
        const queryIssues = decimalIssues(spec.decimals?.query, query) ?? check(spec.query, query);
        if (queryIssues.length > 0)
          return problemResponse(
            problem(400, 'invalid-query', 'a query parameter is invalid', {
              location: 'query',
              list: queryIssues,
            }),
          );
      }
      let body: unknown;
      if (spec.body) {
        const read = await readBody(c.req.raw, spec.body, limits);
        if (!read.ok) return read.response;
        body = read.value;
      }
      const input = new Input(params, query, body, c.req.raw);
      let result: HandlerResult;
      try {
        result = await handler(input, c);
      } catch (error) {
        onError(error, spec.operationId);
        return problemResponse(problem(500, 'handler-failed', 'the agent failed while handling the request'));
      }
      try {
        return respond(spec, responses, result, validateResponses, nodeStreams, onError, input, c);
      } catch (error) {
        // An answer that cannot be written (a value JSON cannot hold, say) is the agent's fault, told as a problem.
        onError(error, spec.operationId);
        return problemResponse(
          problem(500, 'response-failed', 'the agent gave an answer that cannot be sent'),
        );
      }
    });
  }
  // Unknown methods on known paths answer 405 from the not-found handler, through a router of their own: a route
  // registered for every method would make each request match two handlers, and Hono compose them.
  const methods = new Hono();
  for (const [route, list] of methodsByPath) {
    const allow = [...new Set(list)].sort().join(', ');
    methods.all(route, () =>
      problemResponse(problem(405, 'method-not-allowed', `this path accepts ${allow}`), { allow }),
    );
  }
  methods.notFound((c) =>
    problemResponse(problem(404, 'no-such-route', `no operation serves ${c.req.method} ${c.req.path}`)),
  );
  app.notFound((c) => methods.fetch(c.req.raw));
  // Whatever escapes a handler or a middleware still answers with a problem, never Hono's plain-text 500.
  app.onError((error, c) => {
    // A middleware's own refusal (an auth check, say) keeps its answer; without one it becomes a problem.
    if (error instanceof HTTPException) {
      if (error.res) return error.getResponse();
      if (error.status < 500)
        return problemResponse(problem(error.status, 'refused', error.message || 'the request was refused'));
    }
    onError(error, `${c.req.method} ${c.req.path}`);
    return problemResponse(problem(500, 'internal-error', 'the agent failed while handling the request'));
  });
  return app;
}

/** The middleware behind `errorBody`: every problem answer, however it arose, restated by the protocol's hook. */
function restateProblems(errorBody: NonNullable<AppOptions['errorBody']>): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.headers.get('content-type') !== PROBLEM_MEDIA_TYPE) return;
    const p = (await c.res.clone().json()) as Problem;
    const { status, body, contentType } = errorBody(p);
    const headers = new Headers(c.res.headers);
    headers.set('content-type', contentType ?? 'application/json');
    c.res = undefined;
    c.res = new Response(JSON.stringify(body), { status, headers });
  };
}

/**
 * What a handler gets. A class, so that a request makes one object and no closures: the abort controller, linked to
 * the client's connection, is made only when something reads `signal` (the server builds objects for the request's
 * signal that a plain JSON answer never uses).
 */
class Input implements HandlerInput {
  #abort: AbortController | undefined;
  constructor(
    readonly params: unknown,
    readonly query: unknown,
    readonly body: unknown,
    readonly request: Request,
  ) {}
  get signal(): AbortSignal {
    return this.controller().signal;
  }
  controller(): AbortController {
    this.#abort ??= followAbort(this.request.signal);
    return this.#abort;
  }
}

/** Whether a parameter validator takes an empty object as it is (valid, and no default filled in). */
function takesEmpty(validate: Validator): boolean {
  const probe = {};
  return validate(probe) === true && Object.keys(probe).length === 0;
}

/**
 * An operation's declared responses by status, worked out once per status: the declared media types, and those fit
 * for a streamed body and for a value (a stream for an async iterable, any other for a value).
 */
class ResponseTable {
  readonly #byStatus = new Map<number, Declared | undefined>();
  constructor(private readonly responses: Readonly<Record<string, readonly ContentSpec[]>>) {}
  get(status: number): Declared | undefined {
    if (this.#byStatus.has(status)) return this.#byStatus.get(status);
    const all = declaredResponse(this.responses, status);
    const fit = (streamed: boolean) => {
      const fitting = all?.filter((d) => (d.kind === 'stream') === streamed);
      return fitting && fitting.length > 0 ? fitting : all;
    };
    const declared = all && { all, forStream: fit(true) ?? all, forValue: fit(false) ?? all };
    // Statuses are numbers a handler chose; the table holds at most the 500 or so a status can be.
    if (Number.isInteger(status) && status >= 100 && status <= 599) this.#byStatus.set(status, declared);
    return declared;
  }
}

interface Declared {
  all: readonly ContentSpec[];
  forStream: readonly ContentSpec[];
  forValue: readonly ContentSpec[];
}

/**
 * A controller that aborts when `signal` does. Made here, outside every route closure, so that the listener it leaves
 * on the request's signal holds the controller and nothing else: the platform's Request keeps its signal (and so
 * this listener) in a FinalizationRegistry, and a listener that reached the Hono context would keep the whole request
 * and response alive through it, a leak of every streamed request.
 */
function followAbort(signal: AbortSignal): AbortController {
  const made = new AbortController();
  if (signal.aborted) made.abort(signal.reason);
  else signal.addEventListener('abort', () => made.abort(signal.reason), { once: true });
  return made;
}

/** Tells `onError` of an answer that breaks the declared responses, and answers 500 with a problem saying so. */
function invalidAnswer(
  spec: OperationSpec,
  status: number,
  onError: NonNullable<AppOptions['onError']>,
  detail: string,
  issues?: readonly ValidationIssue[],
): Response {
  onError(new Error(`${spec.operationId} answered ${status}: ${detail}`), spec.operationId);
  return problemResponse(
    problem(
      500,
      'invalid-response',
      `the agent's answer breaks the protocol: ${detail}`,
      issues && { location: 'body', list: issues },
    ),
  );
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === 'object' && Symbol.asyncIterator in value;
}

// The spellings a boolean parameter takes, and what each means: JSON's, Python's (`str(True)`), and bits.
const BOOLEAN_SPELLINGS: Readonly<Record<string, 'true' | 'false'>> = {
  true: 'true',
  True: 'true',
  '1': 'true',
  false: 'false',
  False: 'false',
  '0': 'false',
};

/** Rewrites each boolean parameter written in a spelling it takes to `true` or `false`, for the validator to coerce. */
function spellBooleans(names: readonly string[] | undefined, values: Record<string, string>): void {
  for (const name of names ?? []) {
    const text = values[name];
    if (text !== undefined && Object.hasOwn(BOOLEAN_SPELLINGS, text))
      values[name] = BOOLEAN_SPELLINGS[text] as string;
  }
}

const DECIMAL = { integer: /^-?(?:0|[1-9]\d*)$/, number: /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/ };

/** Issues for number and integer parameters not written as canonical decimals; undefined when all are. */
function decimalIssues(
  decimals: Readonly<Record<string, 'integer' | 'number'>> | undefined,
  values: Record<string, string>,
): ValidationIssue[] | undefined {
  if (!decimals) return undefined;
  const issues: ValidationIssue[] = [];
  for (const [name, kind] of Object.entries(decimals)) {
    const text = values[name];
    if (text === undefined || DECIMAL[kind].test(text)) continue;
    issues.push({
      pointer: pointerOf([name]),
      message: kind === 'integer' ? 'must be a decimal integer' : 'must be a decimal number',
      keyword: 'type',
    });
  }
  return issues.length > 0 ? issues : undefined;
}

function respond(
  spec: OperationSpec,
  responses: ResponseTable,
  result: HandlerResult,
  validate: boolean,
  direct: boolean,
  onError: NonNullable<AppOptions['onError']>,
  input: Input,
  c: Context,
): Response {
  const table = responses.get(result.status);
  const declared = table?.all;
  // Without a media type from the handler, the choice is among those that fit the body: a stream for an async
  // iterable, any other for a value. Accept alone must not turn a JSON answer into an event stream.
  const streamed = isAsyncIterable(result.body);
  const candidates = streamed ? table?.forStream : table?.forValue;
  let content = result.contentType
    ? declared?.find((d) => d.mediaType === result.contentType)
    : candidates?.[0];
  if (!result.contentType && candidates && candidates.length > 1 && c.req.header('accept')) {
    const supports = candidates.map((d) => d.mediaType);
    const chosen = accepts(c, { header: 'Accept', supports, default: supports[0] ?? '' });
    content = candidates.find((d) => d.mediaType === chosen) ?? content;
  }
  // A status declared without content (202, 204) answers with no body.
  if (declared?.length === 0 && result.body === undefined) {
    for (const k in result.headers) {
      const bad = invalidHeader(k, result.headers[k] as string);
      if (bad) return invalidAnswer(spec, result.status, onError, bad);
    }
    return new Response(null, { status: result.status, headers: new Headers(result.headers) });
  }
  if (validate && !content)
    return invalidAnswer(
      spec,
      result.status,
      onError,
      `status ${result.status} with this media type is not declared`,
    );
  // Plain header objects: the Node adapter answers from them without building a Headers object.
  const headers: Record<string, string> = { 'content-type': content?.mediaType ?? 'application/json' };
  for (const k in result.headers) {
    const v = result.headers[k] as string;
    // The server adapter would throw on such a header after the handler ran, and answer with its own plain 500.
    const bad = invalidHeader(k, v);
    if (bad) return invalidAnswer(spec, result.status, onError, bad);
    headers[k.toLowerCase()] = v;
  }
  if (content?.kind === 'binary') {
    return new Response(result.body as BodyInit, { status: result.status, headers });
  }
  if (content?.kind === 'stream') {
    const items = result.body as AsyncIterable<unknown>;
    if (!streamed)
      return invalidAnswer(
        spec,
        result.status,
        onError,
        'a streamed answer needs an async iterable of items as its body',
      );
    const itemCheck = content.validate;
    const idField = content.sseIdField;
    const streamOptions: WriteStreamOptions = {
      abort: input.controller(),
      ...(idField
        ? {
            idOf: (item: unknown) =>
              (item as Record<string, unknown> | null)?.[idField] as string | number | undefined,
          }
        : {}),
      onError: (error) => onError(error, spec.operationId),
      ...(validate && itemCheck
        ? {
            check: (item: unknown) => {
              const issues = check(itemCheck, item);
              return issues.length === 0
                ? undefined
                : issues.map((i) => `${i.pointer || '/'}: ${i.message}`).join('; ');
            },
          }
        : {}),
    };
    // Proxies must not buffer or cache an event stream.
    if (content.framing === 'sse' && headers['cache-control'] === undefined)
      headers['cache-control'] = 'no-cache';
    const framing = content.framing ?? 'ndjson';
    const outgoing = direct ? nodeResponseOf(c.env) : undefined;
    if (outgoing) {
      // On @hono/node-server the items go straight to the socket. Headers middleware set before the handler
      // (`c.header()`, or on `c.res` as Hono's cors does) are kept, as Hono keeps them for a handler's own Response.
      // `newResponse` reads those headers without making a response of its own.
      const before = c.newResponse(null).headers;
      const head: Record<string, string | string[]> = { ...headers };
      before.forEach((value, key) => {
        if (key !== 'content-type' && key !== 'set-cookie' && head[key] === undefined) head[key] = value;
      });
      const cookies = before.getSetCookie();
      if (cookies.length > 0) head['set-cookie'] = cookies;
      void writeNodeStream(takeOver(outgoing), result.status, head, items, framing, streamOptions);
      // The adapter gets Hono's marker that the answer was sent (not the copy Hono would make of it when middleware
      // already made a response): clearing the context's response first, then setting the marker, keeps it as is.
      c.res = undefined;
      c.res = RESPONSE_ALREADY_SENT;
      return RESPONSE_ALREADY_SENT;
    }
    return new Response(writeStream(items, framing, streamOptions), { status: result.status, headers });
  }
  if (validate && content?.validate) {
    const issues = check(content.validate, result.body);
    if (issues.length > 0)
      return invalidAnswer(spec, result.status, onError, 'the body breaks its schema', issues);
  }
  if (result.body === undefined) return new Response(null, { status: result.status, headers });
  const text = content?.kind === 'yaml' ? stringifyYaml(result.body) : JSON.stringify(result.body);
  return new Response(text, { status: result.status, headers });
}
