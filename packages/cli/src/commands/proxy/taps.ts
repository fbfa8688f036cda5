// What the proxy reads of the bytes it passes on, for checking, and no more than its limits: a whole body up to
// `bodyBytes`, or a stream item by item with items up to `itemLength`. The bytes themselves go on unchanged; a tap
// only sees copies of the chunks, and drops them once they are checked.
import {
  type BrotliDecompress,
  brotliDecompressSync,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  type Gunzip,
  gunzipSync,
  type Inflate,
  inflateSync,
} from 'node:zlib';
import {
  type Frame,
  FrameReader,
  type ParsedFrame,
  parseFrame,
  type StreamFraming,
} from '@agentproto/runtime/contract';
import { SseItems, type StreamItemSink } from './sse-items.js';

/** How many bytes the taps hold at once, and the most they ever held: what the limits bound. */
export class HeldBytes {
  now = 0;
  max = 0;
  take(bytes: number): void {
    this.now += bytes;
    if (this.now > this.max) this.max = this.now;
  }
  release(bytes: number): void {
    this.now -= bytes;
  }
}

/** A whole body as the checks see it. */
export type ReadBody =
  | { kind: 'empty' }
  | { kind: 'value'; value: unknown; json: boolean }
  | { kind: 'unchecked'; reason: string };

/** The content codings the taps can undo (RFC 9110 §8.4.1); an answer in another is passed on unchecked. */
const DECODERS = {
  gzip: { sync: gunzipSync, stream: createGunzip },
  'x-gzip': { sync: gunzipSync, stream: createGunzip },
  deflate: { sync: inflateSync, stream: createInflate },
  br: { sync: brotliDecompressSync, stream: createBrotliDecompress },
} as const;

