import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAjv } from '@agentproto/codegen';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../index.js';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-diff-'));

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['diff', ...args], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stdin: async function* () {},
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A bundle file as another tool writes one: types under `$defs`, referring to each other as `#/$defs/<Type>`. */
function bundle(name: string, status: string[]): string {
  const file = path.join(tmp, name);
  writeFileSync(
    file,
    JSON.stringify(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $defs: {
          Status: { enum: status },
          Task: {
            type: 'object',
            required: ['status'],
            properties: { status: { $ref: '#/$defs/Status' } },
            additionalProperties: false,
          },
        },
      },
      null,
      2,
    ),
  );
  return file;
}

describe('cli > diff', () => {
  const cases: Array<[string, { given: string[]; want: { code: number; text: RegExp } }]> = [
    [
      'fail-on receiver > 1 when a change breaks receivers',
      {
        given: ['agentscope@0.1', 'agentscope@1.1', '--fail-on', 'receiver'],
        want: { code: 1, text: /break receivers/ },
      },
    ],
    [
      'fail-on sender > 1 when a change breaks senders',
      {
        given: ['agentscope@0.1', 'agentscope@1.1', '--fail-on', 'sender'],
        want: { code: 1, text: /`service` is now required/ },
      },
    ],
    [
      'no fail-on > 0 whatever it finds',
      { given: ['agentscope@0.1', 'agentscope@1.1'], want: { code: 0, text: /witness \(receivers\)/ } },
    ],
    [
      'a version against itself > 0 with fail-on any',
      { given: ['fixie@1.0', 'fixie', '--fail-on', 'any'], want: { code: 0, text: /0 changes/ } },
    ],
    [
      'an extension against its base > its one new status',
      {
        given: ['agent-protocol@v1', 'agent-protocol@v1-awaiting-input', '--fail-on', 'sender'],
        want: { code: 0, text: /StepStatus: takes the new value "awaiting_input"/ },
      },
    ],
    ['unknown protocol > 2', { given: ['nope@1', 'fixie'], want: { code: 2, text: /no protocol "nope"/ } }],
    [
      'unknown version > 2',
      { given: ['fixie@9', 'fixie'], want: { code: 2, text: /no version "9"; known: 1\.0/ } },
    ],
    [
      'a folder without schemas > 2',
      { given: [tmp, 'fixie'], want: { code: 2, text: /no <TypeName>\.schema\.json files/ } },
    ],
    [
      'bad fail-on > 2',
      {
        given: ['fixie', 'fixie', '--fail-on', 'all'],
        want: { code: 2, text: /--fail-on must be one of sender, receiver, any, none/ },
      },
    ],
  ];
  it.each(cases)('%s', async (_name, { given, want }) => {
    const { code, out, err } = await run(given);
    expect(`${out}\n${err}`).toMatch(want.text);
    expect(code).toBe(want.code);
  });

  it('a folder > the same report as the protocol version it holds', async () => {
    const byId = JSON.parse((await run(['agentscope@0.1', 'agentscope@1.1', '--reporter', 'json'])).out);
    const byPath = JSON.parse(
      (await run([path.join(ROOT, 'schemas/agentscope/0.1'), 'agentscope@1.1', '--reporter', 'json'])).out,
    );
    expect(byPath.changes.map((c: { rule: string }) => c.rule)).toEqual(
      byId.changes.map((c: { rule: string }) => c.rule),
    );
    expect(byPath.summary).toEqual(byId.summary);
  });

  it('bundles > their types compared, pointers inside $defs', async () => {
    const { code, out } = await run([
      bundle('old.json', ['a']),
      bundle('new.json', ['a', 'b']),
      '--reporter',
      'json',
      '--fail-on',
      'receiver',
    ]);
    const report = JSON.parse(out);
    expect(code).toBe(1);
    expect(report.changes).toMatchObject([
      {
        rule: 'enum-value-added',
        subject: 'Status',
        breaks: 'receivers',
        proven: true,
        new: { pointer: '/$defs/Status', line: 4 },
      },
    ]);
  });

  it('a file that is not JSON > 2, naming it', async () => {
    const file = path.join(tmp, 'broken.json');
    writeFileSync(file, '{ "$defs": ');
    const { code, err } = await run([file, 'fixie']);
    expect(code).toBe(2);
    expect(err).toMatch(/broken\.json: not valid JSON/);
  });

  it('json > the report DiffReport.schema.json describes', async () => {
    const schema = JSON.parse(
      readFileSync(path.join(ROOT, 'schemas/codegen/diff/DiffReport.schema.json'), 'utf8'),
    );
    const validate = createAjv().compile(schema);
    const report = JSON.parse((await run(['agentscope@0.1', 'agentscope@1.1', '--reporter', 'json'])).out);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...report, summary: { ...report.summary, unproven: -1 } })).toBe(false);
  });

  it('markdown > a list of what breaks, the rest folded away', async () => {
    const { out } = await run(['agentscope@0.1', 'agentscope@1.1', '--reporter', 'markdown']);
    expect(out).toMatch(/^- \*\*breaks receivers\*\*: AgentRequest: has a new property `id`/m);
    expect(out).toMatch(/<details><summary>\d+ changes that break no one<\/summary>/);
  });

  it('--out > the report in the file, the summary on standard output', async () => {
    const file = path.join(tmp, 'report.json');
    const { out } = await run(['agentscope@0.1', 'agentscope@1.1', '--reporter', 'json', '--out', file]);
    expect(out).toMatch(/^agentscope@0\.1 → agentscope@1\.1: \d+ changes/);
    expect(JSON.parse(readFileSync(file, 'utf8')).old).toBe('agentscope@0.1');
  });
});

