import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostics.js';
import {
  CLIENT_REQUIREMENTS_FILE,
  type RequirementsFile,
  readRequirements,
  resolveRequirements,
} from './load-requirements.js';
import type { SourceFile } from './source-file.js';

/** Writes `requirements.yaml` into a fresh folder and reads it back, with the diagnostics. */
async function read(text: string) {
  const root = await mkdtemp(path.join(tmpdir(), 'requirements-'));
  await writeFile(path.join(root, 'requirements.yaml'), text);
  const diagnostics: Diagnostic[] = [];
  try {
    const file = await readRequirements(root, root, diagnostics);
    return { file, diagnostics };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const entry = (id: string, statement = `the agent does ${id}`) =>
  `  - id: ${id}\n    level: MUST\n    statement: ${statement}\n    source: upstream\n    ref: spec §1\n`;

describe('load > requirements.yaml', () => {
  it('reads > a well-formed file, with no diagnostics', async () => {
    const { file, diagnostics } = await read(`requirements:\n${entry('task.create')}`);
    expect(diagnostics).toEqual([]);
    expect(file?.value.requirements.map((r) => r.id)).toEqual(['task.create']);
  });

  const broken: Array<[string, { given: string; want: { pointer: string; line: number; message: RegExp } }]> =
    [
      [
        'an unknown level',
        {
          given: `requirements:\n${entry('a').replace('MUST', 'MUSTN')}`,
          want: {
            pointer: '/requirements/0/level',
            line: 3,
            message: /must be equal to one of the allowed values/,
          },
        },
      ],
      [
        'an id that is not lower-case words',
        {
          given: `requirements:\n${entry('Task Create')}`,
          want: { pointer: '/requirements/0/id', line: 2, message: /pattern/ },
        },
      ],
      [
        'the same id twice',
        {
          given: `requirements:\n${entry('a')}${entry('a', 'the agent does it again')}`,
          want: { pointer: '/requirements/1/id', line: 7, message: /requirement "a" is listed twice/ },
        },
      ],
      [
        'a key the file does not have',
        {
          given: `requirements:\n${entry('a')}    covers: [x]\n`,
          want: { pointer: '/requirements/0', line: 2, message: /must NOT have additional properties/ },
        },
      ],
    ];
  it.each(broken)('diagnostics > %s, with its line and pointer', async (_, { given, want }) => {
    const { diagnostics } = await read(given);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      file: expect.stringMatching(/requirements\.yaml$/),
      pointer: want.pointer,
      line: want.line,
    });
    expect(diagnostics[0]?.message).toMatch(want.message);
  });

  it('client > client-requirements.yaml is read the same way, and its diagnostics name it', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'requirements-'));
    try {
      await writeFile(path.join(root, 'requirements.yaml'), `requirements:\n${entry('a')}`);
      await writeFile(
        path.join(root, CLIENT_REQUIREMENTS_FILE),
        `requirements:\n${entry('client.requests')}${entry('Bad Id')}`,
      );
      const diagnostics: Diagnostic[] = [];
      expect(
        await readRequirements(root, root, diagnostics, undefined, CLIENT_REQUIREMENTS_FILE),
      ).toBeUndefined();
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toMatchObject({
        file: expect.stringMatching(/client-requirements\.yaml$/),
        pointer: '/requirements/1/id',
      });
      expect(diagnostics[0]?.message).toMatch(/\(client-requirements\.yaml\)$/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  const source = (value: RequirementsFile): SourceFile<RequirementsFile> => ({
    file: 'schemas/x/requirements.yaml',
    value,
    locate: () => 1,
  });
  const r = (id: string, statement = id) => ({
    id,
    level: 'MUST' as const,
    statement,
    source: 'seed' as const,
    ref: 'r',
  });

  it('extends > the base first, an entry of the same id replaced in place, new ones after', () => {
    const files = new Map([
      ['1.0', source({ requirements: [r('a'), r('b'), r('c')] })],
      ['1.1', source({ extends: '1.0', requirements: [r('b', 'b, changed'), r('d')] })],
    ]);
    const diagnostics: Diagnostic[] = [];
    const list = resolveRequirements('1.1', files, diagnostics);
    expect(diagnostics).toEqual([]);
    expect(list.map((x) => [x.id, x.statement])).toEqual([
      ['a', 'a'],
      ['b', 'b, changed'],
      ['c', 'c'],
      ['d', 'd'],
    ]);
  });

  it('extends > a version with no requirements, or a loop, is a diagnostic', () => {
    const diagnostics: Diagnostic[] = [];
    resolveRequirements(
      '1.1',
      new Map([['1.1', source({ extends: '0.9', requirements: [r('a')] })]]),
      diagnostics,
    );
    resolveRequirements(
      'a',
      new Map([
        ['a', source({ extends: 'b', requirements: [] })],
        ['b', source({ extends: 'a', requirements: [] })],
      ]),
      diagnostics,
    );
    expect(diagnostics.map((d) => d.message)).toEqual([
      'extends "0.9", a version with no requirements.yaml',
      'requirements extend each other in a loop (a → b → a)',
    ]);
  });
});
