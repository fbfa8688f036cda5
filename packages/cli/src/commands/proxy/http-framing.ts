// The proxy's view of HTTP/1.1 on a connection it passes bytes through: where each message's head ends, how its body
// is framed (RFC 9112 §6: Content-Length, chunked, or until the connection closes; none for HEAD, 1xx, 204 and 304
// answers), and where the message ends. It only reads: the caller writes the bytes on as they came, cut at the
// positions this reports. The reader stops at each message's end, so that the caller can hold what follows (a
// pipelined request, or bytes an agent sent after its answer).
//
// Hand-written rather than http-parser-js (0.5.10, in the lockfile): that parser runs on past a message's end within
// one `execute` call and reports no position for it (only an internal field), hands bodies over de-chunked with no way
// to find the raw bytes, and refuses methods outside its fixed list. Node's own llhttp binding is not public in Node 20.

/** One message's head, as read from the wire. */
export interface MessageHead {
  /** A request's method and target; empty for an answer. */
  method: string;
  target: string;
  /** An answer's status and reason phrase; 0 and empty for a request. */
  status: number;
  reason: string;
  /** `HTTP/1.x`: the minor version, 0 or 1. */
  minor: number;
  /** Header names and values as sent (values without surrounding whitespace), alternately: node:http's rawHeaders. */
  raw: string[];
  /** The connection closes after this message (`Connection: close`, or HTTP/1.0 without keep-alive). */
  close: boolean;
  /** A request that asks to switch protocols (`Upgrade`) or to tunnel (`CONNECT`). */
  upgrade: boolean;
  /** The `Keep-Alive: timeout=` an answer announces, in seconds, or undefined. */
  keepAliveSeconds: number | undefined;
  /** How the body is framed. */
  body: 'none' | 'length' | 'chunked' | 'close';
  length: number;
}

/** What a reader tells as it reads. */
export interface FramingEvents {
  /** A head was read whole (its bytes are `reader.headBytes`). */
  head(head: MessageHead): void;
  /** Body bytes, without the chunked framing: `buf` from `from` to `to` (a view, not a copy). */
  data(buf: Buffer, from: number, to: number): void;
  /** The message ended. */
  end(): void;
}

/** Thrown-free error reports: why the bytes are not HTTP/1.1, and the status a request gets for it. */
export interface FramingError {
  status: 400 | 431 | 505;
  message: string;
}

const HEAD = 0;
const SIZED = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_END = 4;
const TRAILERS = 5;
const UNTIL_CLOSE = 6;

const CRLFCRLF = Buffer.from('\r\n\r\n');
/** The longest chunk-size line or trailer line kept across reads. */
const MAX_LINE = 4096;
/** The characters of a token (RFC 9110 §5.6.2), by code: 1 for each. */
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
  TCHAR[c.charCodeAt(0)] = 1;

/** The value of each hex digit, by byte; 16 for a byte that is none. */
const HEX = new Uint8Array(256).fill(16);
for (let d = 0; d < 16; d++) {
  HEX[d.toString(16).charCodeAt(0)] = d;
  HEX[d.toString(16).toUpperCase().charCodeAt(0)] = d;
}

/** Whether `text` from `from` to `to` is a token: one character at least, each a tchar. */
function isToken(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || TCHAR[code] === 0) return false;
  }
  return true;
}

/** Reads the messages of one direction of one connection. */
export class MessageReader {
  private state = HEAD;
  /** A head or a line split across reads, as far as it has come. */
  private carry: Buffer | undefined;
  private remaining = 0;
  /** Set when a head ended in the last `push`: where it ended in that buffer, or -1. */
  headEnd = -1;
  /** Where that head started in that buffer, or -1 when it came across reads (then `headBytes` joins them). */
  headStart = -1;
  /** The whole head's bytes, once read (a view of the buffer it came in, or the pieces joined). */
  headBytes: Buffer | undefined;
  /** Why the bytes are not HTTP/1.1, once they are not: the reader reads no more. */
  error: FramingError | undefined;
  /** An answer to HEAD has no body whatever its headers say (RFC 9112 §6.3): set before its answer is read. */
  noBody = false;

  constructor(
    private readonly kind: 'request' | 'response',
    private readonly maxHead: number,
    private readonly events: FramingEvents,
  ) {}

  /** Whether the reader is between messages (nothing of the next one read yet). */
  get idle(): boolean {
    return this.state === HEAD && this.carry === undefined;
  }

  /** Whether part of a head has been read and kept (its bytes are not to be passed on yet). */
  get inHead(): boolean {
    return this.state === HEAD && this.carry !== undefined;
  }

  /** Whether a body runs until the connection closes. */
  get untilClose(): boolean {
    return this.state === UNTIL_CLOSE;
  }

