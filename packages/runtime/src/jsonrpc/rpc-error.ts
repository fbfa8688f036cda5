// JSON-RPC 2.0 errors (§5.1): the error object of a failed call, the codes the protocol reserves, and the error a
// handler throws to answer with one of its method's declared errors.
import type { ValidationIssue } from '../validation.js';

/** The codes JSON-RPC 2.0 reserves (§5.1). Protocols define their own between -32000 and -32099. */
export const RPC_ERROR_CODES = Object.freeze({
  /** The body is not JSON. */
  parseError: -32700,
  /** The JSON is not a valid request object. */
  invalidRequest: -32600,
  /** No such method. */
  methodNotFound: -32601,
  /** The params break the method's schema. */
  invalidParams: -32602,
  /** The server failed. */
  internalError: -32603,
});

/** The error object of a JSON-RPC response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * Thrown by a handler (or by a stream before or while it yields) to answer with this error instead of a result. Any
 * other thrown value is answered as an internal error, without its message.
 */
export class JsonRpcError extends Error {
  override readonly name = 'JsonRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
  /** The error object sent for it. */
  toObject(): RpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * A refusal the runtime itself makes (an unreadable body, an unknown method, invalid params, a failed handler), before
 * the app's `errorData` hook turns its issues into the error's `data`.
 */
export interface RpcFailure {
  code: number;
  message: string;
  /** The method, when the request named one. */
  method?: string;
  /** For invalid params: every problem, with its JSON pointer into the params. */
  issues?: readonly ValidationIssue[];
}
