// Issue 40: the kit against an agent that does not speak the protocol. Each suite declares its probe (the request that
// tells whether the agent speaks the protocol at all, and the check that sends it); when that answer says "not this
// protocol", the run is one diagnosis and every other check is blocked, not failed. An agent that speaks the protocol,
// however broken, is reported as before; a connection refused asks whether the agent is running.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createReferenceAgent as a2aAgent } from '@agentproto/a2a/reference-agent';
import { createAjv } from '@agentproto/codegen';
import {
  knownProtocols,
  passed,
  render,
  resolveBinding,
  resolveSuite,
  runConformance,
} from '@agentproto/conformance';
import { createReferenceAgent as fixieAgent } from '@agentproto/fixie/reference-agent';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';
import { broken, status } from './faults.js';

/** A web server that is no agent: every request gets an HTML 404 page. */
const notFound = {
  fetch: () =>
    new Response('<html><body><h1>Not Found</h1></body></html>', {
      status: 404,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    }),
};
/** A single-page app's server: every request gets the same HTML page, with a 200. */
const page = {
  fetch: () =>
    new Response('<!doctype html><title>app</title><div id="root"></div>', {
      status: 200,
      headers: { 'content-type': 'text/html' },
    }),
};

/** Every protocol version with a suite, as `id@version`. */
async function versionsWithSuites(): Promise<string[]> {
  const out: string[] = [];
  for (const p of knownProtocols())
    for (const { version } of p.versions)
      if ((await resolveBinding(`${p.protocol}@${version}`)).suite) out.push(`${p.protocol}@${version}`);
  return out;
}