/** The coding named by a Content-Encoding header, `identity` when none; undefined for one the taps cannot undo. */
function codingOf(header: string | undefined): keyof typeof DECODERS | 'identity' | undefined {
  const coding = (header ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return 'identity';
  return coding in DECODERS ? (coding as keyof typeof DECODERS) : undefined; // sound: just checked to be a key
}

/**
 * Collects a whole body, up to `limit` bytes (before and after decoding), and reads it as JSON when it parses, else
 * as text, as the inspector reads answers.
 */
export class BodyTap {
  private chunks: Buffer[] = [];
  /** Bytes seen, and bytes kept (and counted as held). */
  private size = 0;
  private kept = 0;
  private over = false;

  constructor(
    private readonly limit: number,
    private readonly held: HeldBytes,
    private readonly encoding?: string,
  ) {}

  /** A copy of one chunk that passed. */
  push(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.over) return;
    if (this.size > this.limit) {
      this.over = true;
      this.drop();
      return;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
    this.held.take(chunk.length);
  }

  /** The body, once it has all passed; the tap holds nothing afterwards. */
  read(): ReadBody {
    if (this.over) {
      return {
        kind: 'unchecked',
        reason: `the body is longer than ${this.limit} bytes (limit bodyBytes): passed on, not checked`,
      };
    }
    // One chunk (most bodies) is read where it is, not copied.
    let bytes = this.chunks.length === 1 && this.chunks[0] ? this.chunks[0] : Buffer.concat(this.chunks);
    this.drop();
    if (bytes.length === 0) return { kind: 'empty' };
    const coding = codingOf(this.encoding);
    if (coding === undefined)
      return {
        kind: 'unchecked',
        reason: `the body is in the content coding "${this.encoding}": not checked`,
      };
    if (coding !== 'identity') {
      try {
        bytes = DECODERS[coding].sync(bytes, { maxOutputLength: this.limit });
      } catch (error) {
        return {
          kind: 'unchecked',
          reason: `the ${coding} body does not decode within ${this.limit} bytes (limit bodyBytes): ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    }
    const text = bytes.toString('utf8');
    try {
      return { kind: 'value', value: JSON.parse(text), json: true };
    } catch {
      return { kind: 'value', value: text, json: false };
    }
  }

  /** Lets go of what the tap holds, unread (the exchange was cut). */
  dispose(): void {
    this.over = true;
    this.drop();
  }

  private drop(): void {
    this.held.release(this.kept);
    this.kept = 0;
    this.chunks = [];
  }
}

/**
 * Reads a stream's items from the chunks that pass, as `agentproto validate` and the inspector read them, synchronously:
 * each chunk is read, and its complete items handed to the sink, before `push` returns, so nothing waits to be read.
 * SSE is read from the bytes in one pass (SseItems); NDJSON by the runtime's FrameReader, which `readFrames` is built
 * on. What the tap keeps between chunks is the line being read, which the readers bound at `limit` characters (a
 * longer one is reported too long, not kept). SSE events without data (a keep-alive, a priming `id:`) are not items:
 * the EventSource standard dispatches none.
 */
export class StreamTap {
  private ended = false;
  private stopped = false;
  private readonly sse: SseItems | undefined;
  private readonly lines: FrameReader | undefined;
  private readonly decoder: Gunzip | Inflate | BrotliDecompress | undefined;
  private settle: () => void = () => {};
  /** Resolves when every item that passed has been read. */
  readonly done: Promise<void>;

  constructor(
    framing: StreamFraming,
    encoding: string | undefined,
    limit: number,
    private readonly held: HeldBytes,
    private readonly sink: StreamItemSink,
    private readonly onStop: (reason: string) => void,
  ) {
    this.done = new Promise<void>((resolve) => {
      this.settle = resolve;
    });
    if (framing === 'sse') this.sse = new SseItems(limit, this);
    else this.lines = new FrameReader(framing, (frame) => this.frame(frame), limit);
    const coding = codingOf(encoding);
    if (coding === undefined) {
      this.stop(`the stream is in the content coding "${encoding}": not checked`);
      return;
    }
    if (coding !== 'identity') {
      const decoder = DECODERS[coding].stream();
      this.decoder = decoder;
      decoder.on('data', (chunk: Buffer) => this.read(chunk, 0, chunk.length));
      decoder.on('end', () => this.finish());
      decoder.on('error', (error) => this.stop(`the ${coding} stream does not decode: ${error.message}`));
    }
  }

  /** An SSE item whose text is JSON (SseItems' sink): passed on unless the tap has given up. */
  itemValue(index: number, value: unknown): void {
    if (!this.stopped) this.sink.itemValue(index, value);
  }

  /** An SSE item that is not JSON, or too long (SseItems' sink). */
  itemFailed(frame: ParsedFrame): void {
    if (!this.stopped) this.sink.itemFailed(frame);
  }

  /** Bytes of the stream that passed, `buf` from `from` to `to` (read before this returns; no view of them kept). */
  push(buf: Buffer, from: number, to: number): void {
    if (this.stopped || this.ended) return;
    if (this.decoder) this.decoder.write(buf.subarray(from, to));
    else this.read(buf, from, to);
  }

  /** The stream ended (or broke): what was read so far is all there is. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.decoder && !this.stopped) this.decoder.end();
    else this.finish();
  }

  /** Whether the tap gave up before the end (a coding it cannot undo, or one that does not decode). */
  get gaveUp(): boolean {
    return this.stopped;
  }

  private read(buf: Buffer, from: number, to: number): void {
    if (this.stopped) return;
    // Held while it is read: one chunk at a time.
    this.held.take(to - from);
    try {
      if (this.sse) this.sse.push(buf, from, to);
      else this.lines?.push(buf.subarray(from, to));
    } finally {
      this.held.release(to - from);
    }
  }

  /** An NDJSON item (the FrameReader's): its JSON parsed once. */
  private frame(frame: Frame): void {
    if (this.stopped) return;
    if (frame.tooLong === undefined) {
      let value: unknown;
      let ok = true;
      try {
        value = JSON.parse(frame.data);
      } catch {
        ok = false;
      }
      if (ok) return void this.sink.itemValue(frame.index, value);
    }
    this.sink.itemFailed(parseFrame(frame));
  }

  private finish(): void {
    if (!this.stopped) {
      this.sse?.end();
      this.lines?.end();
    }
    this.settle();
  }

  private stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.decoder?.destroy();
    this.onStop(reason);
    this.settle();
  }
}
