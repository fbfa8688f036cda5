import { describe, expect, it } from 'vitest';
import { WITNESS_KEY } from './schema/found-change.js';
import { witnessShown, witnessText } from './witness-text.js';

describe('diff > witnesses as a reader sees them', () => {
  it('a made-up property > shown as `*`, nested or numbered, the rest as it is', () => {
    const message = {
      type: 'data',
      [WITNESS_KEY]: null,
      parts: [{ [`${WITNESS_KEY}2`]: 1, text: 'hi' }],
    };
    expect(witnessShown(message)).toEqual({ type: 'data', '*': null, parts: [{ '*2': 1, text: 'hi' }] });
    expect(message).toHaveProperty(WITNESS_KEY);
  });

  it('a made-up string > shown as `*`, after the value it must differ from', () => {
    expect(witnessShown({ status: WITNESS_KEY, kind: `completed${WITNESS_KEY}` })).toEqual({
      status: '*',
      kind: 'completed*',
    });
  });

  it('a rejection > names `*`', () => {
    expect(witnessText(`(root): must NOT have additional properties (${WITNESS_KEY})`)).toBe(
      '(root): must NOT have additional properties (*)',
    );
  });
});
