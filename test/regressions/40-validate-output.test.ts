// Issue 40: `validate` output a reader skims. Each issue ends with the offending value, as JSON cut to one line
// (`… /role: must be one of "ROLE_USER", "ROLE_AGENT" (Message) (got "robot")`), and a stream is counted by its
// items (`3 of 40 items invalid in 1 file`), not as one file.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCollected as run } from '../support/run-cli.js';
import { ROOT } from '../support/spec-files.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-40-validate-'));

function file(name: string, text: string): string {
  const at = path.join(tmp, name);
  writeFileSync(at, text);
  return at;
}

/** An Agent Protocol task: valid, or with `task_id` set to what `id` holds. */
const task = (id: unknown) => JSON.stringify({ task_id: id, artifacts: [] });

/** 40 tasks, one a line; items 7, 20 and 33 have a number for an id. */
const tasks = file(
  'tasks.ndjson',
  `${Array.from({ length: 40 }, (_, i) => task([7, 20, 33].includes(i + 1) ? i + 1 : `t${i + 1}`)).join('\n')}\n`,
);

describe('40 > validate shows the offending value', () => {
  it('a counterexample > the value after the message, as JSON', async () => {
    const counterexample = path.join(
      ROOT,
      'schemas/a2a/1.0/counterexamples/AgentCapabilities/streaming-string.json',
    );
    const got = await run(['validate', counterexample, '--protocol', 'a2a@1.0']);
    expect(got.code).toBe(1);
    expect(got.out).toMatch(
      /streaming-string\.json:2: \/streaming: must be boolean \(AgentCapabilities\) \(got "yes"\)$/m,
    );
  });

  it('an enum > the value it is not one of', async () => {
    const message = file('message.json', '{"messageId":"a1","role":"robot","parts":[{"text":"hi"}]}');
    const got = await run(['validate', message, '--protocol', 'a2a@1.0', '--type', 'Message']);
    expect(got.out).toContain('/role: must be one of "ROLE_USER", "ROLE_AGENT" (Message) (got "robot")');
  });

  it('a missing property > no value to show', async () => {
    const got = await run([
      'validate',
      file('no-id.json', '{"artifacts":[]}'),
      '--protocol',
      'agent-protocol',
      '--type',
      'Task',
    ]);
    expect(got.out).toMatch(/\/task_id: is required but missing \(Task\)$/m);
  });

  it('a long or multi-line value > cut to one line of 60 characters, with an ellipsis', async () => {
    const long = file('long.json', task({ note: `${'x'.repeat(200)}\n${'y'.repeat(100)}`, more: [1, 2, 3] }));
    const got = await run(['validate', long, '--protocol', 'agent-protocol', '--type', 'Task']);
    const shown = /\/task_id: must be string \(Task\) \(got (.*)\)$/m.exec(got.out)?.[1] ?? '';
    expect(shown).toHaveLength(60);
    expect(shown).toBe(`{"note":"${'x'.repeat(50)}…`);
    expect(got.out.split('\n')).toHaveLength(2);
  });

  it('in a stream > the value inside the item; the json report carries it too', async () => {
    const text = await run(['validate', tasks, '--protocol', 'agent-protocol', '--type', 'Task']);
    expect(text.out).toMatch(/tasks\.ndjson:20: event 20: \/task_id: must be string \(Task\) \(got 20\)$/m);
    const json = JSON.parse(
      (await run(['validate', tasks, '--protocol', 'agent-protocol', '--type', 'Task', '--reporter', 'json']))
        .out,
    );
    expect(json.results[0].issues[0]).toMatchObject({ event: 7, pointer: '/task_id', got: '7' });
  });
});

