import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LineEnds, LineSplitter } from './line-splitter.js';

function split(chunks: readonly string[], ends: LineEnds, max?: number): Array<string | number> {
  const splitter = new LineSplitter(ends, max);
  const out: Array<string | number> = [];
  const onLine = (line: string, tooLong?: number) => void out.push(tooLong ?? line);
  for (const chunk of chunks) splitter.push(chunk, onLine);
  splitter.end(onLine);
  return out;
}

describe('LineSplitter', () => {
  const cases: Array<
    [string, { given: string[]; ends: LineEnds; max?: number; want: Array<string | number> }]
  > = [
    ['lf > lines', { given: ['a\nb\n'], ends: 'lf', want: ['a', 'b'] }],
    ['lf > crlf drops the cr', { given: ['a\r\nb\r\n'], ends: 'lf', want: ['a', 'b'] }],
    [
      'lf > a lone cr is not a line end (JSON whitespace)',
      { given: ['{"a":1,\r"b":2}\n'], ends: 'lf', want: ['{"a":1,\r"b":2}'] },
    ],
    ['lf > crlf split across chunks', { given: ['a\r', '\nb'], ends: 'lf', want: ['a', 'b'] }],
    ['any > a lone cr ends a line', { given: ['a\rb'], ends: 'any', want: ['a', 'b'] }],
    [
      'any > crlf split across chunks is one line end',
      { given: ['a\r', '\nb\r\n'], ends: 'any', want: ['a', 'b'] },
    ],
    [
      'any > cr, an empty chunk, then lf is one line end',
      { given: ['a\r', '', '\n'], ends: 'any', want: ['a'] },
    ],
    [
      'any > cr, empty chunks, then lf and more',
      { given: ['a\r', '', '', '\nb\n'], ends: 'any', want: ['a', 'b'] },
    ],
    ['lf > cr, an empty chunk, then lf drops the cr', { given: ['a\r', '', '\n'], ends: 'lf', want: ['a'] }],
    ['both > no final newline', { given: ['a\nb'], ends: 'lf', want: ['a', 'b'] }],
    ['both > a line over many chunks', { given: ['he', 'll', 'o\n'], ends: 'any', want: ['hello'] }],
    [
      'max > a longer line is told by its length',
      { given: ['abc', 'def\nok\n'], ends: 'lf', max: 4, want: [6, 'ok'] },
    ],
    ['max > exactly the limit is kept', { given: ['abcd\n'], ends: 'lf', max: 4, want: ['abcd'] }],
    ['max > an unterminated long last line', { given: ['abcdef'], ends: 'any', max: 4, want: [6] }],
  ];
  it.each(cases)('%s', (_name, { given, ends, max, want }) => {
    expect(split(given, ends, max)).toEqual(want);
  });

  it.each(['lf', 'any'] as const)('chunking > any cut of the text gives the same lines (%s)', (ends) => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r', ' '), maxLength: 60 });
    fc.assert(
      fc.property(text, fc.array(fc.nat(60), { maxLength: 6 }), (whole, cuts) => {
        // Repeated cut points make empty chunks, which must change nothing either.
        const points = cuts.map((c) => Math.min(c, whole.length)).sort((a, b) => a - b);
        const chunks = [0, ...points].map((from, i) => whole.slice(from, points[i] ?? whole.length));
        expect(split(chunks, ends)).toEqual(split([whole], ends));
      }),
      { seed: 12, numRuns: 500 },
    );
  });

  it('size > a 40 MB line in 64 KB chunks is one line', () => {
    const chunk = 'x'.repeat(64 * 1024);
    const chunks = Array.from({ length: 640 }, () => chunk);
    chunks.push('\n');
    const lines = split(chunks, 'lf');
    expect(lines.length).toBe(1);
    expect(lines[0]).toHaveLength(640 * 64 * 1024);
  });
});
