// The body step: the request body read within the limits and checked against what the operation declares
// (body/read-body.ts), left in the state as `body`; a body that cannot be taken is refused before any handler runs.
import { type BodySpec, readBody } from '../body/read-body.js';
import type { RequestLimits } from '../limits.js';
import type { Step } from './step.js';

/**
 * Reads the body into `state.body`. A refusal is the problem answer readBody makes (400, 413, 415, 422), or what
 * `refuse` makes of it for a binding whose errors take another form.
 */
export function readBodyStep<S extends { body: unknown }>(
  spec: BodySpec,
  limits: RequestLimits,
  refuse?: (refusal: Response) => Response | Promise<Response>,
): Step<S> {
  return async (c, state) => {
    const read = await readBody(c.req.raw, spec, limits);
    if (!read.ok) return refuse ? refuse(read.response) : read.response;
    state.body = read.value;
    return undefined;
  };
}
