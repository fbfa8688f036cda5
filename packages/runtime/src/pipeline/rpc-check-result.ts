// The response check of the JSON-RPC binding: a result (for a streaming method, each item) held against the method's
// result schema in development; a result that breaks it is told to `onError` (once per distinct fault, in one line:
// response-faults.ts) and answered as an internal error.
import type { RpcMethodSpec } from '../jsonrpc/rpc-app.js';
import { RPC_ERROR_CODES, type RpcErrorObject } from '../jsonrpc/rpc-error.js';
import type { ResponseFaults } from './response-faults.js';
import type { RpcErrors } from './rpc-answer.js';
import { issuesOf } from './rpc-check-request.js';

/** What is wrong with a method's result: the error to answer instead, or undefined when it is fine. */
export type RpcResultCheck = (spec: RpcMethodSpec, value: unknown) => RpcErrorObject | undefined;

/** The result check of an app: every result checked when `validate`, none otherwise. */
export function checkRpcResult(validate: boolean, errors: RpcErrors, faults: ResponseFaults): RpcResultCheck {
  return (spec, value) => {
    if (!validate || !spec.result) return undefined;
    const issues = issuesOf(spec.result, value);
    if (!issues) return undefined;
    faults.report(spec.name, 'result', spec.resultType ?? 'result', issues, value);
    return errors.fail({
      code: RPC_ERROR_CODES.internalError,
      message: 'Internal error: the agent gave an invalid result',
      method: spec.name,
    });
  };
}
