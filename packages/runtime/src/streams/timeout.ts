// One way to bound a wait: a promise raced against a timer that is always cleared. The stream readers (an idle
// stream) and the conformance kit (a silent agent) both use it, so a timeout never leaves a timer holding the process.

/**
 * Resolves or rejects as `promise` does, or rejects with `onTimeout()` after `ms` milliseconds, whichever comes first.
 * The timer is cleared either way.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
