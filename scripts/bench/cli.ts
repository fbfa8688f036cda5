// CLI start-up, as users meet it: the installed CLI (packed with `pnpm pack-packages`, installed with npm in a
// temporary folder) against `node -e 0` measured in the same rounds, and `pnpm exec agentproto` inside the
// repository against an absolute budget (there the workspace's sources go through tsx).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { installPackages } from './installed.js';
import { spread } from './timing.js';
import type { Row } from './validators.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ROUNDS = 41;

/** Seconds one run of a command takes, process start to exit. */
function time(command: string, args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  try {
    execFileSync(command, args, { cwd, stdio: 'pipe' });
  } catch (error) {
    // validate of an invalid file exits 1 by design; anything else is a broken benchmark.
    const status =
      typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
    if (status !== 1) throw error;
  }
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export async function benchCli(): Promise<Row[]> {
  const { dir: work, bin: cli } = installPackages();
  const small = path.join(work, 'task.json');
  writeFileSync(small, '{"task_id":"t1","input":"hi","artifacts":[]}\n');
  const commands: Array<[string, string[]]> = [
    ['--help', ['--help']],
    ['--version', ['--version']],
    ['validate of one small file', ['validate', small, '--protocol', 'agent-protocol', '--type', 'Task']],
  ];
  // Each round runs the baseline and every command once, in a rotating order; a ratio is taken within its round.
  const ratios = commands.map((): number[] => []);
  const baselines: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = [-1, ...commands.keys()];
    const shift = round % order.length;
    const times = new Map<number, number>();
    for (const i of [...order.slice(shift), ...order.slice(0, shift)]) {
      const c = commands[i];
      times.set(i, c ? time(cli, c[1], work) : time(process.execPath, ['-e', '0'], work));
    }
    const base = times.get(-1) ?? 1;
    baselines.push(base);
    commands.forEach((_, i) => {
      ratios[i]?.push((times.get(i) ?? 0) / base);
    });
  }
  const b = spread(baselines);
  const rows: Row[] = commands.map(([name], i) => {
    const s = spread(ratios[i] ?? []);
    return {
      measure: `installed CLI, ${name}, vs node -e 0`,
      result: `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`,
      target: '≤ 2.5×',
      met: s.median <= 2.5,
      notes: `${ROUNDS} rounds; node -e 0 took ${(b.median * 1000).toFixed(0)} ms`,
    };
  });
  // What pnpm exec costs by itself, as the floor under the in-repository measures.
  const floor: number[] = [];
  for (let i = 0; i < 9; i++) floor.push(time('pnpm', ['exec', 'node', '-e', '0'], ROOT));
  const pnpmFloor = spread(floor).median;
  for (const [name, args] of commands) {
    const times: number[] = [];
    const inRepo = args.map((a) =>
      a === small ? path.join(ROOT, 'schemas/agent-protocol/v1/examples/Task/minimal.json') : a,
    );
    for (let i = 0; i < 9; i++) times.push(time('pnpm', ['exec', 'agentproto', ...inRepo], ROOT));
    const s = spread(times);
    rows.push({
      measure: `pnpm exec agentproto ${name}, in the repository`,
      result: `${s.median.toFixed(2)} s (${s.min.toFixed(2)}–${s.max.toFixed(2)})`,
      target: '≤ 1 s',
      met: s.median <= 1,
      notes: `9 runs; \`pnpm exec node -e 0\` alone took ${pnpmFloor.toFixed(2)} s here, and the workspace runs its TypeScript sources through tsx`,
    });
  }
  return rows;
}
