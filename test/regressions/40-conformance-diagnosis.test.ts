// Issue 40: `agentproto conformance` against a server that does not speak the protocol printed a failure for every
// check (3 FAIL and 25 SKIP for A2A, 14 FAIL for MCP, each with its own 404), and against a port nothing listens on
// an undici error code. Now the first request's answer is the one diagnosis, every check after it is blocked, and
// the command exits 1 (the agent is not conformant); a connection refused asks whether the agent is running, and
// exits 2 (the target cannot be reached), as before.
import { createServer } from 'node:net';
import { resolveSuite } from '@agentproto/conformance';
import { createReferenceAgent } from '@agentproto/fixie/reference-agent';
import { serveLocal } from '@agentproto/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCollected as run } from '../support/run-cli.js';

/** A web server that is no agent: every request gets an HTML 404 page. */
let notAgent: { server: { close: () => void }; url: string };
/** The fixie reference agent: an agent, of another protocol than the ones asked for below. */
let fixie: { server: { close: () => void }; url: string };

beforeAll(async () => {
  notAgent = await serveLocal(
    () =>
      new Response('<html><body>Not Found</body></html>', {
        status: 404,
        headers: { 'content-type': 'text/html' },
      }),
    0,
  );
  fixie = await serveLocal(createReferenceAgent().fetch, 0);
});

afterAll(() => {
  notAgent.server.close();
  fixie.server.close();
});

describe('40 > conformance against an agent that does not speak the protocol', () => {
  it('a2a > one diagnosis, the other checks BLOCK, exit 1', async () => {
    const got = await run(['conformance', notAgent.url, '--protocol', 'a2a']);
    expect(got.code).toBe(1);
    const lines = got.out.split('\n');
    expect(lines.filter((l) => l.includes('does not answer'))).toEqual([
      `FAIL  MUST   a2a.card: ${notAgent.url} does not answer as a2a@1.0: GET /.well-known/agent-card.json → 404 text/html`,
    ]);
    expect(lines.filter((l) => /^(FAIL|SKIP) /.test(l))).toHaveLength(1);
    // Every other check of the suite is blocked: as many as it has, less the probe.
    const blocked = (await resolveSuite('a2a')).suite.checks.length - 1;
    expect(lines.filter((l) => l.startsWith('BLOCK '))).toHaveLength(blocked);
    expect(lines.at(-1)).toBe(
      `a2a@1.0 at ${notAgent.url}: 0 passed, 1 failed, 0 skipped, ${blocked} blocked; 0 messages validated`,
    );
    expect(got.err).toBe('');
  });

  it.each([
    ['mcp', 'mcp.lifecycle.initialize', 'POST /mcp → 422 application/problem+json'],
    ['agent-protocol', 'ap.task.create', 'POST /ap/v1/agent/tasks → 404 application/problem+json'],
    ['agentscope', 'as.process.stream', 'POST /process → 422 application/problem+json'],
  ])('%s against the fixie agent > its first request is the one failure', async (protocol, probe, answer) => {
    const got = await run(['conformance', fixie.url, '--protocol', protocol]);
    expect(got.code).toBe(1);
    const failed = got.out.split('\n').filter((l) => l.startsWith('FAIL '));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(new RegExp(`^FAIL  MUST   ${probe.replaceAll('.', '\\.')}: `));
    expect(failed[0]).toContain(` does not answer as ${protocol}@`);
    expect(failed[0]?.endsWith(answer)).toBe(true);
  });

  it('--reporter json > the report on standard output, the diagnosis once on standard error', async () => {
    const got = await run(['conformance', notAgent.url, '--protocol', 'fixie', '--reporter', 'json']);
    expect(got.code).toBe(1);
    const report = JSON.parse(got.out);
    expect(report.summary).toMatchObject({ passed: 0, failed: 1, blocked: 8 });
    expect(got.err).toBe(report.diagnosis);
    expect(got.err).toBe(`${notAgent.url} does not answer as fixie@1.0: GET / → 404 text/html`);
  });

  it('--help > documents the blocked status and the exit codes', async () => {
    const got = await run(['conformance', '--help']);
    expect(got.out).toContain('blocked (BLOCK) when the agent does not answer as the protocol at all');
    expect(got.out).toContain('1 a MUST check failed or is blocked');
  });
});

describe('40 > conformance against an agent that is not running', () => {
  it('connection refused > "is the agent running?", once, exit 2', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const port = address !== null && typeof address === 'object' ? address.port : 0;
    const got = await run(['conformance', `http://127.0.0.1:${port}`, '--protocol', 'a2a']);
    expect(got.code).toBe(2);
    expect(got.out).toBe('');
    expect(got.err).toBe(`agentproto: connection refused: is the agent running at http://127.0.0.1:${port}?`);
  });
});
