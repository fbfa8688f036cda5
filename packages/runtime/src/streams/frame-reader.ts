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
  private readonly decoder = new TextDecoder();
  private readonly onLine: (text: string, tooLong?: number) => void;
  private line = 0;
  private index = 0;

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
    let eventStart = 0;
    let eventTooLong: number | undefined;
    const parser: EventSourceParser = createParser({
      onEvent: (message) => {
        const frame: Frame = { index: ++this.index, line: eventStart, data: message.data };
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
        if (eventStart === 0) eventStart = line;
        eventTooLong = tooLong;
        parser.feed('data:\n');
        return;
      }
      if (eventStart === 0 && text !== '' && !text.startsWith(':')) eventStart = line;
      // A blank line dispatches the event that started at eventStart; the next line starts a new one.
      parser.feed(`${text}\n`);
      if (text === '') {
        eventStart = 0;
        eventTooLong = undefined;
      }
    };
  }

  /** Feeds one chunk; every frame it completes goes to `onFrame` before this returns. */
  push(chunk: string | Uint8Array): void {
    this.splitter.push(
      typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }),
      this.onLine,
    );
  }

  /** Ends the input: the last line, if it had no line break after it, and what the decoder still held. */
  end(): void {
    this.splitter.push(this.decoder.decode(), this.onLine);
    this.splitter.end(this.onLine);
  }

  /** How many lines the reader has read so far. */
  get lines(): number {
    return this.line;
  }
}
