import { describe, expect, it } from 'vitest';
import { createAjv } from '../ajv.js';
import { diffSides } from './diff.js';
import type { Breaks, DiffSide } from './diff-types.js';
import { schemaChanges, typeLookup } from './schema-changes.js';

type Schemas = Record<string, Record<string, unknown>>;

const equalJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

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
    // A type's name is not on the wire: a field that now names a type is compared with what the type allows.
    [
      'reference > added: the type it names is compared with what was written',
      {
        old: { E: { enum: ['a'] }, T: { type: 'string' } },
        new: { E: { enum: ['a'] }, T: { $ref: 'E.schema.json' } },
        rule: 'enum-added',
        breaks: 'senders',
      },
    ],
    [
      'reference > removed: the type it named is compared with what is written',
      {
        old: { E: { enum: ['a'] }, T: { $ref: 'E.schema.json' } },
        new: { E: { enum: ['a'] }, T: { type: 'string' } },
        rule: 'enum-removed',
        breaks: 'receivers',
      },
    ],
    [
      'reference > added beside keywords its type also has stays a reference',
      {
        old: { E: { type: 'string', enum: ['a'] }, T: { type: 'string' } },
        new: { E: { type: 'string', enum: ['a'] }, T: { $ref: 'E.schema.json', type: 'string' } },
        rule: 'ref-added',
        breaks: 'senders',
      },
    ],
    [
      'reference > to a type no side holds stays a reference',
      {
        old: { T: { type: 'string' } },
        new: { T: { $ref: 'Missing.schema.json' } },
        rule: 'ref-added',
        breaks: 'senders',
        proven: false,
      },
    ],
    [
      'reference > a new type with a required member, where an object was, breaks senders',
      {
        old: { T: obj({ m: { type: 'object' } }) },
        new: {
          M: obj({ v: { type: 'string' }, w: { type: 'string' } }, { required: ['v'] }),
          T: obj({ m: { $ref: 'M.schema.json' } }),
        },
        rule: 'required-added',
        breaks: 'senders',
      },
    ],
    [
      'reference > a new type with an optional member, where an object was, breaks no one',
      {
        old: { T: obj({ m: { type: 'object' } }) },
        new: { M: obj({ w: { type: 'string' } }), T: obj({ m: { $ref: 'M.schema.json' } }) },
        rule: 'property-added',
        breaks: 'none',
      },
    ],
    [
      'union > a reference to one of its branches: the others are gone',
      {
        old: {
          A: { type: 'string' },
          B: { type: 'integer' },
          T: { anyOf: [{ $ref: 'A.schema.json' }, { $ref: 'B.schema.json' }] },
        },
        new: { A: { type: 'string' }, B: { type: 'integer' }, T: { $ref: 'A.schema.json' } },
        rule: 'branch-removed',
        breaks: 'senders',
      },
    ],
    [
      'union > a reference that became a union with a new branch breaks receivers',
      {
        old: { A: { type: 'string' }, B: { type: 'integer' }, T: { $ref: 'A.schema.json' } },
        new: {
          A: { type: 'string' },
          B: { type: 'integer' },
          T: { anyOf: [{ $ref: 'A.schema.json' }, { $ref: 'B.schema.json' }] },
        },
        rule: 'branch-added',
        breaks: 'receivers',
      },
    ],
    [
      'union > a reference to a union type, where another type was, is compared branch by branch',
      {
        old: {
          A: { type: 'string' },
          B: { type: 'integer' },
          U: { anyOf: [{ $ref: 'A.schema.json' }] },
          T: { $ref: 'U.schema.json' },
        },
        new: {
          A: { type: 'string' },
          B: { type: 'integer' },
          V: { anyOf: [{ $ref: 'A.schema.json' }, { $ref: 'B.schema.json' }] },
          T: { $ref: 'V.schema.json' },
        },
        rule: 'branch-added',
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
      {
        old: { T: {} },
        new: { T: { anyOf: [{ type: 'string' }] } },
        rule: 'any-of-added',
        breaks: 'senders',
      },
    ],
    [
      'union > oneOf removed breaks receivers',
      {
        old: { T: { oneOf: [{ type: 'string' }] } },
        new: { T: {} },
        rule: 'one-of-removed',
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

  // MCP 2026-07-28's `_meta` became `RequestMetaObject`: what the new type requires is what the field now requires.
  it('reference > a change inside a type followed names the type, its file and its place', () => {
    const report = diffSides(
      side('old', { T: obj({ m: { type: 'object', additionalProperties: {} } }) }),
      side('new', {
        M: obj({ v: { type: 'string' } }, { required: ['v'] }),
        T: obj({ m: { description: 'meta', $ref: 'M.schema.json' } }),
      }),
    );
    const change = report.changes.find((c) => c.rule === 'required-added');
    expect(change).toMatchObject({
      subject: 'T',
      message: 'm: `v` is now required (in M)',
      old: { file: 'old/T.schema.json', pointer: '/properties/m' },
      new: { file: 'new/M.schema.json', pointer: '/required/0' },
      breaks: 'senders',
      proven: true,
    });
    expect(change?.witnesses[0]).toMatchObject({ breaks: 'senders', message: { m: {} } });
    expect(report.changes.map((c) => c.rule).sort()).toEqual([
      'annotation-changed',
      'property-added',
      'required-added',
      'type-added',
    ]);
  });

  it('reference > a type equal to what was written out, or to its union, is no change', () => {
    const M = obj({ v: { type: 'string' } }, { required: ['v'] });
    const A = { type: 'string' };
    const report = diffSides(
      side('old', { A, T: obj({ m: M, u: { anyOf: [{ $ref: 'A.schema.json' }] } }) }),
      side('new', { A, M, T: obj({ m: { $ref: 'M.schema.json' }, u: { $ref: 'A.schema.json' } }) }),
    );
    expect(report.changes.filter((c) => c.rule !== 'type-added')).toEqual([]);
  });

  // MCP's `_meta: {type: object}` → `MetaObject` (`{type: object}`), `{}` → `JSONValue`: no-op lines before.
  const anyJson = {
    JSONObject: { type: 'object', additionalProperties: { $ref: 'JSONValue.schema.json' } },
    JSONArray: { type: 'array', items: { $ref: 'JSONValue.schema.json' } },
    JSONValue: {
      anyOf: [
        { $ref: 'JSONObject.schema.json' },
        { $ref: 'JSONArray.schema.json' },
        { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
      ],
    },
    MetaObject: { type: 'object', description: 'free-form' },
  };
  it('equivalence > schemas that take the same values after their references are followed are no change', () => {
    const report = diffSides(
      side('old', {
        T: obj({
          meta: { type: 'object', additionalProperties: {} },
          any: {},
          map: obj({}, { additionalProperties: true }),
        }),
      }),
      side('new', {
        ...anyJson,
        T: obj({
          meta: { $ref: 'MetaObject.schema.json' },
          any: { $ref: 'JSONValue.schema.json' },
          map: { $ref: 'JSONObject.schema.json' },
        }),
      }),
    );
    expect(report.changes.filter((c) => c.rule !== 'type-added')).toEqual([]);
  });

  it('equivalence > a type that takes one kind of value fewer is a change, witnessed', () => {
    const noNull = {
      ...anyJson,
      JSONValue: {
        anyOf: [{ $ref: 'JSONObject.schema.json' }, { type: ['array', 'string', 'number', 'boolean'] }],
      },
    };
    const report = diffSides(
      side('old', { T: obj({ any: {} }) }),
      side('new', { ...noNull, T: obj({ any: { $ref: 'JSONValue.schema.json' } }) }),
    );
    const found = report.changes.filter((c) => c.rule !== 'type-added');
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((c) => c.breaks === 'senders')).toBe(true);
    expect(found.some((c) => c.proven && c.witnesses.some((w) => equalJson(w.message, { any: null })))).toBe(
      true,
    );
  });

  // The walk alone: a validator of such a schema would recurse for ever, so no witness is searched for here.
  it('reference > a loop of aliases ends', () => {
    const types = side('new', { A: { $ref: 'B.schema.json' }, B: { $ref: 'A.schema.json' } }).types;
    const lookup = { old: typeLookup(new Map()), new: typeLookup(types) };
    const found = schemaChanges('T', 'type', { type: 'string' }, { $ref: 'A.schema.json' }, '', '', lookup);
    expect(found.map((c) => c.rule)).toEqual(['ref-added']);
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

describe('diff > response headers', () => {
  const withHeaders = (headers: Record<string, unknown>) =>
    api({ '/x': { get: op({ responses: { '200': { description: 'ok', ...json('T'), headers } } }) } });
  const sid = (required: boolean, schema: unknown = { type: 'string', pattern: '^[a-z]+$' }) => ({
    'Session-Id': { required, schema },
  });
  const diffOf = (old: Record<string, unknown>, next: Record<string, unknown>) =>
    diffSides(
      side('old', T, { openapi: { file: 'old/openapi.yaml', value: withHeaders(old) } }),
      side('new', T, { openapi: { file: 'new/openapi.yaml', value: withHeaders(next) } }),
    );
  const cases: Array<
    [
      string,
      {
        old: Record<string, unknown>;
        new: Record<string, unknown>;
        rule: string;
        breaks: Breaks;
        proven: boolean;
      },
    ]
  > = [
    [
      'removed breaks receivers that read it',
      { old: sid(false), new: {}, rule: 'response-header-removed', breaks: 'receivers', proven: true },
    ],
    [
      'a required one removed breaks receivers',
      {
        old: sid(true, { type: 'string' }),
        new: {},
        rule: 'response-header-removed',
        breaks: 'receivers',
        proven: true,
      },
    ],
    // Nothing an old receiver could reject: a response without it, or with any string, is valid on both sides.
    [
      'an optional string removed has no witness',
      {
        old: sid(false, { type: 'string' }),
        new: {},
        rule: 'response-header-removed',
        breaks: 'receivers',
        proven: false,
      },
    ],
    [
      'a required one added breaks senders',
      { old: {}, new: sid(true), rule: 'response-header-added', breaks: 'senders', proven: true },
    ],
    [
      'an optional one added breaks no one',
      { old: {}, new: sid(false), rule: 'response-header-added', breaks: 'none', proven: true },
    ],
    [
      'made required breaks senders',
      { old: sid(false), new: sid(true), rule: 'response-header-required', breaks: 'senders', proven: true },
    ],
    [
      'made optional breaks receivers',
      {
        old: sid(true),
        new: sid(false),
        rule: 'response-header-optional',
        breaks: 'receivers',
        proven: true,
      },
    ],
    [
      'its schema narrowed breaks senders',
      {
        old: sid(false, { type: 'string' }),
        new: sid(false, { type: 'string', enum: ['a'] }),
        rule: 'enum-added',
        breaks: 'senders',
        proven: true,
      },
    ],
  ];
  it.each(cases)('response header > %s', (_name, { old, new: next, rule, breaks, proven }) => {
    const change = diffOf(old, next).changes.find((c) => c.rule === rule);
    expect(change).toMatchObject({ area: 'response', breaks, proven });
    expect(change?.subject).toMatch(/^GET \/x\b/);
  });

  it('response header > the witness of one removed is a value the old document refuses', () => {
    const [change] = diffOf(sid(false), {}).changes;
    expect(change).toMatchObject({
      message: '200: response header `session-id` is gone',
      old: { file: 'old/openapi.yaml', pointer: '/paths/~1x/get/responses/200/headers/Session-Id' },
    });
    const [w] = change?.witnesses ?? [];
    const ajv = createAjv({ strict: false });
    const value = isRecordValue(w?.message) ? w.message['session-id'] : undefined;
    expect(typeof value).toBe('string');
    expect(ajv.validate({ type: 'string', pattern: '^[a-z]+$' }, value)).toBe(false);
  });

  it('response header > the same headers, written in another case, are no change', () => {
    expect(diffOf(sid(true), { 'SESSION-ID': sid(true)['Session-Id'] }).changes).toEqual([]);
  });
});

describe('diff > error codes every method may answer', () => {
  const doc = (errors: Record<string, unknown>) => ({
    openrpc: '1.3.2',
    info: { title: 't', version: '1' },
    methods: [{ name: 'do', params: [], result: { name: 'r', schema: { $ref: '#/components/schemas/T' } } }],
    components: { errors },
  });
  const diffOf = (old: Record<string, unknown>, next: Record<string, unknown>) =>
    diffSides(
      side('old', T, { openrpc: { file: 'old/openrpc.json', value: doc(old) } }),
      side('new', T, { openrpc: { file: 'new/openrpc.json', value: doc(next) } }),
    );
  const parse = { ParseError: { code: -32700, message: 'Parse error' } };
  const mismatch = { HeaderMismatch: { code: -32020, message: 'Header mismatch' } };

  it.each([
    ['a code added breaks receivers', parse, { ...parse, ...mismatch }, 'error-added', 'receivers'],
    ['a code removed breaks senders', { ...parse, ...mismatch }, parse, 'error-removed', 'senders'],
  ] as const)('errors > %s, with an error response only one side accepts', (_n, old, next, rule, breaks) => {
    const [change] = diffOf(old, next).changes;
    expect(change).toMatchObject({ rule, breaks, proven: true, subject: 'any method', area: 'method' });
    expect(change?.witnesses[0]?.message).toMatchObject({
      error: { code: -32020, message: 'Header mismatch' },
    });
    expect(change?.witnesses[0]?.rejection).toMatch(
      /^\/error\/code: must be equal to one of the allowed values/,
    );
  });

  it('errors > the same codes under other names are no change', () => {
    expect(
      diffOf({ ...parse, ...mismatch }, { Parse: parse.ParseError, Mismatch: mismatch.HeaderMismatch })
        .changes,
    ).toEqual([]);
  });
});

function isRecordValue(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
