/** How lines end: `lf` (NDJSON: LF, and CRLF with its CR dropped) or `any` (SSE: LF, CRLF or a lone CR). */
export type LineEnds = 'lf' | 'any';

/** Told of each line: its text, or, for a line longer than the splitter keeps, only its length. */
export type OnLine = (line: string, tooLong?: number) => void;

/**
 * Cuts text chunks into lines in one pass: each character is looked at once, and a line split across many chunks is
 * joined once, when it ends, so a single 500 MB line costs what reading it costs. A line longer than `maxLineLength`
 * is not kept: its length is reported instead, and memory stays bounded.
 */
export class LineSplitter {
  #pieces: string[] = [];
  #pending = 0;
  #tooLong = false;
  /** The previous chunk ended in CR: a LF that starts the next one belongs to it. */
  #afterCr = false;

  constructor(
    readonly ends: LineEnds,
    readonly maxLineLength = Number.POSITIVE_INFINITY,
  ) {}

  /** Feeds a chunk; calls `onLine` for every line it completes. */
  push(text: string, onLine: OnLine): void {
    // An empty chunk changes nothing: in particular, a CR before it still owns a LF after it.
    if (text.length === 0) return;
    let start = 0;
    if (this.#afterCr) {
      this.#afterCr = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    // The next LF and CR at or after `start`, each found again only once passed: one scan per character.
    let lf = text.indexOf('\n', start);
    let cr = this.ends === 'any' ? text.indexOf('\r', start) : -1;
    for (;;) {
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(lf, cr);
      if (end === -1) break;
      let next = end + 1;
      if (end === cr) {
        if (end === text.length - 1) this.#afterCr = true;
        else if (text.charCodeAt(next) === 10) next++;
      }
      this.#emit(text.slice(start, end), onLine);
      start = next;
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    }
    if (start < text.length) this.#keep(text.slice(start));
  }

  /** Ends the input: the last line, if it had no line break after it. */
  end(onLine: OnLine): void {
    if (this.#pending > 0 || this.#tooLong) this.#emit('', onLine);
    this.#afterCr = false;
  }

  #keep(piece: string): void {
    this.#pending += piece.length;
    if (this.#tooLong) return;
    if (this.#pending > this.maxLineLength) {
      this.#tooLong = true;
      this.#pieces = [];
      return;
    }
    this.#pieces.push(piece);
  }

  #emit(tail: string, onLine: OnLine): void {
    const length = this.#pending + tail.length;
    if (this.#tooLong || length > this.maxLineLength) onLine('', length);
    else {
      let line = this.#pieces.length === 0 ? tail : this.#pieces.join('') + tail;
      // NDJSON lines may end in CRLF: the CR is not part of the item.
      if (this.ends === 'lf' && line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      onLine(line);
    }
    this.#pieces = [];
    this.#pending = 0;
    this.#tooLong = false;
  }
}