describe('40 > validate counts a stream by its items', () => {
  it('ndjson > "3 of 40 items invalid in 1 file"', async () => {
    const got = await run(['validate', tasks, '--protocol', 'agent-protocol', '--type', 'Task']);
    expect(got.code).toBe(1);
    expect(got.out.split('\n').at(-1)).toBe('3 of 40 items invalid in 1 file (agent-protocol@v1)');
  });

  it('--workers > the same count from the threads', async () => {
    const got = await run([
      'validate',
      tasks,
      '--protocol',
      'agent-protocol',
      '--type',
      'Task',
      '--workers',
      '2',
    ]);
    expect(got.out.split('\n').at(-1)).toBe('3 of 40 items invalid in 1 file (agent-protocol@v1)');
  });

  it('json > the summary and each stream count items', async () => {
    const got = await run([
      'validate',
      tasks,
      '--protocol',
      'agent-protocol',
      '--type',
      'Task',
      '--reporter',
      'json',
    ]);
    const report = JSON.parse(got.out);
    expect(report.summary).toEqual({ files: 1, valid: 0, invalid: 1, items: 40, invalidItems: 3 });
    expect(report.results[0]).toMatchObject({ items: 40, invalidItems: 3 });
  });

  it('documents and streams together > each counted its own way', async () => {
    const one = file('Task.json', task('t1'));
    const got = await run(['validate', one, tasks, '--protocol', 'agent-protocol', '--type', 'Task']);
    expect(got.out.split('\n').at(-1)).toBe(
      '1 valid, 0 invalid document; 3 of 40 items invalid in 1 stream (agent-protocol@v1)',
    );
  });

  it('a rule of the whole stream > the stream counted as invalid as a whole', async () => {
    const capture = readFileSync(
      path.join(ROOT, 'schemas/agentscope/1.1/streams/upstream-shape.sse'),
      'utf8',
    );
    // The first event alone: a response that is created and never ends.
    const cut = file('cut.sse', `${capture.split('\n\n')[0]}\n\n`);
    const got = await run(['validate', cut, '--protocol', 'agentscope@1.1']);
    expect(got.code).toBe(1);
    expect(got.out).toMatch(/the stream ended without a terminal response/);
    expect(got.out.split('\n').at(-1)).toBe(
      '0 of 1 item invalid in 1 file; 1 file invalid as a whole (agentscope@1.1)',
    );
  });

  it('an SSE capture cut inside its last event > that event named by line, an invalid item', async () => {
    const capture = readFileSync(
      path.join(ROOT, 'schemas/agentscope/1.1/streams/upstream-shape.sse'),
      'utf8',
    );
    const events = capture.split('\n\n').filter((e) => e.trim() !== '');
    // Every event but the last whole; the last one's data cut halfway, with no blank line after it.
    const last = events.at(-1) ?? '';
    const whole = `${events.slice(0, -1).join('\n\n')}\n\n`;
    const cut = file('cut-inside.sse', `${whole}${last.slice(0, Math.ceil(last.length / 2))}`);
    const got = await run(['validate', cut, '--protocol', 'agentscope@1.1']);
    expect(got.code).toBe(1);
    const line = whole.split('\n').length;
    expect(got.out).toContain(
      `cut-inside.sse:${line}: event ${events.length}: (event): the stream ends inside this event`,
    );
    // The same capture with its blank line back is whole again.
    const back = await run([
      'validate',
      file('whole.sse', `${whole}${last}\n\n`),
      '--protocol',
      'agentscope@1.1',
    ]);
    expect(back.out).not.toContain('the stream ends inside this event');
  });

  it('documents alone > counted by file, as before', async () => {
    const got = await run([
      'validate',
      file('bad.json', task(5)),
      '--protocol',
      'agent-protocol',
      '--type',
      'Task',
    ]);
    expect(got.out.split('\n').at(-1)).toBe('0 valid, 1 invalid (agent-protocol@v1)');
  });
});

describe('40 > a document that is not what it was taken for says what it is', () => {
  const a2aTask = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } };

  it('an empty file, and UTF-16 text, each one line saying so', async () => {
    const empty = await run(['validate', file('empty.json', '\n'), '--protocol', 'a2a', '--type', 'Task']);
    expect(empty.code).toBe(1);
    expect(empty.out).toMatch(/empty\.json:1: \(root\): the file is empty: one JSON document was expected$/m);
    const utf16 = file('utf16.json', '');
    writeFileSync(
      utf16,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(a2aTask), 'utf16le')]),
    );
    const wide = await run(['validate', utf16, '--protocol', 'a2a', '--type', 'Task']);
    expect(wide.code).toBe(1);
    expect(wide.out).toMatch(/utf16\.json:1: \(root\): is not UTF-8 text: it looks like UTF-16/);
    expect(wide.out).not.toMatch(/not JSON/);
  });

  it('a JSON-RPC envelope checked as the type it carries: one line, then its payload checked', async () => {
    const whole = file('envelope.json', JSON.stringify({ jsonrpc: '2.0', id: 1, result: a2aTask }));
    const ok = await run(['validate', whole, '--protocol', 'a2a', '--type', 'Task']);
    expect(ok.out).toMatch(
      /envelope\.json:1: \(root\): is a JSON-RPC 2\.0 envelope, not a Task: its \/result is a valid Task/,
    );
    expect(ok.out.split('\n').filter((l) => l.startsWith(whole))).toHaveLength(1);
    const bad = file(
      'envelope-bad.json',
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ...a2aTask, id: 5 } }),
    );
    const got = await run(['validate', bad, '--protocol', 'a2a', '--type', 'Task']);
    expect(got.out).toMatch(/\/result\/id: must be string \(Task\) \(got 5\)/);
  });

  it('a document another version takes: a hint naming it', async () => {
    const v03 = file(
      'task-03.json',
      JSON.stringify({ kind: 'task', id: 't1', contextId: 'c1', status: { state: 'completed' } }),
    );
    const got = await run(['validate', v03, '--protocol', 'a2a@1.0', '--type', 'Task']);
    expect(got.code).toBe(1);
    expect(got.out).toMatch(/hint: it is a valid Task of a2a@0\.3: was --protocol a2a@0\.3 meant\?/);
    // Invalid in every version: no hint.
    const none = await run([
      'validate',
      file('task-bad.json', '{"id": 5}'),
      '--protocol',
      'a2a@1.0',
      '--type',
      'Task',
    ]);
    expect(none.out).not.toMatch(/hint:/);
  });
});