/** A port on 127.0.0.1 nothing listens on: one the system handed out, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('conformance > an agent that does not speak the protocol', () => {
  it('every suite > declares a probe: a check it has, sending the request it names', async () => {
    for (const spec of await versionsWithSuites()) {
      const { suite } = await resolveSuite(spec);
      expect(suite.probe, spec).toBeDefined();
      expect(
        suite.checks.find((c) => c.id === suite.probe?.check),
        spec,
      ).toMatchObject({ level: 'MUST' });
      expect(suite.probe?.request, spec).toMatch(/^(GET|POST) \//);
    }
  });

  it('a 404 for everything > every suite: its probe fails with one diagnosis, every other check is blocked', async () => {
    for (const spec of await versionsWithSuites()) {
      const { suite, binding } = await resolveSuite(spec);
      const report = await runConformance({ protocol: spec, target: notFound });
      const probe = suite.probe?.check;
      const diagnosis = `app does not answer as ${binding.protocol}@${binding.version}: ${suite.probe?.request} → 404 text/html`;
      expect(report.diagnosis, spec).toBe(diagnosis);
      expect(
        report.checks.filter((c) => c.status !== 'blocked'),
        spec,
      ).toEqual([expect.objectContaining({ id: probe, status: 'fail', message: diagnosis })]);
      for (const c of report.checks.filter((x) => x.status === 'blocked'))
        expect(c.message, `${spec} ${c.id}`).toBe(`blocked by ${probe}`);
      expect(report.summary, spec).toMatchObject({
        passed: 0,
        failed: 1,
        skipped: 0,
        blocked: suite.checks.length - 1,
      });
      expect(passed(report), spec).toBe(false);
    }
  });

  it('an HTML page with a 200 > not JSON, said once', async () => {
    const report = await runConformance({ protocol: 'a2a', target: page });
    expect(report.diagnosis).toBe(
      'app does not answer as a2a@1.0: GET /.well-known/agent-card.json → 200 text/html, which is not JSON',
    );
    expect(report.summary).toMatchObject({ failed: 1, blocked: report.checks.length - 1 });
  });

  it("another protocol's agent > a body of another shape, or a refusal in another protocol's words", async () => {
    const ap25 = await runConformance({ protocol: 'agent-protocol-2025', target: fixieAgent() });
    expect(ap25.diagnosis).toBe(
      'app does not answer as agent-protocol-2025@draft-2025-02: GET / → 200 application/json: (body): must be array (AgentList)',
    );
    const mcp = await runConformance({ protocol: 'mcp', target: fixieAgent() });
    expect(mcp.diagnosis).toMatch(
      /^app does not answer as mcp@2025-11-25: POST \/mcp → 4\d\d application\/problem\+json$/,
    );
    expect(mcp.summary).toMatchObject({ failed: 1, blocked: mcp.checks.length - 1 });
  });

  it('--fuzz and --coverage > the schema-driven checks are blocked too, and the requirements say so', async () => {
    const report = await runConformance({
      protocol: 'fixie',
      target: notFound,
      fuzz: { requests: 20, seed: 1 },
      coverage: true,
    });
    expect(report.checks.filter((c) => c.id.includes('.fuzz.')).map((c) => c.status)).toEqual([
      'blocked',
      'blocked',
      'blocked',
    ]);
    const results = new Set(report.coverage?.map((r) => r.result));
    expect(results.has('blocked')).toBe(true);
    expect(results.has('pass')).toBe(false);
  });

  it('an expected failure of the probe > the run still fails: its checks were never tried', async () => {
    const report = await runConformance({
      protocol: 'fixie',
      target: notFound,
      expectedFailures: { 'fixie.handshake': 'not built yet' },
    });
    expect(report.checks.find((c) => c.id === 'fixie.handshake')).toMatchObject({ expectedFailure: true });
    expect(passed(report)).toBe(false);
  });
});

describe('conformance > blocked checks in the reports', () => {
  it('json > validates against the published schema, with the count and the diagnosis', async () => {
    const schema = JSON.parse(
      readFileSync(path.join(ROOT, 'schemas/conformance/report/ConformanceReport.schema.json'), 'utf8'),
    );
    const validate = createAjv().compile(schema);
    const json = JSON.parse(
      render(await runConformance({ protocol: 'a2a', target: notFound, coverage: true }), 'json'),
    );
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.summary.blocked).toBe(json.checks.length - 1);
    expect(json.diagnosis).toMatch(/does not answer as a2a@1\.0/);
  });

  it('junit > the probe is the one failure; blocked checks are skipped, saying what blocked them', async () => {
    const report = await runConformance({ protocol: 'fixie', target: notFound });
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      render(report, 'junit'),
    );
    const suite = doc.testsuites.testsuite;
    expect(Number(suite.failures)).toBe(1);
    expect(Number(suite.skipped)).toBe(report.checks.length - 1);
    // sound: the report parsed as JUnit XML above, and a testsuite of several testcases parses to an array of them,
    // each with its name attribute and, when skipped, a skipped element with its message attribute.
    const cases = suite.testcase as Array<{ name: string; skipped?: { message: string } }>;
    expect(cases.find((c) => c.name === 'fixie.few-shots')?.skipped?.message).toBe(
      'blocked by fixie.handshake',
    );
  });

  it('text and markdown > BLOCK lines and the count in the summary', async () => {
    const report = await runConformance({ protocol: 'fixie', target: notFound });
    const text = render(report, 'text').trimEnd().split('\n');
    expect(text.filter((l) => l.startsWith('FAIL '))).toHaveLength(1);
    expect(text.filter((l) => l.startsWith('BLOCK MUST   '))).not.toHaveLength(0);
    expect(text.at(-1)).toBe(
      `fixie@1.0 at app: 0 passed, 1 failed, 0 skipped, ${report.checks.length - 1} blocked; 0 messages validated`,
    );
    expect(render(report, 'markdown')).toContain(
      '| `fixie.few-shots` | MUST | blocked | blocked by fixie.handshake |',
    );
  });
});

describe('conformance > an agent that speaks the protocol, broken, is reported as before', () => {
  it('a 5xx to the first request > its failure, and the checks that build on it fail: none is blocked', async () => {
    const report = await runConformance({
      protocol: 'fixie',
      target: broken(fixieAgent(), { method: 'GET', path: /^\/$/ }, status(500)),
    });
    expect(report.diagnosis).toBeUndefined();
    expect(report.summary.blocked).toBe(0);
    expect(report.checks.find((c) => c.id === 'fixie.handshake')?.message).toMatch(
      /^GET \/: answered 500, expected 200/,
    );
    expect(report.checks.find((c) => c.id === 'fixie.few-shots')).toMatchObject({
      status: 'fail',
      message: 'cannot be carried out: fixie.handshake did not pass',
    });
  });

  it('a 401 to the first request > a token it wants says nothing of the protocol: nothing is blocked', async () => {
    const { app } = a2aAgent();
    const guarded = {
      fetch: (r: Request) =>
        r.headers.get('authorization') === 'Bearer t'
          ? app.fetch(r)
          : Response.json({ error: 'unauthorized' }, { status: 401 }),
    };
    const report = await runConformance({ protocol: 'a2a', target: guarded });
    expect(report.summary.blocked).toBe(0);
    expect(report.checks.find((c) => c.id === 'a2a.card')?.message).toMatch(/answered 401/);
  });

  it('the reference agents > nothing blocked, no diagnosis', async () => {
    const report = await runConformance({ protocol: 'fixie', target: fixieAgent() });
    expect(report.diagnosis).toBeUndefined();
    expect(report.summary).toMatchObject({ failed: 0, blocked: 0 });
  });
});

describe('conformance > an agent that is not running', () => {
  it('connection refused > one sentence: is the agent running at the URL?', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    await expect(runConformance({ protocol: 'a2a', target: url })).rejects.toThrow(
      new RegExp(`^connection refused: is the agent running at ${url.replaceAll('.', '\\.')}\\?$`),
    );
  });
});
