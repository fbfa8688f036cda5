// Deadlines of a conformance run (issue 34): a request's timeout bounds one wait (headers, a chunk), but an agent that
// streams forever, or drips one byte at a time, never lets it fire. Each check therefore has a deadline of its own and
// the run one for all; a check past its deadline is cut and reported as such, and whatever it left in flight is
// aborted, so the process can exit.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Target } from './session.js';

/** How long one check may take by default, in milliseconds: requests, streams and all. */
export const DEFAULT_CHECK_DEADLINE_MS = 60_000;

/** How long a whole run may take by default, in milliseconds (the `--fuzz` requests included). */
export const DEFAULT_DEADLINE_MS = 300_000;

/** Why something was abandoned: a deadline that passed, with the words the report uses. */
export class DeadlinePassed extends Error {
  override name = 'DeadlinePassed';
}

// The signal of the check running in this async context: a check's requests are aborted with it, even when the check
// was abandoned and its function goes on after the next check has started.
const checkSignal = new AsyncLocalStorage<AbortSignal>();

/** Runs `fn` with `signal` as its check's signal: every request it sends through a guarded target carries it. */
export function withCheckSignal<T>(signal: AbortSignal, fn: () => T): T {
  return checkSignal.run(signal, fn);
}

/**
 * The target with every request bound to the run's signal and to the running check's: when either is aborted, the
 * request (or the body being read) is abandoned and its connection closed.
 */
export function guardedTarget(target: Target, run: AbortSignal): Target {
  // Node holds a signal made by AbortSignal.any only weakly from its sources, and a Request follows the signal it is
  // given only while the Request itself is alive: collected early, neither aborts, and the request outlives the run
  // (seen: a socket to an agent that never answered kept the process alive after 'unreachable'). The run keeps both,
  // and the request it was given (whose own timeout aborts it), until it ends.
  const held = new Set<AbortSignal | Request>();
  run.addEventListener('abort', () => held.clear(), { once: true });
  return {
    ...target,
    fetch: (request) => {
      const signals = [request.signal, run];
      const check = checkSignal.getStore();
      if (check) signals.push(check);
      const signal = AbortSignal.any(signals);
      const guarded = new Request(request, { signal });
      if (!run.aborted) for (const x of [request, signal, guarded]) held.add(x);
      return target.fetch(guarded);
    },
  };
}

/** A promise that rejects with the signal's reason once it is aborted (never settles otherwise). */
export function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * Settles as `work` does, or rejects with the signal's reason once it is aborted, whichever comes first; `work` is
 * then abandoned (its rejection, if one comes, is ignored).
 */
export async function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => {});
  return Promise.race([work, whenAborted(signal)]);
}
