// Issue 13: every CLI call loaded the whole generator (openapi-typescript, TypeScript) and every protocol. Now a
// command loads only what it needs: `--help` neither the generator nor any protocol, `validate` only the binding of
// the protocol asked for (never the generator, a server or a client), and the generator only for `generate`/`export`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/run-cli.js';
import { ROOT } from '../support/spec-files.js';
import { execFailure } from '../support/typed.js';

/** Runs the CLI in its own process; returns every module URL it resolved. */
function modulesLoaded(args: string[]): string[] {
  const record = path.join(mkdtempSync(path.join(tmpdir(), 'agentproto-imports-')), 'imports.txt');
  try {
    execFileSync(
      process.execPath,
      ['--import', path.join(ROOT, 'test/support/record-imports.mjs'), BIN, ...args],
      { env: { ...process.env, RECORD_IMPORTS: record }, stdio: 'pipe', timeout: 60_000 },
    );
  } catch (error) {
    if (execFailure(error).status !== 1) throw error;
  }
  return readFileSync(record, 'utf8').split('\n').filter(Boolean);
}

const generator = /\/packages\/codegen\/|\/openapi-typescript\/|\/typescript\/lib\//;
const server = /\/hono\/|\/@hono\/|\/openapi-fetch\//;
const protocols = ['agent-protocol/src', 'agent-protocol-2025/src', 'agentscope/src', 'fixie/src'];

describe('13 > the CLI loads what a command needs', () => {
  it('--help > no generator, no server, no protocol', () => {
    const loaded = modulesLoaded(['--help']);
    expect(loaded.some((u) => u.includes('/packages/cli/src/index.ts'))).toBe(true);
    expect(loaded.filter((u) => generator.test(u) || server.test(u))).toEqual([]);
    expect(loaded.filter((u) => protocols.some((p) => u.includes(`/packages/${p}/`)))).toEqual([]);
  });

  it('validate > the asked protocol binding only: no generator, server, client or other protocol', () => {
    const example = path.join(ROOT, 'schemas/agent-protocol/v1/examples/Task/minimal.json');
    const loaded = modulesLoaded(['validate', example, '--protocol', 'agent-protocol', '--type', 'Task']);
    expect(loaded.some((u) => u.includes('/packages/agent-protocol/src/generated/v1/binding.ts'))).toBe(true);
    expect(loaded.filter((u) => generator.test(u) || server.test(u))).toEqual([]);
    const others = protocols.filter((p) => p !== 'agent-protocol/src');
    expect(loaded.filter((u) => others.some((p) => u.includes(`/packages/${p}/`)))).toEqual([]);
  });

  it('generate --check > loads the generator (the recorder sees what it should)', () => {
    const loaded = modulesLoaded(['generate', '--check', '--protocol', 'fixie']);
    expect(loaded.some((u) => generator.test(u))).toBe(true);
  });
});
