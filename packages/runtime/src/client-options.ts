// How a protocol client reaches its agent: the connection options every protocol client takes, and the generated
// client's options made from them.
import { DEFAULT_REQUEST_TIMEOUT_MS } from './fetch-within.js';

/** Where and how a protocol client reaches its agent. */
export interface ClientConnectionOptions {
  /** The agent's root URL (with a `fetch` for an app in memory, any origin will do; `http://localhost` by default). */
  baseUrl?: string;
  /** A fetch to use instead of the global one: `(r) => app.fetch(r)` talks to an app in memory. */
  fetch?: (request: Request) => Response | Promise<Response>;
  /** Fail a streamed answer that sends nothing for this long, in milliseconds (default 60 000). */
  idleTimeoutMs?: number;
  /**
   * Give up on a request after this long, in milliseconds (default 60 000): waiting for its answer's headers and, for
   * an answer that is not a stream, reading its body. It rejects with a FetchTimeout naming the request.
   */
  timeoutMs?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/**
 * The options of a generated client for a connection: base URL, fetch, headers, the request timeout (the generated
 * client gives up on a request after it) and the stream idle timeout filled in.
 */
export function generatedClientOptions(options: ClientConnectionOptions) {
  const fetcher = options.fetch;
  return {
    baseUrl: options.baseUrl ?? 'http://localhost',
    streamIdleTimeoutMs: options.idleTimeoutMs ?? 60_000,
    timeoutMs: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(fetcher ? { fetch: async (request: Request) => fetcher(request) } : {}),
  };
}
