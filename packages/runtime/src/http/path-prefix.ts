// For clients of agents that serve an older edition of a protocol's paths (Agent Protocol v1 agents from before the
// `/ap/v1` prefix serve `/agent/tasks`): a fetch that takes that part off every request's path.

/** A fetch, as clients take one. */
export type Fetcher = (request: Request) => Response | Promise<Response>;

/**
 * A fetch that removes `prefix` (such as `/ap/v1`) from the start of each request's path, then sends the request
 * with `fetcher` (the global fetch by default). Pass it as a generated client's `fetch` option to call an agent that
 * serves the paths without the prefix. A path that does not start with the prefix is sent as it is.
 */
export function withoutPathPrefix(
  prefix: string,
  fetcher: Fetcher = (r) => fetch(r),
): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith(`${prefix}/`)) url.pathname = url.pathname.slice(prefix.length);
    return fetcher(url.href === request.url ? request : new Request(url, request));
  };
}
