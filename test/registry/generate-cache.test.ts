// Issue 41: `pnpm generate` renders only the parts of a run whose inputs changed (packages/codegen/src/cache/), and
// what it writes is byte for byte what the whole pipeline writes. In a copy of the repository (with this tree's
// lockfile, so its parts have this tree's keys): one description of an A2A 1.0 schema edited — the version's folder
// and the translation from 0.3 read it — then `generate` through the cache, then `generate --no-cache`, which must
// find nothing to write: the same files, the same stamp.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentprotoIn, copyRepository } from '../support/copy-repository.js';
import { ROOT } from '../support/spec-files.js';

const copy = copyRepository('agentproto-generate-cache-');
cpSync(path.join(ROOT, 'pnpm-lock.yaml'), path.join(copy, 'pnpm-lock.yaml'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** The copy's agentproto command, with minutes to finish: a run without the cache is a whole run of the generator. */
const agentproto = (args: string[]) => agentprotoIn(copy, args, 900_000);

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
