// Issue 34, "tools always finish": an agent that streams forever, drips its answer a byte at a time or never sends
// its headers kept `agentproto conformance` waiting for minutes, or for ever after saying 'unreachable'. Every check
// and the whole run have deadlines now; what they cut is reported as cut, with the deadline that cut it, and nothing
// the run abandoned keeps the process alive. Each hostile agent here never finishes, and each deadline is short: the
// verdicts are the same however slow the machine.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { runConformance } from '@agentproto/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileKind, type HostilePeer, startHostilePeer } from '../support/hostile-peers.js';
import { BIN, runCollected } from '../support/run-cli.js';

const peers = new Map<HostileKind, HostilePeer>();

beforeAll(async () => {
  for (const kind of ['endless-sse', 'drip', 'silent'] as const)
    peers.set(kind, await startHostilePeer(kind));
});

afterAll(async () => {
  for (const peer of peers.values()) await peer.close();
});

const urlOf = (kind: HostileKind) => peers.get(kind)?.url ?? '';

/** Runs the command in its own process, as a CI job does: it must end by itself. */
async function runProcess(args: string[]): Promise<{ code: number; output: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true' },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d;
  });
  const [code] = await once(child, 'exit');
  return { code: code as number, output };
}

describe('34 > conformance finishes against agents that never do', () => {
  it('never sends headers > unreachable, and the process exits', async () => {
    const got = await runProcess([
      'conformance',
      urlOf('silent'),
      '--protocol',
      'agentscope@1.1',
      '--timeout',
      '200',
    ]);
    expect(got.code).toBe(2);
    expect(got.output).toMatch(/is unreachable: GET \/: no answer within 200 ms/);
  });

  it('an endless stream > the check is cut at its deadline, and says so', async () => {
    const report = await runConformance({
      protocol: 'agentscope@1.1',
      target: urlOf('endless-sse'),
      timeoutMs: 200,
      checkDeadlineMs: 300,
    });
    const stream = report.checks.find((c) => c.id === 'as.process.stream');
    expect(stream).toMatchObject({ status: 'fail', message: "cut: the check's deadline of 300 ms passed" });
  });

  it('one byte at a time > the run is cut at its deadline: the check running and those after it', async () => {
    const report = await runConformance({
      protocol: 'agentscope@1.1',
      target: urlOf('drip'),
      timeoutMs: 200,
      deadlineMs: 1000,
    });
    const cut = report.checks.filter((c) =>
      c.message.startsWith("cut: the run's deadline of 1000 ms passed"),
    );
    expect(cut.map((c) => c.id)).toContain('as.process.stream');
    expect(report.checks.find((c) => c.id === 'as.process.stream')?.status).toBe('fail');
  });

  it('the command > --deadline cuts the run, the report says what was cut, and the process exits', async () => {
    const got = await runProcess([
      'conformance',
      urlOf('endless-sse'),
      '--protocol',
      'agentscope@1.1',
      '--timeout',
      '200',
      '--deadline',
      '1000',
    ]);
    expect(got.code).toBe(1);
    expect(got.output).toMatch(
      /FAIL {2}MUST {3}as\.process\.stream: cut: the run's deadline of 1000 ms passed/,
    );
  });

  it.each([
    ['--deadline', '0'],
    ['--check-deadline', 'soon'],
  ])('the command > %s %s is a usage error', async (option, value) => {
    const got = await runCollected([
      'conformance',
      urlOf('silent'),
      '--protocol',
      'agentscope@1.1',
      option,
      value,
    ]);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(`${option} must be a positive number of milliseconds`);
  });
});
