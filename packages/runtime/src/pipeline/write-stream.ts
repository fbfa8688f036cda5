// The stream step's writer: a streamed answer (SSE or NDJSON) written straight to the Node response on
// @hono/node-server (streams/write-node.ts, nearly twice as fast), else as a web ReadableStream (streams/write-stream.ts).
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { StreamFraming } from '../streams/read-frames.js';
import { nodeResponseOf, takeOver, writeNodeStream } from '../streams/write-node.js';
import { type WriteStreamOptions, writeStream } from '../streams/write-stream.js';

/** What a streamed answer is made of. */
export interface StreamAnswer {
  status: number;
  /** The answer's own headers, lower-case names. */
  headers: Record<string, string>;
  items: AsyncIterable<unknown>;
  framing: StreamFraming;
  options: WriteStreamOptions;
}

/**
 * Answers with a stream of `answer.items`. With `nodeStreams` on @hono/node-server the items go straight to the
 * socket, with the headers middleware set before the step (`c.header()`, or on `c.res` as Hono's cors does), as Hono
 * keeps them for a handler's own Response; the answer returned is then Hono's marker that it was sent.
 */
export function sendStream(c: Context, answer: StreamAnswer, nodeStreams: boolean): Response {
  const { status, headers, items, framing, options } = answer;
  const outgoing = nodeStreams ? nodeResponseOf(c.env) : undefined;
  if (!outgoing) return new Response(writeStream(items, framing, options), { status, headers });
  // `newResponse` reads the headers middleware set without making a response of its own.
  const before = c.newResponse(null).headers;
  const head: Record<string, string | string[]> = { ...headers };
  before.forEach((value, key) => {
    if (key !== 'content-type' && key !== 'set-cookie' && head[key] === undefined) head[key] = value;
  });
  const cookies = before.getSetCookie();
  if (cookies.length > 0) head['set-cookie'] = cookies;
  void writeNodeStream(takeOver(outgoing), status, head, items, framing, options);
  // The adapter gets Hono's marker that the answer was sent (not the copy Hono would make of it when middleware
  // already made a response): clearing the context's response first, then setting the marker, keeps it as is.
  c.res = undefined;
  c.res = RESPONSE_ALREADY_SENT;
  return RESPONSE_ALREADY_SENT;
}
