import { parseJsonWithLocator } from '@agentproto/runtime/locate';
import { describe, expect, it } from 'vitest';
import { record } from '../../../../test/support/typed.js';
import { parseJsonLazily } from './source-file.js';

describe('load > JSON parsed at once, located on demand', () => {
  const text =
    '{\n  "a": [1, {"b": "x\\\\\\"[{"}],\n  "__proto__": {"c": true},\n  "a2": 1e3,\n  "d": "é\\u2028"\n}\n';

  it('the same value and the same lines as the locating parser', () => {
    const lazy = parseJsonLazily(text);
    const eager = parseJsonWithLocator(text);
    expect(lazy.value).toStrictEqual(eager.value);
    expect(Object.keys(record(lazy.value))).toEqual(['a', '__proto__', 'a2', 'd']);
    for (const pointer of ['', '/a', '/a/1/b', '/__proto__/c', '/d', '/missing'])
      expect(lazy.locate(pointer), pointer).toBe(eager.locate(pointer));
  });

  it("a text that is not JSON fails with the locating parser's line and column", () => {
    const bad = '{\n  "a": 1,\n}';
    let lazyError: unknown;
    let eagerError: unknown;
    try {
      parseJsonLazily(bad);
    } catch (e) {
      lazyError = e;
    }
    try {
      parseJsonWithLocator(bad);
    } catch (e) {
      eagerError = e;
    }
    expect(lazyError).toMatchObject({ line: 3 });
    expect(lazyError).toEqual(eagerError);
  });

  it('a text nested past the depth the locating parser can take fails as it does', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(() => parseJsonWithLocator(deep)).toThrow(RangeError);
    expect(() => parseJsonLazily(deep)).toThrow(RangeError);
  });
});
