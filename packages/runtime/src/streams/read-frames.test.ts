import { describe, expect, it } from 'vitest';
import { type Frame, parseFrames, readFrames, readLines } from './read-frames.js';

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('readLines', () => {
  const cases: Array<[string, { given: string[]; want: string[] }]> = [
    ['lf', { given: ['a\nb\n'], want: ['a', 'b'] }],
    ['crlf split across chunks', { given: ['a\r', '\nb\r\n'], want: ['a', 'b'] }],
    ['lone cr ends a line', { given: ['a\rb'], want: ['a', 'b'] }],
    ['no final newline', { given: ['a\nb'], want: ['a', 'b'] }],
    ['a line split across many chunks', { given: ['he', 'll', 'o\n'], want: ['hello'] }],
    ['multi-byte characters split across byte chunks', { given: [], want: ['é€'] }],
  ];
  it.each(cases)('lines > %s', async (name, { given, want }) => {
    const chunks: Array<string | Uint8Array> = given.length > 0 ? given : [];
    if (name.startsWith('multi-byte')) {
      const bytes = new TextEncoder().encode('é€\n');
      for (const b of bytes) chunks.push(new Uint8Array([b]));
    }
    expect(await all(readLines(chunks))).toEqual(want);
  });
});

describe('readFrames', () => {
  const cases: Array<[string, { framing: 'sse' | 'ndjson'; given: string; want: Array<Partial<Frame>> }]> = [
    [
      'sse > events with the line each starts on',
      {
        framing: 'sse',
        given: 'data: {"a":1}\n\n: comment\n\ndata: {"b":2}\n\n',
        want: [
          { index: 1, line: 1, data: '{"a":1}' },
          { index: 2, line: 5, data: '{"b":2}' },
        ],
      },
    ],
    [
      'sse > multi-line data joins with newlines; id and event are kept',
      {
        framing: 'sse',
        given: 'id: 7\nevent: x\ndata: [1,\ndata: 2]\n\n',
        want: [{ index: 1, line: 1, data: '[1,\n2]', id: '7', event: 'x' }],
      },
    ],
    [
      'sse > an event left open at the end is dropped',
      { framing: 'sse', given: 'data: {"a":1}\n\ndata: {"b"', want: [{ index: 1, data: '{"a":1}' }] },
    ],
    [
      'sse > crlf framing',
      {
        framing: 'sse',
        given: 'data: 1\r\n\r\ndata: 2\r\n\r\n',
        want: [
          { line: 1, data: '1' },
          { line: 3, data: '2' },
        ],
      },
    ],
    [
      'ndjson > blank lines skipped, lines counted',
      {
        framing: 'ndjson',
        given: '{"a":1}\n\n{"b":2}\n',
        want: [
          { index: 1, line: 1, data: '{"a":1}' },
          { index: 2, line: 3, data: '{"b":2}' },
        ],
      },
    ],
  ];
  it.each(cases)('%s', async (_, { framing, given, want }) => {
    const frames = await all(readFrames([given], framing));
    expect(frames).toHaveLength(want.length);
    want.forEach((w, i) => {
      expect(frames[i]).toMatchObject(w);
    });
  });

  it('parse > a frame that is not JSON says so, and the next one still parses', async () => {
    const parsed = await all(parseFrames(readFrames(['{"a":1}\n{oops\n[2]\n'], 'ndjson')));
    expect(parsed.map((p) => p.ok)).toEqual([true, false, true]);
    expect(parsed[1]).toMatchObject({ index: 2, line: 2, error: expect.stringMatching(/^not JSON: /) });
  });

  it('parse > a parsed frame keeps every field of its frame, in order, and adds only its verdict', async () => {
    const sse = 'id: 7\nevent: x\ndata: [1]\n\ndata: {oops\n\n';
    const parsed = await all(parseFrames(readFrames([sse], 'sse')));
    expect(parsed[0]).toStrictEqual({
      index: 1,
      line: 1,
      data: '[1]',
      id: '7',
      event: 'x',
      ok: true,
      value: [1],
    });
    expect(Object.keys(parsed[0] ?? {})).toEqual(['index', 'line', 'data', 'id', 'event', 'ok', 'value']);
    expect(Object.keys(parsed[1] ?? {})).toEqual(['index', 'line', 'data', 'ok', 'error']);
    const [long] = await all(parseFrames(readFrames(['data: 123456\n\n'], 'sse', 4)));
    expect(long).toMatchObject({ index: 1, data: '', tooLong: 12, ok: false });
  });
});
