// Issue 12: inputs that crashed or stalled `agentproto validate`. Before the fixes: a large JSON document died of heap
// exhaustion (it was parsed into a syntax tree), valid JSON nested 3,000 deep was "not JSON: Maximum call stack size
// exceeded", one long NDJSON line took quadratic time, a symlink loop crashed the folder walk, a FIFO in a folder hung
// it, one untyped file stopped the run, and control characters reached the terminal raw.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCapped, runCollected } from '../support/run-cli.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-12-'));
const run = runCollected;

const task = (i: number, extra = '') => `{"task_id":"t${i}","artifacts":[]${extra}}`;

describe('12 > validate, large and deep documents', () => {
  it('json > a 60 MB document of small values checks in a 700 MB heap, errors located by line', async () => {
    // Small values are what make a syntax tree heavy: one node of a few hundred bytes per two-byte number.
    const file = path.join(tmp, 'big.json');
    const numbers = Array.from({ length: 2000 }, (_, i) => i % 10).join(',');
    const items = Array.from({ length: 15_000 }, (_, i) =>
      task(i, `,"input":${i === 14_000 ? 5 : '"x"'},"additional_input":{"n":[${numbers}]}`),
    );
    writeFileSync(
      file,
      `{"tasks":[\n${items.join(',\n')}\n],"pagination":{"total_items":1,"total_pages":1,"current_page":1,"page_size":1}}\n`,
    );
    const got = await runCapped(
      ['validate', file, '--protocol', 'agent-protocol', '--type', 'TaskListResponse'],
      700,
    );
    expect(got.output).toMatch(/big\.json:14002: \/tasks\/14000\/input: must be string or null/);
    expect(got.code).toBe(1);
  }, 120_000);

  it('json > a document too large for the heap exits 2 saying so, before reading it', async () => {
    const file = path.join(tmp, 'too-big.json');
    writeFileSync(file, `[${'"x",'.repeat(5_000_000)}"x"]`);
    const got = await runCapped(['validate', file, '--protocol', 'agent-protocol', '--type', 'Task'], 64);
    expect(got.code).toBe(2);
    expect(got.output).toMatch(/more than this process can check as one document/);
    expect(got.output).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('json > valid JSON nested 5,000 deep is valid, not "call stack"', async () => {
    const file = path.join(tmp, 'deep.json');
    writeFileSync(file, task(1, `,"additional_input":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`));
    const got = await run(['validate', file, '--protocol', 'agent-protocol', '--type', 'Task']);
    expect(got.err).toBe('');
    expect(got.code).toBe(0);
  });

  it('json > a syntax error nested 5,000 deep is located, not a crash', async () => {
    const file = path.join(tmp, 'deep-broken.json');
    writeFileSync(file, `${'['.repeat(5000)}1,,${']'.repeat(5000)}`);
    const got = await run(['validate', file, '--protocol', 'agent-protocol', '--type', 'Task']);
    expect(got.code).toBe(1);
    expect(got.out).toMatch(/deep-broken\.json(:1:\d+)?: \(root\): not JSON/);
    expect(got.out).not.toMatch(/call stack/);
  });
});

describe('12 > validate, long lines', () => {
  it('ndjson > one 30 MB line is one item, checked', async () => {
    const file = path.join(tmp, 'long.ndjson');
    writeFileSync(
      file,
      `${task(1)}\n${task(2, `,"input":"${'y'.repeat(30_000_000)}"`)}\n${task(3, ',"input":5')}\n`,
    );
    const got = await run(['validate', file, '--protocol', 'agent-protocol', '--type', 'Task']);
    expect(got.code).toBe(1);
    expect(got.out).toMatch(/long\.ndjson:3: event 3: \/input: must be string or null/);
  });

  it('ndjson > a 200 MB line is reported as too long to keep, not read for hours', async () => {
    const file = path.join(tmp, 'huge-line.ndjson');
    writeFileSync(file, `${task(1)}\n"${'z'.repeat(200_000_000)}"\n${task(3)}\n`);
    const got = await run(['validate', file, '--protocol', 'agent-protocol', '--type', 'Task']);
    expect(got.code).toBe(1);
    expect(got.out).toMatch(
      /huge-line\.ndjson:2: event 2: \(event\): an item of 200000002 characters is longer/,
    );
    expect(got.out).toMatch(/1 of 3 items invalid in 1 file/);
  }, 60_000);

  it('ndjson > a lone CR is JSON whitespace inside a line, not a line end', async () => {
    const file = path.join(tmp, 'cr.ndjson');
    writeFileSync(file, `{"task_id":"t1",\r"artifacts":[]}\n${task(2)}\n`);
    const got = await run(['validate', file, '--protocol', 'agent-protocol', '--type', 'Task']);
    expect(got.err).toBe('');
    expect(got.code).toBe(0);
  });
});

describe('12 > validate, folders with odd entries', () => {
  const folder = path.join(tmp, 'odd');
  mkdirSync(path.join(folder, 'Task'), { recursive: true });
  writeFileSync(path.join(folder, 'Task', 'ok.json'), task(1));
  writeFileSync(path.join(folder, 'Task', 'bad.json'), task(2, ',"input":5'));
  writeFileSync(path.join(folder, 'untyped.json'), task(3));
  symlinkSync('loop.json', path.join(folder, 'loop.json'));
  symlinkSync('..', path.join(folder, 'Task', 'up'));
  const fifo = spawnSync('mkfifo', [path.join(folder, 'pipe.ndjson')]);
  const control = path.join(folder, 'Task', 'esc\u001b[31m.json');
  writeFileSync(control, '{"task_id":"\u001b[2J","artifacts":[], "input": 1}');

  it('walk > every problem is its input’s issue; the rest are still checked', async () => {
    expect(fifo.status).toBe(0);
    const got = await run(['validate', folder, '--protocol', 'agent-protocol']);
    expect(got.code).toBe(1);
    expect(got.out).toMatch(/loop\.json: \(root\): cannot read: ELOOP/);
    expect(got.out).toMatch(/pipe\.ndjson: \(root\): not a regular file/);
    expect(got.out).toMatch(/untyped\.json: \(root\): cannot tell the type/);
    expect(got.out).toMatch(/bad\.json:1: \/input: must be string or null \(Task\)/);
    expect(got.out).toMatch(/1 valid, 5 invalid/);
  });

  it('terminal > control characters in names and messages are escaped', async () => {
    const got = await run(['validate', control, '--protocol', 'agent-protocol']);
    expect(got.code).toBe(1);
    expect(got.out).toContain('esc\\u001b[31m.json');
    expect(got.out).not.toContain('\u001b');
  });
});
