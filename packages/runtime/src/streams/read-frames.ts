// Reading streams (NDJSON, and server-sent events with eventsource-parser): frames with their line numbers, parsed
// items, bounded line lengths, and an idle timeout, in flat memory.
import { errorMessage } from '../unknown-values.js';
import { FrameReader, Utf8Chunks } from './frame-reader.js';
import { type LineEnds, LineSplitter, type OnLine } from './line-splitter.js';
import { withTimeout } from './timeout.js';

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
  /** Set when the item was longer than the reader keeps: its length in characters (`data` is then empty). */
  tooLong?: number;
}

/** One item of a stream, parsed: its JSON value, or why its text is not JSON. */
export type ParsedFrame = (Frame & { ok: true; value: unknown }) | (Frame & { ok: false; error: string });

/** The longest item (line, or SSE event field) the readers keep, in characters, unless told otherwise: 64 Mi. */
export const DEFAULT_MAX_ITEM_LENGTH = 64 * 1024 * 1024;

/**
 * Splits text chunks into lines, in order, in one linear pass. `ends: 'any'` (the default, the SSE rule) ends lines at
 * LF, CRLF or a lone CR; `'lf'` (NDJSON) only at LF, dropping the CR of a CRLF.
 */
export async function* readLines(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  ends: LineEnds = 'any',
): AsyncGenerator<string> {
  const ready: string[] = [];
  yield* fed(chunks, new LineSplitter(ends), (line) => void ready.push(line), ready);
}

/**
 * Decodes chunks into a splitter and, after each chunk and at the end, yields what its lines put in `ready`: one
 * async step per chunk, never per line.
 */
async function* fed<T>(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  splitter: LineSplitter,
  onLine: OnLine,
  ready: T[],
): AsyncGenerator<T> {
  const utf8 = new Utf8Chunks();
  for await (const chunk of chunks) {
    splitter.push(typeof chunk === 'string' ? chunk : utf8.decode(chunk), onLine);
    yield* ready.splice(0);
  }
  splitter.push(utf8.end(), onLine);
  splitter.end(onLine);
  yield* ready.splice(0);
}

/**
 * Reads the items of a stream, one frame each, with the line where each starts. NDJSON: every non-blank line is an
 * item. SSE: every dispatched event is an item (parsed by eventsource-parser); comments and `retry:` are skipped, and
 * an event still open when the input ends is dropped, as the EventSource standard says: `onCut` hears the line it
 * starts on (a capture cut short).
 */
export async function* readFrames(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  framing: StreamFraming,
  maxItemLength = DEFAULT_MAX_ITEM_LENGTH,
  onCut?: (line: number) => void,
): AsyncGenerator<Frame> {
  const ready: Frame[] = [];
  const reader = new FrameReader(framing, (frame) => void ready.push(frame), maxItemLength);
  // One async step per chunk, never per item.
  for await (const chunk of chunks) {
    reader.push(chunk);
    yield* ready.splice(0);
  }
  reader.end();
  yield* ready.splice(0);
  if (onCut && reader.openEventLine > 0) onCut(reader.openEventLine);
}

/**
 * Calls `each` for every item of an NDJSON stream, parsed, as chunks arrive: the same frames as
 * `parseFrames(readFrames(chunks, 'ndjson'))`, without an async step per line, for inputs of millions of lines.
 * Returns how many items and lines it read.
 */
export async function eachNdjsonItem(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  each: (frame: ParsedFrame) => void,
  maxItemLength = DEFAULT_MAX_ITEM_LENGTH,
): Promise<{ items: number; lines: number }> {
  const splitter = new LineSplitter('lf', maxItemLength);
  let line = 0;
  let index = 0;
  const onLine = (text: string, tooLong?: number) => {
    line++;
    if (tooLong !== undefined) {
      index++;
      each({ index, line, data: '', tooLong, ok: false, error: tooLongError(tooLong) });
      return;
    }
    if (text.trim() === '') return;
    index++;
    try {
      each({ index, line, data: text, ok: true, value: JSON.parse(text) });
    } catch (error) {
      each({ index, line, data: text, ok: false, error: notJson(error) });
    }
  };
  for await (const _ of fed(chunks, splitter, onLine, [])) {
    // Items go to `each` as their lines end; nothing is yielded.
  }
  return { items: index, lines: line };
}