  /**
   * Reads `buf` from `from`, and stops just after a message's end or at the end of `buf`: returns where it stopped, or
   * -1 when the bytes are not HTTP/1.1 (`error` says why).
   */
  push(buf: Buffer, from: number): number {
    this.headEnd = -1;
    let pos = from;
    while (pos < buf.length) {
      switch (this.state) {
        case HEAD: {
          pos = this.readHead(buf, pos);
          if (pos < 0) return -1;
          if (this.state === HEAD && this.carry === undefined && this.headEnd >= 0) return pos; // bodiless: ended
          break;
        }
        case SIZED: {
          const to = Math.min(buf.length, pos + this.remaining);
          this.events.data(buf, pos, to);
          this.remaining -= to - pos;
          pos = to;
          if (this.remaining === 0) return this.finish(pos);
          break;
        }
        case UNTIL_CLOSE:
          this.events.data(buf, pos, buf.length);
          return buf.length;
        case CHUNK_DATA: {
          const to = Math.min(buf.length, pos + this.remaining);
          this.events.data(buf, pos, to);
          this.remaining -= to - pos;
          pos = to;
          if (this.remaining === 0) this.state = CHUNK_END;
          break;
        }
        default: {
          // A line of the chunked framing: a chunk's size, the CRLF after its data, or a trailer.
          const nl = buf.indexOf(10, pos);
          if (nl === -1) {
            if (!this.keep(buf, pos, buf.length)) return -1;
            return buf.length;
          }
          // The usual lines (a chunk's size in hex digits, the CRLF after its data) are read in the bytes, with no string.
          if (this.carry === undefined && this.state !== TRAILERS) {
            if (this.chunkLine(buf, pos, nl)) {
              pos = nl + 1;
              continue;
            }
          }
          const line = this.lineOf(buf, pos, nl);
          pos = nl + 1;
          if (line === undefined) return -1;
          if (this.state === CHUNK_SIZE) {
            const size = Number.parseInt(line.split(';')[0] ?? '', 16);
            if (!/^[0-9A-Fa-f]+$/.test((line.split(';')[0] ?? '').trim()) || !Number.isSafeInteger(size))
              return this.fail(400, `a chunk size must be hexadecimal digits, not ${JSON.stringify(line)}`);
            this.remaining = size;
            this.state = size === 0 ? TRAILERS : CHUNK_DATA;
          } else if (this.state === CHUNK_END) {
            if (line !== '') return this.fail(400, 'chunk data must end with CRLF');
            this.state = CHUNK_SIZE;
          } else if (line === '') return this.finish(pos);
        }
      }
    }
    return pos;
  }

  /** The connection closed: ends a body that runs until then; false when a message was cut short. */
  end(): boolean {
    if (this.state === UNTIL_CLOSE) {
      this.finish(0);
      return true;
    }
    return this.idle;
  }

  private finish(pos: number): number {
    this.state = HEAD;
    this.events.end();
    return pos;
  }

  private fail(status: FramingError['status'], message: string): number {
    this.error = { status, message };
    this.state = HEAD;
    return -1;
  }

  /** Keeps a partial line across reads, within MAX_LINE. */
  private keep(buf: Buffer, from: number, to: number): boolean {
    const piece = buf.subarray(from, to);
    this.carry = this.carry ? Buffer.concat([this.carry, piece]) : Buffer.from(piece);
    if (this.carry.length <= MAX_LINE) return true;
    this.fail(400, `a line of the chunked framing is longer than ${MAX_LINE} bytes`);
    return false;
  }

  /**
   * Reads a chunk-size line, or the empty line after a chunk's data, `buf` from `from` to the LF at `nl`, when it has
   * the usual form: hex digits then CRLF, LF or `;` (extensions, which are ignored), or CRLF alone. True when it did
   * (the state moves on); false for any other form, which `lineOf` then reads (and fails with the line quoted).
   */
  private chunkLine(buf: Buffer, from: number, nl: number): boolean {
    const to = nl > from && buf[nl - 1] === 13 ? nl - 1 : nl;
    if (this.state === CHUNK_END) {
      if (to !== from) return false;
      this.state = CHUNK_SIZE;
      return true;
    }
    let size = 0;
    let i = from;
    // 13 hex digits at most: every such size is a safe integer.
    for (; i < to && i - from < 13; i++) {
      const digit = HEX[buf[i] ?? 0] ?? 16;
      if (digit === 16) break;
      size = size * 16 + digit;
    }
    if (i === from || (i < to && buf[i] !== 59)) return false;
    this.remaining = size;
    this.state = size === 0 ? TRAILERS : CHUNK_DATA;
    return true;
  }

