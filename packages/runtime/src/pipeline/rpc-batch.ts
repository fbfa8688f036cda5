// The batch step of the JSON-RPC binding (JSON-RPC 2.0 §6): a body that is an array answered whole, each request
// checked and called in turn, with the array of the answers it needs (none: 204). Other bodies go on to the steps for
// one request.
import type { Context } from 'hono';
import { RPC_ERROR_CODES } from '../jsonrpc/rpc-error.js';
import { type Answer, type RpcErrors, rpcResponse } from './rpc-answer.js';
import type { Prepared, RpcState } from './rpc-check-request.js';
import type { RpcCallUnary } from './rpc-dispatch.js';
import type { Step } from './step.js';

/** Answers a batch of at most `maxBatch` requests; an empty or larger batch is refused whole with Invalid Request. */
export function answerBatch(
  maxBatch: number,
  prepare: (raw: unknown) => Prepared,
  call: RpcCallUnary,
  errors: RpcErrors,
): Step<RpcState> {
  const answer = async (c: Context, body: unknown[]): Promise<Response> => {
    if (body.length === 0 || body.length > maxBatch)
      return rpcResponse({
        id: null,
        error: errors.fail({
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
            error: errors.fail({
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
    return answers.length === 0 ? c.body(null, 204) : rpcResponse(answers);
  };
  // A body that is no batch goes on at once, without a promise.
  return (c, state) => (Array.isArray(state.body) ? answer(c, state.body) : undefined);
}
