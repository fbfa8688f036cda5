// The kit's check of a signed card (a2a.card.signatures): it passes on the reference agent signing its card; the
// broken agents that fail it are in a2a-faults.ts, run with the others by conformance.test.ts.
import { createReferenceAgent } from '@agentproto/a2a/reference-agent';
import { runConformance } from '@agentproto/conformance';
import { describe, expect, it } from 'vitest';
import { signedAgent } from './a2a-faults.js';

describe('conformance > a2a card signatures', () => {
  it('signed reference agent > the signature verifies with the key set its jku names', async () => {
    const report = await runConformance({ protocol: 'a2a', target: signedAgent(), level: 'must' });
    const check = report.checks.find((c) => c.id === 'a2a.card.signatures');
    expect(check, JSON.stringify(check)).toMatchObject({ status: 'pass' });
    expect(check?.message).toMatch(
      /signature 1 \(EdDSA, kid agentproto-test-eddsa\) verifies with \/\.well-known\/jwks\.json/,
    );
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
  });

  it('unsigned reference agent > skipped, saying the card claims no signature', async () => {
    const report = await runConformance({
      protocol: 'a2a',
      target: createReferenceAgent({ chunkDelayMs: 0, onError: () => {} }).app,
      level: 'must',
    });
    expect(report.checks.find((c) => c.id === 'a2a.card.signatures')).toMatchObject({
      status: 'skip',
      message: 'the card claims no signature',
    });
  });
});
