import { describe, expect, it } from 'vitest';
import { extendedCardChecks } from './extended-card.js';

// The whole run against the reference agent is test/conformance/a2a-extended-card.test.ts; the broken agents that fail
// each check are in test/conformance/a2a-faults.ts.
describe('conformance > extended card checks', () => {
  it('without credentials > the card check is skipped, saying how to give them', async () => {
    // The checks alone, against an agent answering 401 with no challenge.
    const results: Array<[string, unknown]> = [];
    const refused = {
      status: 401,
      headers: new Headers(),
      label: 'GET /extendedAgentCard',
      body: {},
      text: '',
    };
    const binding = { speaking: { headers: {} }, call: async () => refused, result: () => ({}) };
    await extendedCardChecks(
      {
        check: async (name, fn) => {
          // sound: a stub of the binding the check drives, with the members it reads
          await fn(binding as never).then(
            (m) => results.push([name, m]),
            (e: Error) => results.push([name, `${e.name}: ${e.message}`]),
          );
          return true;
        },
        after: () => {
          throw new Error('the extended card checks follow up on no earlier check');
        },
      },
      true,
    );
    expect(results).toEqual([
      [
        'extended-card-auth',
        'CheckFailure: GET /extendedAgentCard: the 401 carries no WWW-Authenticate challenge (RFC 9110 §15.5.2)',
      ],
      ['extended-card', expect.stringMatching(/^CheckSkipped: .*--header 'Authorization: Bearer <token>'/)],
    ]);
  });
});
