// Issue 40: `agentproto conformance --header 'Name: value'` (and the kit's `headers`) for an agent behind a token.
// Every request of the run carries the header, the probe's and the schema-driven ones included; a header a check
// sets itself (a protocol's version header) stays as the check sets it.
import { createReferenceAgent } from '@agentproto/a2a/reference-agent';
import { runConformance, withHeaders } from '@agentproto/conformance';
import { describe, expect, it } from 'vitest';
import { runCollected } from '../support/run-cli.js';

/** The A2A reference agent behind a bearer token, counting the requests that came without it. */
function guarded() {
  const { app } = createReferenceAgent();
  const refused: string[] = [];
  const versions = new Set<string>();
  return {
    refused,
    versions,
    fetch(request: Request) {
      versions.add(request.headers.get('a2a-version') ?? '(none)');
      if (request.headers.get('authorization') !== 'Bearer s3cret') {
        refused.push(`${request.method} ${new URL(request.url).pathname}`);
        return new Response('{"error":"unauthorized"}', {
          status: 401,
          headers: { 'content-type': 'application/json' },
        });
      }
      return app.fetch(request);
    },
  };
}

describe('conformance > headers every request carries', () => {
  it('with the token > every check passes and no request went without it, fuzz requests included', async () => {
    const target = guarded();
    const report = await runConformance({
      protocol: 'a2a@1.0',
      target,
      headers: { Authorization: 'Bearer s3cret', 'A2A-Version': '9.9' },
      fuzz: { requests: 50, seed: 1 },
    });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(target.refused).toEqual([]);
    // Where a check sets the version header itself (1.0, and 99.0 to see it refused), its value stands; the one given
    // for every request fills in only where none was set (the card, the probe).
    expect([...target.versions]).toEqual(expect.arrayContaining(['1.0', '99.0', '9.9']));
  });

  it('without it > the run fails: the check is real', async () => {
    const target = guarded();
    const report = await runConformance({ protocol: 'a2a@1.0', target });
    expect(report.checks.filter((c) => c.status === 'fail').length).toBeGreaterThan(0);
    expect(target.refused.length).toBeGreaterThan(0);
  });

  it('a body survives the copy', async () => {
    let seen = '';
    const target = withHeaders(
      {
        baseUrl: 'http://app',
        label: 'app',
        fetch: async (r) => {
          seen = `${r.headers.get('x-token')} ${await r.text()}`;
          return new Response(null, { status: 204 });
        },
      },
      { 'X-Token': 't' },
    );
    await target.fetch(new Request('http://app/x', { method: 'POST', body: '{"a":1}' }));
    expect(seen).toBe('t {"a":1}');
  });

  it('--header > one that is not "Name: value" is a usage error (exit 2), before anything is sent', async () => {
    const got = await runCollected([
      'conformance',
      'http://127.0.0.1:9',
      '--protocol',
      'a2a',
      '--header',
      'no colon',
    ]);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(/--header no colon: give it as "Name: value"/);
  });
});
