// Small async-stream shapes the streaming operations answer with. Kept apart because they know nothing of tasks:
// only how a stream starts and how it hears that its client went away.

/**
 * The reason a follower is stopped with once its consumer is done: one object made once. An abort without a reason
 * makes a DOMException with its stack trace each time, which every streamed answer paid twice (about 2% of the
 * reference agent's time per streamed task).
 */
export const FOLLOWING_DONE: Error = Object.freeze(new Error('the consumer of this stream is done'));

/** A stream of one item. */
export async function* once<T>(item: T): AsyncGenerator<T> {
  yield item;
}

/**
 * A stream that starts with `first`, then follows; following stops when the consumer does, or when `outer` aborts (the
 * client went away): a follower waiting for an event that may never come must hear that, since an async generator
 * cannot be closed while it waits.
 */
export async function* withFirst<T>(
  first: T,
  follow: (signal: AbortSignal) => AsyncIterable<T>,
  outer?: AbortSignal,
): AsyncGenerator<T> {
  const abort = new AbortController();
  const onAbort = () => abort.abort(outer?.reason);
  if (outer?.aborted) abort.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  try {
    yield first;
    yield* follow(abort.signal);
  } finally {
    outer?.removeEventListener('abort', onAbort);
    abort.abort(FOLLOWING_DONE);
  }
}
