// The synchronous reader under `readFrames`: what `readFrames` reads is covered by its own table; here, what a caller
// on a hot path relies on: each frame is handed over inside the `push` that completes it, never later.
import { describe, expect, it } from 'vitest';
import { FrameReader, Utf8Chunks } from './frame-reader.js';
import type { Frame, StreamFraming } from './read-frames.js';

describe('FrameReader', () => {
  const cases: Array<
    [string, { framing: StreamFraming; given: string[]; want: Array<Array<Partial<Frame>>>; atEnd?: number }]
  > = [
    [
      'sse > an event comes out of the push that ends it, not before',
      {
        framing: 'sse',
        given: ['data: {"a"', ':1}\n', '\n', 'data: 2\n\ndata: 3\n\n'],
        want: [[], [], [{ index: 1, line: 1, data: '{"a":1}' }], [{ data: '2' }, { data: '3' }]],
      },
    ],
    [
      'ndjson > a line without its newline waits for end()',
      {
        framing: 'ndjson',
        given: ['{"a":1}\n{"b"', ':2}'],
        want: [[{ index: 1, line: 1, data: '{"a":1}' }], []],
        atEnd: 1,
      },
    ],
    [
      'sse > an event longer than the limit is told by its length, not kept',
      {
        framing: 'sse',
        given: [`data: ${'x'.repeat(40)}`, '\n\n'],
        want: [[], [{ index: 1, data: '', tooLong: 46 }]],
      },
    ],
  ];
  it.each(cases)('%s', (_, { framing, given, want, atEnd = 0 }) => {
    const frames: Frame[] = [];
    const reader = new FrameReader(framing, (frame) => frames.push(frame), 16);
    const perPush = given.map((chunk) => {
      reader.push(new TextEncoder().encode(chunk));
      return frames.splice(0);
    });
    expect(perPush).toEqual(want.map((list) => list.map((f) => expect.objectContaining(f))));
    reader.end();
    expect(frames).toHaveLength(atEnd);
  });
});

// The chunks of a byte stream may cut a character anywhere: the text must be what one TextDecoder makes of the whole.
describe('Utf8Chunks', () => {
  const samples: Array<[string, { given: number[] }]> = [
    ['characters of 1 to 4 bytes', { given: [...new TextEncoder().encode('aé€😀z\n')] }],
    [
      'a byte order mark at the start is dropped, one later is kept',
      { given: [0xef, 0xbb, 0xbf, 0x61, 0xef, 0xbb, 0xbf] },
    ],
    [
      'bad bytes become U+FFFD as in one pass',
      { given: [0x61, 0xe2, 0x82, 0x41, 0xf0, 0x90, 0xe2, 0xff, 0x80, 0xc0] },
    ],
    ['a character cut short at the end becomes U+FFFD', { given: [0x61, 0xf0, 0x9f, 0x98] }],
  ];
  it.each(samples)('%s, whatever the cuts', (_, { given }) => {
    const bytes = Uint8Array.from(given);
    const want = new TextDecoder().decode(bytes);
    // Every way to cut the bytes into three chunks (empty ones too).
    for (let a = 0; a <= bytes.length; a++)
      for (let b = a; b <= bytes.length; b++) {
        const utf8 = new Utf8Chunks();
        const got = [bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)].map((c) =>
          utf8.decode(c),
        );
        expect(got.join('') + utf8.end(), `cut at ${a} and ${b}`).toBe(want);
      }
  });

  it('cuts > a character cut by a chunk comes out whole with the chunk that ends it', () => {
    const utf8 = new Utf8Chunks();
    const euro = new TextEncoder().encode('€');
    expect(utf8.decode(euro.subarray(0, 2))).toBe('');
    expect(utf8.decode(euro.subarray(2))).toBe('€');
    expect(utf8.end()).toBe('');
  });
});
