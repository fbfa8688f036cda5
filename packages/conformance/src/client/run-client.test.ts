// The client runner in memory, on small versions so the test loads fast: a fetch client that does what Agent Protocol
// v1's scenarios ask passes every check, and each check fails against a client broken for it (a missing header, a body
// off the schema, a client that never ends, one that swallows an error, one that skips the first call). A Fixie client
// reads a standalone query's answer as NDJSON, the framing the operation declares.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Report } from '../kit/types.js';
import { type ClientExit, type InProcessClient, runClientConformance } from './run-client.js';
import type { ClientScenarioFile } from './scenarios.js';

const SCHEMAS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../schemas');

/** Agent Protocol v1's scenarios, plus a header rule of the test's own (v1 itself requires no header). */
const withHeader: ClientScenarioFile = {
  ...JSON.parse(readFileSync(path.join(SCHEMAS, 'agent-protocol/v1/client-scenarios.json'), 'utf8')),
  headers: [{ name: 'X-Test-Caller', equals: 'runner', level: 'MUST', ref: 'this test' }],
};

interface Flaws {
  noHeader?: boolean;
  badBody?: boolean;
  hangs?: boolean;
  swallowsErrors?: boolean;
  skipsCreate?: boolean;
}

/** An Agent Protocol v1 client written with fetch, with the flaws asked for. */
function client(flaws: Flaws = {}): InProcessClient {
  return async (url, _scenario, signal): Promise<ClientExit> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!flaws.noHeader) headers['x-test-caller'] = 'runner';
    const post = async (where: string, body: unknown) => {
      const res = await fetch(`${url}/ap/v1/agent/tasks${where}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal,
      });
      return { ok: res.ok, body: await res.json() };
    };
    if (flaws.hangs) await new Promise((resolve) => signal.addEventListener('abort', resolve));
    let taskId = 't1';
    if (!flaws.skipsCreate) {
      const created = await post('', { input: flaws.badBody ? 5 : 'hello' });
      if (!created.ok && !flaws.swallowsErrors) return { exitCode: 1, output: created.body.detail };
      taskId = created.body.task_id ?? taskId;
    }
    for (let i = 0; i < 10; i++) {
      const step = await post(`/${taskId}/steps`, { input: 'go on' });
      if (!step.ok) return { exitCode: flaws.swallowsErrors ? 0 : 1, output: 'stopped' };
      if (step.body.is_last) break;
    }
    return { exitCode: 0, output: 'done' };
  };
}

const run = (
  c: InProcessClient,
  more: { scenarios?: string[]; timeoutMs?: number; coverage?: boolean } = {},
): Promise<Report> =>
  runClientConformance({ protocol: 'agent-protocol@v1', client: c, file: withHeader, ...more });

const check = (r: Report, id: string) => r.checks.find((c) => c.id === id);

describe('client conformance > in memory', () => {
  it('runner > a client that does what each scenario asks passes every check', async () => {
    const report = await run(client());
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(report.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['ap.client.header.x-test-caller', 'ap.client.scenario.error-answer']),
    );
  });

  it('coverage > with coverage asked, the report has each client requirement and how it fared', async () => {
    const report = await run(client({ swallowsErrors: true }), { coverage: true });
    const result = Object.fromEntries((report.coverage ?? []).map((r) => [r.id, r.result]));
    expect(result).toEqual({
      'client.requests': 'pass',
      'client.run-task': 'pass',
      'client.valid-answers': 'pass',
      'client.unknown-fields': 'pass',
      'client.errors': 'fail',
    });
    expect((await run(client())).coverage).toBeUndefined();
  });

  it.each([
    [
      'header > a client without the header a rule requires fails that rule',
      { noHeader: true },
      'ap.client.header.x-test-caller',
      /has no X-Test-Caller header/,
    ],
    [
      'requests > a body off the schema fails, naming what it sent',
      { badBody: true },
      'ap.client.requests',
      /POST \/ap\/v1\/agent\/tasks body\/input: .*\(TaskRequestBody\); it sent: \{"input":5\}/,
    ],
    [
      'outcome > a client that swallows an error answer fails that scenario',
      { swallowsErrors: true },
      'ap.client.scenario.error-answer',
      /exited 0 without reporting it/,
    ],
    [
      'sequence > a client that skips creating the task fails the sequence',
      { skipsCreate: true },
      'ap.client.scenario.run-task',
      /expected createAgentTask first/,
    ],
  ] as const)('%s', async (_name, flaws, id, message) => {
    const scenario = id.startsWith('ap.client.scenario.')
      ? id.slice('ap.client.scenario.'.length)
      : 'run-task';
    const report = await run(client(flaws), { scenarios: [scenario] });
    expect(check(report, id)?.status).toBe('fail');
    expect(check(report, id)?.message).toMatch(message);
  });

  it('timeout > a client that never ends fails each scenario as late', async () => {
    const report = await run(client({ hangs: true }), { timeoutMs: 200, scenarios: ['run-task'] });
    expect(check(report, 'ap.client.scenario.run-task')?.status).toBe('fail');
    expect(check(report, 'ap.client.scenario.run-task')?.message).toMatch(
      /did not finish within the timeout/,
    );
  });

  it('expected failures > a listed failure is a warning, a listed pass is stale', async () => {
    const report = await runClientConformance({
      protocol: 'agent-protocol@v1',
      client: client({ noHeader: true }),
      file: withHeader,
      scenarios: ['run-task'],
      expectedFailures: { 'ap.client.header.x-test-caller': 'known', 'ap.client.requests': 'not really' },
    });
    expect(check(report, 'ap.client.header.x-test-caller')?.expectedFailure).toBe(true);
    expect(check(report, 'ap.client.requests')?.staleExpectation).toBe(true);
  });

  it('usage > an unknown scenario or expected-failure id, or a file off the version, is a usage error', async () => {
    await expect(run(client(), { scenarios: ['nope'] })).rejects.toThrow(
      /no client scenario "nope"; known: run-task/,
    );
    await expect(
      runClientConformance({ protocol: 'agent-protocol@v1', client: client(), expectedFailures: { x: 'y' } }),
    ).rejects.toThrow(/"x" is not a client check/);
    await expect(
      runClientConformance({
        protocol: 'agent-protocol@v1',
        client: client(),
        file: { ...withHeader, answers: { 'message/send': { body: {} } } },
      }),
    ).rejects.toThrow(
      /the client scenarios given: [\s\S]*\/answers\/message~1send: expected an operation or method/,
    );
  });

  it('streams > an operation that declares NDJSON is answered as NDJSON lines', async () => {
    // A client that accepts only what the operation declares: application/x-ndjson, one AgentResponse per line.
    const ndjson: InProcessClient = async (url, _scenario, signal) => {
      await (await fetch(`${url}/`, { signal })).text();
      const res = await fetch(`${url}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: { text: 'hello' } }),
        signal,
      });
      const lines = (await res.text()).split('\n').filter((l) => l !== '');
      const framed = res.headers.get('content-type') === 'application/x-ndjson';
      const texts = lines.map((l) => JSON.parse(l).message.text);
      return { exitCode: framed && texts.length === 2 ? 0 : 1, output: texts.join(' ') };
    };
    const report = await runClientConformance({
      protocol: 'fixie@1.0',
      client: ndjson,
      scenarios: ['query'],
    });
    expect(check(report, 'fixie.client.scenario.query')?.status).toBe('pass');
  });
});
