import { parseJsonWithLocator, parseYamlWithLocator } from '@agentproto/runtime/locate';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../diagnostics.js';
import type { DiffSide } from '../diff/diff-types.js';
import type { LoadedTranslation, TranslationManifest } from '../load/load-translations.js';
import { validateTranslation } from './validate-translation.js';

// Two small versions in the shape of A2A 0.3 and 1.0: a message whose role is spelled two ways and which carries a
// `kind` only the old side has, and one method renamed.
const schema = (v: string, name: string, body: object) => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://example.test/${v}/${name}.schema.json`,
  title: name,
  ...body,
});
function side(v: string, types: Record<string, object>, methods: string[]): DiffSide {
  return {
    label: `p@${v}`,
    types: new Map(
      Object.entries(types).map(([name, body]) => [
        name,
        { file: `schemas/p/${v}/${name}.schema.json`, value: schema(v, name, body), id: name, at: '' },
      ]),
    ),
    openrpc: {
      file: `schemas/p/${v}/openrpc.json`,
      value: {
        openrpc: '1.3.2',
        info: { title: 'p', version: v },
        methods: methods.map((name) => ({ name, params: [], result: { name: 'r', schema: {} } })),
      },
    },
    examples: new Map(),
  };
}
const OLD = side(
  '0',
  {
    Message: {
      type: 'object',
      required: ['kind', 'role'],
      properties: { kind: { const: 'message' }, role: { enum: ['user', 'agent'] }, text: { type: 'string' } },
    },
    Legacy: { type: 'object' },
  },
  ['message/send'],
);
const NEW = side(
  '1',
  {
    Message: {
      type: 'object',
      required: ['role'],
      properties: { role: { enum: ['ROLE_USER', 'ROLE_AGENT'] }, text: { type: 'string' } },
    },
  },
  ['SendMessage'],
);

const COMPLETE = `from: "0"
to: "1"
enums:
  Role: { user: ROLE_USER, agent: ROLE_AGENT }
types:
  Message:
    fields:
      kind: { const: message }
      role: { enum: Role }
methods:
  message/send: { to: SendMessage, params: Message }
unmatched:
  Legacy: nothing in 1 needs it
`;

function load(text: string): LoadedTranslation {
  const parsed = parseYamlWithLocator(text);
  // sound: deliberately unchecked: the texts are manifests these tests write, some broken on purpose, and checking
  // them is validateTranslation's job, which is what the tests prove.
  const value = parsed.value as Partial<TranslationManifest>;
  return {
    protocol: 'p',
    source: {
      file: 'schemas/p/translate-0.yaml',
      locate: parsed.locate,
      value: { from: '', to: '', enums: {}, types: {}, methods: {}, operations: {}, unmatched: {}, ...value },
    },
  };
}
const problems = (text: string) => validateTranslation(load(text), OLD, NEW).map(formatDiagnostic);

describe('validateTranslation', () => {
  it('complete > a manifest that maps every change passes', () => {
    expect(problems(COMPLETE)).toEqual([]);
  });

  it("coverage > a change no rule names is placed at its line in the side's file", () => {
    // The old side's Message as a file with positions: the diff places its changes without lines, the report finds
    // the line of the one it names.
    const message = OLD.types.get('Message');
    if (!message) throw new Error('no Message in the old side');
    const parsed = parseJsonWithLocator(JSON.stringify(message.value, null, 2));
    const located: DiffSide = {
      ...OLD,
      types: new Map([...OLD.types, ['Message', { ...message, locate: parsed.locate }]]),
    };
    const out = validateTranslation(
      load(COMPLETE.replace('      role: { enum: Role }\n', '')),
      located,
      NEW,
    ).map(formatDiagnostic);
    const found = out
      .join('\n')
      .match(/schemas\/p\/0\/Message\.schema\.json:(\d+) (\/properties\/role[^\s)]*)/);
    expect(found, out.join('\n')).not.toBeNull();
    expect(Number(found?.[1])).toBe(parsed.locate(found?.[2] ?? ''));
    expect(Number(found?.[1])).toBeGreaterThan(1);
  });

  it.each([
    [
      'coverage > a changed field no rule names',
      {
        edit: (t: string) => t.replace('      role: { enum: Role }\n', ''),
        want: /finds enum-.* in Message .*no rule maps Message\.role/,
      },
    ],
    [
      'coverage > a type only one side has, not listed',
      {
        edit: (t: string) => t.replace('  Legacy: nothing in 1 needs it\n', ''),
        want: /finds type-removed in Legacy.*list "Legacy" under unmatched/,
      },
    ],
    [
      'coverage > a renamed method no rule maps',
      {
        edit: (t: string) => t.replace(/methods:\n.*\n/, ''),
        want: /finds method-(added|removed) in (SendMessage|message\/send)/,
      },
    ],
    [
      'names > a field the type does not have',
      {
        edit: (t: string) => t.replace('kind: { const', 'knd: { const'),
        want: /translate-0\.yaml:8: \/types\/Message\/fields\/knd: p@0 Message has no property "knd"/,
      },
    ],
    [
      'names > an enum table that is not there',
      {
        edit: (t: string) => t.replace('enum: Role', 'enum: Rol'),
        want: /\/types\/Message\/fields\/role\/enum: no enum table "Rol"/,
      },
    ],
    [
      'names > a method the new side lacks',
      {
        edit: (t: string) => t.replace('to: SendMessage', 'to: Send'),
        want: /\/methods\/message~1send\/to: p@1 has no JSON-RPC method "Send"/,
      },
    ],
    [
      'names > an enum table that is not one to one',
      {
        edit: (t: string) => t.replace('agent: ROLE_AGENT', 'agent: ROLE_USER'),
        want: /"agent" and "user" both map to "ROLE_USER"/,
      },
    ],
    [
      'names > an unmatched entry that names nothing',
      {
        edit: (t: string) => t.replace('Legacy:', 'Legacyy:'),
        want: /\/unmatched\/Legacyy: neither p@0 nor p@1 has "Legacyy"/,
      },
    ],
    [
      'rules > a field with two kinds',
      {
        edit: (t: string) => t.replace('{ enum: Role }', '{ enum: Role, negate: true }'),
        want: /has enum and negate/,
      },
    ],
  ])('%s', (_name, { edit, want }) => {
    const found = problems(edit(COMPLETE));
    expect(found.join('\n')).toMatch(want);
  });
});
