// The dispatch and write steps of the JSON-RPC binding: a method's handler called with its checked params, and its
// answer sent: a unary result (or error) as one JSON response, a streaming method's items as a stream of responses
// (SSE or NDJSON, write-stream.ts). An error before a stream's first item is a plain JSON answer (or a stream of that
// one answer, when the binding says its streams always are streams), one after it the stream's last event; a
// notification gets no answer.
import type { Context } from 'hono';
import type { RpcContext, RpcHandler, RpcId, RpcMethodSpec } from '../jsonrpc/rpc-app.js';
import type { RpcErrorObject } from '../jsonrpc/rpc-error.js';
import type { WriteStreamOptions } from '../streams/write-stream.js';
import { isObjectLike } from '../unknown-values.js';
import { followAbort } from './dispatch.js';
import { type Answer, envelope, type RpcErrors, rpcResponse } from './rpc-answer.js';
import type { RpcState } from './rpc-check-request.js';
import type { RpcResultCheck } from './rpc-check-result.js';
import type { Step } from './step.js';
import { sendStream } from './write-stream.js';

/** Calls one unary method: its answer, or undefined for a notification. */
export type RpcCallUnary = (
  spec: RpcMethodSpec,
  params: unknown,
  id: RpcId | undefined,
  c: Context,
) => Promise<Answer | undefined>;

/** Runs unary methods with the app's handlers, each result checked. */
export function callUnary(
  handlers: Readonly<Record<string, RpcHandler>>,
  checkResult: RpcResultCheck,
  errors: RpcErrors,
): RpcCallUnary {
  return async (spec, params, id, c) => {
    // sound: rpcSteps made sure at start that every method has a handler, and the params passed the method's params
    // validator, whose type is the one the generated handler takes (`never` in RpcHandler only hides which).
    const handler = handlers[spec.name] as (p: unknown, ctx: RpcContext) => unknown;
    let answer: Answer;
    try {
      const result = await handler(params, context(id, c));
      const invalid = checkResult(spec, result);
      answer = invalid
        ? { id: id ?? null, error: invalid }
        : { id: id ?? null, result: result === undefined ? null : result };
    } catch (error) {
      answer = { id: id ?? null, error: errors.thrown(error, spec.name) };
    }
    return id === undefined ? undefined : answer;
  };
}

/** Answers `state.call`: a unary method's response (no content for a notification), or a streaming method's stream. */
export function dispatchRpc(
  handlers: Readonly<Record<string, RpcHandler>>,
  call: RpcCallUnary,
  checkResult: RpcResultCheck,
  errors: RpcErrors,
  onError: (error: unknown, method: string) => void,
  output: { nodeStreams: boolean; streamErrors: 'json' | 'event' },
): Step<RpcState> {
  const { nodeStreams, streamErrors } = output;
  return async (c, state) => {
    // sound: checkRpcRequest, the step before, answered every request it left no call for.
    const { spec, params, id } = state.call as NonNullable<RpcState['call']>;
    if (!spec.stream) {
      const answer = await call(spec, params, id, c);
      return answer ? rpcResponse(answer) : c.body(null, 204);
    }
    // The stream's writer aborts this when the client goes away, so a producer waiting for its next item hears it.
    const abort = followAbort(c.req.raw.signal);
    // sound: see callUnary.
    const handler = handlers[spec.name] as (p: unknown, ctx: RpcContext) => unknown;
    let iterator: AsyncIterator<unknown>;
    let first: IteratorResult<unknown>;
    try {
      const items = await handler(params, context(id, c, abort));
      if (!hasAsyncIterator(items)) throw new TypeError(`${spec.name} must return an async iterable`);
      iterator = items[Symbol.asyncIterator]();
      // An error before the first item (an unknown task, say) is answered as JSON, as for a unary method.
      first = await iterator.next();
    } catch (error) {
      if (id === undefined) return c.body(null, 204);
      const answer = { id, error: errors.thrown(error, spec.name) };
      if (streamErrors === 'json') return rpcResponse(answer);
      return send(only(envelope(answer)), { onError: (e: unknown) => onError(e, spec.name), abort });
    }
    const answerId = id ?? null;
    // Each item's response is written as text, the envelope's around the item's own JSON (the same bytes as
    // JSON.stringify of the response object), and the writer reads the handler's iterator itself: no wrapper object
    // and no second async generator per item, which cost the stream about a fifth of its time (bench a2a).
    const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(answerId)},"result":`;
    // The error response that ends the stream when an item breaks the method's result schema.
    let invalid: RpcErrorObject | undefined;
    const options: WriteStreamOptions = {
      abort,
      onError: (error) => onError(error, spec.name),
      check: (item) => {
        invalid = checkResult(spec, item);
        return invalid === undefined ? undefined : 'the agent gave an invalid result';
      },
      json: (item) => {
        const json = JSON.stringify(item);
        // An item JSON leaves out (undefined) leaves out the member, as in JSON.stringify of the response object.
        return json === undefined
          ? JSON.stringify(envelope({ id: answerId, result: item }))
          : `${prefix}${json}}`;
      },
      // Only an invalid item ends the stream with an error response; an item JSON cannot hold ends it with none.
      endWith: () => (invalid === undefined ? undefined : envelope({ id: answerId, error: invalid })),
      thrown: (error) => envelope({ id: answerId, error: errors.thrown(error, spec.name) }),
    };
    return send(afterFirst(first, iterator), options);

    function send(items: AsyncIterable<unknown>, options: WriteStreamOptions) {
      // sound: this branch is for streaming methods only (`spec.stream` was checked above).
      const framing = spec.stream as NonNullable<RpcMethodSpec['stream']>;
      const headers = {
        'content-type': framing === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
        'cache-control': 'no-cache',
      };
      return sendStream(c, { status: 200, headers, items, framing, options }, nodeStreams);
    }
  };
}

/** A stream of one item. */
async function* only(item: unknown): AsyncGenerator<unknown> {
  yield item;
}

/**
 * The items of an iterator whose first result was read already: that result, then the iterator's own. Closing it
 * closes the iterator. A plain object, not a generator: the writer's `next` goes straight to the handler's.
 */
function afterFirst(
  first: IteratorResult<unknown>,
  iterator: AsyncIterator<unknown>,
): AsyncIterable<unknown> {
  let head: IteratorResult<unknown> | undefined = first;
  const rest: AsyncIterator<unknown> = {
    next: () => {
      if (head === undefined) return iterator.next();
      const result = head;
      head = undefined;
      return Promise.resolve(result);
    },
    return: async () => {
      head = undefined;
      return (await iterator.return?.()) ?? { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => rest };
}

/** Whether a streaming method's answer can be iterated with `for await`: it has a `Symbol.asyncIterator` method. */
function hasAsyncIterator(value: unknown): value is AsyncIterable<unknown> {
  return (
    (isObjectLike(value) || typeof value === 'function') &&
    Symbol.asyncIterator in value &&
    typeof value[Symbol.asyncIterator] === 'function'
  );
}

/** A handler's context; its signal (made when first read) aborts with the request, or with `abort` when given. */
function context(id: RpcId | undefined, c: Context, abort?: AbortController): RpcContext {
  let own = abort;
  return {
    id,
    request: c.req.raw,
    c,
    get signal() {
      own ??= followAbort(c.req.raw.signal);
      return own.signal;
    },
  };
}
