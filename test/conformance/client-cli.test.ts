// `agentproto conformance --client`: the options that do not go with it are usage errors (exit 2) saying why, and a
// run's exit code is 1 when a MUST client check fails (a client in a process: see
// test/official-suites/client-conformance.test.ts). `--coverage` shows the client requirements: alone (`--client`
// with no command) or after a run, with each requirement's result.
import { describe, expect, it } from 'vitest';
import { runCollected } from '../support/run-cli.js';

describe('conformance --client > usage', () => {
  it.each([
    ['a base URL', ['http://127.0.0.1:1', '--client', 'x'], /give no base URL/],
    ['--fuzz', ['--client', 'x', '--fuzz', '5'], /--client does not take --fuzz/],
    [
      '--scenario without --client',
      ['http://127.0.0.1:1', '--scenario', 'send-message'],
      /--scenario goes with --client/,
    ],
    ['an empty command', ['--client', ' '], /give the client command to run/],
    [
      'a scenario the version lacks',
      ['--client', 'x', '--protocol', 'agent-protocol@v1', '--scenario', 'nope'],
      /has no client scenario "nope"; known: run-task/,
    ],
  ])('%s > exit 2', async (_name, args, message) => {
    const { code, err } = await runCollected([
      'conformance',
      ...(args.includes('--protocol') ? [] : ['--protocol', 'a2a@1.0']),
      ...args,
    ]);
    expect(err).toMatch(message);
    expect(code).toBe(2);
  });
});

describe('conformance --client > coverage', () => {
  it('--client --coverage with no command > the client requirements and the checks that cover them, nothing run', async () => {
    const { code, out } = await runCollected([
      'conformance',
      '--protocol',
      'agent-protocol@v1',
      '--client',
      '--coverage',
    ]);
    expect(out).toMatch(/^agent-protocol@v1 \(client\)\n/);
    expect(out).toMatch(/MUST +client\.run-task +ap\.client\.scenario\.run-task/);
    expect(out).toMatch(/MUST +client\.requests +ap\.client\.requests/);
    expect(out).toMatch(/requirements: (\d+), covered by checks \1, excluded 0/);
    expect(code).toBe(0);
  });

  it('--client --coverage --reporter json with no command > the rows as JSON', async () => {
    const { code, out } = await runCollected([
      'conformance',
      '--protocol',
      'a2a@1.0',
      '--client',
      '--coverage',
      '--reporter',
      'json',
    ]);
    const rows: Array<{ id: string; checks: string[] }> = JSON.parse(out).coverage;
    expect(rows.find((r) => r.id === 'client.header.a2a-version')?.checks).toEqual([
      'a2a.client.header.a2a-version',
    ]);
    expect(code).toBe(0);
  });

  it('--client with no command and no --coverage > exit 2 saying what to give', async () => {
    const { code, err } = await runCollected(['conformance', '--protocol', 'a2a@1.0', '--client']);
    expect(err).toMatch(/give the client command to run .*or --coverage to list the client requirements/);
    expect(code).toBe(2);
  });

  // `true` sends nothing and exits 0: every check fails, and the coverage table says so per requirement.
  it('--client <command> --coverage > the table follows the checks, each requirement with its result', async () => {
    const { code, out } = await runCollected([
      'conformance',
      '--protocol',
      'agent-protocol@v1',
      '--client',
      'true',
      '--coverage',
    ]);
    const lines = out.split('\n');
    const table = lines.findIndex((l) => /^MUST +client\.requests +FAIL +ap\.client\.requests$/.test(l));
    expect(table).toBeGreaterThan(lines.findIndex((l) => l.startsWith('FAIL  MUST   ap.client.requests')));
    expect(out).toMatch(/MUST +client\.errors +FAIL +ap\.client\.scenario\.error-answer/);
    expect(lines.at(-1)).toMatch(/: 0 passed, \d+ failed/);
    expect(code).toBe(1);
  });

  it('--client <command> --coverage --reporter json > the report carries coverage', async () => {
    const { code, out } = await runCollected([
      'conformance',
      '--protocol',
      'agent-protocol@v1',
      '--client',
      'true',
      '--coverage',
      '--reporter',
      'json',
      '--scenario',
      'run-task',
    ]);
    const report = JSON.parse(out);
    const row = (id: string) => report.coverage.find((r: { id: string }) => r.id === id);
    expect(row('client.run-task')).toMatchObject({ result: 'fail', checks: ['ap.client.scenario.run-task'] });
    // Only run-task ran: the requirements of the other scenarios were not run.
    expect(row('client.errors')).toMatchObject({ result: 'not run' });
    expect(code).toBe(1);
  });
});
