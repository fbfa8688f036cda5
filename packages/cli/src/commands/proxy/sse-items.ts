// The items of a server-sent event stream, read from its bytes in one pass, for the proxy's stream checks. It reads
// what the runtime's FrameReader reads for `agentproto validate` and the inspector (the HTML standard's parsing of an
// event stream: lines end at LF, CRLF or a lone CR; a blank line dispatches the event; `data` fields are joined by LF;
// comments and other fields are not part of an item), and hands out the same items with the same indexes (a test reads
// random streams, cut at random bytes, with both). It differs in how: it finds line ends in the bytes (Buffer#indexOf),
// tells a line's field by its first bytes, decodes a chunk's text once and takes each `data` value as a slice of it
// (the text JSON.parse reads), and makes no frame object, closure or list per event. A line cut by a chunk's end is
// the one thing kept between chunks.
import { type ParsedFrame, parseFrame } from '@agentproto/runtime/contract';

/** What a reader tells of each item. */
export interface StreamItemSink {
  /** An item whose text is JSON: its 1-based index in the stream, and its value. */
  itemValue(index: number, value: unknown): void;
  /** An item whose text is not JSON, or was too long to keep: the frame says why (`ok` false). */
  itemFailed(frame: ParsedFrame): void;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

/**
 * How many UTF-16 code units (a string's `length`) the UTF-8 bytes of `buf` from `from` to `to` decode to: one per
 * character, two for one beyond U+FFFF (a four-byte sequence). Used only for lines too long to keep.
 */
function utf16Units(buf: Buffer, from: number, to: number): number {
  let units = 0;
  for (let i = from; i < to; i++) {
    const b = buf[i] ?? 0;
    if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** Whether `buf` has a UTF-8 byte order mark (EF BB BF) at `at`. */
function isBom(buf: Buffer, at: number): boolean {
  return buf[at] === 0xef && buf[at + 1] === 0xbb && buf[at + 2] === 0xbf;
}

/**
 * Reads the events of one SSE stream as its bytes are pushed, and hands each item to the sink before `push` returns.
 * A line longer than `limit` characters is not kept: its event is an item that says how long the line was.
 */
export class SseItems {
  /** A line cut by the end of a chunk: its pieces (copies), and their bytes. */
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** The line being read is too long to keep: its length so far, in characters. */
  private droppedUnits = -1;
  /** The last chunk ended in CR: a LF that starts the next one ends the same line. */
  private afterCr = false;
  /** Lines read so far, and the line where the open event started (0 when none has). */
  private line = 0;
  private eventLine = 0;
  /** The open event: its `data` lines joined, how many, and the length of a line of it too long to keep. */
  private data = '';
  private dataLines = 0;
  private tooLong: number | undefined;
  private index = 0;
  /**
   * The chunk being read, and its text from `textFrom` to its end once a `data` value in it has been asked for: one
   * decode per chunk, of which each value is a slice (no copy). Null when the text's offsets are not the bytes' (it
   * has characters of more than one byte): each value is then decoded on its own.
   */
  private chunk: Buffer | undefined;
  private chunkEnd = 0;
  private text: string | null | undefined;
  private textFrom = 0;

  constructor(
    private readonly limit: number,
    private readonly sink: StreamItemSink,
  ) {}

  /** Reads `buf` from `from` to `to`; every item it completes goes to the sink first. Keeps no view of `buf`. */
  push(buf: Buffer, from: number, to: number): void {
    // Nothing to read (and a CR the last chunk ended in still waits for the next byte).
    if (from >= to) return;
    this.chunk = buf;
    this.chunkEnd = to;
    this.text = undefined;
    let pos = from;
    if (this.afterCr) {
      this.afterCr = false;
      if (pos < to && buf[pos] === LF) pos++;
    }
    // The next LF and CR at or after `pos` and before `to` (-1: none), each searched again only once passed.
    let lf = buf.indexOf(LF, pos);
    if (lf >= to) lf = -1;
    let cr = buf.indexOf(CR, pos);
    if (cr >= to) cr = -1;
    while (lf !== -1 || cr !== -1) {
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      let next = end + 1;
      if (end === cr) {
        if (next === to) this.afterCr = true;
        else if (buf[next] === LF) next++;
      }
      if (this.pieceBytes > 0 || this.droppedUnits >= 0) this.joinedLine(buf, pos, end);
      else this.lineOf(buf, pos, end);
      pos = next;
      if (lf !== -1 && lf < pos) {
        lf = buf.indexOf(LF, pos);
        if (lf >= to) lf = -1;
      }
      if (cr !== -1 && cr < pos) {
        cr = buf.indexOf(CR, pos);
        if (cr >= to) cr = -1;
      }
    }
    if (pos < to) this.keep(buf, pos, to);
    this.chunk = undefined;
    this.text = undefined;
  }

  /** The stream ended: an event not closed by a blank line is not dispatched (the EventSource standard). */
  end(): void {
    this.pieces = [];
    this.pieceBytes = 0;
    this.droppedUnits = -1;
    this.resetEvent();
  }

  /** Keeps the start of a line the chunk cut, up to what could still be `limit` characters (3 bytes at most each). */
  private keep(buf: Buffer, from: number, to: number): void {
    if (this.droppedUnits >= 0) {
      this.droppedUnits += utf16Units(buf, from, to);
      return;
    }
    if (this.pieceBytes + (to - from) > 3 * this.limit + 3) {
      let units = utf16Units(buf, from, to);
      for (const piece of this.pieces) units += utf16Units(piece, 0, piece.length);
      // The first line's byte order mark is not part of it (see lineOf).
      if (this.line === 0 && isBom(Buffer.concat([...this.pieces, buf.subarray(from, to)]), 0)) units--;
      this.droppedUnits = units;
      this.pieces = [];
      this.pieceBytes = 0;
      return;
    }
    this.pieces.push(Buffer.from(buf.subarray(from, to)));
    this.pieceBytes += to - from;
  }

  /** A line that began in an earlier chunk and ends at `to`. */
  private joinedLine(buf: Buffer, from: number, to: number): void {
    if (this.droppedUnits >= 0) {
      const units = this.droppedUnits + utf16Units(buf, from, to);
      this.droppedUnits = -1;
      this.pieces = [];
      this.pieceBytes = 0;
      this.line++;
      this.lineTooLong(units);
      return;
    }
    this.pieces.push(buf.subarray(from, to));
    const line = Buffer.concat(this.pieces, this.pieceBytes + (to - from));
    this.pieces = [];
    this.pieceBytes = 0;
    this.lineOf(line, 0, line.length);
  }

  /** One line, `buf` from `from` to `to` (its end of line not included). */
  private lineOf(buf: Buffer, from: number, to: number): void {
    let start = from;
    // A byte order mark at the very start of the stream is not part of it.
    if (++this.line === 1 && to - start >= 3 && isBom(buf, start)) start += 3;
    if (start === to) return void this.dispatch();
    // Lines no longer than `limit` bytes are no longer than `limit` characters; a longer one is measured.
    if (to - start > this.limit) {
      const units = buf.toString('utf8', start, to).length;
      if (units > this.limit) return void this.lineTooLong(units);
    }
    const first = buf[start];
    if (first === COLON) return; // a comment
    if (this.eventLine === 0) this.eventLine = this.line;
    // Only `data` makes an item: `data` alone (an empty value) or `data:` then the value (less one leading space).
    if (
      first !== 100 ||
      to - start < 4 ||
      buf[start + 1] !== 97 ||
      buf[start + 2] !== 116 ||
      buf[start + 3] !== 97
    )
      return;
    let valueFrom = to;
    if (to - start > 4) {
      if (buf[start + 4] !== COLON) return; // another field whose name begins with "data"
      valueFrom = start + 5 < to && buf[start + 5] === SPACE ? start + 6 : start + 5;
    }
    const value = this.valueOf(buf, valueFrom, to);
    this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
    this.dataLines++;
  }

  /** The text of a `data` value, `buf` from `from` to `to`: a slice of the chunk's text when it can be. */
  private valueOf(buf: Buffer, from: number, to: number): string {
    if (buf === this.chunk) {
      if (this.text === undefined) {
        const text = buf.toString('utf8', from, this.chunkEnd);
        // As many characters as bytes: every byte is one character, and offsets in the text are the bytes' offsets.
        this.text = text.length === this.chunkEnd - from ? text : null;
        this.textFrom = from;
      }
      if (this.text !== null) return this.text.slice(from - this.textFrom, to - this.textFrom);
    }
    return buf.toString('utf8', from, to);
  }

  /** A line too long to keep: its event is still told apart, as an item too long. */
  private lineTooLong(units: number): void {
    if (this.eventLine === 0) this.eventLine = this.line;
    this.tooLong = units;
    this.dataLines++;
  }

  /** A blank line: the open event is an item when it has data (an empty one is a keep-alive, and no item). */
  private dispatch(): void {
    if (this.dataLines > 0) {
      const index = ++this.index;
      const line = this.eventLine;
      const data = this.data;
      const tooLong = this.tooLong;
      this.resetEvent();
      if (tooLong !== undefined)
        return void this.sink.itemFailed(parseFrame({ index, line, data: '', tooLong }));
      if (data === '') return;
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch {
        return void this.sink.itemFailed(parseFrame({ index, line, data }));
      }
      this.sink.itemValue(index, value);
      return;
    }
    this.resetEvent();
  }

  private resetEvent(): void {
    this.data = '';
    this.dataLines = 0;
    this.tooLong = undefined;
    this.eventLine = 0;
  }
}
