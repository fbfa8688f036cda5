// Requirements as data: every protocol version with a suite has a requirements.yaml, every requirement is covered by
// a check or excluded with a reason, and every check names requirements that exist. The coverage rules are shown
// failing on versions built to break them.
import {
  coverageProblems,
  fuzzChecks,
  knownProtocols,
  requirementsCoverage,
  resolveBinding,
} from '@agentproto/conformance';
import type { CheckDefinition, ProtocolBinding } from '@agentproto/runtime/contract';
import { describe, expect, it } from 'vitest';

const versions: string[] = [];
for (const p of knownProtocols())
  for (const { version } of p.versions)
    if ((await resolveBinding(`${p.protocol}@${version}`)).suite) versions.push(`${p.protocol}@${version}`);

describe('conformance > requirements', () => {
  it('coverage > every version with a suite is listed here', () => {
    expect(versions.length).toBeGreaterThan(6);
  });

  it.each(versions)(
    '%s > every requirement is covered or excluded; every check covers requirements that exist',
    async (spec) => {
      const { binding, rows, problems } = await requirementsCoverage(spec);
      expect(problems).toEqual([]);
      expect(rows.length).toBeGreaterThan(10);
      // The schema-driven checks cover the same three requirements in every version.
      for (const id of [
        'contract.valid-requests',
        'contract.invalid-requests',
        'contract.declared-responses',
      ])
        expect(rows.find((r) => r.id === id)?.checks, `${spec}: ${id}`).toHaveLength(1);
      // Each requirement says where it comes from.
      for (const r of binding.requirements ?? []) expect(r.ref.length, r.id).toBeGreaterThan(3);
    },
  );

  const binding = (requirements: ProtocolBinding['requirements']): ProtocolBinding => ({
    protocol: 'made-up',
    version: '1',
    title: 'Made up',
    package: '@agentproto/made-up',
    validators: {},
    ...(requirements ? { requirements } : {}),
  });
  const check = (id: string, covers: string[]): CheckDefinition => ({
    id,
    level: 'MUST',
    title: id,
    ref: 'r',
    covers,
  });
  const requirement = (id: string, excluded?: string) => ({
    id,
    level: 'MUST' as const,
    statement: `the agent does ${id}`,
    source: 'decision' as const,
    ref: 'DECISIONS 1',
    ...(excluded ? { excluded } : {}),
  });
  const cases: Array<[string, { given: [ProtocolBinding, CheckDefinition[]]; want: RegExp }]> = [
    [
      'no requirements at all',
      { given: [binding(undefined), [check('m.a', ['a'])]], want: /has no requirements\.yaml/ },
    ],
    [
      'a requirement nothing covers',
      {
        given: [binding([requirement('a'), requirement('b')]), [check('m.a', ['a'])]],
        want: /requirement b is covered by no check/,
      },
    ],
    [
      'a check that covers nothing',
      {
        given: [binding([requirement('a')]), [check('m.a', ['a']), check('m.b', [])]],
        want: /check m\.b covers no requirement/,
      },
    ],
    [
      'a check that names a requirement that does not exist',
      {
        given: [binding([requirement('a')]), [check('m.a', ['a', 'typo'])]],
        want: /covers "typo", which requirements\.yaml does not list/,
      },
    ],
    [
      'a requirement both covered and excluded',
      {
        given: [binding([requirement('a', 'no way to see it')]), [check('m.a', ['a'])]],
        want: /covered by a check, yet excluded/,
      },
    ],
  ];
  it.each(cases)('problems > %s', (_, { given, want }) => {
    expect(coverageProblems(...given).join('\n')).toMatch(want);
  });

  it('problems > a version whose checks and requirements meet has none', () => {
    expect(
      coverageProblems(binding([requirement('a'), requirement('b', 'cannot be seen')]), [
        check('m.a', ['a']),
      ]),
    ).toEqual([]);
  });

  it('fuzz > the schema-driven checks take the suite prefix and cover the contract requirements', () => {
    expect(fuzzChecks('ap').map((c) => [c.id, c.covers])).toEqual([
      ['ap.fuzz.valid', ['contract.valid-requests']],
      ['ap.fuzz.invalid', ['contract.invalid-requests']],
      ['ap.fuzz.declared', ['contract.declared-responses']],
    ]);
  });
});
