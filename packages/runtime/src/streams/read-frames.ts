import { createParser } from 'eventsource-parser';

/** How a streamed body frames its items: `sse` puts each in a `data:` field, `ndjson` puts each on its own line. */
export type StreamFraming = 'sse' | 'ndjson';

/** One item of a stream as read from the wire, before its JSON is parsed. */
export interface Frame {
  /** 1-based position of the item in the stream. */
  index: number;
  /** 1-based line of the input where the item starts. */
  line: number;
  /** The item's text: the NDJSON line, or the SSE event's data (its `data:` lines joined by newlines). */
  data: string;
  /** For SSE, the event's `id:` field, when it had one. */
  id?: string;
  /** For SSE, the event's `event:` field, when it had one. */
  event?: string;
}

/** One item of a stream, parsed: its JSON value, or why its text is not JSON. */
export type ParsedFrame = (Frame & { ok: true; value: unknown }) | (Frame & { ok: false; error: string });

/**
 * Splits text chunks into lines, in order, without holding more than one partial line. Lines end at LF, CRLF or a
 * lone CR (the SSE rule; NDJSON writers use LF or CRLF).
 */
export async function* readLines(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of chunks) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let i = 0; i < rest.length; i++) {
      const c = rest.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for the next chunk.
      if (c === 13 && i === rest.length - 1) break;
      yield rest.slice(start, i);
      if (c === 13 && rest.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    rest = rest.slice(start);
  }
  rest += decoder.decode();
  if (rest.endsWith('\r')) rest = rest.slice(0, -1);
  if (rest !== '') yield rest;
}

/**
 * Reads the items of a stream, one frame each, with the line where each starts. NDJSON: every non-blank line is an
 * item. SSE: every dispatched event is an item (parsed by eventsource-parser); comments and `retry:` are skipped, and
 * an event still open when the input ends is dropped, as the EventSource standard says.
 */
export async function* readFrames(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  framing: StreamFraming,
): AsyncGenerator<Frame> {
  let line = 0;
  let index = 0;
  if (framing === 'ndjson') {
    for await (const text of readLines(chunks)) {
      line++;
      if (text.trim() === '') continue;
      yield { index: ++index, line, data: text };
    }
    return;
  }
  const ready: Frame[] = [];
  let eventStart = 0;
  const parser = createParser({
    onEvent(message) {
      const frame: Frame = { index: ++index, line: eventStart, data: message.data };
      if (message.id !== undefined) frame.id = message.id;
      if (message.event !== undefined) frame.event = message.event;
      ready.push(frame);
    },
  });
  for await (const text of readLines(chunks)) {
    line++;
    if (eventStart === 0 && text !== '' && !text.startsWith(':')) eventStart = line;
    // A blank line dispatches the event that started at eventStart; the next line starts a new one.
    parser.feed(`${text}\n`);
    if (text === '') eventStart = 0;
    while (ready.length > 0) yield ready.shift() as Frame;
  }
}

/**
 * Calls `each` for every item of an NDJSON stream, parsed, as chunks arrive: the same frames as
 * `parseFrames(readFrames(chunks, 'ndjson'))`, without an async step per line, for inputs of millions of lines.
 * Returns how many items and lines it read.
 */
export async function eachNdjsonItem(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  each: (frame: ParsedFrame) => void,
): Promise<{ items: number; lines: number }> {
  const decoder = new TextDecoder();
  let rest = '';
  let line = 0;
  let index = 0;
  const take = (text: string) => {
    line++;
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (trimmed.trim() === '') return;
    index++;
    try {
      each({ index, line, data: trimmed, ok: true, value: JSON.parse(trimmed) });
    } catch (error) {
      each({ index, line, data: trimmed, ok: false, error: `not JSON: ${(error as Error).message}` });
    }
  };
  for await (const chunk of chunks) {
    const text = rest + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      take(text.slice(start, nl));
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.decode();
  if (rest !== '') take(rest);
  return { items: index, lines: line };
}

/** Parses each frame's text as JSON; a frame that is not JSON comes back with the parser's complaint. */
export async function* parseFrames(frames: AsyncIterable<Frame>): AsyncGenerator<ParsedFrame> {
  for await (const frame of frames) {
    try {
      yield { ...frame, ok: true, value: JSON.parse(frame.data) };
    } catch (error) {
      yield { ...frame, ok: false, error: `not JSON: ${(error as Error).message}` };
    }
  }
}

/** A stream item that could not be read. */
export class StreamReadError extends Error {
  override name = 'StreamReadError';
  constructor(
    message: string,
    /** 1-based position of the item. */
    readonly index: number,
    /** 1-based line where it starts. */
    readonly line: number,
  ) {
    super(message);
  }
}

/** Options of {@link readItems}. */
export interface ReadItemsOptions {
  /** Give up when no bytes arrive for this long, in milliseconds. */
  idleTimeoutMs?: number;
  /** Stop reading when this aborts. */
  signal?: AbortSignal;
}

/**
 * Reads a streamed response body as JSON items. Throws StreamReadError for an item that is not JSON, when the body
 * stalls longer than `idleTimeoutMs`, or when the connection breaks; a client never hangs on a dead stream.
 */
export async function* readItems<T = unknown>(
  body: ReadableStream<Uint8Array>,
  framing: StreamFraming,
  options: ReadItemsOptions = {},
): AsyncGenerator<T> {
  for await (const frame of parseFrames(readFrames(chunksOf(body, options), framing))) {
    if (!frame.ok)
      throw new StreamReadError(
        `item ${frame.index} (line ${frame.line}) is ${frame.error}`,
        frame.index,
        frame.line,
      );
    yield frame.value as T;
  }
}

async function* chunksOf(
  body: ReadableStream<Uint8Array>,
  options: ReadItemsOptions,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => void reader.cancel(options.signal?.reason).catch(() => {});
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let received = 0;
  try {
    while (true) {
      const next = reader.read();
      const result =
        options.idleTimeoutMs === undefined
          ? await next
          : await Promise.race([
              next,
              new Promise<never>((_, reject) => {
                timer = setTimeout(
                  () =>
                    reject(
                      new StreamReadError(`the stream sent nothing for ${options.idleTimeoutMs} ms`, 0, 0),
                    ),
                  options.idleTimeoutMs,
                );
              }),
            ]);
      clearTimeout(timer);
      if (result.done) return;
      received += result.value.byteLength;
      yield result.value;
    }
  } catch (error) {
    if (error instanceof StreamReadError) throw error;
    if (options.signal?.aborted) throw options.signal.reason;
    throw new StreamReadError(`the stream broke after ${received} bytes: ${(error as Error).message}`, 0, 0);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    await reader.cancel().catch(() => {});
  }
}
