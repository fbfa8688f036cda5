// A2A's errors (specification §3.3.2, §5.4) in both bindings: one A2aError a handler throws, answered as a JSON-RPC
// error with A2A's code, or as an HTTP status with a google.rpc.Status body; and the runtime's own refusals
// (validation, unknown routes, failed handlers) restated in each binding's error form.
import { JsonRpcError, type Problem, type RpcFailure } from '@agentproto/runtime';
import type { ErrorInfo, ErrorResponse, ErrorStatus } from '../generated/1.0/index.js';
import { A2A_ERROR_DOMAIN, A2A_ERRORS, type A2aErrorReason, ERROR_INFO_TYPE } from './a2a-errors.js';

export { A2A_ERROR_DOMAIN, A2A_ERRORS, type A2aErrorReason };

/** An A2A error as HTTP+JSON answers it: one member per status A2A_ERRORS uses, so each matches its status class. */
export type RestErrorAnswer = {
  [S in (typeof A2A_ERRORS)[A2aErrorReason]['http']]: { status: S; body: ErrorResponse };
}[(typeof A2A_ERRORS)[A2aErrorReason]['http']];

/**
 * An A2A error. Thrown by a handler of either binding: JSON-RPC answers it with its code and an ErrorInfo in `data`;
 * HTTP+JSON answers it with its status and an ErrorResponse whose details hold the same ErrorInfo.
 */
export class A2aError extends JsonRpcError {
  constructor(
    readonly reason: A2aErrorReason,
    message: string = A2A_ERRORS[reason].message,
    readonly metadata: Readonly<Record<string, string>> = {},
  ) {
    super(A2A_ERRORS[reason].code, message, [errorInfo(reason, metadata)]);
  }

  /** The HTTP+JSON form: the status to answer with and the ErrorResponse body. */
  toRest(): RestErrorAnswer {
    const e = A2A_ERRORS[this.reason];
    return {
      status: e.http,
      body: {
        error: {
          code: e.http,
          status: e.status,
          message: this.message,
          details: [errorInfo(this.reason, this.metadata)],
        },
      },
    };
  }
}

/**
 * Params that pass their schema but that the handler cannot take (a page token this agent never gave): JSON-RPC's
 * InvalidParamsError (-32602, §9.5) or HTTP+JSON's 400 INVALID_ARGUMENT, each with a google.rpc.BadRequest detail
 * naming the field, as the runtime answers a request that breaks its schema (DECISIONS 96).
 */
export class InvalidParamsError extends JsonRpcError {
  constructor(
    readonly field: string,
    readonly description: string,
  ) {
    super(-32602, `invalid ${field}: ${description}`, [badRequest([{ field, description }])]);
  }

  /** The HTTP+JSON form: 400 and an ErrorResponse with the same BadRequest detail. */
  toRest(): { status: 400; body: ErrorResponse } {
    const details = [badRequest([{ field: this.field, description: this.description }])];
    return {
      status: 400,
      body: { error: { code: 400, status: 'INVALID_ARGUMENT', message: this.message, details } },
    };
  }
}

function errorInfo(reason: string, metadata: Readonly<Record<string, string>>): ErrorInfo {
  return {
    '@type': ERROR_INFO_TYPE,
    reason,
    domain: A2A_ERROR_DOMAIN,
    ...(Object.keys(metadata).length > 0 ? { metadata: { ...metadata } } : {}),
  };
}

// The gRPC status names of the HTTP statuses the runtime answers with itself (google.rpc.Code's HTTP mapping; those
// without one keep the closest name).
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  409: 'ABORTED',
  413: 'RESOURCE_EXHAUSTED',
  415: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
};

/**
 * The runtime's own refusal (a problem: invalid path, query or body, unknown route, failed handler) as A2A's HTTP+JSON
 * error body. A body that breaks its schema (our 422) is A2A's invalid argument, 400, with a google.rpc.BadRequest
 * detail listing each field.
 */
export function problemToRest(problem: Problem): { status: number; body: ErrorResponse } {
  const status = problem.status === 422 ? 400 : problem.status;
  const error: ErrorStatus = {
    code: status,
    status: STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'),
    message: problem.detail ?? problem.title,
  };
  if (problem.errors && problem.errors.length > 0)
    error.details = [
      badRequest(
        problem.errors.map((e) => ({ field: fieldOf(e.location, e.pointer), description: e.message })),
      ),
    ];
  return { status, body: { error } };
}

/** The `data` of the JSON-RPC errors the runtime makes itself: a BadRequest for invalid params, else none. */
export function rpcErrorData(failure: RpcFailure): unknown {
  if (!failure.issues) return undefined;
  return [
    badRequest(failure.issues.map((i) => ({ field: fieldOf('body', i.pointer), description: i.message }))),
  ];
}

function badRequest(fieldViolations: Array<{ field: string; description: string }>) {
  return { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations };
}

/** A JSON pointer as google.rpc.BadRequest names fields: `/message/parts/0` → `message.parts[0]`. */
function fieldOf(location: string, pointer: string): string {
  const path = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((out, t) => (/^\d+$/.test(t) ? `${out}[${t}]` : out === '' ? t : `${out}.${t}`), '');
  return location === 'body' ? path : path === '' ? location : `${location}.${path}`;
}
