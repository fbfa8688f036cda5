import { describe, expect, it } from 'vitest';
import { createAjv } from '../ajv.js';
import { diffSides } from './diff.js';
import type { Breaks, DiffSide } from './diff-types.js';

type Schemas = Record<string, Record<string, unknown>>;

/** A side held in memory: types by name (their `$id` made up from the label), examples by type. */
function side(label: string, types: Schemas, extra: Partial<DiffSide> = {}): DiffSide {
  return {
    label,
    types: new Map(
      Object.entries(types).map(([name, schema]) => {
        const id = `https://example.test/${label}/${name}.schema.json`;
        return [name, { file: `${label}/${name}.schema.json`, value: { ...schema, $id: id }, id, at: '' }];
      }),
    ),
    examples: new Map(),
    ...extra,
  };
}

const obj = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...more,
});

// One pair per rule: the old and new schemas of a type `T`, and the change the diff must find.
const rules: Array<[string, { old: Schemas; new: Schemas; rule: string; breaks: Breaks; proven?: boolean }]> =
  [
    [
      'enum > a value added breaks receivers',
      {
        old: { T: { enum: ['a'] } },
        new: { T: { enum: ['a', 'b'] } },
        rule: 'enum-value-added',
        breaks: 'receivers',
      },
    ],
    [
      'enum > a value removed breaks senders',
      {
        old: { T: { enum: ['a', 'b'] } },
        new: { T: { enum: ['a'] } },
        rule: 'enum-value-removed',
        breaks: 'senders',
      },
    ],
    [
      'type > widened breaks receivers',
      {
        old: { T: { type: 'string' } },
        new: { T: { type: ['string', 'null'] } },
        rule: 'type-widened',
        breaks: 'receivers',
      },
    ],
    [
      'type > integer to number is a widening',
      {
        old: { T: { type: 'integer' } },
        new: { T: { type: 'number' } },
        rule: 'type-widened',
        breaks: 'receivers',
      },
    ],
    [
      'type > narrowed breaks senders',
      {
        old: { T: { type: ['string', 'integer'] } },
        new: { T: { type: 'string' } },
        rule: 'type-narrowed',
        breaks: 'senders',
      },
    ],
    [
      'const > changed breaks both',
      { old: { T: { const: 'a' } }, new: { T: { const: 'b' } }, rule: 'const-changed', breaks: 'both' },
    ],
    [
      'required > added breaks senders',
      {
        old: { T: obj({ a: { type: 'string' } }) },
        new: { T: obj({ a: { type: 'string' } }, { required: ['a'] }) },
        rule: 'required-added',
        breaks: 'senders',
      },
    ],
    [
      'required > removed breaks receivers',
      {
        old: { T: obj({ a: { type: 'string' } }, { required: ['a'] }) },
        new: { T: obj({ a: { type: 'string' } }) },
        rule: 'required-removed',
        breaks: 'receivers',
      },
    ],
    [
      'property > added to a closed object breaks receivers',
      {
        old: { T: obj({}, { additionalProperties: false }) },
        new: { T: obj({ a: { type: 'string' } }, { additionalProperties: false }) },
        rule: 'property-added',
        breaks: 'receivers',
      },
    ],
    [
      'property > added to an open object breaks no one',
      {
        old: { T: obj({}) },
        new: { T: obj({ a: { type: 'string' } }) },
        rule: 'property-added',
        breaks: 'none',
      },
    ],
    [
      'property > removed under unevaluatedProperties: false breaks senders',
      {
        old: { T: obj({ a: { type: 'string' } }, { unevaluatedProperties: false }) },
        new: { T: obj({}, { unevaluatedProperties: false }) },
        rule: 'property-removed',
        breaks: 'senders',
      },
    ],
    [
      'property > nested enum value added, inside an array',
      {
        old: {
          T: obj(
            { xs: { type: 'array', items: obj({ k: { enum: ['a'] } }, { required: ['k'] }) } },
            { required: ['xs'] },
          ),
        },
        new: {
          T: obj(
            { xs: { type: 'array', items: obj({ k: { enum: ['a', 'b'] } }, { required: ['k'] }) } },
            { required: ['xs'] },
          ),
        },
        rule: 'enum-value-added',
        breaks: 'receivers',
      },
    ],
    [
      'object > opened breaks receivers',
      {
        old: { T: obj({}, { additionalProperties: false }) },
        new: { T: obj({}) },
        rule: 'object-opened',
        breaks: 'receivers',
      },
    ],
    [
      'object > closed breaks senders',
      {
        old: { T: obj({}) },
        new: { T: obj({}, { additionalProperties: false }) },
        rule: 'object-closed',
        breaks: 'senders',
      },
    ],
    [
      'bound > maxLength tightened breaks senders',
      {
        old: { T: { type: 'string', maxLength: 10 } },
        new: { T: { type: 'string', maxLength: 5 } },
        rule: 'bound-tightened',
        breaks: 'senders',
      },
    ],
    [
      'bound > minimum loosened breaks receivers',
      {
        old: { T: { type: 'integer', minimum: 5 } },
        new: { T: { type: 'integer', minimum: 0 } },
        rule: 'bound-loosened',
        breaks: 'receivers',
      },
    ],
    [
      'bound > minItems added breaks senders',
      {
        old: { T: { type: 'array', items: { type: 'string' } } },
        new: { T: { type: 'array', items: { type: 'string' }, minItems: 1 } },
        rule: 'bound-tightened',
        breaks: 'senders',
      },
    ],
    [
      'format > added breaks senders',
      {
        old: { T: { type: 'string' } },
        new: { T: { type: 'string', format: 'date-time' } },
        rule: 'format-added',
        breaks: 'senders',
      },
    ],
    [
      'union > a branch added breaks receivers',
      {
        old: { T: { anyOf: [{ type: 'string' }] } },
        new: { T: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
        rule: 'branch-added',
        breaks: 'receivers',
      },
    ],
    [
      'union > a branch removed breaks senders',
      {
        old: { T: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
        new: { T: { oneOf: [{ type: 'string' }] } },
        rule: 'branch-removed',
        breaks: 'senders',
      },
    ],
    [
      'reference > to another type breaks both',
      {
        old: { A: { enum: ['a'] }, B: { enum: ['b'] }, T: { $ref: 'A.schema.json' } },
        new: { A: { enum: ['a'] }, B: { enum: ['b'] }, T: { $ref: 'B.schema.json' } },
        rule: 'ref-changed',
        breaks: 'both',
      },
    ],
    [
      'annotation > a description breaks no one',
      {
        old: { T: { type: 'string', description: 'x' } },
        new: { T: { type: 'string', description: 'y' } },
        rule: 'annotation-changed',
        breaks: 'none',
      },
    ],
    [
      'type > a new named type breaks no one',
      {
        old: { T: { type: 'string' } },
        new: { T: { type: 'string' }, U: { type: 'string' } },
        rule: 'type-added',
        breaks: 'none',
      },
    ],
    [
      'enum > a list of values removed breaks receivers',
      { old: { T: { enum: ['a'] } }, new: { T: {} }, rule: 'enum-removed', breaks: 'receivers' },
    ],
    [
      'const > added breaks senders',
      {
        old: { T: { type: 'string' } },
        new: { T: { type: 'string', const: 'a' } },
        rule: 'const-added',
        breaks: 'senders',
      },
    ],
    [
      'const > removed breaks receivers',
      {
        old: { T: { type: 'string', const: 'a' } },
        new: { T: { type: 'string' } },
        rule: 'const-removed',
        breaks: 'receivers',
      },
    ],
    [
      'pattern > added breaks senders',
      {
        old: { T: { type: 'string' } },
        new: { T: { type: 'string', pattern: '^[0-9]+$' } },
        rule: 'pattern-added',
        breaks: 'senders',
      },
    ],
    [
      'pattern > removed breaks receivers',
      {
        old: { T: { type: 'string', pattern: '^[0-9]+$' } },
        new: { T: { type: 'string' } },
        rule: 'pattern-removed',
        breaks: 'receivers',
      },
    ],
    [
      'format > removed breaks receivers',
      {
        old: { T: { type: 'string', format: 'uuid' } },
        new: { T: { type: 'string' } },
        rule: 'format-removed',
        breaks: 'receivers',
      },
    ],
    [
      'format > changed breaks both',
      {
        old: { T: { type: 'string', format: 'uuid' } },
        new: { T: { type: 'string', format: 'date-time' } },
        rule: 'format-changed',
        breaks: 'both',
      },
    ],
    [
      'reference > added breaks senders',
      {
        old: { E: { enum: ['a'] }, T: { type: 'string' } },
        new: { E: { enum: ['a'] }, T: { $ref: 'E.schema.json' } },
        rule: 'ref-added',
        breaks: 'senders',
      },
    ],
    [
      'reference > removed breaks receivers',
      {
        old: { E: { enum: ['a'] }, T: { $ref: 'E.schema.json' } },
        new: { E: { enum: ['a'] }, T: { type: 'string' } },
        rule: 'ref-removed',
        breaks: 'receivers',
      },
    ],
    [
      'allOf > a member added breaks senders',
      {
        old: { T: { type: 'object' } },
        new: { T: { type: 'object', allOf: [{ required: ['a'] }] } },
        rule: 'all-of-added',
        breaks: 'senders',
      },
    ],
    [
      'allOf > a member removed breaks receivers',
      {
        old: { T: { type: 'object', allOf: [{ required: ['a'] }] } },
        new: { T: { type: 'object' } },
        rule: 'all-of-removed',
        breaks: 'receivers',
      },
    ],
    [
      'items > constrained breaks senders',
      {
        old: { T: { type: 'array' } },
        new: { T: { type: 'array', items: { type: 'string' } } },
        rule: 'items-added',
        breaks: 'senders',
      },
    ],
    [
      'items > no longer constrained breaks receivers',
      {
        old: { T: { type: 'array', items: { type: 'string' } } },
        new: { T: { type: 'array' } },
        rule: 'items-removed',
        breaks: 'receivers',
      },
    ],
    [
      'prefixItems > an item constrained breaks senders',
      {
        old: { T: { type: 'array' } },
        new: { T: { type: 'array', prefixItems: [{ type: 'string' }] } },
        rule: 'prefix-item-added',
        breaks: 'senders',
      },
    ],
    [
      'union > anyOf added breaks senders',
      { old: { T: {} }, new: { T: { anyOf: [{ type: 'string' }] } }, rule: 'anyOf-added', breaks: 'senders' },
    ],
    [
      'union > oneOf removed breaks receivers',
      {
        old: { T: { oneOf: [{ type: 'string' }] } },
        new: { T: {} },
        rule: 'oneOf-removed',
        breaks: 'receivers',
      },
    ],
    [
      'boolean schema > true to false breaks senders',
      {
        old: { T: obj({ a: true }) },
        new: { T: obj({ a: false }) },
        rule: 'schema-replaced',
        breaks: 'senders',
      },
    ],
    [
      'property > removed from an open object breaks no one',
      {
        old: { T: obj({ a: { type: 'string' } }) },
        new: { T: obj({}) },
        rule: 'property-removed',
        breaks: 'none',
      },
    ],
    [
      'type > a vanished named type breaks no one',
      {
        old: { T: { type: 'string' }, U: { type: 'string' } },
        new: { T: { type: 'string' } },
        rule: 'type-removed',
        breaks: 'none',
      },
    ],
    // A rule's claim that nothing can witness stays a claim: the enum allows no string longer than 5 anyway.
    [
      'bound > a claim without a witness is unproven',
      {
        old: { T: { enum: ['a'], type: 'string' } },
        new: { T: { enum: ['a'], type: 'string', maxLength: 5 } },
        rule: 'bound-tightened',
        breaks: 'senders',
        proven: false,
      },
    ],
    [
      'keyword > a constraint the walk does not model is reported',
      {
        old: { T: { type: 'string' } },
        new: { T: { type: 'string', not: { const: 'never-sampled' } } },
        rule: 'keyword-changed',
        breaks: 'senders',
        proven: false,
      },
    ],
  ];

describe('diff > schema rules', () => {
  it.each(rules)('%s', (_name, { old, new: next, rule, breaks, proven = true }) => {
    const report = diffSides(side('old', old), side('new', next));
    const change = report.changes.find((c) => c.rule === rule);
    expect(change, JSON.stringify(report.changes.map((c) => c.rule))).toBeDefined();
    expect({ breaks: change?.breaks, proven: change?.proven }).toEqual({ breaks, proven });
    // Every witness really is one: checked again with validators built here, not the diff's own.
    for (const c of report.changes)
      for (const w of c.witnesses) {
        if (w.subject !== c.subject || !(w.subject in (w.breaks === 'receivers' ? next : old))) continue;
        const check = (schemas: Schemas, label: string) => {
          const ajv = createAjv({ strict: false });
          for (const [n, s] of Object.entries(schemas))
            ajv.addSchema({ ...s, $id: `https://example.test/${label}/${n}.schema.json` });
          return ajv.validate(`https://example.test/${label}/${w.subject}.schema.json`, w.message);
        };
        expect(check(next, 'new')).toBe(w.breaks === 'receivers');
        expect(check(old, 'old')).toBe(w.breaks === 'senders');
      }
  });

  it('boolean schema > {} and true are one schema written two ways: no change; {} to false still is one', () => {
    const same = diffSides(
      side('old', { T: obj({ a: {} }, { additionalProperties: {} }) }),
      side('new', { T: obj({ a: true }, { additionalProperties: true }) }),
    );
    expect(same.changes).toEqual([]);
    const closed = diffSides(side('old', { T: obj({ a: {} }) }), side('new', { T: obj({ a: false }) }));
    expect(closed.changes.map((c) => [c.rule, c.breaks])).toEqual([['schema-replaced', 'senders']]);
  });

  it('diff > pointers name the place on both sides', () => {
    const report = diffSides(
      side('old', { T: obj({ s: { enum: ['a'] } }) }),
      side('new', { T: obj({ s: { enum: ['a', 'b'] } }) }),
    );
    expect(report.changes[0]).toMatchObject({
      old: { file: 'old/T.schema.json', pointer: '/properties/s' },
      new: { file: 'new/T.schema.json', pointer: '/properties/s' },
      witnesses: [{ breaks: 'receivers', message: { s: 'b' } }],
    });
  });

  // Issue 34: a schema under diff is user input; `^(a+)+$` on a 79-character example ran for minutes in V8's engine.
  it('patterns > a catastrophic pattern on a long example is judged in linear time', () => {
    const long = `${'a'.repeat(78)}!`;
    const report = diffSides(
      side('old', { T: obj({ s: { type: 'string', pattern: '^(a+)+$' } }) }),
      side(
        'new',
        { T: obj({ s: { type: 'string', pattern: '^a+!$' } }) },
        {
          examples: new Map([['T', [{ s: long }]]]),
        },
      ),
    );
    expect(report.changes[0]?.witnesses).toContainEqual(
      expect.objectContaining({ breaks: 'receivers', message: { s: long } }),
    );
  });

  it('patterns > one the linear engine cannot run leaves the witness undecided, and says why', () => {
    const report = diffSides(
      side('old', { T: obj({ s: { type: 'string', pattern: '^(a)\\1$' } }) }),
      side('new', { T: obj({ s: { type: 'string', pattern: '^a+$' } }) }),
    );
    expect(report.changes[0]).toMatchObject({ rule: 'pattern-changed', proven: false });
    expect(report.changes[0]?.undecided).toMatch(/the pattern "\^\(a\)\\\\1\$" needs a backtracking engine/);
  });

  it('diff > a side compared with itself has no changes', () => {
    const types = { T: obj({ s: { enum: ['a'] } }, { required: ['s'] }) };
    expect(diffSides(side('a', types), side('b', types)).changes).toEqual([]);
  });
});

const api = (paths: Record<string, unknown>) => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths,
});
const json = (ref: string) => ({
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const op = (more: Record<string, unknown> = {}) => ({
  operationId: 'x',
  responses: { '200': { description: 'ok', ...json('T') } },
  ...more,
});
const T = { T: obj({}) };

const surface: Array<[string, { old: unknown; new: unknown; rule: string; breaks: Breaks }]> = [
  [
    'operation > added breaks receivers',
    { old: api({}), new: api({ '/x': { get: op() } }), rule: 'operation-added', breaks: 'receivers' },
  ],
  [
    'operation > removed breaks senders',
    { old: api({ '/x': { get: op() } }), new: api({}), rule: 'operation-removed', breaks: 'senders' },
  ],
  [
    'status > added breaks receivers',
    {
      old: api({ '/x': { get: op() } }),
      new: api({
        '/x': {
          get: op({
            responses: { '200': { description: 'ok', ...json('T') }, '404': { description: 'no' } },
          }),
        },
      }),
      rule: 'status-added',
      breaks: 'receivers',
    },
  ],
  [
    'media type > removed breaks senders',
    {
      old: api({ '/x': { post: op({ requestBody: json('T') }) } }),
      new: api({ '/x': { post: op({ requestBody: { content: {} } }) } }),
      rule: 'media-type-removed',
      breaks: 'senders',
    },
  ],
  [
    'parameter > a required query parameter added breaks senders',
    {
      old: api({ '/x': { get: op() } }),
      new: api({
        '/x': {
          get: op({ parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }] }),
        },
      }),
      rule: 'parameter-added',
      breaks: 'senders',
    },
  ],
  [
    'parameter > a narrowed parameter schema breaks senders',
    {
      old: api({
        '/x': { get: op({ parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }] }) },
      }),
      new: api({
        '/x': {
          get: op({ parameters: [{ name: 'q', in: 'query', schema: { type: 'string', enum: ['a'] } }] }),
        },
      }),
      rule: 'enum-added',
      breaks: 'senders',
    },
  ],
  [
    'stream item > an item type changed breaks both',
    {
      old: api({
        '/x': {
          get: op({
            responses: {
              '200': {
                description: 's',
                content: {
                  'text/event-stream': {
                    schema: { type: 'string' },
                    'x-itemSchema': { $ref: '#/components/schemas/A' },
                  },
                },
              },
            },
          }),
        },
      }),
      new: api({
        '/x': {
          get: op({
            responses: {
              '200': {
                description: 's',
                content: {
                  'text/event-stream': {
                    schema: { type: 'string' },
                    'x-itemSchema': { $ref: '#/components/schemas/B' },
                  },
                },
              },
            },
          }),
        },
      }),
      rule: 'ref-changed',
      breaks: 'both',
    },
  ],
];

