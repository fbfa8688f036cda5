// Locating values in JSON text: the line and column where a JSON pointer's value starts, and where a syntax error is,
// without a second parser.
import { isObjectLike } from '../unknown-values.js';
import { unescapePointerToken } from './pointer.js';

/** Where a value starts in a text: 1-based line and column. */
export interface TextPosition {
  line: number;
  column: number;
}

interface ContainerScan {
  /** Where the scan of this object or array goes on from. */
  resume: number;
  done: boolean;
  /** Objects: where each member's value starts, for the members scanned so far. */
  members: Map<string, number>;
  /** Arrays: where each element starts, for the elements scanned so far. */
  elements: number[];
}

/**
 * Finds where the values that JSON pointers name start in a JSON text that is already known to be valid (it passed
 * `JSON.parse`), without building a syntax tree: the text is scanned only along the pointers' paths, siblings are
 * skipped by bracket counting, and what one lookup scanned is remembered for the next. Validating a large document
 * then costs `JSON.parse` plus a scan proportional to where its errors are, and memory a small multiple of the text.
 * A pointer that names nothing gives the position of the deepest value it reaches.
 */
export function jsonLocator(text: string): (pointer: string) => TextPosition {
  const scans = new Map<number, ContainerScan>();
  let lineStarts: number[] | undefined;

  const position = (offset: number): TextPosition => {
    if (!lineStarts) {
      lineStarts = [0];
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
    }
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      // sound: 0 <= low < mid <= high < lineStarts.length, so both elements exist.
      if ((lineStarts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (lineStarts[low] as number) + 1 }; // sound: see above
  };

  const skipSpace = (at: number): number => {
    for (;;) {
      const c = text.charCodeAt(at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return at;
      at++;
    }
  };

  const skipString = (at: number): number => {
    for (let i = at + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) return i + 1;
    }
    return text.length;
  };

  const skipValue = (at: number): number => {
    const first = text.charCodeAt(at);
    if (first === 0x22) return skipString(at);
    if (first !== 0x7b && first !== 0x5b) {
      let i = at;
      for (; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x2c || c === 0x5d || c === 0x7d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
          break;
      }
      return i;
    }
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) i = skipString(i) - 1;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
    }
    return text.length;
  };

  const scanOf = (at: number): ContainerScan => {
    let scan = scans.get(at);
    if (!scan) {
      scan = { resume: at + 1, done: false, members: new Map(), elements: [] };
      scans.set(at, scan);
    }
    return scan;
  };

  /** Scans one more member or element of a container; false once it has none left. */
  const scanNext = (scan: ContainerScan, isObject: boolean): boolean => {
    if (scan.done) return false;
    let at = skipSpace(scan.resume);
    if (text.charCodeAt(at) === 0x2c) at = skipSpace(at + 1);
    const c = text.charCodeAt(at);
    if (c === 0x7d || c === 0x5d || at >= text.length) {
      scan.done = true;
      return false;
    }
    if (isObject) {
      const keyEnd = skipString(at);
      // sound: a member starts with its key, and skipString ends that one JSON string token, which parses to a string.
      const key = JSON.parse(text.slice(at, keyEnd)) as string;
      const value = skipSpace(skipSpace(keyEnd) + 1);
      if (!scan.members.has(key)) scan.members.set(key, value);
      scan.resume = skipValue(value);
    } else {
      scan.elements.push(at);
      scan.resume = skipValue(at);
    }
    return true;
  };

  return (pointer) => {
    let at = skipSpace(0);
    if (pointer === '') return position(at);
    for (const raw of pointer.slice(1).split('/')) {
      const token = unescapePointerToken(raw);
      const c = text.charCodeAt(at);
      if (c !== 0x7b && c !== 0x5b) break;
      const scan = scanOf(at);
      let found: number | undefined;
      if (c === 0x7b) {
        while (!scan.members.has(token) && scanNext(scan, true));
        found = scan.members.get(token);
      } else {
        const index = /^(?:0|[1-9]\d*)$/.test(token) ? Number(token) : -1;
        while (index >= scan.elements.length && scanNext(scan, false));
        found = index >= 0 ? scan.elements[index] : undefined;
      }
      if (found === undefined) break;
      at = found;
    }
    return position(at);
  };
}

/**
 * Where `JSON.parse` stopped, when its message says (`… in JSON at position N`); undefined when it does not (V8
 * names the token and quotes the text instead for some errors).
 */
export function jsonErrorPosition(text: string, error: unknown): TextPosition | undefined {
  const message = isObjectLike(error) && typeof error.message === 'string' ? error.message : '';
  const match = / at position (\d+)/.exec(message);
  if (!match) return undefined;
  const offset = Math.min(Number(match[1]), text.length);
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
