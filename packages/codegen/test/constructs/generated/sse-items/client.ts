import { fetchWithin, readItems, toFormData } from '@agentproto/runtime';
import createClient, { type ClientOptions, type MaybeOptionalInit } from 'openapi-fetch';
// The client's inferred type names openapi-fetch's helper types; this import lets a declaration build refer to them
// by their package's name (the protocol package depends on it) instead of a path inside node_modules.
import type {} from 'openapi-typescript-helpers';
import type { components, paths } from './openapi.js';

// openapi-fetch's rule for its init argument: optional when nothing in it is required.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitArgs<Init> = RequiredKeys<Init> extends never ? [Init?] : [Init];

/** Options of the client: those of openapi-fetch, plus how long a request may take and a stream may stay silent. */
export interface SseItemsClientOptions extends ClientOptions {
  /**
   * Give up on a request after this long, in milliseconds (default 60 000): waiting for its answer's headers and, for
   * an answer that is not a stream, reading its body. It rejects with a FetchTimeout naming the request.
   */
  timeoutMs?: number;
  /** Fail a streamed answer that sends nothing for this long, in milliseconds (default: wait forever). */
  streamIdleTimeoutMs?: number;
}

/**
 * A typed client for an Construct sse-items 1 agent. `options.baseUrl` is the agent's root; pass
 * `options.fetch` to call an app in memory (for example `(r) => app.fetch(r)`).
 */
export function createSseItemsClient(options: SseItemsClientOptions = {}) {
  // Every request gives up in time and says what failed: an agent that never answers cannot hang the client.
  const fetcher = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const http = createClient<paths>({ ...options, fetch: fetchWithin(fetcher, options.timeoutMs) });
  const streamOptions = options.streamIdleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.streamIdleTimeoutMs };
  return {
    /** The underlying openapi-fetch client, for middleware and raw calls. */
    http,
    /**
     * `GET /ticks`. Resolves once the answer's headers arrive; iterate `items` for the
     * streamed items, which throws StreamReadError on an item that is not JSON or a broken or silent stream.
     */
    streamTicks: async (...init: InitArgs<MaybeOptionalInit<paths["/ticks"], "get">>) => {
      const { data, error, response } = await http.GET("/ticks", ...([{ parseAs: 'stream' as const, ...init[0] }] as [MaybeOptionalInit<paths["/ticks"], "get"> & { parseAs: 'stream' }]));
      const items = data ? readItems<components['schemas']["Tick"]>(data, "sse", streamOptions) : undefined;
      return { items, error, response };
    },
  };
}

/** The client returned by `createSseItemsClient`. */
export type SseItemsClient = ReturnType<typeof createSseItemsClient>;
