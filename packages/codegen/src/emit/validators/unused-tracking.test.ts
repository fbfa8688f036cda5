import standaloneCode from 'ajv/dist/standalone/index.js';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../ajv.js';
import { dropUnusedTracking, usesKeyword } from './unused-tracking.js';

/** ajv's standalone code for `schema`, compiled as the message validators are, after dropUnusedTracking. */
function compiled(schema: Record<string, unknown>): string {
  const ajv = createAjv({ code: { source: true }, allErrors: true });
  const withId = { $id: 'https://x/T.schema.json', ...schema };
  ajv.addSchema(withId);
  dropUnusedTracking(ajv, [withId]);
  return standaloneCode.default(ajv, { T: 'https://x/T.schema.json' });
}

describe('validators > unused tracking', () => {
  it.each([
    ['a key at depth > found', { properties: { a: { unevaluatedProperties: false } } }, true],
    ['a property so named > found (errs safe)', { properties: { unevaluatedItems: {} } }, true],
    ['none > not found', { type: 'object', anyOf: [{ required: ['a'] }] }, false],
  ])('usesKeyword > %s', (_, schema, want) => {
    expect(usesKeyword(schema, new Set(['unevaluatedProperties', 'unevaluatedItems']))).toBe(want);
  });

  it('no unevaluated or dynamic keyword > no evaluated records and no dynamic scope in the code', () => {
    const code = compiled({
      type: 'object',
      properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    });
    expect(code).not.toMatch(/\.evaluated\b/);
    expect(code).not.toMatch(/dynamicAnchors/);
  });

  it('an unevaluated keyword > the records stay', () => {
    const code = compiled({
      type: 'object',
      allOf: [{ properties: { a: {} } }],
      unevaluatedProperties: false,
    });
    expect(code).toMatch(/\.evaluated\b/);
  });

  it('a dynamic anchor > the dynamic scope stays', () => {
    const code = compiled({ $dynamicAnchor: 'node', type: 'object' });
    expect(code).toMatch(/dynamicAnchors/);
  });
});
