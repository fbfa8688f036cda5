// createJsonRpcApp: the Hono app every generated `create<Protocol>RpcApp` builds. One endpoint takes JSON-RPC 2.0
// requests (single or batched), validates the envelope and each method's params, calls the typed handler, and answers
// with a result, an error, or for a streaming method a stream of responses (SSE or NDJSON) that each carry one result.
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { type Context, Hono } from 'hono';
import { readBody } from '../body/read-body.js';
import { type RequestLimits, resolveLimits } from '../limits.js';
import type { StreamFraming } from '../streams/read-frames.js';
import { nodeResponseOf, takeOver, writeNodeStream } from '../streams/write-node.js';
import { writeStream } from '../streams/write-stream.js';
import { describeErrors, type ValidationIssue, type Validator } from '../validation.js';
import { JsonRpcError, RPC_ERROR_CODES, type RpcErrorObject, type RpcFailure } from './rpc-error.js';

/** A JSON-RPC request id (§4): a string, a number or null. Absent for a notification. */
export type RpcId = string | number | null;

/** What the generated code tells the runtime about one method. */
export interface RpcMethodSpec {
  name: string;
  /** How params may come: as an object by name, as an array by position, or either. */
  paramStructure: 'by-name' | 'by-position' | 'either';
  /** The param names in order, to read params sent by position. */
  paramNames: readonly string[];
  /** Validates the params as an object by name. */
  params: Validator;
  /** Validates one result (for a streaming method, one item); checked in development. */
  result?: Validator;
  /** For a method whose answer is a stream: how it is framed. */
  stream?: StreamFraming;
}

/** What a handler gets beside its params. */
export interface RpcContext {
  /** The request's id; undefined for a notification (whose answer nobody reads). */
  id: RpcId | undefined;
  request: Request;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  c: Context;
}

/** A method's handler: a result, or for a streaming method an async iterable of results. */
export type RpcHandler = (params: never, context: RpcContext) => unknown;

/** Options of a generated JSON-RPC app factory. */
export interface RpcAppOptions {
  /** The endpoint's path (default `/`). */
  path?: string;
  /** An existing app to mount the endpoint on. */
  app?: Hono;
  /** Body size and nesting depth (`jsonBytes`, `depth`), as for every generated server. */
  limits?: Partial<RequestLimits>;
  /** Most requests in one batch (default 32); a larger batch is refused whole with Invalid Request. */
  maxBatch?: number;
  /** Check every result against the method's result schema (default: on unless NODE_ENV is `production`). */
  validateResults?: boolean;
  /** Called when a handler throws something other than a JsonRpcError, or answers with an invalid result. */
  onError?: (error: unknown, method: string) => void;
  /**
   * Builds the `data` of the errors the runtime makes itself (parse errors, unknown methods, invalid params, failed
   * handlers). By default, invalid params carry `{ errors: [{ pointer, message }] }` and the others no data.
   */
  errorData?: (failure: RpcFailure) => unknown;
  /**
   * On `@hono/node-server`, write streamed answers straight to the Node response (as the generated HTTP stubs do):
   * the same bytes, faster. Defaults to on; other runtimes always take the web-stream path.
   */
  nodeStreams?: boolean;
}

/** The largest batch a JSON-RPC app takes unless its options say otherwise. */
export const DEFAULT_MAX_BATCH = 32;

const JSON_CONTENT = [
  { mediaType: 'application/json', kind: 'json' as const, validate: (() => true) as unknown as Validator },
];

type Answer = { id: RpcId; result: unknown } | { id: RpcId; error: RpcErrorObject };

/**
 * Builds a Hono app serving the given methods at one endpoint (`POST <path>`), per JSON-RPC 2.0: a parse error is
 * -32700, a request that is not a request object -32600, an unknown method -32601, params that break the method's
 * schema -32602, a failed handler -32603; a notification (no `id`) gets no answer; a batch gets an array of the
 * answers it needs (none: 204). A streaming method answers with a stream whose every event is one response
 * (`{"jsonrpc":"2.0","id":…,"result":item}`); an error before its first item is a plain JSON answer, one after it
 * the stream's last event.
 */
