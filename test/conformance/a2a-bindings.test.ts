// The A2A suite runs each check over every binding the card declares, and only those: a binding the card leaves out
// is skipped, check by check, saying so, while the other binding's checks still pass.
import { createReferenceAgent } from '@agentproto/a2a/reference-agent';
import { runConformance } from '@agentproto/conformance';
import { describe, expect, it } from 'vitest';
import { broken, json } from './faults.js';

const TOKEN = 'bindings-token';
const cardWithout = (binding: string) =>
  broken(
    // Allowed to call the kit's webhook on 127.0.0.1, so the push checks run too, and with its extended card behind
    // the token the kit is given, so the extended card checks do.
    createReferenceAgent({
      chunkDelayMs: 0,
      onError: () => {},
      push: { allowHosts: ['127.0.0.1'] },
      extendedCardToken: TOKEN,
    }).app,
    { method: 'GET', path: /agent-card\.json$/ },
    json((c) => ({
      ...c,
      supportedInterfaces: c.supportedInterfaces.filter(
        (i: { protocolBinding: string }) => i.protocolBinding !== binding,
      ),
    })),
  );

describe('conformance > a2a bindings', () => {
  const cases: Array<[string, { given: string; skipped: string; passed: string; reason: string }]> = [
    [
      'a card without HTTP+JSON > its checks skip, JSON-RPC passes',
      {
        given: 'HTTP+JSON',
        skipped: 'a2a.rest.',
        passed: 'a2a.rpc.',
        reason: 'the card claims no HTTP+JSON interface',
      },
    ],
    [
      'a card without JSON-RPC > its checks skip, HTTP+JSON passes',
      {
        given: 'JSONRPC',
        skipped: 'a2a.rpc.',
        passed: 'a2a.rest.',
        reason: 'the card claims no JSONRPC interface',
      },
    ],
  ];
  it.each(cases)('%s', async (_, { given, skipped, passed, reason }) => {
    const report = await runConformance({
      protocol: 'a2a',
      target: cardWithout(given),
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const of = (prefix: string) => report.checks.filter((c) => c.id.startsWith(prefix));
    expect(of(skipped).length).toBeGreaterThan(10);
    expect(of(skipped).map((c) => [c.id, c.status, c.message])).toEqual(
      of(skipped).map((c) => [c.id, 'skip', reason]),
    );
    expect(of(passed).filter((c) => c.status !== 'pass')).toEqual([]);
  });
});
