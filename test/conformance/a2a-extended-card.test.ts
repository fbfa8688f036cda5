// The kit's checks of the extended agent card (a2a.*.extended-card*): they pass on the reference agent with its
// extended card behind a token; the broken agents that fail them are in a2a-faults.ts, run by conformance.test.ts.
import { createReferenceAgent } from '@agentproto/a2a/reference-agent';
import { runConformance } from '@agentproto/conformance';
import { describe, expect, it } from 'vitest';

const TOKEN = 'kit-token';
const agent = () =>
  createReferenceAgent({ chunkDelayMs: 0, onError: () => {}, extendedCardToken: TOKEN }).app;
const extendedChecks = (report: Awaited<ReturnType<typeof runConformance>>) =>
  report.checks.filter((c) => c.id.includes('.extended-card'));

describe('conformance > a2a extended card', () => {
  it('with --header Authorization > both checks pass over both bindings', async () => {
    const report = await runConformance({
      protocol: 'a2a',
      target: agent(),
      level: 'must',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const checks = extendedChecks(report);
    expect(checks.map((c) => `${c.id} ${c.status}`).sort()).toEqual([
      'a2a.rest.extended-card pass',
      'a2a.rest.extended-card-auth pass',
      'a2a.rpc.extended-card pass',
      'a2a.rpc.extended-card-auth pass',
    ]);
    expect(checks.find((c) => c.id === 'a2a.rest.extended-card-auth')?.message).toMatch(/invalid_token/);
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
  });
});
