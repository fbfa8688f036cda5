// Examples are part of the spec: each must validate, each counterexample must fail for the reason its manifest
// states — through runtime ajv over the schema files and through the generated standalone validators alike.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createAjv, forAjv, loadProtocols, schemaId } from '@agentproto/codegen';
import { describeErrors, type Validator } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import { protocolVersions, ROOT, specFiles, typeNames } from '../support/spec-files.js';
import { record } from '../support/typed.js';

/** One JSON value of each kind, nested ones included: a type that accepts them all accepts any JSON value. */
const ANY_JSON: unknown[] = [
  null,
  true,
  0,
  -1.5,
  1e300,
  '',
  'text',
  [],
  [null, 1.5, 'a'],
  {},
  { a: { b: [null] } },
];

// Every type of each version as the generator sees it: an extension's include those it inherits.
const loaded = await loadProtocols(ROOT);

for (const v of protocolVersions()) {
  describe(`${v.protocol}@${v.version}`, async () => {
    const ajv = createAjv();
    const version = loaded.find((l) => l.protocol === v.protocol && l.version === v.version);
    for (const s of version?.schemas ?? []) ajv.addSchema(forAjv(record(s.value, s.file)));
    // sound: the module is the version's generated validators.js, whose every export is a Validator.
    const generated = (await import(
      path.join(ROOT, v.packageDir, 'src/generated', v.version, 'validators.js')
    )) as Record<string, Validator>;
    const both = (typeName: string): Array<[string, Validator]> => {
      const runtime = ajv.getSchema(schemaId(v.protocol, v.version, typeName));
      const standalone = generated[typeName];
      if (!runtime || !standalone) throw new Error(`no validator for ${typeName}`);
      return [
        // sound: createAjv compiles no `$async` schema, so what getSchema gives back checks synchronously, as a
        // Validator does.
        ['runtime ajv', runtime as Validator],
        ['standalone', standalone],
      ];
    };
    // The standalone validator's two paths on their own: the boolean fast path must give ajv's verdict.
    const fastPath = (typeName: string) => {
      const fast = generated[typeName]?.fast;
      if (!fast) throw new Error(`${typeName} has no fast path`);
      return fast;
    };

    it('fast paths > every message validator has one, and it is not the error-reporting code', () => {
      for (const t of typeNames(v.dir)) {
        expect(typeof generated[t]?.fast, t).toBe('function');
        expect(generated[t]?.fast).not.toBe(generated[t]?.full);
      }
    });
    const examples = specFiles(v, 'examples');
    const counterexamples = specFiles(v, 'counterexamples');
    // sound: counterexamples/expected-errors.json maps each counterexample to the pointer and keyword of its error,
    // and the coverage test below checks that it names every counterexample.
    const expected = JSON.parse(
      readFileSync(path.join(v.dir, 'counterexamples/expected-errors.json'), 'utf8'),
    ) as Record<string, { pointer: string; keyword: string }>;

    it('coverage > every type has an example and a counterexample (none for a type that takes any JSON value)', () => {
      for (const t of typeNames(v.dir)) {
        expect(
          examples.some((e) => e.typeName === t),
          `examples/${t}/`,
        ).toBe(true);
        // A type every JSON value satisfies (MCP's JSONValue) can have no counterexample; it must show it takes them.
        const takesAny = ANY_JSON.every((value) => generated[t]?.(value));
        expect(takesAny || counterexamples.some((e) => e.typeName === t), `counterexamples/${t}/`).toBe(true);
      }
    });

    it('coverage > the expected-errors manifest names exactly the counterexample files', () => {
      expect(Object.keys(expected).sort()).toEqual(counterexamples.map((c) => c.key).sort());
    });

    it('fast paths > every example passes and every counterexample fails the fast path too', () => {
      for (const e of examples) expect(fastPath(e.typeName)(e.value), e.file).toBe(true);
      for (const c of counterexamples) expect(fastPath(c.typeName)(c.value), c.file).toBe(false);
    });
    for (const e of examples) {
      it.each(both(e.typeName))(`example > ${e.key} validates (%s)`, (_, validate) => {
        const ok = validate(e.value);
        expect(describeErrors(validate.errors), e.file).toEqual(ok ? [] : expect.anything());
        expect(ok).toBe(true);
      });
    }
    for (const c of counterexamples) {
      it.each(both(c.typeName))(`counterexample > ${c.key} fails as stated (%s)`, (_, validate) => {
        expect(validate(c.value)).toBe(false);
        const want = expected[c.key];
        const got = describeErrors(validate.errors).map((i) => ({ pointer: i.pointer, keyword: i.keyword }));
        expect(got).toContainEqual(want);
      });
    }
  });
}
