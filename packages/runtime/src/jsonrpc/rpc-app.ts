// createJsonRpcApp: the Hono app every generated `create<Protocol>RpcApp` builds. One endpoint takes JSON-RPC 2.0
// requests (single or batched) through a pipeline of the steps in pipeline/: read the body within the limits, answer a
// batch whole, check the envelope and the method's params, call the typed handler, and answer with a result, an error,
// or for a streaming method a stream of responses (SSE or NDJSON) that each carry one result.
import { type Context, Hono } from 'hono';
import type { ProtoNames } from '../body/proto-names.js';
import type { RequestLimits } from '../limits.js';
import { resolveBindingOptions } from '../pipeline/options.js';
import { readBodyStep } from '../pipeline/read-body.js';
import { ResponseFaults } from '../pipeline/response-faults.js';
import { defaultErrorData, RpcErrors } from '../pipeline/rpc-answer.js';
import { answerBatch } from '../pipeline/rpc-batch.js';
import { checkRpcRequest, prepareRequest, type RpcState } from '../pipeline/rpc-check-request.js';
import { checkRpcResult } from '../pipeline/rpc-check-result.js';
import { callUnary, dispatchRpc } from '../pipeline/rpc-dispatch.js';
import { pipeline, runSteps, type Step } from '../pipeline/step.js';
import type { StreamFraming } from '../streams/read-frames.js';
import type { Validator } from '../validation.js';
import type { RpcFailure } from './rpc-error.js';

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
  /** The schema type `result` checks, named in what a developer hears of a result that breaks it. */
  resultType?: string;
  /** For a method whose answer is a stream: how it is framed. */
  stream?: StreamFraming;
  /**
   * For a ProtoJSON surface (`x-protoJson`): where fields of the params may come under their proto names; they are
   * read under their JSON names before the params are checked, as for a ProtoJSON binding's bodies.
   */
  protoNames?: ProtoNames;
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
  /**
   * How an error before a streaming method's first item is answered: `json` (the default) as one plain JSON response,
   * like a unary method's; `event` as a stream of one event carrying the error response, for a protocol whose
   * streaming methods answer with a stream whatever happens (A2A 0.3 §6.11: "for streaming methods, an SSE stream
   * where each event's data is a JSONRPCResponse").
   */
  streamErrors?: 'json' | 'event';
}

/** The largest batch a JSON-RPC app takes unless its options say otherwise. */
export const DEFAULT_MAX_BATCH = 32;

/** The one body a JSON-RPC endpoint takes: JSON, required; what it holds is checked request by request. */
const JSON_BODY = {
  required: true,
  contents: [{ mediaType: 'application/json', kind: 'json' as const }],
};

/**
 * Builds a Hono app serving the given methods at one endpoint (`POST <path>`), per JSON-RPC 2.0: a parse error is
 * -32700, a request that is not a request object -32600, an unknown method -32601, params that break the method's
 * schema -32602, a failed handler -32603; a notification (no `id`) gets no answer; a batch gets an array of the
 * answers it needs (none: 204). A streaming method answers with a stream whose every event is one response
 * (`{"jsonrpc":"2.0","id":…,"result":item}`); an error before its first item is a plain JSON answer (or, with
 * `streamErrors: 'event'`, a stream of that one answer), one after it the stream's last event.
 */
export function createJsonRpcApp(
  specs: readonly RpcMethodSpec[],
  handlers: Readonly<Record<string, RpcHandler>>,
  options: RpcAppOptions = {},
): Hono {
  const app = options.app ?? new Hono();
  const { limits, errors, steps } = rpcSteps(specs, handlers, options);
  app.post(
    options.path ?? '/',
    pipeline(
      (): RpcState => ({ body: undefined, call: undefined }),
      [readBodyStep(JSON_BODY, limits, errors.unreadable), ...steps],
    ),
  );
  return app;
}

/** Options of a JSON-RPC dispatcher: an app's, less what belongs to reading the request (path, app, body limits). */
export type RpcDispatcherOptions = Omit<RpcAppOptions, 'path' | 'app' | 'limits'>;

/**
 * Answers one JSON-RPC body that the caller has read and parsed already, as the app of {@link createJsonRpcApp}
 * answers it after reading it: the same checks, handlers and answers. `c` is the request's Hono context (the
 * handlers' `request` and `signal` come from it). For a binding that reads the body itself (a transport deciding on
 * headers and the message before any method runs): no second read, parse or routing.
 */
export type RpcDispatcher = (c: Context, body: unknown) => Response | Promise<Response>;

/**
 * Builds a {@link RpcDispatcher} for the given methods. The caller owns reading the body: its size and nesting
 * limits (`readLimitedBytes`, `findShapeProblem`) and its parse errors (a body that is not JSON never gets here).
 */
export function createJsonRpcDispatcher(
  specs: readonly RpcMethodSpec[],
  handlers: Readonly<Record<string, RpcHandler>>,
  options: RpcDispatcherOptions = {},
): RpcDispatcher {
  const { steps } = rpcSteps(specs, handlers, options);
  return (c, body) => runSteps(c, { body, call: undefined }, steps);
}

/** The steps after the body is read, shared by the app and the dispatcher, with the options they resolve. */
function rpcSteps(
  specs: readonly RpcMethodSpec[],
  handlers: Readonly<Record<string, RpcHandler>>,
  options: RpcAppOptions,
): { limits: RequestLimits; errors: RpcErrors; steps: Step<RpcState>[] } {
  const { validate, onError, limits, nodeStreams } = resolveBindingOptions({
    validate: options.validateResults,
    onError: options.onError,
    limits: options.limits,
    nodeStreams: options.nodeStreams,
  });
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const methods = new Map(specs.map((s) => [s.name, s]));
  for (const spec of specs)
    if (typeof handlers[spec.name] !== 'function')
      throw new TypeError(`no handler for method "${spec.name}"`);
  const errors = new RpcErrors(options.errorData ?? defaultErrorData, onError);
  const prepare = prepareRequest(methods, errors);
  // One log of faults per app: a result's fault is told once, whichever request meets it again.
  const checkResult = checkRpcResult(validate, errors, new ResponseFaults(onError));
  const call = callUnary(handlers, checkResult, errors);
  return {
    limits,
    errors,
    steps: [
      answerBatch(maxBatch, prepare, call, errors),
      checkRpcRequest(prepare),
      dispatchRpc(handlers, call, checkResult, errors, onError, {
        nodeStreams,
        streamErrors: options.streamErrors ?? 'json',
      }),
    ],
  };
}
