// Issue 19: a new version in one command. In a copy of the repository, `agentproto version add agentscope 1.2 --from
// 1.1` copies the schemas, lists the version, regenerates, and leaves a package that type-checks and validates both
// versions; `agentproto diff` then shows exactly what the author changed, and nothing else.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { agentprotoIn, copyRepository } from '../support/copy-repository.js';

let copy: string;
let added: { code: number; out: string };

beforeAll(() => {
  copy = copyRepository('agentproto-version-add-');
  added = agentprotoIn(copy, ['version', 'add', 'agentscope', '1.2', '--from', '1.1']);
}, 180_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('19 > version add', () => {
  it('copies the folder with its $ids moved, and lists the version in the manifest', () => {
    expect(added.code, added.out).toBe(0);
    expect(added.out).toMatch(/copied \d+ files: schemas\/agentscope\/1\.1\/ → schemas\/agentscope\/1\.2\//);
    const message = JSON.parse(
      readFileSync(path.join(copy, 'schemas/agentscope/1.2/Message.schema.json'), 'utf8'),
    );
    expect(message.$id).toBe('https://agentproto.dev/schemas/agentscope/1.2/Message.schema.json');
    expect(existsSync(path.join(copy, 'schemas/agentscope/1.2/examples/Message'))).toBe(true);
    const manifest = parse(readFileSync(path.join(copy, 'schemas/agentscope/protocol.yaml'), 'utf8'));
    expect(manifest.latest).toBe('1.1');
    expect(manifest.versions['1.2']).toEqual({
      ...manifest.versions['1.1'],
      title: 'AgentScope Agent API 1.2',
    });
  });

  it('regenerates: the package has both versions, up to date, and type-checks', () => {
    expect(existsSync(path.join(copy, 'packages/agentscope/src/generated/1.2/validators.js'))).toBe(true);
    expect(readFileSync(path.join(copy, 'packages/conformance/src/generated/registry.ts'), 'utf8')).toContain(
      'import("@agentproto/agentscope/1.2/binding")',
    );
    expect(agentprotoIn(copy, ['generate', '--check']).code).toBe(0);
    execFileSync(
      process.execPath,
      [path.join(copy, 'node_modules/typescript/bin/tsc'), '-p', copy, '--noEmit'],
      {
        cwd: copy,
        stdio: 'pipe',
        timeout: 300_000,
      },
    );
  }, 360_000);

  it('validate > the new version checks messages, and streams with its stream rules', () => {
    const v = path.join(copy, 'schemas/agentscope/1.2');
    const messages = agentprotoIn(copy, [
      'validate',
      path.join(v, 'examples/Message'),
      '--protocol',
      'agentscope@1.2',
      '--type',
      'Message',
    ]);
    expect(messages.code, messages.out).toBe(0);
    const streams = agentprotoIn(copy, ['validate', path.join(v, 'streams'), '--protocol', 'agentscope@1.2']);
    expect(streams.code, streams.out).toBe(0);
  }, 120_000);

  it('diff > nothing at first, then exactly what the author changed', () => {
    expect(
      agentprotoIn(copy, ['diff', 'agentscope@1.1', 'agentscope@1.2', '--fail-on', 'any']),
    ).toMatchObject({
      code: 0,
      out: expect.stringMatching(/: 0 changes;/),
    });
    const file = path.join(copy, 'schemas/agentscope/1.2/RunStatus.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    schema.enum.push('paused');
    writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    const run = agentprotoIn(copy, [
      'diff',
      'agentscope@1.1',
      'agentscope@1.2',
      '--reporter',
      'json',
      '--fail-on',
      'receiver',
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.out);
    expect(report.changes).toMatchObject([
      {
        rule: 'enum-value-added',
        subject: 'RunStatus',
        breaks: 'receivers',
        proven: true,
        new: { file: 'schemas/agentscope/1.2/RunStatus.schema.json', pointer: '' },
        witnesses: [{ message: 'paused' }],
      },
    ]);
    expect(report.changes).toHaveLength(1);
  }, 120_000);
});
