// The generated codecs (straight-line functions, with fast paths built on the schemas' shapes) against the table they
// come from, run by the runtime's interpreter (compileTranslation): for every type of the table, both directions, on
// every example and diff witness of either version and on variants of them a fast path must hand over to the general
// copy (an unknown property, a stale tag, an inherited or `__proto__` property, a missing required one), the two give
// the same value. Key order is checked too, except where the fast path writes the schema's order and the input's keys
// come in another (order is not meaning in JSON).
import path from 'node:path';
import { diffSides, loadProtocols, sideFromVersion } from '@agentproto/codegen';
import { compileTranslation } from '@agentproto/runtime/translate';
import { describe, expect, it } from 'vitest';
import { TABLE, TRANSLATOR } from '../../packages/a2a/src/generated/translate-0.3-1.0.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const versions = await loadProtocols(ROOT, ['a2a']);
const side = (v: string) => {
  const found = versions.find((x) => x.version === v);
  if (!found) throw new Error(`no a2a@${v}`);
  return found;
};
const interpreted = compileTranslation(TABLE);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every object inside a value (itself included), with a function that replaces it in a copy of the whole. */
function variants(value: unknown): unknown[] {
  const out: unknown[] = [];
  const visit = (v: unknown, rebuild: (x: unknown) => unknown): void => {
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) visit(item, (x) => rebuild(v.map((y, j) => (j === i ? x : y))));
      return;
    }
    if (!isObject(v)) return;
    const keys = Object.keys(v);
    out.push(rebuild({ ...v, zzUnknown: 1 }));
    out.push(rebuild({ kind: 'stale', ...v }));
    out.push(rebuild({ ...v, final: 'stale' }));
    out.push(rebuild(Object.fromEntries(Object.entries(v).reverse())));
    out.push(
      rebuild(JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(v).slice(1)}`.replace(',}', '}'))),
    );
    out.push(rebuild(Object.assign(Object.create({ inherited: true, metadata: { x: 1 } }), v)));
    for (const k of keys) {
      const { [k]: _gone, ...rest } = v;
      out.push(rebuild(rest));
      out.push(rebuild({ ...v, [k]: undefined }));
    }
    for (const k of keys) visit(v[k], (x) => rebuild({ ...v, [k]: x }));
  };
  visit(value, (x) => x);
  return out;
}

/** A value as JSON with its keys sorted, `__proto__` and undefined properties kept. */
function canonical(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (v === undefined) return '<undefined>';
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    return Object.keys(v)
      .sort()
      .map((k) => [k, walk(v[k])]);
  };
  return JSON.stringify(walk(value));
}

describe('translation a2a@0.3 → 1.0 > generated codecs', () => {
  const from = side('0.3');
  const to = side('1.0');
  const messages: unknown[] = [null, 'text', 3, [], [{}], {}];
  for (const version of [from, to])
    for (const f of version.fixtures) if (f.kind === 'examples') messages.push(JSON.parse(f.text));
  const report = diffSides(sideFromVersion(from), sideFromVersion(to));
  for (const c of report.changes) for (const w of c.witnesses) messages.push(w.message);
  // Variants of the smaller messages (the stream events, parts, requests): half a dozen of each, picked evenly over the
  // kinds of variant and the objects inside the message.
  const small = messages.filter((m) => JSON.stringify(m).length <= 600);
  const inputs = [
    ...messages,
    ...small.flatMap((m) => {
      const all = variants(m);
      const step = Math.max(1, Math.floor(all.length / 6));
      return all.filter((_, i) => i % step === 0).slice(0, 6);
    }),
  ];

  it('give the values the interpreted table gives, for every type both ways', () => {
    expect(inputs.length).toBeGreaterThan(2000);
    const failures: string[] = [];
    let ordered = 0;
    for (const name of Object.keys(TABLE.types)) {
      const generated = TRANSLATOR.codec(name);
      const reference = interpreted.codec(name);
      for (const direction of ['up', 'down'] as const)
        for (const input of inputs) {
          const got = generated[direction](input);
          const want = reference[direction](input);
          if (canonical(got) !== canonical(want))
            failures.push(
              `${name} ${direction} ${JSON.stringify(input)}: ${canonical(got)} ≠ ${canonical(want)}`,
            );
          else if (JSON.stringify(got) === JSON.stringify(want)) ordered++;
        }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(ordered).toBeGreaterThan(0);
  }, 120_000);

  it('read own properties only, enumerable or not, as the interpreted table does', () => {
    // The fast paths take the values their pass over the keys sees; one that pass cannot see (own, not enumerable)
    // is still read when a rule translates it, as the interpreter reads it, and not copied when no rule does. A
    // property the value only inherits (every one of an object made on top of the message) is no member's.
    const all = small
      .filter(isObject)
      .flatMap((m) => [
        Object.create(m),
        ...Object.keys(m).map((k) => Object.defineProperty({ ...m }, k, { enumerable: false })),
      ]);
    // Two hundred of them, picked evenly.
    const step = Math.max(1, Math.floor(all.length / 200));
    const hidden = all.filter((_, i) => i % step === 0);
    expect(hidden.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const name of Object.keys(TABLE.types))
      for (const direction of ['up', 'down'] as const)
        for (const input of hidden) {
          const got = canonical(TRANSLATOR.codec(name)[direction](input));
          const want = canonical(interpreted.codec(name)[direction](input));
          if (got !== want) failures.push(`${name} ${direction} ${JSON.stringify(input)}: ${got} ≠ ${want}`);
        }
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it('leave their input as it was', () => {
    for (const name of Object.keys(TABLE.types))
      for (const input of messages) {
        const before = canonical(input);
        TRANSLATOR.codec(name).up(input);
        TRANSLATOR.codec(name).down(input);
        expect(canonical(input)).toBe(before);
      }
  });

  it('refuse a type the table does not have', () => {
    expect(() => TRANSLATOR.codec('NoSuchType')).toThrow(/no rule for type NoSuchType/);
  });
});