export function createJsonRpcApp(
  specs: readonly RpcMethodSpec[],
  handlers: Readonly<Record<string, RpcHandler>>,
  options: RpcAppOptions = {},
): Hono {
  const app = options.app ?? new Hono();
  const limits = resolveLimits(options.limits);
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const validateResults = options.validateResults ?? process.env.NODE_ENV !== 'production';
  const onError = options.onError ?? ((error, method) => console.error(`[${method}]`, error));
  const errorData = options.errorData ?? defaultErrorData;
  const nodeStreams = options.nodeStreams ?? true;
  const methods = new Map(specs.map((s) => [s.name, s]));
  for (const spec of specs)
    if (typeof handlers[spec.name] !== 'function')
      throw new TypeError(`no handler for method "${spec.name}"`);

  const fail = (failure: RpcFailure): RpcErrorObject => {
    const data = errorData(failure);
    return data === undefined
      ? { code: failure.code, message: failure.message }
      : { code: failure.code, message: failure.message, data };
  };
  const errorOf = (error: unknown, method: string): RpcErrorObject => {
    if (error instanceof JsonRpcError) return error.toObject();
    onError(error, method);
    return fail({ code: RPC_ERROR_CODES.internalError, message: 'Internal error', method });
  };
  const checkResult = (spec: RpcMethodSpec, value: unknown): RpcErrorObject | undefined => {
    if (!validateResults || !spec.result) return undefined;
    const issues = issuesOf(spec.result, value);
    if (!issues) return undefined;
    onError(
      new Error(
        `the result breaks its schema: ${issues.map((i) => `${i.pointer || '/'} ${i.message}`).join('; ')}`,
      ),
      spec.name,
    );
    return fail({
      code: RPC_ERROR_CODES.internalError,
      message: 'Internal error: the agent gave an invalid result',
      method: spec.name,
    });
  };

  /** Works out one request object: the method, its params, and the id to answer (undefined for a notification). */
  const prepare = (
    raw: unknown,
  ):
    | { ok: true; spec: RpcMethodSpec; params: unknown; id: RpcId | undefined }
    | { ok: false; id: RpcId | undefined; error: RpcErrorObject } => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      return {
        ok: false,
        id: null,
        error: fail({
          code: RPC_ERROR_CODES.invalidRequest,
          message: 'Invalid Request: not a request object',
        }),
      };
    const req = raw as Record<string, unknown>;
    const id = req.id;
    const validId =
      id === undefined ||
      id === null ||
      typeof id === 'string' ||
      (typeof id === 'number' && Number.isFinite(id));
    const answerId = validId ? (id as RpcId | undefined) : null;
    if (req.jsonrpc !== '2.0' || typeof req.method !== 'string' || !validId)
      return {
        ok: false,
        // An invalid request is answered even without an id: the server cannot tell it was meant as a notification.
        id: answerId ?? null,
        error: fail({
          code: RPC_ERROR_CODES.invalidRequest,
          message: 'Invalid Request: expected {"jsonrpc":"2.0","method":…} with a string, number or null id',
        }),
      };
    const spec = methods.get(req.method);
    if (!spec)
      return {
        ok: false,
        id: answerId,
        error: fail({
          code: RPC_ERROR_CODES.methodNotFound,
          message: `Method not found: ${req.method}`,
          method: req.method,
        }),
      };
    let params = req.params;
    if (params === undefined) params = {};
    else if (Array.isArray(params)) {
      if (spec.paramStructure === 'by-name' || params.length > spec.paramNames.length)
        return {
          ok: false,
          id: answerId,
          error: fail({
            code: RPC_ERROR_CODES.invalidParams,
            message:
              spec.paramStructure === 'by-name'
                ? `Invalid params: ${spec.name} takes its params by name, as an object`
                : `Invalid params: ${spec.name} takes at most ${spec.paramNames.length} params`,
            method: spec.name,
          }),
        };
      params = Object.fromEntries(params.map((v, i) => [spec.paramNames[i], v]));
    } else if (typeof params !== 'object' || params === null || spec.paramStructure === 'by-position')
      return {
        ok: false,
        id: answerId,
        error: fail({
          code: RPC_ERROR_CODES.invalidParams,
          message: `Invalid params: ${spec.name} takes its params ${spec.paramStructure === 'by-position' ? 'by position, as an array' : 'as an object or an array'}`,
          method: spec.name,
        }),
      };
    const issues = issuesOf(spec.params, params);
    if (issues)
      return {
        ok: false,
        id: answerId,
        error: fail({
          code: RPC_ERROR_CODES.invalidParams,
          message: 'Invalid params',
          method: spec.name,
          issues,
        }),
      };
    return { ok: true, spec, params, id: answerId };
  };

  /** A handler's context; its signal (made when first read) aborts with the request, or with `abort` when given. */
  const context = (id: RpcId | undefined, c: Context, abort?: AbortController): RpcContext => {
    let own = abort;
    return {
      id,
      request: c.req.raw,
      c,
      get signal() {
        own ??= follow(c.req.raw.signal);
        return own.signal;
      },
    };
  };

  /** Runs a unary method: its answer, or undefined for a notification. */
  const call = async (
    spec: RpcMethodSpec,
    params: unknown,
    id: RpcId | undefined,
    c: Context,
  ): Promise<Answer | undefined> => {
    const handler = handlers[spec.name] as (p: unknown, ctx: RpcContext) => unknown;
    let answer: Answer;
    try {
      const result = await handler(params, context(id, c));
      const invalid = checkResult(spec, result);
      answer = invalid
        ? { id: id ?? null, error: invalid }
        : { id: id ?? null, result: result === undefined ? null : result };
    } catch (error) {
      answer = { id: id ?? null, error: errorOf(error, spec.name) };
    }
    return id === undefined ? undefined : answer;
  };

  const path = options.path ?? '/';
  app.post(path, async (c) => {
    const read = await readBody(c.req.raw, { required: true, contents: JSON_CONTENT }, limits);
    if (!read.ok) {
      // The body could not be read as JSON: the transport's refusals (413, 415) keep their status; the rest is -32700.
      const status = read.response.status;
      const problem = (await read.response.json().catch(() => ({}))) as { detail?: string };
      const code = status === 400 ? RPC_ERROR_CODES.parseError : RPC_ERROR_CODES.invalidRequest;
      const message =
        status === 400
          ? `Parse error: ${problem.detail ?? 'the body is not JSON'}`
          : `Invalid Request: ${problem.detail ?? 'the body cannot be read'}`;
      return respond({ id: null, error: fail({ code, message }) }, status === 400 ? 200 : status);
    }
    const body = read.value;
    if (Array.isArray(body)) {
      if (body.length === 0 || body.length > maxBatch)
        return respond({
          id: null,
          error: fail({
            code: RPC_ERROR_CODES.invalidRequest,
            message:
              body.length === 0
                ? 'Invalid Request: an empty batch'
                : `Invalid Request: a batch holds at most ${maxBatch} requests`,
          }),
        });
      const answers: Answer[] = [];
      for (const raw of body) {
        const prepared = prepare(raw);
        if (!prepared.ok) {
          if (prepared.id !== undefined) answers.push({ id: prepared.id, error: prepared.error });
          continue;
        }
        if (prepared.spec.stream) {
          // A stream cannot be one element of an array of answers.
          if (prepared.id !== undefined)
            answers.push({
              id: prepared.id,
              error: fail({
                code: RPC_ERROR_CODES.invalidRequest,
                message: `Invalid Request: ${prepared.spec.name} streams its answer, so it cannot be part of a batch`,
                method: prepared.spec.name,
              }),
            });
          continue;
        }
        const answer = await call(prepared.spec, prepared.params, prepared.id, c);
        if (answer) answers.push(answer);
      }
      return answers.length === 0 ? c.body(null, 204) : respond(answers);
    }
    const prepared = prepare(body);
    if (!prepared.ok)
      return prepared.id === undefined
        ? c.body(null, 204)
        : respond({ id: prepared.id, error: prepared.error });
    if (!prepared.spec.stream) {
      const answer = await call(prepared.spec, prepared.params, prepared.id, c);
      return answer ? respond(answer) : c.body(null, 204);
    }
    return stream(prepared.spec, prepared.params, prepared.id, c);
  });

  const stream = async (
    spec: RpcMethodSpec,
    params: unknown,
    id: RpcId | undefined,
    c: Context,
  ): Promise<Response> => {
    // The stream's writer aborts this when the client goes away, so a producer waiting for its next item hears it.
    const abort = follow(c.req.raw.signal);
    const ctx = context(id, c, abort);
    const handler = handlers[spec.name] as (p: unknown, ctx: RpcContext) => unknown;
    let iterator: AsyncIterator<unknown>;
    let first: IteratorResult<unknown>;
    try {
      const items = (await handler(params, ctx)) as AsyncIterable<unknown>;
      if (typeof items?.[Symbol.asyncIterator] !== 'function')
        throw new TypeError(`${spec.name} must return an async iterable`);
      iterator = items[Symbol.asyncIterator]();
      // An error before the first item (an unknown task, say) is answered as JSON, as for a unary method.
      first = await iterator.next();
    } catch (error) {
      return id === undefined
        ? c.body(null, 204)
        : respond({ id: id ?? null, error: errorOf(error, spec.name) });
    }
    const answerId = id ?? null;
    async function* envelopes(): AsyncGenerator<unknown> {
      let next = first;
      try {
        while (!next.done) {
          const invalid = checkResult(spec, next.value);
          if (invalid) {
            yield envelope({ id: answerId, error: invalid });
            return;
          }
          yield envelope({ id: answerId, result: next.value });
          next = await iterator.next();
        }
      } catch (error) {
        yield envelope({ id: answerId, error: errorOf(error, spec.name) });
      } finally {
        await iterator.return?.();
      }
    }
    const framing = spec.stream ?? 'sse';
    const headers = {
      'content-type': framing === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
      'cache-control': 'no-cache',
    };
    const streamOptions = { onError: (error: unknown) => onError(error, spec.name), abort };
    const outgoing = nodeStreams ? nodeResponseOf(c.env) : undefined;
    if (outgoing) {
      // On @hono/node-server the events go straight to the socket, as the generated HTTP stubs' streams do.
      void writeNodeStream(takeOver(outgoing), 200, headers, envelopes(), framing, streamOptions);
      c.res = undefined;
      c.res = RESPONSE_ALREADY_SENT;
      return RESPONSE_ALREADY_SENT;
    }
    return new Response(writeStream(envelopes(), framing, streamOptions), { status: 200, headers });
  };
  return app;
}

function envelope(answer: Answer): Record<string, unknown> {
  return 'error' in answer
    ? { jsonrpc: '2.0', id: answer.id, error: answer.error }
    : { jsonrpc: '2.0', id: answer.id, result: answer.result };
}

function respond(answer: Answer | Answer[], status = 200): Response {
  const body = Array.isArray(answer) ? answer.map(envelope) : envelope(answer);
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function defaultErrorData(failure: RpcFailure): unknown {
  return failure.issues
    ? { errors: failure.issues.map((i) => ({ pointer: i.pointer, message: i.message })) }
    : undefined;
}

/** A value's problems under a validator, or undefined when it is valid (a refusal without errors still counts). */
function issuesOf(validate: Validator, value: unknown): readonly ValidationIssue[] | undefined {
  if (validate(value)) return undefined;
  const issues = describeErrors(validate.errors);
  return issues.length > 0 ? issues : [{ pointer: '', message: 'is invalid', keyword: 'false schema' }];
}

function follow(signal: AbortSignal): AbortController {
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller;
}
