// Redocly CLI lints every OpenAPI document (`pnpm lint:openapi`, run by `pnpm lint`); this proves that our own rules
// in redocly.yaml catch what they are for, on a small document that breaks each of them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';
import { execFailure } from '../support/typed.js';

const REDOCLY = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

/** Lints documents with the repository's redocly.yaml; returns the exit code and the report. */
function lint(files: string[]): { code: number; out: string } {
  try {
    const out = execFileSync(
      process.execPath,
      [REDOCLY, 'lint', ...files, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'stylish'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: 'pipe',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    return { code: 0, out };
  } catch (error) {
    const e = execFailure(error);
    return { code: e.status ?? -1, out: `${e.stdout}${e.stderr}` };
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-openapi-lint-'));

/** A document with one streaming operation, as given. */
function document(operationId: string, media: Record<string, unknown>): string {
  const file = path.join(dir, `${operationId}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      openapi: '3.1.0',
      info: {
        title: 'Lint fixture',
        version: '1',
        description: 'x',
        license: { name: 'MIT', url: 'https://x.test' },
      },
      servers: [{ url: 'http://127.0.0.1' }],
      paths: {
        '/events': {
          get: {
            operationId,
            summary: 'Events',
            description: 'x',
            responses: { '200': { description: 'A stream.', content: { 'text/event-stream': media } } },
          },
        },
      },
    }),
  );
  return file;
}

describe('openapi lint > our rules', () => {
  it('a stream that declares its items, and a camelCase operationId > clean', () => {
    const good = document('listEvents', { schema: { type: 'string' }, 'x-itemSchema': { type: 'object' } });
    const run = lint([good]);
    expect(run.code, run.out).toBe(0);
  });

  it('a stream without x-itemSchema > rule/stream-declares-item-schema', () => {
    const run = lint([document('streamEvents', { schema: { type: 'string' } })]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/rule\/stream-declares-item-schema/);
  });

  it('a snake_case operationId > rule/operation-id-camel-case', () => {
    const run = lint([
      document('list_events', { schema: { type: 'string' }, 'x-itemSchema': { type: 'object' } }),
    ]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/rule\/operation-id-camel-case/);
  });
});
