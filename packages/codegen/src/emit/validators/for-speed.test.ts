import { describe, expect, it } from 'vitest';
import { forSpeed, inlineAllOfRefs } from './emit-validators.js';

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

describe('validators > inlineAllOfRefs', () => {
  const files = new Map<string, Record<string, unknown>>([
    [
      'Base.schema.json',
      {
        $id: 'https://x/Base.schema.json',
        title: 'Base',
        description: 'd',
        properties: { a: { type: 'string' } },
        allOf: [{ $ref: 'Root.schema.json' }],
      },
    ],
    [
      'Root.schema.json',
      { $id: 'https://x/Root.schema.json', title: 'Root', properties: { r: { type: 'integer' } } },
    ],
    [
      'Local.schema.json',
      {
        $id: 'https://x/Local.schema.json',
        properties: { a: { $ref: '#/$defs/A' } },
        $defs: { A: { type: 'string' } },
      },
    ],
    ['Loop.schema.json', { $id: 'https://x/Loop.schema.json', allOf: [{ $ref: 'Loop.schema.json' }] }],
  ]);
  const cases: Array<[string, { given: unknown; want: unknown }]> = [
    [
      'chain > the base and its own base are inlined, without their identity',
      {
        given: { allOf: [{ $ref: 'Base.schema.json' }] },
        want: {
          allOf: [
            { properties: { a: { type: 'string' } }, allOf: [{ properties: { r: { type: 'integer' } } }] },
          ],
        },
      },
    ],
    [
      'local references > left as a reference',
      { given: { allOf: [{ $ref: 'Local.schema.json' }] }, want: { allOf: [{ $ref: 'Local.schema.json' }] } },
    ],
    [
      'a reference with siblings > left alone',
      {
        given: { allOf: [{ $ref: 'Base.schema.json', title: 'x' }] },
        want: { allOf: [{ $ref: 'Base.schema.json', title: 'x' }] },
      },
    ],
    [
      'a cycle > stops',
      {
        given: { allOf: [{ $ref: 'Loop.schema.json' }] },
        want: { allOf: [{ allOf: [{ $ref: 'Loop.schema.json' }] }] },
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(inlineAllOfRefs(given, files)).toEqual(want);
  });
});
