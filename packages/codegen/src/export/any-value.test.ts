import { describe, expect, it } from 'vitest';
import { anyValueTypes } from './any-value.js';

const byFile = (ref: string) => ref.replace(/\.schema\.json$/, '');
const scalars = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] };

const cases: Array<[string, { given: Record<string, unknown>; want: string[] }]> = [
  [
    'a recursive union of objects, arrays and scalars > any value',
    {
      given: {
        Value: {
          $id: 'x',
          title: 'Value',
          anyOf: [{ $ref: 'Obj.schema.json' }, { $ref: 'Arr.schema.json' }, scalars],
        },
        Obj: { type: 'object', additionalProperties: { $ref: 'Value.schema.json' } },
        Arr: { type: 'array', items: { $ref: 'Value.schema.json' } },
      },
      want: ['Value'],
    },
  ],
  ['the empty schema > any value', { given: { Any: { description: 'd' } }, want: ['Any'] }],
  [
    'integer in place of number > not every value',
    {
      given: { V: { anyOf: [{ type: ['object', 'array', 'string', 'integer', 'boolean', 'null'] }] } },
      want: [],
    },
  ],
  [
    'an object that names properties > not every value',
    {
      given: {
        V: {
          anyOf: [
            { type: ['array', 'string', 'number', 'boolean', 'null'] },
            { type: 'object', properties: { a: { type: 'string' } } },
          ],
        },
      },
      want: [],
    },
  ],
  [
    'a loop at the same place > accepts nothing more than its other branches',
    { given: { V: { anyOf: [{ $ref: 'V.schema.json' }, { type: 'string' }] } }, want: [] },
  ],
  [
    'recursion below a constrained item > not every value',
    {
      given: {
        V: {
          anyOf: [{ $ref: 'Arr.schema.json' }, { type: ['object', 'string', 'number', 'boolean', 'null'] }],
        },
        Arr: { type: 'array', items: { $ref: 'Str.schema.json' } },
        Str: { type: 'string' },
      },
      want: [],
    },
  ],
];

describe('export > anyValueTypes', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect([...anyValueTypes(new Map(Object.entries(given)), byFile)].sort()).toEqual(want);
  });
});
