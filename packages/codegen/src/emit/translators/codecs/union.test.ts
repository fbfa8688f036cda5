import type { FieldRule, TranslationTable } from '@agentproto/runtime/translate';
import { describe, expect, it } from 'vitest';
import { emitCodecs } from './index.js';

/** A union told apart by `kind` on the `from` side and wrapped on the `to` side; `circle`'s rule writes its tag. */
const table = (square: Readonly<Record<string, FieldRule>>): TranslationTable => ({
  from: 'a',
  to: 'b',
  enums: {},
  types: {
    Shape: {
      by: 'kind',
      cases: {
        circle: { type: 'Circle', wrap: 'circle' },
        square: { type: 'Square', wrap: 'square' },
      },
    },
    Circle: { fields: { kind: { const: 'circle' } } },
    Square: { fields: square },
  },
  methods: {},
  operations: {},
});

const code = (square: Readonly<Record<string, FieldRule>>) => emitCodecs(table(square)).code.toString();

describe('translation codecs > a union going down', () => {
  it('answers what a member whose rule writes the tag made, without looking at it again', () => {
    const text = code({ kind: { const: 'square' } });
    expect(text).toContain('return downCircle(v["circle"]);');
    expect(text).toContain('return downSquare(v["square"]);');
  });
  it('still puts the tag first on what a member whose rule has no tag made', () => {
    const text = code({});
    expect(text).toContain('return downCircle(v["circle"]);');
    expect(text).toContain('value["kind"] === "square" ? value : { ["kind"]: "square", ...value }');
  });
  it('leaves the tag to the check when another rule writes under its name', () => {
    expect(code({ kind: { const: 'square' }, 'kind/x': { const: 1 } })).toContain(
      'value["kind"] === "square"',
    );
  });
});
