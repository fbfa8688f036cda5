// Our conformance kit, schema-driven checks included, against the AI Engineer Foundation's own JavaScript SDK
// (npm `agent-protocol`, pinned): a task handler that echoes, served by the SDK's Express app on 127.0.0.1.
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runConformance } from '@agentproto/conformance';
import sdk from 'agent-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portOf } from '../support/typed.js';

/**
 * Where the SDK departs from Agent Protocol v1, by check id, with the requirement it breaks. The test fails when one
 * of these starts passing, or another check fails: the list stays true.
 */
const SDK_FAULTS: Readonly<Record<string, string>> = {
  'ap.task.not-found': 'task.not-found: an unknown task id answers 500 {"error": …}, not 404',
  'ap.step.not-found': 'step.not-found: an unknown step id answers 500, not 404',
  'ap.step.list':
    'step.list: the SDK lists step ids, not steps; its own response validator refuses that and answers 500',
  'ap.fuzz.valid':
    'contract.valid-requests: valid requests naming unknown tasks (get, list steps, download) answer 500',
  'ap.fuzz.declared':
    'contract.declared-responses: refusals are HTML pages (Express), not the declared JSON bodies',
};

// The package is CommonJS: imported from ESM, its default import is module.exports under Node, and the class itself
// under the test runner's interop. Take whichever holds the class.
// sound: the namespace holds `handleTask` only where the runner made module.exports (the class) the namespace itself.
const Agent: typeof sdk.default = 'handleTask' in sdk ? (sdk as unknown as typeof sdk.default) : sdk.default;
let server: Server;
let base = '';
let workspace = '';
const quiet = console.error;

beforeAll(async () => {
  // The SDK logs every error it answers with console.error; the kit provokes them on purpose.
  console.error = () => {};
  workspace = await mkdtemp(path.join(tmpdir(), 'aief-js-sdk-'));
  let steps = 0;
  const app = Agent.handleTask(
    async (_taskId, input) => async (stepInput) => ({
      output: `echo: ${String(stepInput ?? input)}`,
      is_last: ++steps % 2 === 0,
    }),
    { workspace },
  ).build();
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${portOf(server)}`;
});
afterAll(async () => {
  console.error = quiet;
  server.close();
  await rm(workspace, { recursive: true, force: true });
});

describe('e2e > the conformance kit against the AIEF JavaScript SDK', () => {
  it('kit > every failure is a listed fault of the SDK, with the requirement it breaks', async () => {
    const report = await runConformance({
      protocol: 'agent-protocol@v1',
      target: base,
      timeoutMs: 5_000,
      fuzz: { requests: 300, seed: 1 },
      coverage: true,
    });
    const failed = Object.fromEntries(
      report.checks.filter((c) => c.status === 'fail').map((c) => [c.id, c.message]),
    );
    expect(Object.keys(failed).sort(), JSON.stringify(failed, null, 2)).toEqual(
      Object.keys(SDK_FAULTS).sort(),
    );
    // What each schema-driven failure shows is what the list says, with a curl command to reproduce it.
    expect(failed['ap.fuzz.valid']).toMatch(/answered 500 to a valid request/);
    expect(failed['ap.fuzz.declared']).toMatch(/as "text\/html", which 4\d\d does not declare/);
    expect(failed['ap.fuzz.valid']).toMatch(
      /^ {4}curl -sS -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/ap\/v1\/agent\/tasks\//m,
    );
    // The SDK validates requests against its own OpenAPI document: nothing invalid is taken.
    expect(report.checks.find((c) => c.id === 'ap.fuzz.invalid')?.status).toBe('pass');
    // Each fault names a requirement the coverage table marks failed.
    for (const reason of Object.values(SDK_FAULTS)) {
      const id = reason.split(':')[0] ?? '';
      expect(report.coverage?.find((r) => r.id === id)?.result, id).toBe('fail');
    }
  });
});
