// A2A turn cost as a task grows (issue #34): one input-required task answered turn after turn on the SQLite store,
// each answer a large message, and the time of the last turns as a ratio to the first ones measured in the same run.
// When every event rewrites the whole task, a turn costs the task's size and the ratio grows with the turns; when
// events are appended, it stays near 1. `pnpm bench task-growth`, or alone:
// `tsx scripts/bench/task-growth.ts [turns] [answer KiB, …] [rounds]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore } from '@agentproto/runtime';
import type { A2aAgent } from '../../packages/a2a/src/agent/agent.js';
import { TaskManager } from '../../packages/a2a/src/agent/task-manager.js';
import { validators } from '../../packages/a2a/src/generated/1.0/index.js';
import { spread } from './timing.js';
import type { Row } from './validators.js';

/** Asks for input on every turn, with a short question. */
const asking: A2aAgent = {
  card: {
    name: 'bench',
    description: 'asks again on every turn',
    version: '1',
    capabilities: { streaming: true },
    defaultInputModes: ['*/*'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  },
  async *run() {
    yield { state: 'TASK_STATE_INPUT_REQUIRED', text: 'and then?' };
  },
};

/** One task answered `turns` times with `answerBytes` of text each; the milliseconds of each turn, in order. */
export async function turnTimes(
  turns: number,
  answerBytes: number,
): Promise<{ ms: number[]; peakRss: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-bench-task-growth-'));
  const store = await openStore(`sqlite:${path.join(dir, 'tasks.db')}`);
  const manager = new TaskManager(asking, {
    store,
    instance: 'bench',
    limits: { maxHistoryBytes: 2 * turns * (answerBytes + 1024), maxHistoryMessages: 4 * turns + 10 },
  });
  const ms: number[] = [];
  let peakRss = process.memoryUsage().rss;
  try {
    let taskId: string | undefined;
    for (let turn = 0; turn < turns; turn++) {
      const text = `${turn} ${'x'.repeat(answerBytes)}`;
      const start = process.hrtime.bigint();
      const answer = await manager.send({
        message: {
          messageId: `m${turn}`,
          role: 'ROLE_USER',
          parts: [{ text }],
          ...(taskId ? { taskId } : {}),
        },
        configuration: { historyLength: 1 },
      });
      ms.push(Number(process.hrtime.bigint() - start) / 1e6);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      const task = 'task' in answer ? answer.task : undefined;
      if (!validators.Task(task)) throw new Error('the agent answered without a task');
      if (task.status.state !== 'TASK_STATE_INPUT_REQUIRED')
        throw new Error(`turn ${turn} ended ${task.status.state}`);
      taskId = task.id;
    }
    if (!taskId) throw new Error('no task');
    const history = (await manager.get(taskId)).history ?? [];
    if (history.length !== 2 * turns)
      throw new Error(`history has ${history.length} messages, not ${2 * turns}`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { ms, peakRss };
}

const fmt = (s: { median: number; min: number; max: number }, digits = 1) =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

/** Rows: for each answer size, the last ten turns' median time ÷ the first ten's, per round, over `rounds` rounds. */
export async function benchTaskGrowth(turns = 100, answerKiB = [64], rounds = 3): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kib of answerKiB) {
    const ratios: number[] = [];
    const firsts: number[] = [];
    const lasts: number[] = [];
    const maxes: number[] = [];
    const means: number[] = [];
    let peak = 0;
    for (let round = 0; round < rounds; round++) {
      const { ms, peakRss } = await turnTimes(turns, kib * 1024);
      const first = spread(ms.slice(0, 10)).median;
      const last = spread(ms.slice(-10)).median;
      firsts.push(first);
      lasts.push(last);
      ratios.push(last / first);
      maxes.push(Math.max(...ms));
      means.push(ms.reduce((a, b) => a + b, 0) / ms.length);
      peak = Math.max(peak, peakRss);
      console.error(
        `task-growth: ${kib} KiB × ${turns}: first ten ${first.toFixed(1)} ms, last ten ${last.toFixed(1)} ms, ` +
          `mean ${means.at(-1)?.toFixed(1)} ms, slowest ${maxes.at(-1)?.toFixed(1)} ms`,
      );
    }
    rows.push({
      measure: `A2A turn on one input-required task (SQLite), answers of ${kib} KiB: turns ${turns - 9}–${turns} ÷ turns 1–10`,
      result: `${fmt(spread(ratios), 2)}×`,
      target: '≤ 2×',
      met: spread(ratios).median <= 2,
      notes:
        `${rounds} rounds; turns 1–10 ${fmt(spread(firsts))} ms, turns ${turns - 9}–${turns} ${fmt(spread(lasts))} ms, ` +
        `mean turn ${fmt(spread(means))} ms, slowest turn ${fmt(spread(maxes))} ms; peak RSS ${(peak / 1024 ** 2).toFixed(0)} MB`,
    });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const turns = Number(process.argv[2] ?? 100);
  const kib = (process.argv[3] ?? '64').split(',').map(Number);
  const rounds = Number(process.argv[4] ?? 3);
  for (const row of await benchTaskGrowth(turns, kib, rounds)) console.log(JSON.stringify(row));
}
