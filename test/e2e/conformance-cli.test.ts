// `agentproto conformance` against live agents on 127.0.0.1 (port 0): exit codes, reporters, expected failures.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReferenceAgent } from '@agentproto/agent-protocol/reference-agent';
import { startReferenceAgent as startScope } from '@agentproto/agentscope/reference-agent/serve';
import { serveLocal } from '@agentproto/runtime';
import type { ServerType } from '@hono/node-server';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCollected } from '../support/run-cli.js';

const servers: ServerType[] = [];
let scopeUrl = '';
let brokenUrl = '';
const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-conformance-'));

beforeAll(async () => {
  const scope = await startScope('1.1', 0);
  servers.push(scope.server);
  scopeUrl = scope.url;
  // An Agent Protocol agent whose task creation always fails.
  const reference = createReferenceAgent();
  const broken = await serveLocal(
    (r) =>
      r.method === 'POST' && new URL(r.url).pathname === '/ap/v1/agent/tasks'
        ? new Response('boom', { status: 500 })
        : reference.fetch(r),
    0,
  );
  servers.push(broken.server);
  brokenUrl = broken.url;
});
afterAll(() => {
  for (const s of servers) s.close();
});

const run = runCollected;

describe('e2e > agentproto conformance', () => {
  it('text > progress per check, a summary, exit 0 for a conformant agent', async () => {
    const r = await run(['conformance', scopeUrl, '--protocol', 'agentscope@1.1']);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^PASS {2}MUST {3}as\.process\.stream: /m);
    expect(r.out).toMatch(/agentscope@1\.1 at http:\/\/127\.0\.0\.1:\d+: 8 passed, 0 failed, 0 skipped/);
    expect(r.code).toBe(0);
  });

  it('--fuzz > the schema-driven checks after the scenario, with their seed; --coverage > the table before the summary', async () => {
    const r = await run([
      'conformance',
      scopeUrl,
      '--protocol',
      'agentscope@1.1',
      '--fuzz',
      '40',
      '--seed',
      '9',
      '--coverage',
    ]);
    expect(r.err).toBe('');
    expect(r.out).toMatch(
      /^PASS {2}MUST {3}as\.fuzz\.invalid: \d+ invalid requests across 3 operations, answered 4xx \d+ \(seed 9\)$/m,
    );
    expect(r.out).toMatch(/^MUST {3}contract\.invalid-requests +PASS +as\.fuzz\.invalid$/m);
    const lines = r.out.trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(/^requirements: 14, covered by checks 11, excluded 3$/);
    expect(lines.at(-1)).toMatch(/11 passed, 0 failed, 0 skipped/);
    expect(r.code).toBe(0);
  });

  it('--coverage without a URL > the requirements and the checks that cover them; nothing is sent', async () => {
    const r = await run(['conformance', '--protocol', 'agent-protocol@v1-awaiting-input', '--coverage']);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^MAY {4}awaiting\.when +excluded: A freedom of the agent/m);
    expect(r.out).toMatch(/^MUST {3}awaiting\.ask +ap\.awaiting\.ask$/m);
    expect(r.code).toBe(0);
    const json = await run(['conformance', '--protocol', 'fixie', '--coverage', '--reporter', 'json']);
    expect(JSON.parse(json.out).coverage.find((c: { id: string }) => c.id === 'handshake').checks).toEqual([
      'fixie.handshake',
    ]);
  });

  it('exit 2 > --fuzz, --seed and --fuzz-time checked; no URL and no --coverage', async () => {
    for (const args of [
      ['--fuzz', '0'],
      ['--fuzz', 'many'],
      ['--fuzz', '10', '--seed', '-1'],
      ['--fuzz', '10', '--fuzz-time', '0'],
      ['--seed', '3'],
    ]) {
      const r = await run(['conformance', scopeUrl, '--protocol', 'agentscope@1.1', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(/--fuzz|--seed|--fuzz-time/);
    }
    const r = await run(['conformance', '--protocol', 'agentscope']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/give the agent's base URL, or --coverage/);
  });

  it('exit 1 > a MUST check fails; the failure names the request', async () => {
    const r = await run(['conformance', brokenUrl, '--protocol', 'agent-protocol', '--level', 'must']);
    expect(r.out).toMatch(
      /FAIL {2}MUST {3}ap\.task\.create: POST \/ap\/v1\/agent\/tasks: answered 500, expected 200/,
    );
    expect(r.out).not.toMatch(/SHOULD/);
    expect(r.code).toBe(1);
  });

  it('junit and --out > the report goes to the file', async () => {
    const out = path.join(tmp, 'report.xml');
    const r = await run([
      'conformance',
      scopeUrl,
      '--protocol',
      'agentscope',
      '--reporter',
      'junit',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(XMLValidator.validate(readFileSync(out, 'utf8'))).toBe(true);
  });

  it('expected failures > listed failures pass the run; a stale entry fails it', async () => {
    const listed = path.join(tmp, 'expected.yaml');
    writeFileSync(listed, 'ap.task.create: creation is broken on purpose\n');
    const ok = await run([
      'conformance',
      brokenUrl,
      '--protocol',
      'agent-protocol',
      '--level',
      'must',
      '--expected-failures',
      listed,
      '--reporter',
      'json',
    ]);
    // Every check that builds on task creation fails too: those are unexpected, so the run still fails.
    expect(JSON.parse(ok.out).checks.find((c: { id: string }) => c.id === 'ap.task.create')).toMatchObject({
      expectedFailure: true,
    });
    const stale = path.join(tmp, 'stale.yaml');
    writeFileSync(stale, 'as.health: health is broken\n');
    const r = await run(['conformance', scopeUrl, '--protocol', 'agentscope', '--expected-failures', stale]);
    expect(r.out).toMatch(
      /STALE SHOULD as\.health: listed as expected to fail \(health is broken\), but it passed/,
    );
    expect(r.code).toBe(1);
  });

  const usage: Array<[string, { args: () => string[]; want: RegExp }]> = [
    [
      'unreachable target',
      {
        args: () => ['conformance', 'http://127.0.0.1:9', '--protocol', 'agentscope', '--timeout', '2000'],
        want: /unreachable/,
      },
    ],
    [
      'unknown protocol',
      { args: () => ['conformance', scopeUrl, '--protocol', 'nope'], want: /unknown protocol "nope"/ },
    ],
    [
      'bad level',
      {
        args: () => ['conformance', scopeUrl, '--protocol', 'agentscope', '--level', 'most'],
        want: /--level must be one of/,
      },
    ],
    [
      'bad reporter',
      {
        args: () => ['conformance', scopeUrl, '--protocol', 'agentscope', '--reporter', 'html'],
        want: /--reporter must be one of/,
      },
    ],
    [
      'not a URL',
      { args: () => ['conformance', 'localhost', '--protocol', 'agentscope'], want: /is not a URL/ },
    ],
    [
      'expected failure that is no check',
      {
        args: () => {
          const f = path.join(tmp, 'bad.yaml');
          writeFileSync(f, 'as.nope: x\n');
          return ['conformance', scopeUrl, '--protocol', 'agentscope', '--expected-failures', f];
        },
        want: /\/as\.nope: no check has this id/,
      },
    ],
  ];
  it.each(usage)('exit 2 > %s', async (_, { args, want }) => {
    const r = await run(args());
    expect(r.err).toMatch(want);
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(2);
  });
});
