import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../../ajv.js';
import { emitFastPaths } from './index.js';

const require = createRequire(import.meta.url);
const BASE = 'https://example.test/s/';

/** Compiles the fast path of `root` (with `others` beside it) and returns it as a function, or why there is none. */
function compile(
  root: Record<string, unknown>,
  others: Record<string, unknown>[] = [],
): ((data: unknown) => boolean) | string {
  const all = [{ $id: `${BASE}Root.json`, ...root }, ...others];
  const schemas = new Map(all.map((s) => [String(s.$id), s]));
  const fast = emitFastPaths(schemas, { Root: `${BASE}Root.json` });
  const name = fast.functions.Root;
  if (!name) return fast.skipped.Root ?? 'no reason';
  // sound: emitFastPaths wrote `name` in that code as a function of one value that answers a boolean.
  return new Function('require', `${fast.code}\nreturn ${name};`)(require) as (data: unknown) => boolean;
}

/** The fast path and ajv (the configuration the generator uses) give the same verdict on every value. */
function agree(
  root: Record<string, unknown>,
  values: unknown[],
  others: Record<string, unknown>[] = [],
): boolean[] {
  const fast = compile(root, others);
  if (typeof fast === 'string') throw new Error(`no fast path: ${fast}`);
  // Strict types off: these schemas use keywords without `type` on purpose, to check that each applies only to its type.
  const ajv = createAjv({ strictTypes: false, strictRequired: false, strictSchema: 'log', logger: false });
  for (const s of others) ajv.addSchema(s);
  const full = ajv.compile({ $id: `${BASE}Root.json`, ...root });
  return values.map((v) => {
    const want = full(v);
    expect(fast(v), JSON.stringify(v)).toBe(want);
    return want;
  });
}