  private lineOf(buf: Buffer, from: number, nl: number): string | undefined {
    let text = buf.toString('latin1', from, nl);
    if (this.carry) {
      text = this.carry.toString('latin1') + text;
      this.carry = undefined;
      if (text.length > MAX_LINE) {
        this.fail(400, `a line of the chunked framing is longer than ${MAX_LINE} bytes`);
        return undefined;
      }
    }
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }

  /** Reads a head from `pos`: returns where it stopped (after the head, or the end of `buf`), or -1. */
  private readHead(buf: Buffer, pos: number): number {
    let bytes: Buffer;
    let start = pos;
    let end: number;
    if (this.carry === undefined) {
      // Empty lines before a request line are skipped (RFC 9112 §2.2).
      while (start < buf.length && (buf[start] === 13 || buf[start] === 10)) start++;
      if (start === buf.length) return start;
      const found = buf.indexOf(CRLFCRLF, start);
      if (found === -1) {
        this.carry = Buffer.from(buf.subarray(start));
        return this.tooLong(this.carry.length) ? -1 : buf.length;
      }
      end = found + 4;
      bytes = buf.subarray(start, end);
      this.headStart = start;
    } else {
      const before = this.carry.length;
      const joined = Buffer.concat([this.carry, buf.subarray(pos)]);
      const found = joined.indexOf(CRLFCRLF, Math.max(0, before - 3));
      if (found === -1) {
        this.carry = joined;
        return this.tooLong(joined.length) ? -1 : buf.length;
      }
      this.carry = undefined;
      end = pos + found + 4 - before;
      bytes = joined.subarray(0, found + 4);
      this.headStart = -1;
    }
    if (this.tooLong(bytes.length)) return -1;
    this.carry = undefined;
    this.headBytes = bytes;
    this.headEnd = end;
    const head = this.parseHead(bytes.toString('latin1', 0, bytes.length - 4));
    if (!head) return -1;
    this.events.head(head);
    if (head.body === 'none') {
      this.state = HEAD;
      this.events.end();
    } else if (head.body === 'length') {
      this.remaining = head.length;
      this.state = SIZED;
    } else this.state = head.body === 'chunked' ? CHUNK_SIZE : UNTIL_CLOSE;
    return end;
  }

  private tooLong(size: number): boolean {
    if (size <= this.maxHead) return false;
    this.fail(431, `the head is longer than ${this.maxHead} bytes (limit headBytes)`);
    return true;
  }

  private parseHead(text: string): MessageHead | undefined {
    // The lines are read where they are in `text`, not split into a list.
    const firstEnd = text.indexOf('\r\n');
    const first = firstEnd === -1 ? text : text.slice(0, firstEnd);
    const a = first.indexOf(' ');
    const b = a === -1 ? -1 : first.indexOf(' ', a + 1);
    const head: MessageHead = {
      method: '',
      target: '',
      status: 0,
      reason: '',
      minor: 1,
      raw: [],
      close: false,
      upgrade: false,
      keepAliveSeconds: undefined,
      body: 'none',
      length: 0,
    };
    let version: string;
    if (this.kind === 'request') {
      if (a <= 0 || b === -1)
        return void this.fail(400, `not an HTTP request line: ${JSON.stringify(first)}`);
      head.method = first.slice(0, a);
      head.target = first.slice(a + 1, b);
      version = first.slice(b + 1);
      if (!isToken(head.method, 0, head.method.length) || head.target === '' || head.target.includes(' '))
        return void this.fail(400, `not an HTTP request line: ${JSON.stringify(first)}`);
    } else {
      version = a === -1 ? first : first.slice(0, a);
      const code = a === -1 ? '' : first.slice(a + 1, b === -1 ? undefined : b);
      if (!isStatusCode(code))
        return void this.fail(400, `not an HTTP status line: ${JSON.stringify(first)}`);
      head.status = Number(code);
      head.reason = b === -1 ? '' : first.slice(b + 1);
    }
    if (version === 'HTTP/1.0') head.minor = 0;
    else if (version !== 'HTTP/1.1')
      return void this.fail(505, `HTTP/1.0 and HTTP/1.1 only, not ${JSON.stringify(version)}`);

    let length = -1;
    let transfer = '';
    let connection = '';
    let upgrade = false;
    const raw = head.raw;
    let lineStart = firstEnd === -1 ? text.length : firstEnd + 2;
    while (lineStart < text.length) {
      const found = text.indexOf('\r\n', lineStart);
      const lineEnd = found === -1 ? text.length : found;
      const colon = text.indexOf(':', lineStart);
      // RFC 9112 §5.1 and §5.2: no whitespace before the colon (a line folded onto the next starts with some).
      if (colon === -1 || colon >= lineEnd || !isToken(text, lineStart, colon))
        return void this.fail(400, `not a header field: ${JSON.stringify(text.slice(lineStart, lineEnd))}`);
      const name = text.slice(lineStart, colon);
      const value = trimOws(text, colon + 1, lineEnd);
      lineStart = lineEnd + 2;
      raw.push(name, value);
      switch (name.length) {
        case 14:
          if (sameName(name, 'content-length')) {
            if (!isDigits(value) || (length !== -1 && Number(value) !== length))
              return void this.fail(
                400,
                `Content-Length must be one whole number, not ${JSON.stringify(value)}`,
              );
            length = Number(value);
          }
          break;
        case 17:
          if (sameName(name, 'transfer-encoding')) transfer = transfer ? `${transfer},${value}` : value;
          break;
        case 10:
          if (sameName(name, 'connection')) connection = connection === '' ? value : `${connection},${value}`;
          else if (sameName(name, 'keep-alive')) head.keepAliveSeconds = keepAliveTimeout(value);
          break;
        case 7:
          if (sameName(name, 'upgrade')) upgrade = true;
          break;
      }
    }
    head.close = listHas(connection, 'close') || (head.minor === 0 && !listHas(connection, 'keep-alive'));
    const chunked = transfer !== '' && /(?:^|,)\s*chunked\s*$/i.test(transfer);
    if (this.kind === 'request') {
      head.upgrade = head.method === 'CONNECT' || (upgrade && listHas(connection, 'upgrade'));
      // RFC 9112 §6.1 and §6.3: a request with both, or with a coding other than chunked last, is refused.
      if (transfer !== '' && (length !== -1 || !chunked))
        return void this.fail(
          400,
          'Transfer-Encoding must end with chunked, and not come with Content-Length',
        );
      if (chunked) head.body = 'chunked';
      else if (length > 0) {
        head.body = 'length';
        head.length = length;
      }
      return head;
    }
    // RFC 9112 §6.3, in its order.
    if (this.noBody || head.status < 200 || head.status === 204 || head.status === 304) head.body = 'none';
    else if (transfer !== '') head.body = chunked ? 'chunked' : 'close';
    else if (length === 0) head.body = 'none';
    else if (length > 0) {
      head.body = 'length';
      head.length = length;
    } else head.body = 'close';
    return head;
  }
}

