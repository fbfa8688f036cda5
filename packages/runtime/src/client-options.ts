/** Where and how a protocol client reaches its agent. */
export interface ClientConnectionOptions {
  /** The agent's root URL (with a `fetch` for an app in memory, any origin will do; `http://localhost` by default). */
  baseUrl?: string;
  /** A fetch to use instead of the global one: `(r) => app.fetch(r)` talks to an app in memory. */
  fetch?: (request: Request) => Response | Promise<Response>;
  /** Fail a streamed answer that sends nothing for this long, in milliseconds (default 60 000). */
  idleTimeoutMs?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** The options of a generated client for a connection: base URL, fetch, headers and stream idle timeout filled in. */
export function generatedClientOptions(options: ClientConnectionOptions) {
  const fetcher = options.fetch;
  return {
    baseUrl: options.baseUrl ?? 'http://localhost',
    streamIdleTimeoutMs: options.idleTimeoutMs ?? 60_000,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(fetcher ? { fetch: async (request: Request) => fetcher(request) } : {}),
  };
}
