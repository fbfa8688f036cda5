// The contract of a binding's steps, modeled on Hono's middleware (bodyLimit, timeout: each a small function with its
// own test): a step reads what the steps before it left in the request's state, and either answers the request (it
// returns a Response) or adds its part to the state and leaves the request to the next step (it returns undefined).
// Unlike Hono's onion, no step acts after the ones behind it, so a step that finishes at once costs no promise: a
// binding pays for the steps it composes, not for the composition.
import type { Context } from 'hono';

/** What a step gives back: the answer to the request, or undefined to go on with the next step. */
export type StepAnswer = Response | undefined;

/** One step of a binding: answers the request, or adds its part to `state` for the steps after it. */
export type Step<S> = (c: Context, state: S) => StepAnswer | Promise<StepAnswer>;

/**
 * A Hono handler running `steps` in order over a state made by `start` for each request, until one answers. Steps
 * given as undefined (one an operation does not need) are left out; the last step must answer.
 */
export function pipeline<S>(
  start: (c: Context) => S,
  steps: ReadonlyArray<Step<S> | undefined>,
): (c: Context) => Response | Promise<Response> {
  const list = steps.filter((s): s is Step<S> => s !== undefined);
  return (c) => runSteps(c, start(c), list);
}

/**
 * Runs `steps` in order over `state` until one answers: what `pipeline` does for each request, for a caller that
 * already holds the state (a body another binding read). The last step must answer.
 */
export function runSteps<S>(
  c: Context,
  state: S,
  steps: ReadonlyArray<Step<S>>,
  from = 0,
): Response | Promise<Response> {
  for (let i = from; i < steps.length; i++) {
    // sound: i < steps.length, so the element exists (the index type only says it might not)
    const answer = (steps[i] as Step<S>)(c, state);
    if (answer instanceof Promise)
      return answer.then((settled) => settled ?? runSteps(c, state, steps, i + 1));
    if (answer) return answer;
  }
  throw new Error('no step of the pipeline answered the request');
}
