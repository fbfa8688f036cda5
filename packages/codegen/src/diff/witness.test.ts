import { describe, expect, it } from 'vitest';
import type { DiffSide } from './diff-types.js';
import { sideTools } from './witness.js';

/** A side of one type, `Named`, whose schema is `schema`. */
function sideOf(schema: Record<string, unknown>): DiffSide {
  const id = 'https://example.test/side/Named.schema.json';
  return {
    label: 'side',
    types: new Map([
      ['Named', { file: 'side/Named.schema.json', value: { ...schema, $id: id }, id, at: '' }],
    ]),
    examples: new Map(),
  };
}

describe('sideTools', () => {
  // A schema the 2020-12 meta-schema refuses gets no validator (no witness, no crash), though ajv would compile it:
  // `title: 5` changes nothing it checks. The side's ajv does not check schemas itself; the shared instance does.
  const cases: Array<[string, { given: Record<string, unknown>; want: boolean }]> = [
    ['validator > a valid schema has one', { given: { type: 'string', title: 'Named' }, want: true }],
    [
      'validator > a schema the meta-schema refuses has none',
      { given: { type: 'string', title: 5 }, want: false },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    const tools = sideTools(sideOf({ type: 'string' }));
    expect(tools.validator(given) !== undefined).toBe(want);
  });

  it.each(cases)('types > %s, through a reference to the type', (_, { given, want }) => {
    const tools = sideTools(sideOf(given));
    const validate = tools.validator({ $ref: 'https://example.test/side/Named.schema.json' });
    expect(validate !== undefined).toBe(want);
    if (validate) expect([validate('text'), validate(1)]).toEqual([true, false]);
  });
});
