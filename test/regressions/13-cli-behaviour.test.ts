// Issue 13: what a CI user relies on from `agentproto validate` and the command itself: a run that checks nothing is
// not a pass, a file that is not JSON says so, a mistyped type gets a suggestion, `--version` answers, and a reader
// that closes the pipe early (`| head`) ends the command quietly.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCollected as run } from '../support/run-cli.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-13-'));

describe('13 > validate tells a CI user the truth', () => {
  it.each([
    [
      'an empty folder',
      () => mkdirSync(path.join(tmp, 'empty'), { recursive: true }) ?? path.join(tmp, 'empty'),
    ],
    [
      'a folder with no JSON',
      () => {
        mkdirSync(path.join(tmp, 'text'), { recursive: true });
        writeFileSync(path.join(tmp, 'text', 'notes.txt'), 'hello');
        return path.join(tmp, 'text');
      },
    ],
  ])('nothing to check > %s exits 2 saying so', async (_, make) => {
    const got = await run(['validate', make(), '--protocol', 'agent-protocol']);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(/nothing to check/);
  });

  it('not JSON > a broken file without --type is invalid with "not JSON", not a usage error', async () => {
    const file = path.join(tmp, 'broken.json');
    writeFileSync(file, '{"task_id": ');
    const got = await run(['validate', file, '--protocol', 'agent-protocol']);
    expect(got.code).toBe(1);
    expect(got.out).toMatch(/broken\.json:1:\d+: \(root\): not JSON/);
  });

  it('--type > a mistyped type gets a suggestion', async () => {
    const got = await run(['validate', tmp, '--protocol', 'agent-protocol', '--type', 'tsak']);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(/did you mean Task\?/);
  });

  it('--version > prints the version', async () => {
    const got = await run(['--version']);
    expect(got.code).toBe(0);
    expect(got.out).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('pipe > a reader that leaves after one line ends the command without a stack trace', async () => {
    const folder = path.join(tmp, 'many', 'Task');
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 3000; i++)
      writeFileSync(path.join(folder, `t${i}.json`), '{"task_id": 1, "artifacts": []}');
    const args = ['validate', path.dirname(folder), '--protocol', 'agent-protocol', '--reporter', 'json'];
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    // Like `| head -c 100`: read the first chunk of the report, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = await once(child, 'exit');
    expect(stderr).not.toMatch(/\n\s+at |EPIPE/);
    expect(code).toBe(1);
  }, 60_000);
});
