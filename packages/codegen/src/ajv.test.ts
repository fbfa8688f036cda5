import type { AnySchema } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createAjv, sharedAjv } from './ajv.js';

describe('sharedAjv', () => {
  it('instance > one per process, so the meta-schema is compiled once', () => {
    expect(sharedAjv()).toBe(sharedAjv());
  });

  // One instance of the same options for the table: a new one would compile the meta-schema again for each case.
  const fresh = createAjv();
  // The stages that check schemas through the shared instance (validate, witness) must find what an instance of
  // their own would: the same verdict and the same errors, each with its place.
  const cases: Array<[string, { given: AnySchema; want: boolean }]> = [
    [
      'meta-schema > a valid schema passes',
      { given: { type: 'object', properties: { a: { type: 'string' } } }, want: true },
    ],
    ['meta-schema > an unknown type fails', { given: { type: 'obj' }, want: false }],
    ['meta-schema > a title that is no string fails', { given: { type: 'string', title: 5 }, want: false }],
    ['meta-schema > a negative minLength fails', { given: { type: 'string', minLength: -1 }, want: false }],
    ['meta-schema > a boolean schema passes', { given: true, want: true }],
  ];
  it.each(cases)('%s, as a fresh instance says', (_, { given, want }) => {
    const expected = fresh.validateSchema(given);
    const shared = sharedAjv();
    expect(shared.validateSchema(given)).toBe(expected);
    expect(expected).toBe(want);
    expect(shared.errors ?? null).toEqual(fresh.errors ?? null);
  });

  it('meta-schema > checking adds nothing to the instance', () => {
    const id = 'https://example.test/checked.schema.json';
    expect(sharedAjv().validateSchema({ $id: id, type: 'string' })).toBe(true);
    expect(sharedAjv().getSchema(id)).toBeUndefined();
  });
});
