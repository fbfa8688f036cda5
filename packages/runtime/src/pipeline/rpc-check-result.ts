// The response check of the JSON-RPC binding: a result (for a streaming method, each item) held against the method's
// result schema in development; a result that breaks it is told to `onError` and answered as an internal error.
import type { RpcMethodSpec } from '../jsonrpc/rpc-app.js';
import { RPC_ERROR_CODES, type RpcErrorObject } from '../jsonrpc/rpc-error.js';
import type { RpcErrors } from './rpc-answer.js';
import { issuesOf } from './rpc-check-request.js';

/** What is wrong with a method's result: the error to answer instead, or undefined when it is fine. */
export type RpcResultCheck = (spec: RpcMethodSpec, value: unknown) => RpcErrorObject | undefined;

/** The result check of an app: every result checked when `validate`, none otherwise. */
export function checkRpcResult(
  validate: boolean,
  errors: RpcErrors,
  onError: (error: unknown, method: string) => void,
): RpcResultCheck {
  return (spec, value) => {
    if (!validate || !spec.result) return undefined;
    const issues = issuesOf(spec.result, value);
    if (!issues) return undefined;
    const list = issues.map((i) => `${i.pointer || '/'} ${i.message}`).join('; ');
    onError(new Error(`the result breaks its schema: ${list}`), spec.name);
    return errors.fail({
      code: RPC_ERROR_CODES.internalError,
      message: 'Internal error: the agent gave an invalid result',
      method: spec.name,
    });
  };
}
