// Client scenarios are data (schemas/<id>/<version>/client-scenarios.json): each file validates against the file's
// JSON Schema and loads (every answer names an operation of its version and validates against its type); a file
// broken for each rule is refused by both, with the pointer and the value.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createAjv } from '@agentproto/codegen';
import { CLIENT_SCENARIOS_FILE, loadClientScenarios } from '@agentproto/conformance';
import { knownProtocols, resolveBinding } from '@agentproto/registry';
import { describe, expect, it } from 'vitest';
import { checkScenarioFile } from '../../packages/conformance/src/client/scenarios.js';
import { ROOT, versionsWith } from '../support/spec-files.js';

const schema = JSON.parse(
  readFileSync(path.join(ROOT, 'packages/conformance/src/client/client-scenarios.schema.json'), 'utf8'),
);
const validate = createAjv().compile(schema);

/** Every version folder that has client scenarios, as `<id>@<version>`. */
const withScenarios = versionsWith(CLIENT_SCENARIOS_FILE);

describe('client scenarios > data', () => {
  it('files > every version the registry knows has client scenarios', () => {
    // A new version (even one `agentproto version add` copied) cannot go without them.
    const known = knownProtocols().flatMap((p) => p.versions.map((v) => `${p.protocol}@${v.version}`));
    expect(known.length).toBeGreaterThan(0);
    expect(known.filter((spec) => !withScenarios.includes(spec))).toEqual([]);
  });

  it.each(withScenarios)('%s > validates against the schema', (spec) => {
    const [id = '', version = ''] = spec.split('@');
    const file = JSON.parse(
      readFileSync(path.join(ROOT, 'schemas', id, version, CLIENT_SCENARIOS_FILE), 'utf8'),
    );
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
  });

  // Loading checks every answer against the version's types; the other versions load in the second stage's client
  // runs (test/official-suites/client-conformance.test.ts), where each run loads its version anyway. Agent Protocol v1
  // is the smallest version to load.
  it('agent-protocol@v1 > loads against its version', async () => {
    const loaded = await loadClientScenarios(await resolveBinding('agent-protocol@v1'));
    expect(loaded.scenarios.length).toBeGreaterThan(0);
  });

  it.each([
    [
      'shape > an unknown outcome',
      (f: Broken) => {
        f.scenarios[0].expect.outcome = 'maybe';
      },
      /\/scenarios\/0\/expect\/outcome: expected success or error or any, got "maybe"/,
      true,
    ],
    [
      'shape > an answer key that is not one',
      (f: Broken) => {
        f.answers.createAgentTask.bogus = 1;
      },
      /\/answers\/createAgentTask\/bogus: expected one of status/,
      true,
    ],
    [
      'surface > an answer for an operation the version lacks',
      (f: Broken) => {
        f.answers['message/send'] = { result: {} };
      },
      /\/answers\/message~1send: expected an operation or method of the version/,
      false,
    ],
    [
      'schemas > an answer that breaks its type',
      (f: Broken) => {
        f.answers.createAgentTask = { body: { task_id: 1 } };
      },
      /\/answers\/createAgentTask\/body\/task_id.*\(Task\)/,
      false,
    ],
    [
      'surface > a sequence step the version lacks',
      (f: Broken) => {
        f.scenarios[0].expect.sequence = ['message/send'];
      },
      /\/scenarios\/0\/expect\/sequence\/0: expected operations or methods of the version, got "message\/send"/,
      false,
    ],
  ])('refused > %s', async (_name, breakIt, message, bySchema) => {
    const file: Broken = JSON.parse(
      readFileSync(path.join(ROOT, 'schemas/agent-protocol/v1', CLIENT_SCENARIOS_FILE), 'utf8'),
    );
    breakIt(file);
    const binding = await resolveBinding('agent-protocol@v1');
    const problems = checkScenarioFile(file, binding, await binding.surface?.());
    expect(problems.join('\n')).toMatch(message);
    // The shape rules are the JSON Schema's too; the surface and type rules need the version, which only loading has.
    expect(validate(file)).toBe(!bySchema);
  });
});

// biome-ignore lint/suspicious/noExplicitAny: a parsed file, broken on purpose by the table's functions
type Broken = any;
