import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { runCli } from '@agentproto/cli';
import { ROOT } from './spec-files.js';

/** The agentproto command's entry script, as a user's shell runs it. */
export const BIN = path.join(ROOT, 'packages/cli/bin/agentproto.js');

/** Runs the command in this process with no standard input; collects its exit code and what it printed. */
export async function runCollected(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stdin: async function* () {},
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Runs the command in its own process with its heap capped; resolves with its exit code and everything it printed. */
export async function runCapped(args: string[], heapMb: number): Promise<{ code: number; output: string }> {
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true' },
  });
  let output = '';
  const collect = (d: Buffer) => {
    output += d;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const [code] = await once(child, 'exit');
  return { code: typeof code === 'number' ? code : -1, output };
}
