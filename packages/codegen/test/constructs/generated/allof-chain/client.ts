import { fetchWithin, toFormData } from '@agentproto/runtime';
import createClient, { type ClientOptions, type MaybeOptionalInit } from 'openapi-fetch';
// The client's inferred type names openapi-fetch's helper types; this import lets a declaration build refer to them
// by their package's name (the protocol package depends on it) instead of a path inside node_modules.
import type {} from 'openapi-typescript-helpers';
import type { paths } from './openapi.js';

// openapi-fetch's rule for its init argument: optional when nothing in it is required.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitArgs<Init> = RequiredKeys<Init> extends never ? [Init?] : [Init];

/** Options of the client: those of openapi-fetch, plus how long a request may take. */
export interface AllofChainClientOptions extends ClientOptions {
  /**
   * Give up on a request after this long, in milliseconds (default 60 000): waiting for its answer's headers and, for
   * an answer that is not a stream, reading its body. It rejects with a FetchTimeout naming the request.
   */
  timeoutMs?: number;
}

/**
 * A typed client for an Construct allof-chain 1 agent. `options.baseUrl` is the agent's root; pass
 * `options.fetch` to call an app in memory (for example `(r) => app.fetch(r)`).
 */
export function createAllofChainClient(options: AllofChainClientOptions = {}) {
  // Every request gives up in time and says what failed: an agent that never answers cannot hang the client.
  const fetcher = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const http = createClient<paths>({ ...options, fetch: fetchWithin(fetcher, options.timeoutMs) });
  return {
    /** The underlying openapi-fetch client, for middleware and raw calls. */
    http,
    /** `GET /people` */
    listPeople: (...init: InitArgs<MaybeOptionalInit<paths["/people"], "get">>) =>
      http.GET("/people", ...([init[0]] as [MaybeOptionalInit<paths["/people"], "get">])),
  };
}

/** The client returned by `createAllofChainClient`. */
export type AllofChainClient = ReturnType<typeof createAllofChainClient>;
