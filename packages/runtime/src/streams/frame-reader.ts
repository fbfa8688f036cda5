// The items of a stream, read as its chunks are pushed, in one synchronous pass: no promise or async step per chunk or
// item, so a reader on a hot path (the validating proxy checks every item it passes on) pays only for the text. The
// async readers (`readFrames`) are this one fed from an async iterable.
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { LineSplitter } from './line-splitter.js';
import type { Frame, StreamFraming } from './read-frames.js';

/**
 * Cuts pushed chunks (bytes, decoded as UTF-8 across chunk boundaries, or text) into frames and hands each to `onFrame`
 * as soon as it is complete. NDJSON: every non-blank line is an item. SSE: every dispatched event is an item (parsed by
 * eventsource-parser); comments and `retry:` are skipped, and an event still open at `end()` is dropped, as the
 * EventSource standard says. A line longer than `maxItemLength` is not kept: its frame says how long it was.
 */
export class FrameReader {
  private readonly splitter: LineSplitter;
  private readonly utf8 = new Utf8Chunks();
  private readonly onLine: (text: string, tooLong?: number) => void;
  private line = 0;
  private index = 0;
  /** SSE: the line where the event being read started, 0 between events. */
  private eventStart = 0;

  constructor(
    framing: StreamFraming,
    onFrame: (frame: Frame) => void,
    maxItemLength = Number.POSITIVE_INFINITY,
  ) {
    this.splitter = new LineSplitter(framing === 'ndjson' ? 'lf' : 'any', maxItemLength);
    if (framing === 'ndjson') {
      this.onLine = (text, tooLong) => {
        const line = ++this.line;
        if (tooLong !== undefined) onFrame({ index: ++this.index, line, data: '', tooLong });
        else if (text.trim() !== '') onFrame({ index: ++this.index, line, data: text });
      };
      return;
    }
    let eventTooLong: number | undefined;
    const parser: EventSourceParser = createParser({
      onEvent: (message) => {
        const frame: Frame = { index: ++this.index, line: this.eventStart, data: message.data };
        if (message.id !== undefined) frame.id = message.id;
        if (message.event !== undefined) frame.event = message.event;
        if (eventTooLong !== undefined) {
          frame.data = '';
          frame.tooLong = eventTooLong;
        }
        onFrame(frame);
      },
    });
    this.onLine = (text, tooLong) => {
      const line = ++this.line;
      if (tooLong !== undefined) {
        // The field is dropped; the event it belonged to is still told apart, as too long.
        if (this.eventStart === 0) this.eventStart = line;
        eventTooLong = tooLong;
        parser.feed('data:\n');
        return;
      }
      if (this.eventStart === 0 && text !== '' && !text.startsWith(':')) this.eventStart = line;
      // A blank line dispatches the event that started at eventStart; the next line starts a new one.
      parser.feed(`${text}\n`);
      if (text === '') {
        this.eventStart = 0;
        eventTooLong = undefined;
      }
    };
  }

  /** Feeds one chunk; every frame it completes goes to `onFrame` before this returns. */
  push(chunk: string | Uint8Array): void {
    this.splitter.push(typeof chunk === 'string' ? chunk : this.utf8.decode(chunk), this.onLine);
  }

  /** Ends the input: the last line, if it had no line break after it, and what the decoder still held. */
  end(): void {
    this.splitter.push(this.utf8.end(), this.onLine);
    this.splitter.end(this.onLine);
  }

  /**
   * SSE, once the input has ended: the line where an event starts that no blank line ended (the input was cut inside
   * it, and it is dropped, as the EventSource standard says); 0 when every event was ended.
   */
  get openEventLine(): number {
    return this.eventStart;
  }

  /** How many lines the reader has read so far. */
  get lines(): number {
    return this.line;
  }
}

/**
 * Decodes UTF-8 chunks into text exactly as one streaming TextDecoder would (a leading byte order mark dropped, bad
 * bytes as U+FFFD), but several times faster: each chunk is decoded in one plain `decode` call, and only a character
 * cut by the chunk's end (up to 3 bytes) is held for the next one. (Node 20's TextDecoder takes a slower path for
 * every `{ stream: true }` call.)
 */
export class Utf8Chunks {
  // The BOM is dropped by hand, once, at the start: a plain decode would drop one at the start of every chunk.
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private tail: Uint8Array | undefined;
  private started = false;

  /** The text of one more chunk: every character that ends in it. */
  decode(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.tail) {
      bytes = new Uint8Array(this.tail.length + chunk.length);
      bytes.set(this.tail);
      bytes.set(chunk, this.tail.length);
      this.tail = undefined;
    }
    const cut = completeLength(bytes);
    // A copy: a Buffer's slice would share memory with a chunk its owner may reuse.
    if (cut < bytes.length) this.tail = new Uint8Array(bytes.subarray(cut));
    return this.start(
      cut === bytes.length ? this.decoder.decode(bytes) : this.decoder.decode(bytes.subarray(0, cut)),
    );
  }

  /** What is left at the end: a character cut short becomes U+FFFD. */
  end(): string {
    const tail = this.tail;
    this.tail = undefined;
    return tail ? this.start(this.decoder.decode(tail)) : '';
  }

  private start(text: string): string {
    if (this.started || text === '') return text;
    this.started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

/**
 * How many of `bytes` end on a character boundary: all of them, unless their last character is a sequence cut short
 * (a lead byte whose continuation bytes have not all come). Anything else (a stray continuation byte, a byte that
 * leads nothing) is left for the decoder to replace, as it would be in one pass.
 */
function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  // A UTF-8 character is at most 4 bytes: its lead byte is among the last 3 if it is cut short.
  for (let i = n - 1; i >= 0 && i >= n - 3; i--) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) return n;
    if (b < 0xc0) continue; // a continuation byte: look further back for its lead
    const needs = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    return n - i < needs ? i : n;
  }
  return n;
}