describe('diff > surface rules', () => {
  it.each(surface)('%s', (_name, { old, new: next, rule, breaks }) => {
    const types = { ...T, A: { enum: ['a'] }, B: { enum: ['b'] } };
    const report = diffSides(
      side('old', types, { openapi: { file: 'old/openapi.yaml', value: old } }),
      side('new', types, { openapi: { file: 'new/openapi.yaml', value: next } }),
    );
    const change = report.changes.find((c) => c.rule === rule);
    expect(change, JSON.stringify(report.changes.map((c) => c.rule))).toBeDefined();
    expect({ breaks: change?.breaks, proven: change?.proven }).toEqual({ breaks, proven: true });
  });

  const rpc = (methods: unknown[]) => ({ openrpc: '1.3.2', info: { title: 't', version: '1' }, methods });
  const m = (params: unknown[], more: Record<string, unknown> = {}) => ({
    name: 'do',
    params,
    result: { name: 'r', schema: { $ref: '#/components/schemas/T' } },
    ...more,
  });
  const p = (required: boolean) => ({ name: 'p', required, schema: { type: 'string' } });
  const methods: Array<[string, { old: unknown[]; new: unknown[]; rule: string; breaks: Breaks }]> = [
    ['method > added breaks receivers', { old: [], new: [m([])], rule: 'method-added', breaks: 'receivers' }],
    ['method > removed breaks senders', { old: [m([])], new: [], rule: 'method-removed', breaks: 'senders' }],
    [
      'param > a required one added breaks senders',
      { old: [m([])], new: [m([p(true)])], rule: 'param-added', breaks: 'senders' },
    ],
    [
      'param > an optional one added breaks no one',
      { old: [m([])], new: [m([p(false)])], rule: 'param-added', breaks: 'none' },
    ],
    [
      'param > a required one removed breaks receivers',
      { old: [m([p(true)])], new: [m([])], rule: 'param-removed', breaks: 'receivers' },
    ],
    [
      'param > made required breaks senders',
      { old: [m([p(false)])], new: [m([p(true)])], rule: 'param-required', breaks: 'senders' },
    ],
    [
      'param > made optional breaks receivers',
      { old: [m([p(true)])], new: [m([p(false)])], rule: 'param-optional', breaks: 'receivers' },
    ],
    [
      'param > its schema narrowed breaks senders',
      {
        old: [m([p(true)])],
        new: [m([{ ...p(true), schema: { type: 'string', enum: ['a'] } }])],
        rule: 'enum-added',
        breaks: 'senders',
      },
    ],
    [
      'errors > a code the method may now answer breaks receivers',
      {
        old: [m([])],
        new: [m([], { errors: [{ code: -32021, message: 'Missing capability' }] })],
        rule: 'error-added',
        breaks: 'receivers',
      },
    ],
    [
      'errors > a code the method no longer declares breaks senders',
      {
        old: [m([], { errors: [{ code: -32002, message: 'Resource not found' }] })],
        new: [m([])],
        rule: 'error-removed',
        breaks: 'senders',
      },
    ],
    [
      'result > a stream instead of one result breaks both',
      {
        old: [m([])],
        new: [m([], { 'x-stream': 'text/event-stream' })],
        rule: 'stream-changed',
        breaks: 'both',
      },
    ],
  ];
  it.each(methods)('json-rpc > %s', (_name, { old, new: next, rule, breaks }) => {
    const report = diffSides(
      side('old', T, { openrpc: { file: 'old/openrpc.json', value: rpc(old) } }),
      side('new', T, { openrpc: { file: 'new/openrpc.json', value: rpc(next) } }),
    );
    const change = report.changes.find((c) => c.rule === rule);
    expect(change, JSON.stringify(report.changes.map((c) => c.rule))).toBeDefined();
    expect({ breaks: change?.breaks, proven: change?.proven }).toEqual({ breaks, proven: true });
  });
});