describe('fast paths agree with ajv', () => {
  it('types, enums, consts and number bounds', () => {
    expect(
      agree({ type: 'integer', minimum: 1, exclusiveMaximum: 10 }, [0, 1, 9, 10, 1.5, '1', null, true]),
    ).toEqual([false, true, true, false, false, false, false, false]);
    agree({ type: ['number', 'null'], maximum: 2 }, [
      2,
      2.5,
      null,
      'x',
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ]);
    agree({ enum: ['a', 1, null, { k: [1] }] }, ['a', 1, null, { k: [1] }, { k: [2] }, 'b']);
    agree({ const: { a: 1 } }, [{ a: 1 }, { a: 2 }, 1]);
  });

  it('string lengths count code points, as ajv does; patterns and formats', () => {
    expect(
      agree({ type: 'string', minLength: 2, maxLength: 3 }, ['😀', '😀😀', 'ab', 'abcd', '😀😀😀😀', 7]),
    ).toEqual([false, true, true, false, false, false]);
    // Around the bounds where the count is skipped: a minimum of one, and twice a minimum less one (code units).
    expect(agree({ type: 'string', minLength: 1 }, ['', 'a', '😀', 7])).toEqual([false, true, true, false]);
    expect(agree({ type: 'string', minLength: 3 }, ['a😀', '😀😀', 'abcde', '😀a😀'])).toEqual([
      false,
      false,
      true,
      true,
    ]);
    agree({ type: 'string', pattern: '^a+$' }, ['aa', 'b', '', 3]);
    agree({ type: 'string', format: 'date-time' }, ['2024-01-01T00:00:00Z', '2024-13-01T00:00:00Z', 'x']);
    agree({ format: 'uri-reference' }, ['/a/b', 'http://x y', 12]);
    // A number format applies to numbers, not strings.
    agree({ format: 'int32' }, [1, 2 ** 31, 1.5, 'not a number']);
  });

  it('objects: required, properties, additional and pattern properties, counts, dependencies', () => {
    agree(
      {
        type: 'object',
        required: ['a'],
        properties: { a: { type: 'string' }, b: { type: 'integer' } },
        patternProperties: { '^x-': { type: 'boolean' } },
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 3,
        dependentRequired: { b: ['x-b'] },
      },
      [
        { a: 's' },
        {},
        { a: 1 },
        { a: 's', b: 1 },
        { a: 's', b: 1, 'x-b': true },
        { a: 's', 'x-c': 'no' },
        { a: 's', c: 1 },
        { a: 's', b: 1, 'x-b': true, 'x-c': true },
        [],
        'a',
      ],
    );
    agree({ additionalProperties: { type: 'number' }, properties: { n: { type: 'string' } } }, [
      { n: 's', m: 1 },
      { n: 's', m: 's' },
      { toString: 1 },
      { constructor: 'x' },
    ]);
  });

  it('unevaluatedProperties: own properties, an allOf base, a $ref, and a subschema that evaluates everything', () => {
    const base = {
      $id: `${BASE}Base.json`,
      type: 'object',
      properties: { id: { type: 'integer' } },
    };
    const open = { $id: `${BASE}Open.json`, type: 'object', unevaluatedProperties: { type: 'string' } };
    agree(
      { allOf: [{ $ref: 'Base.json' }], properties: { t: { const: 'x' } }, unevaluatedProperties: false },
      [{ id: 1, t: 'x' }, { id: 1, t: 'x', toString: 1 }, { id: 1, extra: 1 }, { id: 'no' }],
      [base],
    );
    agree(
      { $ref: 'Open.json', properties: { t: { const: 'x' } }, unevaluatedProperties: false },
      [
        { t: 'x', other: 's' },
        { t: 'x', other: 1 },
      ],
      [open],
    );
    agree({ unevaluatedProperties: { type: 'integer' }, properties: { a: true } }, [
      { a: 's', b: 1 },
      { b: 's' },
    ]);
  });

  it('arrays: prefix items, items after them, counts', () => {
    agree({ type: 'array', prefixItems: [{ type: 'string' }], items: false, minItems: 1 }, [
      ['a'],
      [],
      ['a', 1],
      [1],
    ]);
    agree({ items: { type: 'integer' }, maxItems: 2 }, [[1, 2], [1, 2, 3], [1, 's'], 'not an array']);
  });

  it('anyOf, oneOf (two matching branches fail), not, if/then/else, and $ref into $defs', () => {
    agree({ anyOf: [{ type: 'string' }, { type: 'integer', minimum: 3 }] }, ['s', 3, 2, null]);
    agree({ oneOf: [{ type: 'integer' }, { minimum: 2 }] }, [1, 3, 2.5, 's']);
    agree({ not: { enum: ['a', 'b'] } }, ['a', 'c']);
    agree(
      {
        if: { properties: { k: { const: 'n' } }, required: ['k'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword.
        then: { required: ['n'] },
        else: { required: ['s'] },
      },
      [{ k: 'n', n: 1 }, { k: 'n' }, { s: 1 }, {}, 'x'],
    );
    agree({ if: { type: 'string' } }, ['s', 1]);
    agree({ $defs: { pos: { type: 'integer', minimum: 1 } }, properties: { n: { $ref: '#/$defs/pos' } } }, [
      { n: 1 },
      { n: 0 },
    ]);
  });

  it('oneOf named by a member or a tag: the named branch alone decides, as in ajv', () => {
    const byMember = {
      oneOf: [
        { required: ['a'], properties: { a: { type: 'string' } } },
        { required: ['b'], properties: { b: { type: 'integer' }, c: { type: 'string' } } },
      ],
    };
    // One member, each valid and not; both (every branch counted: two hold); none; not an object.
    agree(byMember, [
      { a: 'x' },
      { a: 1 },
      { b: 1 },
      { b: 's' },
      { a: 'x', b: 1 },
      { b: 1, c: 2 },
      {},
      'x',
      [1],
    ]);
    const byTag = {
      oneOf: [
        { required: ['t'], properties: { t: { const: 'x' }, n: { type: 'integer' } } },
        { properties: { t: { enum: ['y', 2] }, s: { type: 'string' } } },
      ],
    };
    // Each tag, a tag no branch has, and no tag (where the second branch holds alone).
    agree(byTag, [
      { t: 'x', n: 1 },
      { t: 'x', n: 's' },
      { t: 'y', s: 1 },
      { t: 2, s: 's' },
      { t: 'z' },
      { n: 1 },
      {},
      3,
    ]);
    // The picked code is what runs: a branch is tested alone before any is counted.
    for (const root of [byMember, byTag]) expect(String(compile(root))).toMatch(/=== 1\)\{ if\(!/);
  });

  it('discriminator: as ajv honours it, the tag alone picks the branch (const or enum)', () => {
    const cat = {
      $id: `${BASE}Cat.json`,
      type: 'object',
      required: ['kind'],
      properties: { kind: { const: 'cat' }, lives: { type: 'integer' } },
    };
    const dog = {
      $id: `${BASE}Dog.json`,
      type: 'object',
      required: ['kind'],
      properties: { kind: { enum: ['dog', 'puppy'] }, bark: { type: 'boolean' } },
    };
    agree(
      {
        type: 'object',
        required: ['kind'],
        discriminator: { propertyName: 'kind' },
        oneOf: [{ $ref: 'Cat.json' }, { $ref: 'Dog.json' }],
      },
      [
        { kind: 'cat', lives: 9 },
        { kind: 'cat', lives: 'nine' },
        { kind: 'puppy', bark: true },
        { kind: 'cow' },
        { kind: 1 },
        {},
        'cat',
      ],
      [cat, dog],
    );
  });
});

describe('schema text that is hostile to source code', () => {
  // Names and values that would end a string, a template or a comment, or a line, were they pasted into the code raw.
  const hostile = [
    'q"uote',
    "apos'trophe",
    'back`tick',
    'end*/comment',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text a template would read as a placeholder, on purpose.
    'tem${plate}',
    'new\nline',
    'line\u2028separator',
    'para\u2029graph',
    'back\\slash',
    '</script>',
  ];
  const object = (entries: [string, unknown][]) => Object.fromEntries(entries);
  const valid = object(hostile.map((n) => [n, n]));

  it('property names and const values are quoted: the code parses and agrees with ajv', () => {
    const [first = '', second = ''] = hostile;
    expect(
      agree(
        {
          type: 'object',
          required: hostile,
          properties: object(hostile.map((n) => [n, { const: n }])),
          // A key of the same characters, escaped as a pattern.
          patternProperties: { '^x-"`\\*/\\$\\{\n\u2028': { enum: [{ 'k"*/': 'v`${' }, 'end\u2028*/'] } },
          additionalProperties: false,
          dependentRequired: { [first]: [second] },
        },
        [
          valid,
          { ...valid, [first]: 'other' },
          object(hostile.slice(1).map((n) => [n, n])),
          { ...valid, 'x-"`*/${\n\u2028': { 'k"*/': 'v`${' } },
          { ...valid, 'x-"`*/${\n\u2028': 'end\u2028*/' },
          { ...valid, 'x-"`*/${\n\u2028': 'end */' },
          { ...valid, 'not declared': 1 },
        ],
      ),
    ).toEqual([true, false, false, true, true, false, false]);
  });

  it('a discriminator tag with a hostile name and values, and a pattern with quotes and a line break', () => {
    const tag = 'kind"`*/\n${';
    const branch = (value: string) => ({
      type: 'object',
      required: [tag],
      properties: { [tag]: { const: value }, text: { type: 'string', pattern: '^[^"`\\n]*$' } },
    });
    expect(
      agree(
        {
          type: 'object',
          required: [tag],
          discriminator: { propertyName: tag },
          oneOf: [branch('a"*/'), branch('b`\u2028')],
        },
        [
          { [tag]: 'a"*/', text: 'plain' },
          { [tag]: 'b`\u2028' },
          { [tag]: 'a"*/', text: 'has "quote"' },
          { [tag]: 'a"*/', text: 'line\nbreak' },
          { [tag]: 'c' },
          { kind: 'a"*/' },
        ],
      ),
    ).toEqual([true, true, false, false, false, false]);
  });
});

describe('schemas the fast path leaves to ajv', () => {
  it('a keyword it does not compile, or evaluated properties that depend on the value, give no fast path', () => {
    expect(compile({ type: 'array', uniqueItems: true })).toBe('keyword uniqueItems');
    expect(
      compile({
        anyOf: [{ properties: { a: true } }, { properties: { b: true } }],
        unevaluatedProperties: false,
      }),
    ).toMatch(/unevaluatedProperties over a anyOf/);
    expect(compile({ $ref: 'Missing.json' })).toMatch(/unresolved \$ref/);
  });

  it('what a skipped export began to compile is not emitted', () => {
    const shared = { $id: `${BASE}Shared.json`, type: 'string' };
    const schemas = new Map<string, Record<string, unknown>>([
      [
        `${BASE}Bad.json`,
        { $id: `${BASE}Bad.json`, properties: { s: { $ref: 'Shared.json' }, u: { uniqueItems: true } } },
      ],
      [`${BASE}Shared.json`, shared],
    ]);
    const fast = emitFastPaths(schemas, { Bad: `${BASE}Bad.json` });
    expect(fast.functions).toEqual({});
    expect(fast.skipped.Bad).toBe('keyword uniqueItems');
    expect(String(fast.code)).not.toMatch(/function fast/);
  });
});
