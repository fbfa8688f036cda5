import { describe, expect, it } from 'vitest';
import { doc, ident, joinCode, key, literal, str, ts } from './code.js';

describe('emit > quoting helpers', () => {
  it.each([
    ['ident > accepts an identifier', () => ident('createAgentTask'), 'createAgentTask'],
    ['key > quotes a name with a dash', () => key('page-size'), '"page-size"'],
    ['key > leaves an identifier bare', () => key('page_size'), 'page_size'],
    ['str > escapes quotes and newlines', () => str('a"b\nc'), '"a\\"b\\nc"'],
    ['doc > defuses a comment terminator', () => doc('ends */ here'), '/** ends *\\/ here */\n'],
    ['literal > writes JSON', () => literal({ a: [1, 'x'] }), '{"a":[1,"x"]}'],
    [
      'ts > pastes code, numbers and booleans',
      () => ts`f(${str('2XX')}, ${200}, ${true})`,
      'f("2XX", 200, true)',
    ],
    [
      'ts > pastes an array of code piece after piece',
      () => ts`[${[str('a'), ts`, `, str('b')]}]`,
      '["a", "b"]',
    ],
    ['joinCode > separates pieces', () => joinCode([ident('a'), ident('b')], ' | '), 'a | b'],
  ])('%s', (_, given, want) => {
    expect(String(given())).toBe(want);
  });

  it('ident > refuses what is not an identifier', () => {
    expect(() => ident('x; process.exit()')).toThrow('cannot be used as an identifier');
  });

  it('ts > a raw string is a type error, and refused at run time', () => {
    const status = '2XX';
    // @ts-expect-error: a string from a schema must go through str(), ident() or key(); the compiler says so.
    expect(() => ts`responses[${status}]`).toThrow('refusing to paste string');
  });

  it('ts > a number that is not finite is refused', () => {
    expect(() => ts`${Number.NaN}`).toThrow('cannot be written as a number literal');
  });
});
