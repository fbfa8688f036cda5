// What every step of the JSON-RPC binding answers with (JSON-RPC 2.0 §5): response objects, the error objects the
// runtime makes itself (their `data` from the app's `errorData` hook), and a body that cannot be read restated as one.
import type { RpcId } from '../jsonrpc/rpc-app.js';
import { JsonRpcError, RPC_ERROR_CODES, type RpcErrorObject, type RpcFailure } from '../jsonrpc/rpc-error.js';
import { isObjectLike } from '../unknown-values.js';

/** One response: a result or an error, for the request with this id. */
export type Answer = { id: RpcId; result: unknown } | { id: RpcId; error: RpcErrorObject };

/** The error objects of one app: its own refusals, and what a handler threw. */
export class RpcErrors {
  constructor(
    private readonly errorData: (failure: RpcFailure) => unknown,
    private readonly onError: (error: unknown, method: string) => void,
  ) {}
  /** The error object of a refusal the runtime makes, with the `data` the app's hook gives it. */
  fail(failure: RpcFailure): RpcErrorObject {
    const data = this.errorData(failure);
    return data === undefined
      ? { code: failure.code, message: failure.message }
      : { code: failure.code, message: failure.message, data };
  }
  /** The error object of what a handler threw: its own for a JsonRpcError, else an internal error told to onError. */
  thrown(error: unknown, method: string): RpcErrorObject {
    if (error instanceof JsonRpcError) return error.toObject();
    this.onError(error, method);
    return this.fail({ code: RPC_ERROR_CODES.internalError, message: 'Internal error', method });
  }
  /**
   * A body that could not be read as JSON: the transport's refusals (413, 415) keep their status with an Invalid
   * Request error; the rest is a Parse error (-32700), answered 200.
   */
  readonly unreadable = async (refusal: Response): Promise<Response> => {
    const status = refusal.status;
    const problem: unknown = await refusal.json().catch(() => undefined);
    const detail = isObjectLike(problem) && typeof problem.detail === 'string' ? problem.detail : undefined;
    const code = status === 400 ? RPC_ERROR_CODES.parseError : RPC_ERROR_CODES.invalidRequest;
    const message =
      status === 400
        ? `Parse error: ${detail ?? 'the body is not JSON'}`
        : `Invalid Request: ${detail ?? 'the body cannot be read'}`;
    return rpcResponse({ id: null, error: this.fail({ code, message }) }, status === 400 ? 200 : status);
  };
}

/** The response object of an answer, as sent. */
export function envelope(answer: Answer): Record<string, unknown> {
  return 'error' in answer
    ? { jsonrpc: '2.0', id: answer.id, error: answer.error }
    : { jsonrpc: '2.0', id: answer.id, result: answer.result };
}

/** The response objects (or batch array) each answer of rpcResponse holds, as they were serialized. */
const SENT = new WeakMap<Response, unknown>();

/** A JSON answer holding one response, or a batch's array of them. */
export function rpcResponse(answer: Answer | Answer[], status = 200): Response {
  const body = Array.isArray(answer) ? answer.map(envelope) : envelope(answer);
  const response = new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
  SENT.set(response, body);
  return response;
}

/**
 * What a JSON-RPC answer made by this binding holds: the response object (a batch's array of them) its body is the
 * JSON of, for a transport that decides on the answer (its error code, its id) without reading and parsing the body
 * again. Undefined for any other Response (no content, a stream, or one made elsewhere). The value is the one that was
 * serialized: read it, never change it.
 */
export function rpcAnswerBody(response: Response): unknown {
  return SENT.get(response);
}

/** The default `errorData`: invalid params carry `{ errors: [{ pointer, message }] }`, other refusals no data. */
export function defaultErrorData(failure: RpcFailure): unknown {
  return failure.issues
    ? { errors: failure.issues.map((i) => ({ pointer: i.pointer, message: i.message })) }
    : undefined;
}
