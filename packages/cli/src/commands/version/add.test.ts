import { describe, expect, it } from 'vitest';
import { runCli } from '../../index.js';

// What `version add` refuses, before it writes anything (the copy it makes is tested in test/registry/version-add).
describe('cli > version add > refusals', () => {
  const cases: Array<[string, { given: string[]; want: RegExp }]> = [
    ['unknown protocol', { given: ['nope', '2', '--from', '1'], want: /no protocol "nope"/ }],
    [
      'unknown version to copy',
      { given: ['fixie', '2.0', '--from', '9'], want: /protocol fixie has no version "9"; known: 1\.0/ },
    ],
    [
      'a version that exists',
      { given: ['agentscope', '0.1', '--from', '1.1'], want: /already has a version "0\.1"/ },
    ],
    [
      'a name that is no folder name',
      { given: ['fixie', '../x', '--from', '1.0'], want: /"\.\.\/x" is not a version name/ },
    ],
  ];
  it.each(cases)('%s > 2', async (_name, { given, want }) => {
    const err: string[] = [];
    const code = await runCli(['version', 'add', ...given], {
      out: () => {},
      err: (l) => err.push(l),
      stdin: async function* () {},
    });
    expect(err.join('\n')).toMatch(want);
    expect(code).toBe(2);
  });
});
