import { describe, expect, it } from 'vitest';
import { linearRegExp, toRe2Syntax, UndecidedPattern } from './linear-regexp.js';

describe('linear patterns', () => {
  it.each([
    ['escape > \\uXXXX', { given: '^\\u00e9$', want: '^\\x{00e9}$' }],
    ['escape > \\u{X}', { given: '\\u{1F600}', want: '\\x{1F600}' }],
    ['escape > an escaped backslash before u is left alone', { given: '\\\\u0041', want: '\\\\u0041' }],
    ['class > [^] is any character', { given: 'a[^]b', want: 'a[\\s\\S]b' }],
    ['other > passed on as written', { given: '^[a-z]+(-[a-z]+)*$', want: '^[a-z]+(-[a-z]+)*$' }],
  ])('syntax > %s', (_name, { given, want }) => {
    expect(toRe2Syntax(given)).toBe(want);
  });

  it.each([
    ['\\s > the Unicode spaces ECMAScript counts', { pattern: '^\\s$', input: '\u00a0', want: true }],
    ['\\S > not a space', { pattern: '^\\S+$', input: 'a\u2028', want: false }],
    ['\\u > a code point', { pattern: '^\\u00e9$', input: 'é', want: true }],
    ['flags > i', { pattern: '^abc$', input: 'ABC', want: false }],
  ])('match > %s', (_name, { pattern, input, want }) => {
    expect(linearRegExp(pattern, 'u').test(input)).toBe(want);
  });

  it('match > a nested quantifier on a long near-miss answers (RE2 does not backtrack)', () => {
    expect(linearRegExp('^(a+)+$', 'u').test(`${'a'.repeat(5000)}!`)).toBe(false);
  });

  it.each([
    ['backreference', '(a)\\1'],
    ['lookahead', 'a(?=b)'],
  ])('undecided > a %s is not run: testing throws UndecidedPattern', (_name, pattern) => {
    const re = linearRegExp(pattern, 'u');
    expect(() => re.test('ab')).toThrow(UndecidedPattern);
  });
});
