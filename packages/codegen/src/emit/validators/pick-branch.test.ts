import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../ajv.js';
import { bareTypes, pickBranches, pickerOf } from './pick-branch.js';

const BASE = 'https://example.test/s/';
const files = new Map<string, Record<string, unknown>>([
  [`${BASE}Task.json`, { type: 'object', required: ['id'], properties: { id: { type: 'string' } } }],
  [
    `${BASE}Text.json`,
    { required: ['type'], properties: { type: { const: 'text' }, text: { type: 'string' } } },
  ],
  [`${BASE}Data.json`, { required: ['type'], properties: { type: { enum: ['data', 'json'] } } }],
]);
const resolve = (ref: string, base: string) => files.get(new URL(ref, base).href);

const cases: Array<[string, { given: unknown[]; want: unknown }]> = [
  [
    'member-keyed > the member each branch alone requires',
    {
      given: [
        { required: ['task'], properties: { task: { $ref: 'Task.json' } } },
        { required: ['message', 'id'] },
        { required: ['id', 'status'] },
      ],
      want: { kind: 'member', members: ['task', 'message', 'status'] },
    },
  ],
  [
    'member-keyed > a member another branch allows is passed over',
    {
      given: [{ required: ['a', 'b'], properties: { m: { type: 'string' } } }, { required: ['a', 'm', 'u'] }],
      want: { kind: 'member', members: ['b', 'u'] },
    },
  ],
  [
    'tagged > before members, when both name the branches',
    {
      given: [
        { required: ['x'], properties: { t: { const: 'a' } } },
        { required: ['y'], properties: { t: { const: 'b' } } },
      ],
      want: { kind: 'tag', property: 't', values: [['a'], ['b']] },
    },
  ],
  [
    'member-keyed > through a lone $ref (its annotations beside it)',
    {
      given: [{ $ref: 'Task.json', description: 'd' }, { required: ['message'] }],
      want: { kind: 'member', members: ['id', 'message'] },
    },
  ],
  [
    'tagged > one const or enum per branch, read through $refs',
    {
      given: [{ $ref: 'Text.json' }, { $ref: 'Data.json' }],
      want: { kind: 'tag', property: 'type', values: [['text'], ['data', 'json']] },
    },
  ],
  [
    'none > a branch requires nothing of its own',
    { given: [{ required: ['a'] }, { required: ['a'] }], want: undefined },
  ],
  [
    'none > a tag two branches share',
    {
      given: [{ properties: { t: { const: 'x' } } }, { properties: { t: { enum: ['y', 'x'] } } }],
      want: undefined,
    },
  ],
  [
    'none > a tag that is an object',
    {
      given: [{ properties: { t: { const: { a: 1 } } } }, { properties: { t: { const: 'y' } } }],
      want: undefined,
    },
  ],
  ['none > a type union', { given: [{ type: 'string' }, { type: 'null' }], want: undefined }],
  [
    'none > a $ref with keywords beside it',
    { given: [{ $ref: 'Task.json', required: ['x'] }, { required: ['y'] }], want: undefined },
  ],
  [
    'none > a $ref that resolves to nothing',
    { given: [{ $ref: 'Missing.json' }, { required: ['y'] }], want: undefined },
  ],
  ['none > a single branch', { given: [{ required: ['a'] }], want: undefined }],
];

describe('validators > pickerOf', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(pickerOf(given, `${BASE}Root.json`, resolve)).toEqual(want);
  });
});

const typeCases: Array<[string, { given: unknown[]; want: unknown }]> = [
  [
    'bare types > each branch one type',
    { given: [{ type: 'string' }, { type: 'integer', description: 'd' }], want: ['string', 'integer'] },
  ],
  [
    'none > a branch with a keyword beside its type',
    { given: [{ type: 'string', minLength: 1 }], want: undefined },
  ],
  ['none > a branch with a list of types', { given: [{ type: ['string', 'null'] }], want: undefined }],
  ['none > a type JSON Schema does not have', { given: [{ type: 'date' }], want: undefined }],
  ['none > a $ref branch', { given: [{ type: 'string' }, { $ref: 'Task.json' }], want: undefined }],
  ['none > no branch', { given: [], want: undefined }],
];

describe('validators > bareTypes', () => {
  it.each(typeCases)('%s', (_, { given, want }) => {
    expect(bareTypes(given)).toEqual(want);
  });
});

/** The generator's ajv (every error), with or without the picking, over the files above; one instance each. */
const instances = [false, true].map((pick) => {
  const ajv = createAjv({ strictTypes: false, strictRequired: false });
  if (pick) pickBranches(ajv, resolve);
  for (const [id, s] of files) ajv.addSchema({ $id: id, ...s });
  return ajv;
});

let compiled = 0;
/** `root` compiled by the generator's ajv, with or without the picking (under a fresh `$id` each time). */
function compile(root: Record<string, unknown>, pick: boolean) {
  const ajv = instances[Number(pick)] ?? expect.unreachable();
  return ajv.compile({ $id: `${BASE}Root${compiled++}.json`, ...root });
}

