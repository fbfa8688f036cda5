import { describe, expect, it } from 'vitest';
import { withoutAnnotations } from './without-annotations.js';

describe('validators > schemas without their prose', () => {
  it.each([
    [
      'the root and every subschema lose title, description, $comment and examples',
      {
        title: 'T',
        description: 'd',
        $comment: 'c',
        examples: [1],
        type: 'object',
        properties: { a: { description: 'd', type: 'string' } },
        patternProperties: { '^x': { title: 't' } },
        additionalProperties: { examples: ['e'], type: 'integer' },
        $defs: { D: { description: 'd', const: 1 } },
        allOf: [{ description: 'd' }, true],
        prefixItems: [{ title: 't', type: 'null' }],
        items: { description: 'd', type: 'number' },
        if: { description: 'd' },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword.
        then: { $comment: 'c' },
        else: { title: 't' },
        not: { description: 'd' },
        contains: { description: 'd' },
        propertyNames: { description: 'd', pattern: '^a' },
        dependentSchemas: { a: { description: 'd', required: ['b'] } },
        unevaluatedProperties: { description: 'd' },
      },
      {
        type: 'object',
        properties: { a: { type: 'string' } },
        patternProperties: { '^x': {} },
        additionalProperties: { type: 'integer' },
        $defs: { D: { const: 1 } },
        allOf: [{}, true],
        prefixItems: [{ type: 'null' }],
        items: { type: 'number' },
        if: {},
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword.
        then: {},
        else: {},
        not: {},
        contains: {},
        propertyNames: { pattern: '^a' },
        dependentSchemas: { a: { required: ['b'] } },
        unevaluatedProperties: {},
      },
    ],
    [
      'a property named as an annotation is a name, and stays',
      { properties: { description: { type: 'string', description: 'd' }, title: true } },
      { properties: { description: { type: 'string' }, title: true } },
    ],
    [
      'values of other keywords are data, copied as they are',
      {
        const: { description: 'kept' },
        enum: [{ title: 'kept' }],
        default: { description: 'kept' },
        'x-note': { description: 'kept' },
        deprecated: true,
      },
      {
        const: { description: 'kept' },
        enum: [{ title: 'kept' }],
        default: { description: 'kept' },
        'x-note': { description: 'kept' },
        deprecated: true,
      },
    ],
    ['a boolean schema is itself', true, true],
    ['an array form of items (drafts before 2020-12)', { items: [{ title: 't' }] }, { items: [{}] }],
  ])('%s', (_name, given, want) => {
    const before = JSON.stringify(given);
    expect(withoutAnnotations(given)).toEqual(want);
    // The input is not changed.
    expect(JSON.stringify(given)).toBe(before);
  });
});
