// What each version requires of a client is data (schemas/<id>/<version>/client-requirements.yaml), on the binding as
// `clientRequirements`: for every version with client scenarios, every client requirement is covered by a client
// check or excluded, every client check covers a requirement, and none names an id the file lacks. A scenario file
// that names an unknown id is refused, naming the file and the id.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CLIENT_REQUESTS_REQUIREMENT,
  CLIENT_SCENARIOS_FILE,
  type ClientScenarioFile,
  clientChecks,
  coverageOf,
  coverageProblems,
  resolveBinding,
} from '@agentproto/conformance';
import { describe, expect, it } from 'vitest';
import { acceptScenarioFile, checkScenarioFile } from '../../packages/conformance/src/client/scenarios.js';
import { ROOT, versionsWith } from '../support/spec-files.js';

/** Every version folder that has client scenarios, as `<id>@<version>`. */
const withScenarios = versionsWith(CLIENT_SCENARIOS_FILE);

/** A version's client scenarios as written (the answers are checked against the version elsewhere). */
function scenariosOf(spec: string): ClientScenarioFile {
  const [id = '', version = ''] = spec.split('@');
  return JSON.parse(readFileSync(path.join(ROOT, 'schemas', id, version, CLIENT_SCENARIOS_FILE), 'utf8'));
}

describe('client conformance > requirements', () => {
  it('coverage > every version with client scenarios is listed here', () => {
    expect(withScenarios.length).toBeGreaterThanOrEqual(10);
  });

  it.each(withScenarios)(
    '%s > every client requirement is covered or excluded; every client check covers ones that exist',
    async (spec) => {
      const binding = await resolveBinding(spec);
      const checks = clientChecks(scenariosOf(spec));
      expect(coverageProblems(binding, checks, 'client')).toEqual([]);
      // The requests' check covers the one requirement every version lists.
      const rows = coverageOf(binding, checks, undefined, 'client');
      expect(rows.find((r) => r.id === CLIENT_REQUESTS_REQUIREMENT)?.checks).toEqual([
        `${scenariosOf(spec).checkPrefix}.client.requests`,
      ]);
      for (const r of binding.clientRequirements ?? []) expect(r.ref.length, r.id).toBeGreaterThan(3);
    },
  );

  it('a2a@1.0 > the version header and the unknown-fields scenario cover their requirements', async () => {
    const rows = coverageOf(
      await resolveBinding('a2a@1.0'),
      clientChecks(scenariosOf('a2a@1.0')),
      undefined,
      'client',
    );
    expect(rows.find((r) => r.id === 'client.header.a2a-version')?.checks).toEqual([
      'a2a.client.header.a2a-version',
    ]);
    expect(rows.find((r) => r.id === 'client.unknown-fields')?.checks).toEqual([
      'a2a.client.scenario.unknown-fields',
    ]);
  });

  it('problems > a client requirement nothing covers, and a version without client requirements', async () => {
    const binding = await resolveBinding('agent-protocol@v1');
    const file = scenariosOf('agent-protocol@v1');
    const without = { ...file, scenarios: file.scenarios.filter((s) => s.id !== 'error-answer') };
    expect(coverageProblems(binding, clientChecks(without), 'client')).toEqual([
      'agent-protocol@v1: requirement client.errors is covered by no check and not excluded',
    ]);
    const { clientRequirements: _, ...bare } = binding;
    expect(coverageProblems(bare, clientChecks(file), 'client')[0]).toBe(
      'agent-protocol@v1 has no client-requirements.yaml',
    );
  });

  it('refused > a scenario that covers an id the version does not list names the id', async () => {
    const binding = await resolveBinding('agent-protocol@v1');
    const file = scenariosOf('agent-protocol@v1');
    const broken = {
      ...file,
      scenarios: file.scenarios.map((s, i) => (i === 1 ? { ...s, covers: ['client.valid-answer'] } : s)),
    };
    expect(checkScenarioFile(broken, binding, undefined)).toEqual([
      `/scenarios/1/covers/0: expected a requirement of agent-protocol@v1's client-requirements.yaml, got "client.valid-answer"`,
    ]);
    // Loading says which file and which id.
    await expect(
      acceptScenarioFile(broken, binding, 'schemas/agent-protocol/v1/client-scenarios.json'),
    ).rejects.toThrow(
      /^schemas\/agent-protocol\/v1\/client-scenarios\.json: not a client-scenario file:\n {2}\/scenarios\/1\/covers\/0: .*"client\.valid-answer"$/,
    );
    // A check without covers is a coverage problem.
    const bare = { ...file, scenarios: file.scenarios.map(({ covers: _, ...s }) => s) };
    expect(coverageProblems(binding, clientChecks(bare), 'client')).toContain(
      'agent-protocol@v1: check ap.client.scenario.run-task covers no requirement',
    );
  });
});
