import type { StreamFraming } from './read-frames.js';

/** Options of {@link writeStream}. */
export interface WriteStreamOptions {
  /** Checks an item before it is sent; returning a message stops the stream there (the item is not sent). */
  check?: (item: unknown, index: number) => string | undefined;
  /** Told when the stream stops early: an item failed its check, or the source threw. */
  onError?: (error: unknown) => void;
  /** Aborted when the reader goes away, so the producer can stop. */
  abort?: AbortController;
  /** For SSE: the event id of an item, sent as its `id:` line so a client can resume with Last-Event-ID. */
  idOf?: (item: unknown) => string | number | undefined;
}

const encoder = new TextEncoder();

/** The bytes of one item: an SSE event with a single `data:` line (after its `id:` line, if any), or an NDJSON line. */
export function encodeItem(item: unknown, framing: StreamFraming, id?: string | number): Uint8Array {
  // JSON.stringify never emits a raw newline, so one `data:` line always holds the whole item.
  const json = JSON.stringify(item);
  if (framing === 'ndjson') return encoder.encode(`${json}\n`);
  // An id with a line break would end the field early; such an id is not sent.
  const idLine = id === undefined || /[\r\n]/.test(String(id)) ? '' : `id: ${id}\n`;
  return encoder.encode(`${idLine}data: ${json}\n\n`);
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
  const stop = async () => {
    options.abort?.abort(new Error('the client went away'));
    await iterator.return?.();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: IteratorResult<unknown>;
      try {
        next = await iterator.next();
      } catch (error) {
        options.onError?.(error);
        controller.close();
        return;
      }
      if (next.done) {
        controller.close();
        return;
      }
      const problem = options.check?.(next.value, index);
      if (problem !== undefined) {
        options.onError?.(new Error(`stream item ${index + 1} breaks the protocol: ${problem}`));
        controller.close();
        await iterator.return?.();
        return;
      }
      index++;
      controller.enqueue(encodeItem(next.value, framing, options.idOf?.(next.value)));
    },
    async cancel() {
      await stop();
    },
  });
}
