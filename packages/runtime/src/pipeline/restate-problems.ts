// A middleware for protocols whose errors are not RFC 9457 problems: every problem answer, however it arose (a step's
// refusal, an unknown route, a failed handler), restated by the protocol's `errorBody` hook.
import type { MiddlewareHandler } from 'hono';
import { PROBLEM_MEDIA_TYPE, type Problem } from '../problem.js';

/** How a protocol restates a problem: the status and body to send instead (as JSON, or `contentType`). */
export type RestateProblem = (problem: Problem) => { status: number; body: unknown; contentType?: string };

/** Restates each problem answer through `errorBody`; other answers pass as they are. */
export function restateProblems(errorBody: RestateProblem): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.headers.get('content-type') !== PROBLEM_MEDIA_TYPE) return;
    // sound: this media type is the runtime's own problem answers (problemResponse writes a Problem); the protocols
    // that restate problems declare no problem+json answers of their own.
    const p = (await c.res.clone().json()) as Problem;
    const { status, body, contentType } = errorBody(p);
    const headers = new Headers(c.res.headers);
    headers.set('content-type', contentType ?? 'application/json');
    c.res = undefined;
    c.res = new Response(JSON.stringify(body), { status, headers });
  };
}
