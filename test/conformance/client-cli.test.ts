// `agentproto conformance --client`: the options that do not go with it are usage errors (exit 2) saying why, and a
// run's exit code is 1 when a MUST client check fails (a client in a process: see
// test/official-suites/client-conformance.test.ts).
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
