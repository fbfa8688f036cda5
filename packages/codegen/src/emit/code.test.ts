import { describe, expect, it } from 'vitest';
import { doc, ident, key, str } from './code.js';

describe('emit > quoting helpers', () => {
  it.each([
    ['ident > accepts an identifier', () => ident('createAgentTask'), 'createAgentTask'],
    ['key > quotes a name with a dash', () => key('page-size'), '"page-size"'],
    ['str > escapes quotes and newlines', () => str('a"b\nc'), '"a\\"b\\nc"'],
    ['doc > defuses a comment terminator', () => doc('ends */ here'), '/** ends *\\/ here */\n'],
  ])('%s', (_, given, want) => {
    expect(given()).toBe(want);
  });

  it('ident > refuses what is not an identifier', () => {
    expect(() => ident('x; process.exit()')).toThrow('cannot be used as an identifier');
  });
});
