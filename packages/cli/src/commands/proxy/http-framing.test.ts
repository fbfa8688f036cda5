import { describe, expect, it } from 'vitest';
import { MessageReader } from './http-framing.js';

/** Reads one answer from `bytes` pushed in pieces of `step` bytes: its body, whether it ended, or the error. */
function readAnswer(
  bytes: string,
  step: number,
): { body: string; ended: boolean; error: string | undefined } {
  let body = '';
  let ended = false;
  const reader = new MessageReader('response', 8192, {
    head: () => {},
    data: (buf, from, to) => {
      body += buf.toString('latin1', from, to);
    },
    end: () => {
      ended = true;
    },
  });
  const all = Buffer.from(bytes, 'latin1');
  for (let at = 0; at < all.length && !ended; at += step) {
    const piece = all.subarray(at, Math.min(all.length, at + step));
    let pos = 0;
    while (pos < piece.length && !ended) {
      pos = reader.push(piece, pos);
      if (pos < 0) return { body, ended, error: reader.error?.message };
    }
  }
  return { body, ended, error: reader.error?.message };
}

const HEAD = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';

describe('MessageReader, chunked bodies', () => {
  const good: [string, string][] = [
    ['5\r\nhello\r\n0\r\n\r\n', 'hello'],
    ['5\nhello\n0\n\n', 'hello'],
    ['A\r\n0123456789\r\n0\r\n\r\n', '0123456789'],
    ['a;name=value\r\n0123456789\r\n0\r\n\r\n', '0123456789'],
    ['00000000000000005\r\nhello\r\n0\r\n\r\n', 'hello'],
    ['5 \r\nhello\r\n0\r\n\r\n', 'hello'],
    ['5\r\r\nhello\r\n0\r\n\r\n', 'hello'],
    ['3\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n', 'abcde'],
  ];
  it.each(good)('reads %j, however the bytes are cut', (chunked, body) => {
    for (const step of [1, 2, 3, 7, 1000])
      expect(readAnswer(HEAD + chunked, step)).toEqual({ body, ended: true, error: undefined });
  });

  const bad: [string, string][] = [
    ['g\r\n', 'a chunk size must be hexadecimal digits, not "g"'],
    ['\r\n', 'a chunk size must be hexadecimal digits, not ""'],
    ['5x\r\nhello\r\n', 'a chunk size must be hexadecimal digits, not "5x"'],
    ['-5\r\n', 'a chunk size must be hexadecimal digits, not "-5"'],
    ['fffffffffffffffff\r\n', 'a chunk size must be hexadecimal digits, not "fffffffffffffffff"'],
    ['5\r\nhelloX\r\n', 'chunk data must end with CRLF'],
  ];
  it.each(bad)('refuses %j, however the bytes are cut', (chunked, error) => {
    for (const step of [1, 3, 1000]) expect(readAnswer(HEAD + chunked, step).error).toBe(error);
  });
});
