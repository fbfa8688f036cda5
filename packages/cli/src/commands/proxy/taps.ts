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
import { type ParsedFrame, parseFrames, readFrames, type StreamFraming } from '@agentproto/runtime/contract';

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
  private size = 0;
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
    this.held.take(chunk.length);
  }

  /** The bytes collected (undefined past the limit), for an answer the proxy rewrites before passing it on. */
  bytes(): Buffer | undefined {
    return this.over ? undefined : Buffer.concat(this.chunks);
  }

  /** The body, once it has all passed; the tap holds nothing afterwards. */
  read(): ReadBody {
    if (this.over) {
      return {
        kind: 'unchecked',
        reason: `the body is longer than ${this.limit} bytes (limit bodyBytes): passed on, not checked`,
      };
    }
    let bytes = Buffer.concat(this.chunks);
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

  private drop(): void {
    this.held.release(this.chunks.reduce((n, c) => n + c.length, 0));
    this.chunks = [];
  }
}

/**
 * Reads a stream's items from the chunks that pass, as `agentproto validate` and the inspector read them
 * (`readFrames`): the chunks wait in a queue the reader empties after each one, so it holds about one chunk; should it
 * hold more than `limit` bytes (a reader that cannot keep up), the tap stops reading and says so through `onStop`.
 * SSE events without data (a keep-alive, a priming `id:`) are not items: the EventSource standard dispatches none.
 */
export class StreamTap {
  private queue: Buffer[] = [];
  private queued = 0;
  private wake: (() => void) | undefined;
  private ended = false;
  private stopped = false;
  private readonly decoder: Gunzip | Inflate | BrotliDecompress | undefined;
  /** Resolves when every item that passed has been read. */
  readonly done: Promise<void>;

  constructor(
    framing: StreamFraming,
    encoding: string | undefined,
    private readonly limit: number,
    private readonly held: HeldBytes,
    onFrame: (frame: ParsedFrame) => void,
    private readonly onStop: (reason: string) => void,
  ) {
    const coding = codingOf(encoding);
    if (coding === undefined) {
      this.stop(`the stream is in the content coding "${encoding}": not checked`);
      this.done = Promise.resolve();
      return;
    }
    if (coding !== 'identity') {
      this.decoder = DECODERS[coding].stream();
      this.decoder.on('data', (chunk: Buffer) => this.enqueue(chunk));
      this.decoder.on('end', () => this.finish());
      this.decoder.on('error', (error) =>
        this.stop(`the ${coding} stream does not decode: ${error.message}`),
      );
    }
    this.done = (async () => {
      for await (const frame of parseFrames(readFrames(this.chunks(), framing, limit))) {
        if (this.stopped) break;
        if (framing === 'sse' && frame.tooLong === undefined && frame.data === '') continue;
        onFrame(frame);
      }
    })();
  }

  /** A copy of one chunk that passed. */
  push(chunk: Buffer): void {
    if (this.stopped) return;
    if (this.decoder) this.decoder.write(chunk);
    else this.enqueue(chunk);
  }

  /** The stream ended (or broke): what was read so far is all there is. */
  end(): void {
    if (this.decoder && !this.stopped) this.decoder.end();
    else this.finish();
  }

  /** Whether the tap gave up before the end (a limit, or a coding it cannot undo). */
  get gaveUp(): boolean {
    return this.stopped;
  }

  private enqueue(chunk: Buffer): void {
    if (this.stopped) return;
    this.queue.push(chunk);
    this.queued += chunk.length;
    this.held.take(chunk.length);
    if (this.queued > this.limit) {
      this.stop(
        `more than ${this.limit} bytes of the stream waited to be checked (limit itemLength): passed on, not checked further`,
      );
      return;
    }
    this.wake?.();
  }

  private finish(): void {
    this.ended = true;
    this.wake?.();
  }

  private stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.held.release(this.queued);
    this.queue = [];
    this.queued = 0;
    this.decoder?.destroy();
    this.onStop(reason);
    this.finish();
  }

  private async *chunks(): AsyncGenerator<Buffer> {
    for (;;) {
      const chunk = this.queue.shift();
      if (chunk) {
        this.queued -= chunk.length;
        this.held.release(chunk.length);
        yield chunk;
        continue;
      }
      if (this.ended || this.stopped) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }
}
