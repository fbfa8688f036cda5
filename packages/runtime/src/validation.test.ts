import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { describeErrors } from './validation.js';

/** An ajv error of `keyword` at `instancePath`, with its params. */
const error = (keyword: string, instancePath: string, params: Record<string, unknown> = {}): ErrorObject => ({
  keyword,
  instancePath,
  schemaPath: `#/${keyword}`,
  params,
  message: `fails ${keyword}`,
});

// Two branches of a union that both want the same member: one issue for it, however many errors there are.
const missing = (count: number) =>
  Array.from({ length: count }, () => error('required', '', { missingProperty: 'a' }));

// Lists as a schema holds them: the same array each time its keyword fails.
const LETTERS = ['a', 'b'];
const NULLABLE = ['integer', 'null'];

const cases: Array<[string, { given: ErrorObject[]; want: Array<[string, string]> }]> = [
  ['none > no issues', { given: [], want: [] }],
  [
    'required > at the member, its name escaped',
    {
      given: [
        error('required', '/x', { missingProperty: 'a/b' }),
        error('required', '/x', { missingProperty: 'c~d' }),
        error('required', '/x', { missingProperty: 'e/~f' }),
        error('required', '/x', { missingProperty: 'g' }),
      ],
      want: [
        ['/x/a~1b', 'is required but missing'],
        ['/x/c~0d', 'is required but missing'],
        ['/x/e~1~0f', 'is required but missing'],
        ['/x/g', 'is required but missing'],
      ],
    },
  ],
  [
    'enum and type > each list its own message, the second time too',
    {
      given: [
        error('enum', '/a', { allowedValues: LETTERS }),
        error('enum', '/b', { allowedValues: [1, null] }),
        error('type', '/c', { type: NULLABLE }),
        error('enum', '/d', { allowedValues: LETTERS }),
        error('type', '/e', { type: NULLABLE }),
        error('type', '/f', { type: 'string' }),
      ],
      want: [
        ['/a', 'must be one of "a", "b"'],
        ['/b', 'must be one of 1, null'],
        ['/c', 'must be integer or null'],
        ['/d', 'must be one of "a", "b"'],
        ['/e', 'must be integer or null'],
        ['/f', 'must be string'],
      ],
    },
  ],
  [
    'duplicates > dropped among a few errors',
    { given: missing(3), want: [['/a', 'is required but missing']] },
  ],
  [
    'duplicates > dropped among many errors',
    { given: missing(40), want: [['/a', 'is required but missing']] },
  ],
  [
    'duplicates > the same place with another message is kept',
    {
      given: [error('minimum', '/n'), error('multipleOf', '/n'), error('minimum', '/n')],
      want: [
        ['/n', 'fails minimum'],
        ['/n', 'fails multipleOf'],
      ],
    },
  ],
];

describe('validation > describeErrors', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(describeErrors(given).map((i) => [i.pointer, i.message])).toEqual(want);
  });

  it('issues > each keeps its error’s keyword; no message is "is invalid"; no errors at all, no issues', () => {
    const { message: _, ...bare } = error('uniqueItems', '/u');
    expect(
      describeErrors([
        error('type', '/t', { type: 'string' }),
        bare,
        error('required', '', { missingProperty: 'r' }),
      ]),
    ).toEqual([
      { pointer: '/t', message: 'must be string', keyword: 'type' },
      { pointer: '/u', message: 'is invalid', keyword: 'uniqueItems' },
      { pointer: '/r', message: 'is required but missing', keyword: 'required' },
    ]);
    expect(describeErrors(null)).toEqual([]);
    expect(describeErrors(undefined)).toEqual([]);
  });
});
