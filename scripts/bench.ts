// `pnpm bench [section...]`: measures validators, servers, streams, the CLI's start-up and the generator, each as a ratio to a baseline
// measured in the same run (or, for the generator and the conformance suites, as a time against a budget), and writes
// BENCHMARKS.md. Tests never assert timings; this does not run in CI.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createReferenceAgent as apAgent } from '@agentproto/agent-protocol/reference-agent';
import { createReferenceServer } from '@agentproto/agent-protocol-2025/reference-agent';
import { createReferenceAgent as scopeAgent } from '@agentproto/agentscope/reference-agent';
import { runConformance } from '@agentproto/conformance';
import { createReferenceAgent as fixieAgent } from '@agentproto/fixie/reference-agent';
import { serveLocal } from '@agentproto/runtime';
import { copyRepository } from '../test/support/copy-repository.js';
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
  // Warm: the cache holds every part of this tree's output (one run first fills it), as it does for a developer
  // between edits. Cold: `--no-cache`, the whole pipeline, as in a fresh clone or after a change to the generator.
  execFileSync('pnpm', ['generate'], { cwd: ROOT, stdio: 'pipe' });
  const runs: Array<{ args: string[]; what: string; budget?: number }> = [
    { args: ['generate'], what: 'warm (nothing changed since the last run)', budget: 5 },
    { args: ['generate', '--check'], what: 'warm (nothing changed since the last run)', budget: 3 },
    { args: ['generate', '--no-cache'], what: 'cold (the whole pipeline)' },
    { args: ['generate', '--check', '--no-cache'], what: 'cold (the whole pipeline)' },
  ];
  const rows = runs.map(({ args, what, budget }): Row => {
    const s = seconds(args);
    return {
      measure: `pnpm ${args.join(' ')}, all protocols, ${what}`,
      result: `${s.median.toFixed(2)} s (${s.min.toFixed(2)}–${s.max.toFixed(2)})`,
      target: budget === undefined ? 'measured' : `≤ ${budget} s`,
      met: budget === undefined ? undefined : s.median <= budget,
      notes: 'wall time of the command, process start included',
    };
  });
  rows.push(...oneVersionChanged('a2a', '0.3'));
  return rows;
}

/** How each measured run edits the version's first schema file: `i` is the run's number, so each edit is new. */
const EDITS = {
  prose: {
    what: 'its prose (a description)',
    edit: (text: string, i: number) => text.replace('"description": "', `"description": "Edited (${i}). `),
    notes:
      'the message validators and the translation are made from the schemas without their prose: they come from the cache',
  },
  rules: {
    what: 'its rules (`maxProperties` at the root, new each run)',
    edit: (text: string, i: number) =>
      text.replace(/^\{\n/, `{\n  "type": "object",\n  "maxProperties": ${1000 + i},\n`),
    notes: 'the message validators and the translation are made again',
  },
} as const;

/**
 * `pnpm generate` after one version's schema changed, the developer's case: in a copy of the repository (its schemas
 * are the copy's to edit), with this tree's lockfile so its parts have this tree's keys (the copy shares the cache
 * folder), the first schema file of the version edited before each run, once for each kind of edit (EDITS). The run
 * renders that version again, and any translation from or to it; the other parts come from the cache. A2A 0.3 is the
 * slowest version to render and has a translation to 1.0: the worst single-version case.
 */
function oneVersionChanged(protocol: string, version: string): Row[] {
  const copy = copyRepository('agentproto-bench-generate-');
  try {
    cpSync(path.join(ROOT, 'pnpm-lock.yaml'), path.join(copy, 'pnpm-lock.yaml'));
    mkdirSync(path.join(copy, 'scripts'));
    for (const file of ['scripts/generate.ts', 'scripts/generate.mjs'])
      cpSync(path.join(ROOT, file), path.join(copy, file));
    execFileSync('pnpm', ['generate'], { cwd: copy, stdio: 'pipe' });
    const folder = path.join(copy, 'schemas', protocol, version);
    const name = readdirSync(folder)
      .filter((n) => n.endsWith('.schema.json'))
      .sort()[0];
    if (name === undefined) throw new Error(`no schema file in schemas/${protocol}/${version}`);
    const file = path.join(folder, name);
    const original = readFileSync(file, 'utf8');
    const rows = Object.values(EDITS).map(({ what, edit, notes }): Row => {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const edited = edit(original, i);
        if (edited === original) throw new Error(`${name}: the edit of ${what} found nothing to change`);
        writeFileSync(file, edited);
        const start = process.hrtime.bigint();
        execFileSync('pnpm', ['generate'], { cwd: copy, stdio: 'pipe' });
        times.push(Number(process.hrtime.bigint() - start) / 1e9);
      }
      const s = spread(times);
      return {
        measure: `pnpm generate, all protocols, one version's schema changed in ${what} (${protocol}@${version}'s ${name})`,
        result: `${s.median.toFixed(2)} s (${s.min.toFixed(2)}–${s.max.toFixed(2)})`,
        target: '≤ 5 s',
        met: s.median <= 5,
        notes: `wall time of the command, process start included; renders that version and its translation only, the version's type files in a second process; ${notes}`,
      };
    });
    writeFileSync(file, original);
    execFileSync('pnpm', ['generate'], { cwd: copy, stdio: 'pipe' });
    return [...rows, bundleMade(copy)];
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * `pnpm generate` once its bundle is made again (scripts/generate.mjs): the generator's entry gets a new comment before
 * each run, which changes the bundle's inputs and nothing the generator reads, so the run is a warm one plus the bundle.
 */
function bundleMade(copy: string): Row {
  const entry = path.join(copy, 'scripts/generate.ts');
  const original = readFileSync(entry, 'utf8');
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    writeFileSync(entry, `${original}// bench run ${i} (${process.pid})\n`);
    const start = process.hrtime.bigint();
    execFileSync('pnpm', ['generate'], { cwd: copy, stdio: 'pipe' });
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  const s = spread(times);
  return {
    measure:
      "pnpm generate, all protocols, warm, after a change to the generator's entry (its bundle made again)",
    result: `${s.median.toFixed(2)} s (${s.min.toFixed(2)}–${s.max.toFixed(2)})`,
    target: 'measured',
    met: undefined,
    notes:
      'wall time of the command, process start included; `pnpm generate` runs the generator as one bundled module (scripts/generate.mjs), made again with esbuild when a source it holds changes; a change to the generator itself also runs the whole pipeline (the cold rows)',
  };
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
