// A fetch that gives up (issue 34): an agent that never sends its headers, or drips a body a byte at a time, kept a
// client waiting for ever; and undici's 'fetch failed' said nothing of what failed. The generated clients, the
// protocol clients and the inspector send through this.

/** How long a client request may take by default, in milliseconds: until its headers, and a whole body, arrive. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * The most bytes of a whole (not streamed) answer body a client reads, after decompression: a body that inflates
 * without end (a gzip bomb) is cut there instead of filling the heap.
 */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** A request that got no answer (or no whole body) within its timeout. */
export class FetchTimeout extends Error {
  override name = 'FetchTimeout';
}

/**
 * A request that failed on the way: the message says what failed (a redirect loop, headers too large, …). A
 * TypeError, as fetch's own failures are, so code that tells a network failure by that still does.
 */
export class FetchFailed extends TypeError {
  override name = 'FetchFailed';
}

// Media types read item by item: their bodies are bounded by the stream reader's idle timeout instead.
const STREAMED = /^\s*(text\/event-stream|application\/(x-)?ndjson|application\/jsonl)\b/i;

// undici's codes and messages for what a peer did, in words a user can act on.
const CAUSES: ReadonlyArray<[RegExp, string]> = [
  [/UND_ERR_HEADERS_OVERFLOW/, 'the answer’s headers are larger than the client reads (16 KiB)'],
  [/redirect count exceeded/, 'too many redirects (more than 20): a redirect loop'],
  [/ECONNREFUSED/, 'connection refused: nothing listens there'],
  [/ECONNRESET/, 'the agent reset the connection'],
  [/UND_ERR_SOCKET|other side closed/, 'the agent closed the connection before its answer was complete'],
  [/ENOTFOUND|EAI_AGAIN/, 'no such host'],
  [/UND_ERR_CONNECT_TIMEOUT/, 'could not connect in time'],
  [
    /Z_DATA_ERROR|Z_BUF_ERROR|incorrect header check|unexpected end of file/,
    'the compressed body is corrupt',
  ],
  [/CERT|SSL|TLS/i, 'the TLS handshake failed'],
];

/**
 * What went wrong with a fetch, in words: undici's own `fetch failed` names nothing, so its cause (and the cause's
 * code) says what failed; any other error keeps its message.
 */
export function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let cause: unknown = error.cause;
  // Several addresses tried (IPv4 and IPv6): the first one's reason.
  if (cause instanceof AggregateError && cause.errors[0] instanceof Error) cause = cause.errors[0];
  if (error.message !== 'fetch failed' || !(cause instanceof Error)) return error.message;
  const code = 'code' in cause ? cause.code : undefined;
  const said = `${cause.message}${typeof code === 'string' ? ` (${code})` : ''}`;
  const known = CAUSES.find(([pattern]) =>
    pattern.test(`${typeof code === 'string' ? code : ''} ${cause.message}`),
  );
  return known ? `${known[1]}: ${said}` : said;
}

/** Settles with `work`, or rejects with the signal's reason once it is aborted. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Wraps a fetch so that each request gives up after `timeoutMs`: waiting for the answer's headers and, for an answer
 * that is not a stream (SSE, NDJSON), reading its body. Past it the request is aborted and rejects (or its body
 * errors) with a FetchTimeout naming the request; a request that fails on the way rejects with a FetchFailed that
 * says what failed. A stream's items are bounded by the stream reader's idle timeout, not by this one.
 */
export function fetchWithin(
  fetcher: (request: Request) => Response | Promise<Response>,
  timeoutMs: number = DEFAULT_REQUEST_TIMEOUT_MS,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const label = `${request.method} ${request.url}`;
    const timeout = new FetchTimeout(`${label}: no answer within ${timeoutMs} ms`);
    const timer = new AbortController();
    const handle = setTimeout(() => timer.abort(timeout), timeoutMs);
    // Held until the answer is read: a Request follows its signal only while it is itself alive.
    const held = new Request(request, { signal: AbortSignal.any([request.signal, timer.signal]) });
    let response: Response;
    try {
      response = await raceAbort(Promise.resolve(fetcher(held)), timer.signal);
    } catch (error) {
      clearTimeout(handle);
      if (timer.signal.aborted) throw timeout;
      if (held.signal.aborted) throw error; // the caller's own abort
      throw new FetchFailed(`${label}: ${describeFetchError(error)}`, { cause: error });
    }
    if (!response.body || STREAMED.test(response.headers.get('content-type') ?? '')) {
      clearTimeout(handle);
      return response;
    }
    // A whole body: the timeout holds until it is read, and cuts a body that drips (or inflates) without end.
    const reader = response.body.getReader();
    let bytes = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await raceAbort(reader.read(), timer.signal);
          if (next.done) {
            clearTimeout(handle);
            controller.close();
            return;
          }
          bytes += next.value.byteLength;
          if (bytes > MAX_BODY_BYTES)
            throw new FetchFailed(
              `${label}: the answer's body is larger than ${MAX_BODY_BYTES} bytes (once decompressed): not read further`,
            );
          controller.enqueue(next.value);
        } catch (error) {
          clearTimeout(handle);
          await reader.cancel().catch(() => {});
          controller.error(
            timer.signal.aborted
              ? timeout
              : held.signal.aborted || error instanceof FetchFailed
                ? error
                : new FetchFailed(`${label}: ${describeFetchError(error)}`, { cause: error }),
          );
        }
      },
      cancel(reason) {
        clearTimeout(handle);
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
