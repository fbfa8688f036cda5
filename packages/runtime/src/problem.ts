// Problem details (RFC 9457): every refusal of the generated servers is an `application/problem+json` answer saying
// what was wrong and where.
import type { ValidationIssue } from './validation.js';

/** The part of a request a problem is about. */
export type RequestLocation = 'path' | 'query' | 'header' | 'body';

/** An RFC 9457 problem details object, as the generated servers send it (`application/problem+json`). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: Array<{ location: RequestLocation; pointer: string; message: string }>;
}

/** The media type of every problem answer. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  500: 'Internal Server Error',
};

/** Builds a problem; `kind` becomes the last segment of its `type` URI. */
export function problem(
  status: number,
  kind: string,
  detail: string,
  issues?: { location: RequestLocation; list: readonly ValidationIssue[] },
): Problem {
  const p: Problem = {
    type: `https://agentproto.dev/problems/${kind}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
  };
  if (issues)
    p.errors = issues.list.map((i) => ({
      location: issues.location,
      pointer: i.pointer,
      message: i.message,
    }));
  return p;
}

/** A Response carrying a problem. */
export function problemResponse(p: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(p), {
    status: p.status,
    headers: { 'content-type': PROBLEM_MEDIA_TYPE, ...headers },
  });
}