// Issue 40: a report a reader skims. It opens with how many changes break whom, `--breaking-only` leaves out what
// breaks no one, and a witness shows the property name the differ makes up as `*`, not as `agentprotoWitness`.
describe('cli > diff, skimmed', () => {
  const SIDES = ['agentscope@0.1', 'agentscope@1.1'];
  const SUMMARY =
    /^agentscope@0\.1 → agentscope@1\.1: (\d+) changes; (\d+) breaks? receivers, (\d+) breaks? senders, (\d+) breaks? both, (\d+) breaks? no one; \d+ without a witness/;

  it('text > the summary first, each change counted once by whom it breaks, then the changes', async () => {
    const { out } = await run(SIDES);
    const report = JSON.parse((await run([...SIDES, '--reporter', 'json'])).out);
    const [first = '', second, third = ''] = out.split('\n');
    const counts = SUMMARY.exec(first)?.slice(1).map(Number);
    const only = (b: string) => report.changes.filter((c: { breaks: string }) => c.breaks === b).length;
    expect(counts).toEqual([
      report.changes.length,
      only('receivers'),
      only('senders'),
      only('both'),
      only('none'),
    ]);
    expect(second).toBe('');
    expect(third).toMatch(/^breaks (receivers|senders|both)/);
    expect(out.split('\n').at(-1)).toBe(first);
  });

  it('--breaking-only > only what breaks someone; the summary counts all and says what it left out', async () => {
    const { code, out } = await run([...SIDES, '--breaking-only']);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(SUMMARY);
    expect(out.split('\n')[0]).toMatch(/; the \d+ that break no one are not listed \(--breaking-only\)$/);
    expect(out).not.toMatch(/breaks no one \(/);
    expect(out).not.toMatch(/\[type-added\]/);
    const markdown = (await run([...SIDES, '--breaking-only', '--reporter', 'markdown'])).out;
    expect(markdown).toMatch(/^- \*\*breaks receivers\*\*/m);
    expect(markdown).not.toMatch(/<details>/);
  });

  it('--breaking-only json > the breaking changes, the whole summary, and the flag the schema describes', async () => {
    const schema = JSON.parse(
      readFileSync(path.join(ROOT, 'schemas/codegen/diff/DiffReport.schema.json'), 'utf8'),
    );
    const validate = createAjv().compile(schema);
    const all = JSON.parse((await run([...SIDES, '--reporter', 'json'])).out);
    const some = JSON.parse((await run([...SIDES, '--reporter', 'json', '--breaking-only'])).out);
    expect(validate(some), JSON.stringify(validate.errors)).toBe(true);
    expect(some.breakingOnly).toBe(true);
    expect(some.summary).toEqual(all.summary);
    expect(some.changes).toEqual(all.changes.filter((c: { breaks: string }) => c.breaks !== 'none'));
    expect(all.breakingOnly).toBeUndefined();
  });

  it('--breaking-only > the exit code still follows --fail-on', async () => {
    expect((await run([...SIDES, '--breaking-only', '--fail-on', 'sender'])).code).toBe(1);
    expect((await run(['fixie@1.0', 'fixie', '--breaking-only', '--fail-on', 'any'])).code).toBe(0);
  });

  it('witnesses > the made-up property shown as `*` in text and markdown; json keeps the message as judged', async () => {
    const text = (await run(SIDES)).out;
    const markdown = (await run([...SIDES, '--reporter', 'markdown'])).out;
    const json = (await run([...SIDES, '--reporter', 'json'])).out;
    for (const printed of [text, markdown]) {
      expect(printed).not.toContain('agentprotoWitness');
      expect(printed).toContain('{"type":"data","*":null}');
      expect(printed).toMatch(/rejects it: \(root\): must NOT have unevaluated properties \(\*\)/);
    }
    expect(json).toContain('agentprotoWitness');
  });
});
