// Writing a stream straight to a Node response: what a streamed answer takes when the app runs on
// `@hono/node-server`, instead of a web ReadableStream the adapter would read back chunk by chunk. Back-pressure, the
// client going away and the producer's `finally` blocks behave as on the web-stream path (writeStream).
import { isObjectLike } from '../unknown-values.js';
import type { StreamFraming } from './read-frames.js';
import { endText, frameText, type WriteStreamOptions } from './write-stream.js';

/** The part of a Node `ServerResponse` (HTTP/1) or `Http2ServerResponse` this writer uses. */
export interface NodeResponse {
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  readonly destroyed: boolean;
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  write(chunk: string): boolean;
  end(chunk?: string): unknown;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
  flushHeaders?(): void;
}

/** How many characters of ready items are joined before they are written without waiting for the turn to end. */
const BATCH_CHARS = 64 * 1024;

/** The Node response of a request served by `@hono/node-server` (its `env.outgoing`), when it can still be written. */
export function nodeResponseOf(env: unknown): NodeResponse | undefined {
  const outgoing = isObjectLike(env) ? env.outgoing : undefined;
  return isNodeResponse(outgoing) && !outgoing.headersSent ? outgoing : undefined;
}

/**
 * Whether a value is a Node response, told by the methods a writer calls first: in `env.outgoing` such an object is
 * @hono/node-server's ServerResponse (or Http2ServerResponse), which has the rest of NodeResponse too.
 */
function isNodeResponse(value: unknown): value is NodeResponse {
  return (
    isObjectLike(value) &&
    typeof value.writeHead === 'function' &&
    typeof value.write === 'function' &&
    typeof value.once === 'function'
  );
}

/**
 * Takes a Node response over for a stream: returns a writer with the response's own methods, and leaves the response
 * object's `writeHead`, `write` and `end` doing nothing for everyone else. After the handler, the adapter still gets a
 * Response back (Hono's marker that the answer was sent, or a copy of it a middleware made on its way out, which the
 * adapter would try to write); without this it would write a second head, or end the stream in the middle.
 */
export function takeOver(outgoing: NodeResponse): NodeResponse {
  const own = {
    writeHead: outgoing.writeHead.bind(outgoing),
    write: outgoing.write.bind(outgoing),
    end: outgoing.end.bind(outgoing),
  };
  const writer: NodeResponse = {
    get headersSent() {
      return outgoing.headersSent;
    },
    get writableEnded() {
      return outgoing.writableEnded;
    },
    get destroyed() {
      return outgoing.destroyed;
    },
    ...own,
    once: (event, listener) => outgoing.once(event, listener),
    off: (event, listener) => outgoing.off(event, listener),
    ...(outgoing.flushHeaders ? { flushHeaders: () => outgoing.flushHeaders?.() } : {}),
  };
  Object.assign(outgoing, {
    writeHead: () => outgoing,
    write: () => true,
    end: () => outgoing,
  });
  return writer;
}

/**
 * Writes the head, then every item of `items` as an SSE event or NDJSON line, to a Node response, and ends it.
 * Items the producer has ready go out in one socket write (Node joins the writes of one turn of the event loop);
 * when the socket's buffer is full, the producer waits for it to drain. When the client goes away, `abort` fires and
 * the producer's iterator is closed. Resolves when the stream has ended, either way; never rejects.
 */
export async function writeNodeStream(
  outgoing: NodeResponse,
  status: number,
  headers: Record<string, string | string[]>,
  items: AsyncIterable<unknown>,
  framing: StreamFraming,
  options: WriteStreamOptions = {},
): Promise<void> {
  const iterator = items[Symbol.asyncIterator]();
  let gone = outgoing.destroyed;
  let wake: (() => void) | undefined;
  const onClose = () => {
    if (outgoing.writableEnded) return;
    gone = true;
    // The producer may be waiting on something slow: it hears now, not at its next item.
    options.abort?.abort(new Error('the client went away'));
    wake?.();
  };
  outgoing.once('close', onClose);
  outgoing.writeHead(status, headers);
  let index = 0;
  let finished = false;
  // Why the stream stopped early, when it did for a fault of its own (not the client going away), and what the source
  // threw, when that was the fault.
  let endReason: string | undefined;
  let failure: { error: unknown } | undefined;
  const json = options.json ?? JSON.stringify;
  // Items the producer has ready are joined and written once (one chunk, one system call) when the current turn of
  // the event loop is over, or as soon as they fill BATCH_BYTES; an item the producer is still working on never holds
  // up the ones before it.
  let batch = '';
  let scheduled = false;
  let full = false;
  // The drain is listened for from the moment a write fills the buffer, not from when the loop next looks: a write
  // made by a scheduled flush may fill it while the loop waits on the producer, and the socket may drain before then.
  const onDrain = () => {
    full = false;
    flush();
    wake?.();
  };
  const flush = () => {
    scheduled = false;
    // While the socket's buffer is full, items wait here; they go out once it drains.
    if (batch === '' || full || gone || outgoing.writableEnded) return;
    // The head goes out with the first items; `write` returning false means the socket's buffer is full.
    full = !outgoing.write(batch);
    batch = '';
    if (full) outgoing.once('drain', onDrain);
  };
  // With no item ready by then, the head goes out on its own, so that a client waiting for a slow first event already
  // knows the stream is open.
  setImmediate(() => {
    if (index === 0 && !finished && !outgoing.writableEnded && !outgoing.destroyed) outgoing.flushHeaders?.();
  });
  try {
    while (!gone) {
      if (full) {
        // Wait until the socket drains (onDrain writes what waited) or the client goes away.
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      let result: IteratorResult<unknown>;
      try {
        result = await iterator.next();
      } catch (error) {
        if (!options.thrown) options.onError?.(error);
        endReason = 'the agent failed while streaming';
        failure = { error };
        break;
      }
      if (result.done) {
        finished = true;
        break;
      }
      if (gone) break;
      let text: string;
      try {
        const problem = options.check?.(result.value, index);
        if (problem !== undefined) {
          // The check has reported the fault.
          endReason = problem;
          break;
        }
        // A value JSON cannot hold (a BigInt, a cycle) throws here, and ends the stream as a broken item does.
        text = frameText(json(result.value), framing, options.idOf?.(result.value));
      } catch (error) {
        options.onError?.(error);
        endReason = `stream item ${index + 1} cannot be written as JSON`;
        break;
      }
      index++;
      batch += text;
      if (batch.length >= BATCH_CHARS) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    }
  } finally {
    outgoing.off('close', onClose);
    outgoing.off('drain', onDrain);
    // A stream stopped early (the client went away, a broken item) closes its producer, so its `finally` blocks run;
    // a producer that throws while closing is nobody's concern but its own.
    if (!finished) await Promise.resolve(iterator.return?.()).catch(() => undefined);
    if (!gone && !outgoing.writableEnded) {
      // What is still batched goes out with the end of the stream, and the protocol's error item, in the same write.
      const rest =
        batch + (endReason === undefined ? '' : (endText(options, endReason, framing, failure) ?? ''));
      batch = '';
      if (rest === '') outgoing.end();
      else outgoing.end(rest);
    }
  }
}
