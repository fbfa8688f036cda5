// A start script's option given more than once (`--push-allow a --push-allow b`): every value, in order.
import { describe, expect, it } from 'vitest';
import { parseServeArgs, ServeArgsError } from './serve-args.js';

const spec = {
  port: 3000,
  strings: { allow: { value: '<host>', repeatable: true }, store: { value: '<spec>' } },
} as const;

describe('serve args > repeatable options', () => {
  const cases: Array<[string, { given: string[]; want: { allow?: string[]; last?: string } }]> = [
    ['not given', { given: [], want: {} }],
    ['once', { given: ['--allow', 'a'], want: { allow: ['a'], last: 'a' } }],
    ['twice, in order', { given: ['--allow', 'a', '--allow', 'b'], want: { allow: ['a', 'b'], last: 'b' } }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    const args = parseServeArgs(given, spec, {});
    expect(args.lists.allow).toEqual(want.allow);
    expect(args.strings.allow).toEqual(want.last);
  });
  it('an option that is not repeatable still takes one value (the last, as parseArgs does)', () => {
    const args = parseServeArgs(['--store', 'a', '--store', 'b'], spec, {});
    expect(args.strings.store).toBe('b');
    expect(() => parseServeArgs(['--allow'], spec, {})).toThrow(ServeArgsError);
  });
});
