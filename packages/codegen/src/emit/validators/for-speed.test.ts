import { describe, expect, it } from 'vitest';
import { forSpeed } from './emit-validators.js';

const cases: Array<[string, { given: unknown; want: unknown }]> = [
  [
    'nullable string > a type list',
    { given: { anyOf: [{ type: 'string' }, { type: 'null' }] }, want: { type: ['string', 'null'] } },
  ],
  [
    'nullable integer with bounds > keeps them, as they only bind integers',
    {
      given: { description: 'd', anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
      want: { description: 'd', type: ['integer', 'null'], minimum: 0 },
    },
  ],
  [
    'nested > rewritten inside properties',
    {
      given: { properties: { a: { anyOf: [{ type: 'boolean' }, { type: 'null' }] } } },
      want: { properties: { a: { type: ['boolean', 'null'] } } },
    },
  ],
  [
    'a $ref branch > kept',
    {
      given: { anyOf: [{ $ref: 'X.schema.json' }, { type: 'null' }] },
      want: { anyOf: [{ $ref: 'X.schema.json' }, { type: 'null' }] },
    },
  ],
  [
    'an enum > kept, as it would reject null',
    {
      given: { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'null' }] },
      want: { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'null' }] },
    },
  ],
  [
    'a clash with a sibling keyword > kept',
    {
      given: { type: 'object', anyOf: [{ type: 'string' }, { type: 'null' }] },
      want: { type: 'object', anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
  ],
  [
    'null first > kept',
    {
      given: { anyOf: [{ type: 'null' }, { type: 'string' }] },
      want: { anyOf: [{ type: 'null' }, { type: 'string' }] },
    },
  ],
];

describe('validators > forSpeed', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(forSpeed(given)).toEqual(want);
  });
});
