// The dispatch step of an HTTP operation: the handler called with the checked parameters and body, its answer left
// for the response check; a handler that throws is told to `onError` and answered with a 500 problem.
import type { Context } from 'hono';
import type { HandlerInput, HandlerResult } from '../operation-app.js';
import { problem, problemResponse } from '../problem.js';
import type { OperationState } from './operation-state.js';
import type { Step } from './step.js';

/** An operation's handler, as the generated code registers it. */
export type OperationHandler = (input: HandlerInput, c: Context) => HandlerResult | Promise<HandlerResult>;

/**
 * Calls `handler` with `state`'s parameters and body, into `state.result`. A handler that answers at once is not
 * awaited: the request goes on to the next step in the same turn.
 */
export function dispatch(
  operationId: string,
  handler: OperationHandler,
  onError: (error: unknown, where: string) => void,
): Step<OperationState> {
  const failed = (error: unknown) => {
    onError(error, operationId);
    return problemResponse(problem(500, 'handler-failed', 'the agent failed while handling the request'));
  };
  const answered = (state: OperationState, result: HandlerResult) => {
    state.result = result;
    return undefined;
  };
  return (c, state) => {
    const input = new Input(state.params, state.query, state.body, c.req.raw);
    state.input = input;
    let result: HandlerResult | PromiseLike<HandlerResult>;
    try {
      result = handler(input, c);
    } catch (error) {
      return failed(error);
    }
    if (isThenable(result))
      return Promise.resolve(result).then((settled) => answered(state, settled), failed);
    return answered(state, result);
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    'then' in value &&
    typeof value.then === 'function'
  );
}

/**
 * What a handler gets. A class, so that a request makes one object and no closures: the abort controller, linked to
 * the client's connection, is made only when something reads `signal` (the server builds objects for the request's
 * signal that a plain JSON answer never uses).
 */
export class Input implements HandlerInput {
  #abort: AbortController | undefined;
  constructor(
    readonly params: unknown,
    readonly query: unknown,
    readonly body: unknown,
    readonly request: Request,
  ) {}
  get signal(): AbortSignal {
    return this.controller().signal;
  }
  /** The controller behind `signal`: a stream writer aborts it when the client goes away. */
  controller(): AbortController {
    this.#abort ??= followAbort(this.request.signal);
    return this.#abort;
  }
}

/**
 * A controller that aborts when `signal` does. Made here, outside every route closure, so that the listener it leaves
 * on the request's signal holds the controller and nothing else: the platform's Request keeps its signal (and so
 * this listener) in a FinalizationRegistry, and a listener that reached the Hono context would keep the whole request
 * and response alive through it, a leak of every streamed request.
 */
export function followAbort(signal: AbortSignal): AbortController {
  const made = new AbortController();
  if (signal.aborted) made.abort(signal.reason);
  else signal.addEventListener('abort', () => made.abort(signal.reason), { once: true });
  return made;
}