/** A field value without the optional whitespace (SP, HTAB) around it. */
function trimOws(line: string, from: number, to: number): string {
  let start = from;
  let end = to;
  while (start < end && (line.charCodeAt(start) === 32 || line.charCodeAt(start) === 9)) start++;
  while (end > start && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return line.slice(start, end);
}

/** Whether `name` is `lower` (lower case letters and `-`, of the same length) in any case: no lower-cased copy made. */
export function sameName(name: string, lower: string): boolean {
  if (name === lower) return true;
  return sameAt(name, 0, lower);
}

/** Whether `text` from `from` reads `lower` (lower case letters and `-`) in any case. */
function sameAt(text: string, from: number, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const c = text.charCodeAt(from + i);
    const l = lower.charCodeAt(i);
    // The upper-case letter of a lower-case one is 32 below it.
    if (c !== l && !(l >= 97 && l <= 122 && c === l - 32)) return false;
  }
  return true;
}

/** Whether the comma-separated list (RFC 9110 §5.6.1) has `token` (in lower case) among its elements, in any case. */
function listHas(list: string, token: string): boolean {
  let start = 0;
  while (start < list.length) {
    const comma = list.indexOf(',', start);
    const end = comma === -1 ? list.length : comma;
    let a = start;
    let b = end;
    while (a < b && (list.charCodeAt(a) === 32 || list.charCodeAt(a) === 9)) a++;
    while (b > a && (list.charCodeAt(b - 1) === 32 || list.charCodeAt(b - 1) === 9)) b--;
    if (b - a === token.length && sameAt(list, a, token)) return true;
    start = end + 1;
  }
  return false;
}

/** Whether `text` is one digit or more (and nothing else). */
function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Whether `code` is a status code of HTTP/1.1: three digits, 100 to 599. */
function isStatusCode(code: string): boolean {
  const first = code.charCodeAt(0);
  return code.length === 3 && first >= 49 && first <= 53 && isDigits(code);
}

/** The `timeout=` parameter of a Keep-Alive field, in seconds, or undefined (a parameter begins the value or follows `,` `;` or whitespace). */
function keepAliveTimeout(value: string): number | undefined {
  const lower = value.toLowerCase();
  for (let at = lower.indexOf('timeout='); at !== -1; at = lower.indexOf('timeout=', at + 1)) {
    const before = at === 0 ? 44 : lower.charCodeAt(at - 1);
    if (before !== 44 && before !== 59 && before !== 32 && before !== 9) continue;
    let end = at + 8;
    while (end < lower.length && lower.charCodeAt(end) >= 48 && lower.charCodeAt(end) <= 57) end++;
    if (end > at + 8) return Number(lower.slice(at + 8, end));
  }
  return undefined;
}
