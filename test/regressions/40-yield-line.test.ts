// Issue 40: a wrong value yielded in a new project's agent was reported on `async *run(`, ten levels deep and as
// "two different types with this name exist" (TS2719). The templates give `run` (and Agent Protocol's handlers) their
// return types, so the type checker says what is wrong on the line that yields or returns it, in a few lines. Each
// template, with one answer broken, is checked as a project checks it (the repository's strict compiler options).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

/** A template and how to break one of its yields: the text to find and what to put in its place. */
const BROKEN: Array<[string, { template: string; find: string; wrong: string }]> = [
  ['agentscope 1.1', { template: 'agentscope/templates/1.1', find: 'delta: word', wrong: 'delta: 42' }],
  ['agentscope 0.1', { template: 'agentscope/templates/0.1', find: 'delta: word', wrong: 'delta: 42' }],
  [
    'a2a 1.0',
    {
      template: 'a2a/templates/1.0',
      find: "yield { state: 'TASK_STATE_WORKING', text: 'Working on it…' }",
      wrong: "yield { state: 'TASK_STATE_WORKING', text: 42 }",
    },
  ],
  [
    'agent-protocol v1',
    {
      template: 'agent-protocol/templates/v1',
      find: 'return { status: 200, body: { tasks: page.items, pagination: page.pagination } };',
      wrong: 'return { status: 200, body: { tasks: 42, pagination: page.pagination } };',
    },
  ],
  [
    'agent-protocol v1-awaiting-input',
    {
      template: 'agent-protocol/templates/v1-awaiting-input',
      find: 'return { status: 200, body: { tasks: page.items, pagination: page.pagination } };',
      wrong: 'return { status: 200, body: { tasks: 42, pagination: page.pagination } };',
    },
  ],
  [
    'agent-protocol-2025 draft-2025-02',
    {
      template: 'agent-protocol-2025/templates/draft-2025-02',
      find: 'await context.text(answer);',
      wrong: 'await context.text(42);',
    },
  ],
  [
    'fixie 1.0',
    {
      template: 'fixie/templates/1.0',
      find: 'greet: ({ message }) =>',
      wrong: 'greet: ({ message }) => message.text.length || ',
    },
  ],
  [
    'mcp 2025-11-25',
    {
      template: 'mcp/templates/2025-11-25',
      find: "name: 'readme',",
      wrong: 'name: 42,',
    },
  ],
];

// Inside the checkout (.tmp/ is ignored), so the copies resolve our packages as the templates do.
mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(path.join(ROOT, '.tmp', 'agentproto-40-'));
const files = BROKEN.map(([name, { template, find, wrong }]) => {
  const source = readFileSync(path.join(ROOT, 'packages', template, 'agent.ts'), 'utf8');
  expect(source, `${name}: the template no longer holds ${find}`).toContain(find);
  const broken = source.replace(find, wrong);
  const file = path.join(dir, `${name.replace(/\W+/g, '-')}.ts`);
  writeFileSync(file, broken);
  return { name, file, line: broken.slice(0, broken.indexOf(wrong)).split('\n').length };
});

const base = ts.readConfigFile(path.join(ROOT, 'tsconfig.base.json'), ts.sys.readFile).config;
const { options } = ts.parseJsonConfigFileContent(base, ts.sys, ROOT);
const program = ts.createProgram(
  files.map((f) => f.file),
  options,
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('40 > a wrong yield is reported on its line', () => {
  it.each(files)('$name', ({ file, line }) => {
    const source = program.getSourceFile(file);
    const found = ts
      .getPreEmitDiagnostics(program, source)
      .filter((d) => d.file?.fileName === source?.fileName);
    const told = found.map((d) => ({
      line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
      code: d.code,
      text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    }));
    expect(told).toHaveLength(1);
    expect(told[0]?.line).toBe(line);
    expect(told[0]?.code).not.toBe(2719);
    // A few lines, the last of them what is wrong; not the whole generator type (it was ten levels deep).
    const lines = told[0]?.text.split('\n') ?? [];
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(lines.at(-1)).toMatch(/'number' is not assignable to (parameter of )?type/);
  });
});
