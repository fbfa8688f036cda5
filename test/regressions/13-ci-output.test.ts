// Issue 13: output a CI user reads. `validate` writes issues and its summary to one stream in order, `--out` writes
// any report to a file, colours appear only on a terminal that has them (never with NO_COLOR), and `conformance`
// neither passes a run that validated nothing nor runs against a base URL that is one of the agent's own routes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WriteStream } from 'node:tty';
import { createReferenceAgent } from '@agentproto/agent-protocol/reference-agent';
import { runCli } from '@agentproto/cli';
import { ansi, paintFor } from '@agentproto/cli/colors';
import { passed, runConformance } from '@agentproto/conformance';
import { serveLocal } from '@agentproto/runtime';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { runCollected as run } from '../support/run-cli.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-13-out-'));
const bad = path.join(tmp, 'bad.json');
writeFileSync(bad, '{"task_id":5,"artifacts":[]}');
const args = ['validate', bad, '--protocol', 'agent-protocol', '--type', 'Task'];

describe('13 > validate output', () => {
  it('text > issues and the summary on standard output, in order; nothing on standard error', async () => {
    const got = await run(args);
    expect(got.code).toBe(1);
    expect(got.err).toBe('');
    expect(got.out).toBe(
      `${bad}:1: /task_id: must be string (Task) (got 5)\n0 valid, 1 invalid (agent-protocol@v1)`,
    );
  });

  it.each([
    ['text', /^.*bad\.json:1: \/task_id: must be string \(Task\) \(got 5\)\n0 valid, 1 invalid/],
    ['json', /"invalid": 1/],
    ['junit', /<testsuites[\s\S]*<failure/],
  ])(
    '--out > the %s report goes to the file, the summary line to standard output',
    async (reporter, want) => {
      const file = path.join(tmp, `report-${reporter}`);
      const got = await run([...args, '--reporter', reporter, '--out', file]);
      expect(got.code).toBe(1);
      expect(got.out).toBe(`0 valid, 1 invalid (agent-protocol@v1) (report: ${file})`);
      expect(readFileSync(file, 'utf8')).toMatch(want);
    },
  );

  it('--out > a file that cannot be written is a usage error', async () => {
    const got = await run([...args, '--out', path.join(tmp, 'no/such/folder/report')]);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(/cannot write/);
  });

  it('colours > painted when the output stream has colours, plain otherwise', async () => {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: () => {}, stdin: async function* () {} };
    await runCli(args, { ...io, paint: ansi });
    expect(lines.join('\n')).toContain('\u001b[31m0 valid, 1 invalid');
    lines.length = 0;
    await runCli(args, io);
    expect(lines.join('\n')).not.toContain('\u001b');
  });

  it('colours > a terminal with colours gets them, unless NO_COLOR is set', () => {
    // sound: an object whose prototype is WriteStream's, with isTTY set, is what colour detection reads a terminal
    // stream for; nothing writes to it.
    const terminal = Object.assign(Object.create(WriteStream.prototype), {
      isTTY: true,
    }) as NodeJS.WriteStream;
    // Node's colour detection also reads CI (a generic CI log gets no colours) and TERM.
    const saved = {
      NO_COLOR: process.env.NO_COLOR,
      FORCE_COLOR: process.env.FORCE_COLOR,
      TERM: process.env.TERM,
      CI: process.env.CI,
    };
    try {
      delete process.env.NO_COLOR;
      delete process.env.FORCE_COLOR;
      delete process.env.CI;
      process.env.TERM = 'xterm-256color';
      expect(paintFor(terminal)('red', 'x')).toBe('\u001b[31mx\u001b[39m');
      process.env.NO_COLOR = '1';
      expect(paintFor(terminal)('red', 'x')).toBe('x');
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});

describe('13 > conformance refuses a vacuous pass', () => {
  it('route as base URL > exits 2 naming the root to pass instead', async () => {
    const { server, url } = await serveLocal(createReferenceAgent().fetch, 0);
    try {
      const got = await run(['conformance', `${url}/ap/v1/agent/tasks`, '--protocol', 'agent-protocol']);
      expect(got.code).toBe(2);
      expect(got.err).toContain(
        `ends with /ap/v1/agent/tasks, one of agent-protocol's own paths; the kit adds those itself. Pass the agent's root: ${url}`,
      );
    } finally {
      server.close();
    }
  });

  it('0 messages validated > the schema check fails instead of passing', async () => {
    // An agent that answers every request with an empty 500: nothing the schemas describe.
    const nothing = new Hono().all('*', (c) => c.body(null, 500));
    const report = await runConformance({ protocol: 'agent-protocol', target: nothing });
    expect(report.summary.messagesValidated).toBe(0);
    const wire = report.checks.find(
      (c) => /schema|wire/.test(c.id) && c.message.includes('no message was validated'),
    );
    expect(wire?.status).toBe('fail');
  });

  it('every request a 404 > the run fails: the first request is the diagnosis, the rest blocked', async () => {
    const nothing = new Hono().all('*', (c) => c.body(null, 404));
    const report = await runConformance({ protocol: 'agent-protocol', target: nothing });
    expect(passed(report)).toBe(false);
    expect(report.checks.find((c) => c.id === 'ap.wire.schemas')?.status).toBe('blocked');
    expect(report.diagnosis).toBe('app does not answer as agent-protocol@v1: POST /ap/v1/agent/tasks → 404');
  });
});