/** Where each error points and which keyword it is. */
const located = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`).sort();

const memberKeyed = {
  type: 'object',
  oneOf: [
    { required: ['task'], properties: { task: { $ref: 'Task.json' } } },
    { required: ['message'], properties: { message: { type: 'string' } } },
    { required: ['status'], properties: { status: { type: 'integer' } } },
  ],
};
// What the branches evaluate counts for `unevaluatedProperties` beside the union.
const closed = { ...memberKeyed, unevaluatedProperties: false };
const tagged = { anyOf: [{ $ref: 'Text.json' }, { $ref: 'Data.json' }] };

const MEMBER_VALUES: unknown[] = [
  { task: { id: 'a' } },
  { task: { id: 1 } },
  { message: 'm' },
  { message: 1 },
  { task: { id: 'a' }, message: 'm' },
  { task: { id: 1 }, message: 'm' },
  { task: { id: 1 }, message: 1, status: 'x' },
  { status: 1 },
  { status: 1, extra: true },
  {},
  [],
  'x',
  null,
  { task: { id: 'a' }, status: 2 },
];

// A string or an integer, as JSON-RPC ids are: a value of either type holds, anything else fails every branch.
const bareTyped = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
const BARE_VALUES: unknown[] = ['a', '', 1, 0, -3, 1.5, Number.NaN, null, true, {}, [], [1]];

const unions: Array<[string, { schema: Record<string, unknown>; values: unknown[] }]> = [
  ['anyOf, bare types', { schema: bareTyped, values: BARE_VALUES }],
  [
    'anyOf, bare types, inside an object',
    { schema: { type: 'object', properties: { id: bareTyped } }, values: BARE_VALUES.map((id) => ({ id })) },
  ],
  [
    'oneOf, member-keyed',
    {
      schema: memberKeyed,
      values: MEMBER_VALUES,
    },
  ],
  [
    'oneOf, member-keyed, beside unevaluatedProperties',
    {
      schema: closed,
      values: MEMBER_VALUES,
    },
  ],
  [
    'anyOf, member-keyed',
    {
      schema: { anyOf: memberKeyed.oneOf },
      values: MEMBER_VALUES,
    },
  ],
  [
    'anyOf, tagged, through $refs',
    {
      schema: tagged,
      values: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 1 },
        { type: 'json' },
        { type: 'other' },
        { type: ['text'] },
        {},
        'text',
        null,
      ],
    },
  ],
];

describe('validators > pickBranches', () => {
  it.each(unions)('%s > the verdict is ajv’s on every value', (_, { schema, values }) => {
    const picked = compile(schema, true);
    const whole = compile(schema, false);
    for (const v of values) expect(picked(v), JSON.stringify(v)).toBe(whole(v));
  });

  it.each(unions)(
    '%s > a picked union reports a subset of ajv’s errors, never none',
    (_, { schema, values }) => {
      const picked = compile(schema, true);
      const whole = compile(schema, false);
      for (const v of values) {
        if (whole(v)) continue;
        picked(v);
        const got = located(picked.errors);
        expect(got.length, JSON.stringify(v)).toBeGreaterThan(0);
        for (const e of got) expect(located(whole.errors), JSON.stringify(v)).toContain(e);
      }
    },
  );

  it.each([
    // The failed branch evaluated nothing, so `unevaluatedProperties` still reports the member, as in ajv.
    [
      'one member present > that branch’s errors only',
      closed,
      { task: { id: 1 } },
      [' unevaluatedProperties', '/task/id type'],
    ],
    ['a tag > that branch’s errors only', tagged, { type: 'text', text: 1 }, ['/text type']],
  ] as const)('errors > %s', (_, schema, value, want) => {
    const picked = compile(schema, true);
    expect(picked(value)).toBe(false);
    expect(located(picked.errors)).toEqual(want);
    // Without the picking, ajv reports the other branches too: the check above tells the two apart.
    const whole = compile(schema, false);
    whole(value);
    expect(located(whole.errors).length).toBeGreaterThan(want.length);
  });

  it('errors > a union of bare types: ajv’s errors exactly, whichever value', () => {
    const picked = compile(bareTyped, true);
    const whole = compile(bareTyped, false);
    for (const v of BARE_VALUES) {
      expect(picked(v), JSON.stringify(v)).toBe(whole(v));
      expect(picked.errors ?? null, JSON.stringify(v)).toEqual(whole.errors ?? null);
    }
  });

  it('errors > nothing names a branch: every branch runs, as in ajv', () => {
    const picked = compile(memberKeyed, true);
    const whole = compile(memberKeyed, false);
    for (const v of [{}, { task: { id: 1 }, message: 1 }]) {
      expect(picked(v)).toBe(false);
      whole(v);
      expect(located(picked.errors)).toEqual(located(whole.errors));
    }
  });
});
