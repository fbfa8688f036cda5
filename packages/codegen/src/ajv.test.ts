import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnySchema } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { compileKept, createAjv, sharedAjv } from './ajv.js';

describe('sharedAjv', () => {
  it('instance > one per process, so the meta-schema is compiled once', () => {
    expect(sharedAjv()).toBe(sharedAjv());
  });

  // One instance of the same options for the table: a new one would compile the meta-schema again for each case.
  const fresh = createAjv();
  // The stages that check schemas through the shared instance (validate, witness) must find what an instance of
  // their own would: the same verdict and the same errors, each with its place.
  const cases: Array<[string, { given: AnySchema; want: boolean }]> = [
    [
      'meta-schema > a valid schema passes',
      { given: { type: 'object', properties: { a: { type: 'string' } } }, want: true },
    ],
    ['meta-schema > an unknown type fails', { given: { type: 'obj' }, want: false }],
    ['meta-schema > a title that is no string fails', { given: { type: 'string', title: 5 }, want: false }],
    ['meta-schema > a negative minLength fails', { given: { type: 'string', minLength: -1 }, want: false }],
    ['meta-schema > a boolean schema passes', { given: true, want: true }],
  ];
  it.each(cases)('%s, as a fresh instance says', (_, { given, want }) => {
    const expected = fresh.validateSchema(given);
    const shared = sharedAjv();
    expect(shared.validateSchema(given)).toBe(expected);
    expect(expected).toBe(want);
    expect(shared.errors ?? null).toEqual(fresh.errors ?? null);
  });

  it('meta-schema > checking adds nothing to the instance', () => {
    const id = 'https://example.test/checked.schema.json';
    expect(sharedAjv().validateSchema({ $id: id, type: 'string' })).toBe(true);
    expect(sharedAjv().getSchema(id)).toBeUndefined();
  });
});

describe('compileKept', () => {
  // A schema with what the kept ones use: formats, a discriminated union, required members, a pattern.
  const schema = {
    type: 'object',
    discriminator: { propertyName: 'kind' },
    oneOf: [
      {
        type: 'object',
        properties: { kind: { const: 'link' }, href: { type: 'string', format: 'uri' } },
        required: ['kind', 'href'],
      },
      {
        type: 'object',
        properties: { kind: { const: 'name' }, name: { type: 'string', pattern: '^[a-z]+$' } },
        required: ['kind', 'name'],
      },
    ],
  };
  const values: unknown[] = [
    { kind: 'link', href: 'https://example.test/a' },
    { kind: 'link', href: 'not a uri' },
    { kind: 'name', name: 'abc' },
    { kind: 'name', name: 'ABC', extra: 1 },
    { kind: 'other' },
    { href: 'https://example.test/' },
    'a string',
  ];
  // Without the check against the meta-schema: each new instance would compile it, a second or so of a test run.
  const options = { validateSchema: false };
  const compiled = createAjv(options).compile<unknown>(schema);
  const verdicts = (validate: typeof compiled) =>
    values.map((v) => ({ valid: validate(v), errors: validate.errors ?? null }));
  const dirs: string[] = [];
  const keptIn = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-kept-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('kept > the compiled validator first, the kept code after: both as ajv compiles it', () => {
    const dir = keptIn();
    const first = compileKept(schema, options, dir);
    expect(readdirSync(dir)).toHaveLength(1);
    const second = compileKept(schema, options, dir);
    expect(second).not.toBe(first);
    expect(verdicts(first)).toEqual(verdicts(compiled));
    expect(verdicts(second)).toEqual(verdicts(compiled));
  });

  it('kept > the code is read from the folder (a file changed there changes the validator)', () => {
    // The test double: kept code that accepts everything. Read back, it is what the run uses, so the comparison
    // above would fail on kept code that differs from ajv's.
    const dir = keptIn();
    compileKept(schema, options, dir);
    const [file = ''] = readdirSync(dir);
    writeFileSync(
      path.join(dir, file),
      '"use strict";module.exports = function validate() { return true; };',
    );
    expect(values.every((v) => compileKept(schema, options, dir)(v))).toBe(true);
  });

  it('kept > code that does not evaluate is compiled again, and kept anew', () => {
    const dir = keptIn();
    compileKept(schema, options, dir);
    const [file = ''] = readdirSync(dir);
    writeFileSync(path.join(dir, file), 'this is not JavaScript');
    expect(verdicts(compileKept(schema, options, dir))).toEqual(verdicts(compiled));
    expect(verdicts(compileKept(schema, options, dir))).toEqual(verdicts(compiled));
    expect(readFileSync(path.join(dir, file), 'utf8')).not.toBe('this is not JavaScript');
  });

  it('kept > other options, other code', () => {
    const dir = keptIn();
    compileKept(schema, options, dir);
    const lax = compileKept(schema, { ...options, validateFormats: false }, dir);
    expect(readdirSync(dir)).toHaveLength(2);
    expect(lax({ kind: 'link', href: 'not a uri' })).toBe(true);
  });
});
