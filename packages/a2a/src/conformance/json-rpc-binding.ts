// The JSON-RPC binding (specification §9) as the checks drive it: every operation a method at one endpoint, A2A's
// errors by code with an ErrorInfo in `data`.
import {
  type CheckedExchange,
  CheckFailure,
  expectRpcError as expectErrorCode,
  expectRpcResult,
  type StreamedExchange,
  type SuiteContext,
} from '@agentproto/runtime/contract';
import { A2A_ERRORS } from '../errors/a2a-errors.js';
import {
  type Answer,
  type Binding,
  type BindingSpec,
  RESULTS,
  reasonWrong,
  type Speaking,
} from './bindings.js';

/** A JSON-RPC endpoint as the checks call it: any method, each answer labelled with the method it answers. */
export function jsonRpc({ session }: Pick<SuiteContext, 'session'>, speaking: Speaking, endpoint: string) {
  // An interface URL at the agent's root has the empty path; JSON-RPC is posted to `/`.
  const at = endpoint || '/';
  let id = 0;
  const request = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: ++id, method, params });
  // Every request goes to the same path: the label names the method too.
  const named = <X extends { label: string }>(x: X, method: string): X => ({
    ...x,
    label: `${x.label} (${method})`,
  });
  return {
    /**
     * Calls `method`; the answer is checked as a JSON-RPC response. A streaming method may answer an error as a stream
     * of that one response (0.3 §6.11): it is read up to the response with the request's id.
     */
    async call(
      method: string,
      params: unknown,
      headers: Readonly<Record<string, string>> = speaking.headers,
    ): Promise<CheckedExchange> {
      const message = request(method, params);
      const x = await session.call('POST', at, {
        json: message,
        headers,
        answerId: message.id,
        expect: { 200: speaking.types.rpcResponse },
      });
      return named(x, method);
    },
    /** Calls a streaming method; its events are read to the end. */
    async stream(method: string, params: unknown): Promise<StreamedExchange> {
      return named(
        await session.stream('POST', at, 'sse', { json: request(method, params), headers: speaking.headers }),
        method,
      );
    },
  };
}

/** JSON-RPC (§9): every operation a method at one endpoint; errors by code, with an ErrorInfo in `data`. */
export function jsonRpcBinding(
  context: SuiteContext,
  speaking: Speaking,
  spec: BindingSpec,
  endpoint: string,
): Binding {
  const client = jsonRpc(context, speaking, endpoint);
  return {
    spec,
    speaking,
    path: endpoint || '/',
    call: async (operation, params, headers) => ({
      ...(await client.call(operation, params, headers)),
      operation,
    }),
    stream: (params) => client.stream('SendStreamingMessage', params),
    result<T>(x: Answer): T {
      const type = RESULTS[x.operation];
      // sound: T is the result of the operation the checks called, RESULTS names its type, and the result passed
      // that type's validator (a version without one returns the result unchecked, as the envelope left it).
      return expectRpcResult<T>(x, type ? { type, validate: speaking.validators[type] } : undefined);
    },
    expectError(x, reason) {
      expectRpcError(x, A2A_ERRORS[reason].code, reason);
    },
  };
}

/** Fails unless a JSON-RPC answer is error `code` (§9.5), and, with `reason`, names it in an ErrorInfo in `data`. */
export function expectRpcError(x: CheckedExchange, code: number, reason?: string): void {
  const error = expectErrorCode(x, code, reason);
  const wrong = reason ? reasonWrong(x, error.data, reason) : undefined;
  if (wrong) throw new CheckFailure(wrong);
}
