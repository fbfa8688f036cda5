// Writing streams: items as NDJSON lines or SSE events (with `id:` lines), at the pace the reader reads, stopping the
// producer when the client goes away.
import type { StreamFraming } from './read-frames.js';

/** Options of {@link writeStream}. */
export interface WriteStreamOptions {
  /**
   * Checks an item before it is sent; returning a message stops the stream there (the item is not sent), and is the
   * reason `endWith` gets. The check reports the fault itself (once per distinct fault, not once per stream):
   * `onError` does not hear of it.
   */
  check?: (item: unknown, index: number) => string | undefined;
  /** Told when the stream stops early because the source threw, or an item cannot be written as JSON. */
  onError?: (error: unknown) => void;
  /**
   * The protocol's error item, sent last when the stream stops early (an item failed its check, or the source threw)
   * so the client learns that the stream broke rather than seeing it end; without it, or when it gives undefined, the
   * stream just ends.
   */
  endWith?: (reason: string) => unknown;
  /** Aborted when the reader goes away, so the producer can stop. */
  abort?: AbortController;
  /**
   * For SSE: the event id of an item, sent as its `id:` line (by its string form) so a client can resume with
   * Last-Event-ID; undefined for none.
   */
  idOf?: (item: unknown) => unknown;
  /**
   * The JSON text of an item as sent (default `JSON.stringify`): a binding that sends each item inside an envelope of
   * its own builds the envelope's text here, around the item's, with no wrapper object and no second iterable.
   */
  json?: (item: unknown) => string;
  /**
   * The protocol's error item for a source that threw, sent last in place of `endWith`'s: for a binding whose own
   * errors are items (a JSON-RPC error response). When given, `onError` is not told of what the source threw: this
   * hook decides what is a fault.
   */
  thrown?: (error: unknown) => unknown;
}

const encoder = new TextEncoder();

/**
 * The text of one item: an SSE event with a single `data:` line (after its `id:` line, the string form of `id`, unless
 * that is undefined), or an NDJSON line.
 */
export function encodeText(item: unknown, framing: StreamFraming, id?: unknown): string {
  return frameText(JSON.stringify(item), framing, id);
}

/** The text of one item whose JSON text is `json`, framed as {@link encodeText} frames it. */
export function frameText(json: string, framing: StreamFraming, id?: unknown): string {
  // JSON text never holds a raw newline, so one `data:` line always holds the whole item.
  if (framing === 'ndjson') return `${json}\n`;
  if (id === undefined) return `data: ${json}\n\n`;
  // An id with a line break would end the field early; such an id is not sent.
  const text = String(id);
  return text.includes('\n') || text.includes('\r') ? `data: ${json}\n\n` : `id: ${text}\ndata: ${json}\n\n`;
}

/** {@link encodeText}, as UTF-8 bytes. */
export function encodeItem(item: unknown, framing: StreamFraming, id?: unknown): Uint8Array {
  return encoder.encode(encodeText(item, framing, id));
}

/**
 * The text of the protocol's error item for a stream stopped early, or undefined when it declares none: `thrown`'s
 * for what the source threw (`failure`), when the options have that hook, else `endWith`'s for `reason`.
 */
export function endText(
  options: WriteStreamOptions,
  reason: string,
  framing: StreamFraming,
  failure?: { error: unknown },
): string | undefined {
  const { endWith, thrown } = options;
  if (failure && thrown) return endItemText(() => thrown(failure.error), options, framing);
  return endWith ? endItemText(() => endWith(reason), options, framing) : undefined;
}

/** The text of the error item `make` builds, or undefined when it builds none or throws. */
function endItemText(
  make: () => unknown,
  options: WriteStreamOptions,
  framing: StreamFraming,
): string | undefined {
  try {
    const item = make();
    return item === undefined ? undefined : encodeText(item, framing);
  } catch (error) {
    // A hook that throws, or gives what JSON cannot hold, still leaves the stream to end.
    options.onError?.(error);
    return undefined;
  }
}

/**
 * Turns an async iterable of items into a byte stream framed as SSE or NDJSON. Pull-based: the producer runs only as
 * fast as the reader reads. When the reader cancels (a client disconnect), `abort` fires and the producer's
 * iterator is closed, so a generator's `finally` blocks run.
 */
export function writeStream(
  items: AsyncIterable<unknown>,
  framing: StreamFraming,
  options: WriteStreamOptions = {},
): ReadableStream<Uint8Array> {
  const iterator = items[Symbol.asyncIterator]();
  let index = 0;
  // The next item, asked for but not yet sent: a batch ends when the producer is not ready with it.
  let pending: Promise<IteratorResult<unknown>> | undefined;
  const stop = async () => {
    options.abort?.abort(new Error('the client went away'));
    await iterator.return?.();
  };
  return new ReadableStream<Uint8Array>({
    /**
     * Sends every item the producer has ready as one chunk (one write to the socket), and at least one: items that a
     * generator yields back to back go out together, while an item the producer is still working on never holds up
     * the ones before it.
     */
    async pull(controller) {
      const chunks: Uint8Array[] = [];
      let size = 0;
      let yielded = false;
      const flush = () => {
        if (chunks.length === 1 && chunks[0] !== undefined) controller.enqueue(chunks[0]);
        else if (chunks.length > 1) {
          const all = new Uint8Array(size);
          let at = 0;
          for (const c of chunks) {
            all.set(c, at);
            at += c.byteLength;
          }
          controller.enqueue(all);
        }
      };
      const pushEnd = (reason: string, failure?: { error: unknown }) => {
        const text = endText(options, reason, framing, failure);
        if (text === undefined) return;
        const bytes = encoder.encode(text);
        chunks.push(bytes);
        size += bytes.byteLength;
      };
      // Resolves once everything already queued (the producer's synchronous steps) has run.
      const idle = new Promise<'idle'>((resolve) => setImmediate(() => resolve('idle')));
      while (true) {
        const next = pending ?? iterator.next();
        pending = undefined;
        let result: IteratorResult<unknown> | 'idle';
        try {
          result = chunks.length === 0 ? await next : await Promise.race([next, idle]);
        } catch (error) {
          if (!options.thrown) options.onError?.(error);
          pushEnd('the agent failed while streaming', { error });
          flush();
          controller.close();
          return;
        }
        if (result === 'idle') {
          pending = next;
          break;
        }
        if (result.done) {
          flush();
          controller.close();
          return;
        }
        const problem = options.check?.(result.value, index);
        if (problem !== undefined) {
          pushEnd(problem);
          flush();
          controller.close();
          await iterator.return?.();
          return;
        }
        index++;
        const value = result.value;
        const bytes = options.json
          ? encoder.encode(frameText(options.json(value), framing, options.idOf?.(value)))
          : encodeItem(value, framing, options.idOf?.(value));
        chunks.push(bytes);
        size += bytes.byteLength;
        yielded = true;
        // Large batches go out as they fill.
        if (size >= 64 * 1024) break;
      }
      if (yielded) flush();
    },
    async cancel() {
      await stop();
    },
  });
}
