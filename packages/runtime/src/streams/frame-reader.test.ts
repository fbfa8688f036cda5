// The synchronous reader under `readFrames`: what `readFrames` reads is covered by its own table; here, what a caller
// on a hot path relies on: each frame is handed over inside the `push` that completes it, never later.
import { describe, expect, it } from 'vitest';
import { FrameReader } from './frame-reader.js';
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
