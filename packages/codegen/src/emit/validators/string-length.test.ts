import { describe, expect, it } from 'vitest';
import { createAjv } from '../../ajv.js';
import { boundLengthCounts } from './string-length.js';

// Strings around each bound, in code units and in code points: a character outside the Basic Multilingual Plane is two
// UTF-16 code units and one code point.
const FACE = '\u{1F600}';
const values = [
  '',
  'a',
  'ab',
  'abc',
  'abcd',
  'abcde',
  FACE,
  `${FACE}a`,
  FACE.repeat(2),
  FACE.repeat(3),
  7,
  null,
];

/** The generator's ajv (every error, formats, strict), with or without the bounds; a fresh schema `$id` per compile. */
const instances = [false, true].map((bounded) => {
  // `$data` on, to show a limit read from the message keeps ajv's code.
  const ajv = createAjv({ $data: true });
  if (bounded) boundLengthCounts(ajv);
  return ajv;
});
let compiled = 0;
function compile(schema: Record<string, unknown>, bounded: boolean) {
  const ajv = instances[Number(bounded)] ?? expect.unreachable();
  return ajv.compile({ $id: `https://example.test/length/${compiled++}.json`, ...schema });
}

const schemas: Array<[string, Record<string, unknown>]> = [
  ['minLength > 1', { type: 'string', minLength: 1 }],
  ['minLength > 2', { type: 'string', minLength: 2 }],
  ['minLength > 3', { type: 'string', minLength: 3 }],
  ['maxLength > 1', { type: 'string', maxLength: 1 }],
  ['maxLength > 2', { type: 'string', maxLength: 2 }],
  [
    'both > beside a pattern and a format, in ajv’s order',
    { type: 'string', minLength: 3, maxLength: 2, pattern: '^a', format: 'email' },
  ],
  [
    '$data > a limit read from the message',
    {
      type: 'object',
      properties: { n: { type: 'integer' }, s: { type: 'string', minLength: { $data: '1/n' } } },
    },
  ],
];

describe('string lengths > counted only between the bounds', () => {
  it.each(schemas)('%s: ajv’s verdict and errors on every value', (_, schema) => {
    const bounded = compile(schema, true);
    const counted = compile(schema, false);
    const inputs = schema.type === 'object' ? values.map((s) => ({ n: 2, s })) : values;
    for (const value of inputs) {
      expect(bounded(value), JSON.stringify(value)).toBe(counted(value));
      expect(bounded.errors, JSON.stringify(value)).toEqual(counted.errors);
    }
  });

  it('code > a string of twice the minimum less one, or within the maximum, is not counted', () => {
    const source = String(compile({ type: 'string', minLength: 2, maxLength: 5 }, true));
    expect(source).toContain('data.length < 3');
    expect(source).toContain('data.length > 5');
  });
});