function tooLongError(length: number): string {
  return `an item of ${length} characters is longer than this reader keeps`;
}

/** Why a text is not JSON; a value nested too deeply for the parser says so rather than "call stack". */
function notJson(error: unknown): string {
  if (error instanceof RangeError) return 'not JSON this reader can hold: it nests too deeply';
  return `not JSON: ${errorMessage(error)}`;
}

/** Parses each frame's text as JSON; a frame that is not JSON comes back with the parser's complaint. */
export async function* parseFrames(frames: AsyncIterable<Frame>): AsyncGenerator<ParsedFrame> {
  for await (const frame of frames) yield parseFrame(frame);
}

/** Parses one frame's text as JSON: its value, or the parser's complaint (or that the item was too long to keep). */
export function parseFrame(frame: Frame): ParsedFrame {
  if (frame.tooLong !== undefined)
    return withFields(frame, { ok: false, error: tooLongError(frame.tooLong) });
  let value: unknown;
  try {
    value = JSON.parse(frame.data);
  } catch (error) {
    return withFields(frame, { ok: false, error: notJson(error) });
  }
  return withFields(frame, { ok: true, value });
}

/**
 * A frame with its parse's fields after its own, which are copied one by one. Not `{ ...frame, ok, value }`: V8
 * (Node 20) makes an object whose literal starts with a spread in a shape that each field added after it rebuilds,
 * some hundred times slower than this (measured at about 10 µs an item, more than the JSON.parse).
 */
function withFields<T extends { ok: boolean }>(frame: Frame, fields: T): Frame & T {
  const out: Frame = { index: frame.index, line: frame.line, data: frame.data };
  if (frame.id !== undefined) out.id = frame.id;
  if (frame.event !== undefined) out.event = frame.event;
  if (frame.tooLong !== undefined) out.tooLong = frame.tooLong;
  return Object.assign(out, fields);
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
  /** Skip SSE events that carry no data (a priming event with only an id), rather than failing on them as not JSON. */
  skipEmptyEvents?: boolean;
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
    if (
      options.skipEmptyEvents &&
      framing === 'sse' &&
      frame.tooLong === undefined &&
      frame.data.trim() === ''
    )
      continue;
    if (!frame.ok)
      throw new StreamReadError(
        `item ${frame.index} (line ${frame.line}) is ${frame.error}`,
        frame.index,
        frame.line,
      );
    // sound: T is the item type the caller names for the stream (by default unknown, which claims nothing); items
    // are not validated here, so a caller naming a type trusts the peer's items to have it.
    yield frame.value as T;
  }
}

async function* chunksOf(
  body: ReadableStream<Uint8Array>,
  options: ReadItemsOptions,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  const onAbort = () => void reader.cancel(options.signal?.reason).catch(() => {});
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let received = 0;
  try {
    while (true) {
      const next = reader.read();
      const idle = options.idleTimeoutMs;
      const result =
        idle === undefined
          ? await next
          : await withTimeout(
              next,
              idle,
              () => new StreamReadError(`the stream sent nothing for ${idle} ms`, 0, 0),
            );
      if (result.done) return;
      received += result.value.byteLength;
      yield result.value;
    }
  } catch (error) {
    if (error instanceof StreamReadError) throw error;
    if (options.signal?.aborted) throw options.signal.reason;
    throw new StreamReadError(`the stream broke after ${received} bytes: ${errorMessage(error)}`, 0, 0);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await reader.cancel().catch(() => {});
  }
}
