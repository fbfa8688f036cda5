import { describe, expect, it } from 'vitest';
import { parseJsonWithin } from './parse-json.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseJsonWithin', () => {
  it('gives the value of plain JSON, scalars included', () => {
    expect(parseJsonWithin(bytes('{"a":[1,{"b":null}]}'), 64)).toEqual({ value: { a: [1, { b: null }] } });
    expect(parseJsonWithin(bytes('42'), 64)).toEqual({ value: 42 });
    expect(parseJsonWithin(bytes('"\\u00e9"'), 64)).toEqual({ value: 'é' });
  });

  it('gives nothing for what readBody refuses: not JSON, not UTF-8, too deep, a lone surrogate', () => {
    expect(parseJsonWithin(bytes('{"a":'), 64)).toBeUndefined();
    expect(parseJsonWithin(new Uint8Array([0x22, 0xff, 0x22]), 64)).toBeUndefined();
    expect(parseJsonWithin(bytes(`${'['.repeat(10)}${']'.repeat(10)}`), 5)).toBeUndefined();
    expect(parseJsonWithin(bytes('"\\ud800"'), 64)).toBeUndefined();
  });

  it('takes nesting up to the limit', () => {
    expect(parseJsonWithin(bytes(`${'['.repeat(5)}${']'.repeat(5)}`), 5)).toEqual({ value: [[[[[]]]]] });
  });
});
