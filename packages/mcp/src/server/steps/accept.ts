// Streamable HTTP: a client POSTs with an Accept that lists both answer forms, JSON and an event stream.
import { RPC_ERROR_CODES, type Step } from '@agentproto/runtime';
import { type PostState, refuse } from './post-state.js';

/** Refuses (406) a POST whose Accept header does not take both application/json and text/event-stream. */
export const acceptsBoth: Step<PostState> = (c) => {
  const accept = c.req.header('accept') ?? '';
  if (/application\/json|\*\/\*/.test(accept) && /text\/event-stream|\*\/\*/.test(accept)) return undefined;
  return refuse(
    406,
    RPC_ERROR_CODES.invalidRequest,
    'Not Acceptable: the client must accept both application/json and text/event-stream',
  );
};
