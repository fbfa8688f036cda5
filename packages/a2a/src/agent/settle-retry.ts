// A turn's last write (the state it ends in) tried again while the store is away. Without it, a write that fails
// during a store outage leaves the task working for good in a live process, and its subscribers waiting forever; with
// it, the task ends once the store answers again, and its subscribers get that end. Past the bound the task stays
// open, and a restart of this instance fails it (open-turns.ts).
import { A2aError } from '../errors/a2a-error.js';

/** How a turn's last write is tried again: waits doubling from the first to the longest, for at most `forMs`. */
export interface SettleRetry {
  /** The wait before the second try, in milliseconds. */
  firstDelayMs: number;
  /** The longest wait between two tries, in milliseconds. */
  maxDelayMs: number;
  /** How long to keep trying from the first failure, in milliseconds. */
  forMs: number;
}

/** Tries every 0.1 s at first, at most every 5 s, for 10 minutes. */
export const DEFAULT_SETTLE_RETRY: Readonly<SettleRetry> = Object.freeze({
  firstDelayMs: 100,
  maxDelayMs: 5_000,
  forMs: 10 * 60_000,
});

/**
 * Runs `write` until it succeeds, waiting between tries as `policy` says (each wait drawn between half and all of its
 * step, so processes that lost the store together do not come back together). An A2aError (the task is gone) is not
 * a store away: it is thrown at once, as is the last failure once `forMs` has passed. The first failure is told to
 * `onFailure`; the waits do not keep the process alive.
 */
export async function settleRetrying<T>(
  write: () => Promise<T>,
  policy: Readonly<SettleRetry>,
  onFailure: (error: unknown) => void,
): Promise<T> {
  const start = Date.now();
  let step = policy.firstDelayMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (error instanceof A2aError || Date.now() - start >= policy.forMs) throw error;
      if (attempt === 0) onFailure(error);
    }
    const wait = step / 2 + Math.random() * (step / 2);
    await new Promise<void>((resolve) => setTimeout(resolve, wait).unref?.());
    step = Math.min(step * 2, policy.maxDelayMs);
  }
}
