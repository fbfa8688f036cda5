// `pnpm bench [section...]`: measures validators, servers, streams, the CLI's start-up and the generator, each as a ratio to a baseline
// measured in the same run (or, for the generator and the conformance suites, as a time against a budget), and writes
// BENCHMARKS.md. Tests never assert timings; this does not run in CI.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createReferenceAgent as apAgent } from '@agentproto/agent-protocol/reference-agent';
import { createReferenceServer } from '@agentproto/agent-protocol-2025/reference-agent';
import { createReferenceAgent as scopeAgent } from '@agentproto/agentscope/reference-agent';
import { runConformance } from '@agentproto/conformance';
import { createReferenceAgent as fixieAgent } from '@agentproto/fixie/reference-agent';
import { serveLocal } from '@agentproto/runtime';
import { benchA2a } from './bench/a2a.js';
import { benchCli } from './bench/cli.js';
import { benchHttp } from './bench/http.js';
import { benchMcp } from './bench/mcp.js';
import { benchNdjson } from './bench/ndjson.js';
import { benchProxy } from './bench/proxy.js';
import { benchSoak } from './bench/soak.js';
import { benchStores } from './bench/stores.js';
import { benchTaskGrowth } from './bench/task-growth.js';
import { formatSteal, spread, stealMeter } from './bench/timing.js';
import { benchValidators, type Row } from './bench/validators.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
// Measured over the whole run: how much CPU time the host took away from this machine.
const steal = stealMeter();
const want = (name: string) => only.length === 0 || only.includes(name);

/** Seconds a command takes, median of three runs (each a fresh process). */
function seconds(args: string[]): ReturnType<typeof spread> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    execFileSync('pnpm', args, { cwd: ROOT, stdio: 'pipe' });
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  return spread(times);
}

async function benchGenerator(): Promise<Row[]> {
  // Warm: the run cache holds this tree's output (one run first fills it), as it does for a developer between edits.
  // Cold: `--no-cache`, the whole pipeline, as after any change to the schemas or the generator (and in a fresh clone).
  execFileSync('pnpm', ['generate'], { cwd: ROOT, stdio: 'pipe' });
  const runs: Array<{ args: string[]; what: string; budget?: number }> = [
    { args: ['generate'], what: 'warm (nothing changed since the last run)', budget: 5 },
    { args: ['generate', '--check'], what: 'warm (nothing changed since the last run)', budget: 3 },
    { args: ['generate', '--no-cache'], what: 'cold (the whole pipeline)' },
    { args: ['generate', '--check', '--no-cache'], what: 'cold (the whole pipeline)' },
  ];
  return runs.map(({ args, what, budget }) => {
    const s = seconds(args);
    return {
      measure: `pnpm ${args.join(' ')}, all protocols, ${what}`,
      result: `${s.median.toFixed(2)} s (${s.min.toFixed(2)}–${s.max.toFixed(2)})`,
      target: budget === undefined ? 'measured' : `≤ ${budget} s`,
      met: budget === undefined ? undefined : s.median <= budget,
      notes: 'wall time of the command, process start included',
    };
  });
}

async function benchConformance(): Promise<Row[]> {
  const rows: Row[] = [];
  const agents = [
    ['agent-protocol', apAgent()],
    ['agentscope@1.1', scopeAgent('1.1')],
    ['fixie', fixieAgent()],
    ['agent-protocol-2025', createReferenceServer()],
  ] as const;
  for (const [protocol, app] of agents) {
    const { server, url } = await serveLocal(app.fetch, 0);
    try {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const start = process.hrtime.bigint();
        const report = await runConformance({ protocol, target: url });
        times.push(Number(process.hrtime.bigint() - start) / 1e9);
        if (report.summary.failed > 0) throw new Error(`${protocol}: the reference agent failed conformance`);
      }
      const s = spread(times);
      rows.push({
        measure: `conformance suite, ${protocol}, against its reference agent over HTTP`,
        result: `${s.median.toFixed(2)} s (${s.min.toFixed(2)}–${s.max.toFixed(2)})`,
        target: '≤ 10 s',
        met: s.median <= 10,
      });
    } finally {
      server.close();
    }
  }
  return rows;
}

const rows: Row[] = [];
const sections: Array<[string, () => Promise<Row[]>]> = [
  ['validators', benchValidators],
  ['http', benchHttp],
  ['a2a', benchA2a],
  ['mcp', benchMcp],
  ['ndjson', benchNdjson],
  ['proxy', benchProxy],
  ['generator', benchGenerator],
  ['cli', benchCli],
  ['conformance', benchConformance],
  ['soak', benchSoak],
  ['stores', benchStores],
  ['task-growth', () => benchTaskGrowth()],
];
for (const [name, fn] of sections) {
  if (!want(name)) continue;
  console.error(`bench: ${name}…`);
  rows.push(...(await fn()));
}

const stolen = steal();
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const machine = `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
const mark = (met: boolean | undefined) => (met === undefined ? '' : met ? 'met' : 'missed');
const cell = (t: string) => t.replaceAll('|', '\\|');
const line = (r: Row) =>
  `| ${cell(r.measure)} | ${cell(r.result)} | ${cell(r.target)} | ${mark(r.met)} | ${cell(r.notes ?? '')} |`;
// A run of some sections replaces its own rows (matched by measure) in the committed file and keeps the others, so
// measuring one section never drops the rest of the table.
const lines = rows.map(line);
if (only.length > 0) {
  const fresh = new Map(rows.map((r) => [r.measure, line(r)]));
  const kept: string[] = [];
  let previous = '';
  try {
    previous = readFileSync(path.join(ROOT, 'BENCHMARKS.md'), 'utf8');
  } catch {}
  for (const row of previous
    .split('\n')
    .filter((l) => l.startsWith('| '))
    .slice(1)) {
    const measure = row.slice(2, row.indexOf(' | ')).trim().replaceAll('\\|', '|');
    if (measure === 'measure' || /^-+$/.test(measure)) continue;
    const renewed = fresh.get(measure);
    if (renewed !== undefined) {
      kept.push(renewed);
      fresh.delete(measure);
    } else kept.push(row);
  }
  lines.splice(0, lines.length, ...kept, ...fresh.values());
}
const table = [
  '| measure | result (median, min–max) | target | | notes |',
  '| --- | --- | --- | --- | --- |',
  ...lines,
].join('\n');
const text = `# Benchmarks

Written by \`pnpm bench\`${only.length > 0 ? ` (this update measured: ${only.join(', ')}; the other rows are from earlier runs on this machine)` : ''}. Every ratio is measured side by side with its baseline in the same
run, as the median of repeated rounds with the smallest and largest round beside it; only ratios mean anything on a
shared machine. Load comes from autocannon in a second process on 127.0.0.1.

Machine: ${machine}. During this run: ${formatSteal(stolen)}.

${table}
`;
writeFileSync(path.join(ROOT, 'BENCHMARKS.md'), text);
// The file is committed: it gets the repository's formatting, so the lint stays green.
execFileSync('pnpm', ['exec', 'biome', 'format', '--write', 'BENCHMARKS.md'], { cwd: ROOT, stdio: 'pipe' });
console.log(text);
