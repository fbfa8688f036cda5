// Issue 41: `pnpm generate` renders only the parts of a run whose inputs changed (packages/codegen/src/cache/), and
// what it writes is byte for byte what the whole pipeline writes. In a copy of the repository (with this tree's
// lockfile, so its parts have this tree's keys): one description of an A2A 1.0 schema edited — the version's folder
// and the translation from 0.3 read it — then `generate` through the cache, then `generate --no-cache`, which must
// find nothing to write: the same files, the same stamp.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyRepository } from '../support/copy-repository.js';
import { ROOT } from '../support/spec-files.js';
import { execFailure } from '../support/typed.js';

const copy = copyRepository('agentproto-generate-cache-');
cpSync(path.join(ROOT, 'pnpm-lock.yaml'), path.join(copy, 'pnpm-lock.yaml'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/**
 * The copy's agentproto command, as agentprotoIn runs it but with minutes to finish: the first run and the run without
 * the cache are whole runs of the generator, which on a loaded machine take longer than agentprotoIn waits.
 */
function agentproto(args: string[]): { code: number; out: string } {
  try {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(copy, 'packages/cli/bin/agentproto.js'), ...args],
      { cwd: copy, encoding: 'utf8', stdio: 'pipe', timeout: 900_000, env: { ...process.env, CI: 'true' } },
    );
    return { code: 0, out };
  } catch (error) {
    const e = execFailure(error);
    return { code: e.status ?? -1, out: `${e.stdout}${e.stderr}` };
  }
}

describe('41 > generate renders what changed, and writes what the whole pipeline writes', () => {
  it('one version edited > the cached run writes its files; a run without the cache then finds nothing to write', () => {
    expect(agentproto(['generate']).code).toBe(0);
    const schema = path.join(copy, 'schemas/a2a/1.0/AgentCard.schema.json');
    const text = readFileSync(schema, 'utf8');
    const edited = text.replace('"description": "', '"description": "Edited for issue 41. ');
    expect(edited).not.toBe(text);
    writeFileSync(schema, edited);

    const cached = agentproto(['generate']);
    expect(cached.code, cached.out).toBe(0);
    expect(cached.out).toContain('wrote packages/a2a/src/generated/1.0/openapi.ts');
    expect(cached.out).toContain('wrote packages/registry/src/generated/stamp.json');

    const whole = agentproto(['generate', '--no-cache']);
    expect(whole).toEqual({ code: 0, out: 'nothing to regenerate\n' });
    expect(agentproto(['generate', '--check'])).toEqual({
      code: 0,
      out: 'generated files are up to date\n',
    });
  }, 1_800_000);
});
