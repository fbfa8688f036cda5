import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorPosition, jsonLocator } from './json-locate.js';

/** Every pointer into a value, with the value it names. */
function pointers(value: unknown, at = ''): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [[at, value]];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...pointers(v, `${at}/${i}`));
  } else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value))
      out.push(...pointers(v, `${at}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`));
  return out;
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

describe('jsonLocator', () => {
  const text = '{\n  "a": [1, {"b~/c": true}],\n  "s": "x\\"]}",\n  "z": null\n}';
  const cases: Array<[string, { pointer: string; want: { line: number; column: number } }]> = [
    ['root', { pointer: '', want: { line: 1, column: 1 } }],
    ['a member', { pointer: '/a', want: { line: 2, column: 8 } }],
    ['an element', { pointer: '/a/1', want: { line: 2, column: 12 } }],
    ['an escaped key', { pointer: '/a/1/b~0~1c', want: { line: 2, column: 21 } }],
    ['after a string with brackets in it', { pointer: '/z', want: { line: 4, column: 8 } }],
    ['a missing member stops at its parent', { pointer: '/a/1/nope', want: { line: 2, column: 12 } }],
    ['an index past the end stops at the array', { pointer: '/a/9', want: { line: 2, column: 8 } }],
  ];
  it.each(cases)('locate > %s', (_name, { pointer, want }) => {
    expect(jsonLocator(text)(pointer)).toEqual(want);
  });

  it('locate > every pointer of any value names where that value is written, in any order of lookups', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), fc.nat(), (value, pretty, shuffle) => {
        const written = JSON.stringify(value, null, pretty ? 2 : undefined);
        const locate = jsonLocator(written);
        const all = pointers(JSON.parse(written));
        // Lookups in a shuffled order: what one lookup remembered must not mislead the next.
        const order = all.map((_, i) => (i * (shuffle % 7 || 1)) % all.length);
        for (const i of new Set(order)) {
          // sound: i is an index of `all`, taken modulo its length.
          const [pointer, sub] = all[i] as [string, unknown];
          const at = locate(pointer);
          const offset = offsetOf(written, at.line, at.column);
          const compact = JSON.stringify(sub, null, pretty ? 2 : undefined);
          // sound: split gives back at least one piece, so there is a first line.
          const first = compact.split('\n')[0] as string;
          expect(written.startsWith(first, offset), `${pointer} at ${offset}`).toBe(true);
        }
      }),
      { seed: 12, numRuns: 300 },
    );
  });
});

describe('jsonErrorPosition', () => {
  it('position > read from the parser’s message', () => {
    const text = '{\n  "a": 1,\n  x\n}';
    let error: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      error = e;
    }
    expect(jsonErrorPosition(text, error)).toEqual({ line: 3, column: 3 });
  });
});
