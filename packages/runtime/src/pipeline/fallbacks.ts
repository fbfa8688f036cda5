// What an HTTP binding answers when no operation's steps do: 405 with Allow for a known path and another method, 404
// for an unknown path, and a problem (never Hono's plain-text 500) for whatever a handler or a middleware throws.
import type { ErrorHandler, NotFoundHandler } from 'hono';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { problem, problemResponse } from '../problem.js';

/**
 * The not-found handler of an app serving `methodsByPath` (Hono route → methods). Unknown methods on known paths
 * answer 405 through a router of their own: a route registered for every method would make each request match two
 * handlers, and Hono compose them.
 */
export function unknownRoutes(methodsByPath: ReadonlyMap<string, readonly string[]>): NotFoundHandler {
  const methods = new Hono();
  for (const [route, list] of methodsByPath) {
    const allow = [...new Set(list)].sort().join(', ');
    methods.all(route, () =>
      problemResponse(problem(405, 'method-not-allowed', `this path accepts ${allow}`), { allow }),
    );
  }
  methods.notFound((c) =>
    problemResponse(problem(404, 'no-such-route', `no operation serves ${c.req.method} ${c.req.path}`)),
  );
  return (c) => methods.fetch(c.req.raw);
}

/**
 * The error handler: a middleware's own refusal (an auth check, say) keeps its answer, or becomes a problem of its
 * status; anything else is told to `onError` and answered 500.
 */
export function thrownAsProblem(onError: (error: unknown, where: string) => void): ErrorHandler {
  return (error, c) => {
    if (error instanceof HTTPException) {
      if (error.res) return error.getResponse();
      if (error.status < 500)
        return problemResponse(problem(error.status, 'refused', error.message || 'the request was refused'));
    }
    onError(error, `${c.req.method} ${c.req.path}`);
    return problemResponse(problem(500, 'internal-error', 'the agent failed while handling the request'));
  };
}
