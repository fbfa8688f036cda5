// The start script's --agent and --version together: a version alone picks the agent that speaks it; a pair that does
// not meet is one line and exit code 2, as every bad command line of a start script.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./serve.ts', import.meta.url));

/** Runs the script until it prints its banner (then stops it) or exits; answers its exit code and output. */
function start(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, '--port', '0', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('listening on')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('agent-protocol > start script', () => {
  it('--version alone > the agent that speaks it', async () => {
    const got = await start(['--version', 'v1-awaiting-input']);
    expect(got.out).toMatch(/v1-awaiting-input reference agent \(cutting-board\) listening on/);
  }, 60_000);

  it('--agent and --version that do not meet > one line, exit 2', async () => {
    const got = await start(['--agent', 'reference', '--version', 'v1-awaiting-input']);
    expect(got.code).toBe(2);
    expect(got.err.trim()).toBe(
      'serve.ts: --agent reference does not speak v1-awaiting-input; the agents that do: cutting-board',
    );
  }, 60_000);
});
