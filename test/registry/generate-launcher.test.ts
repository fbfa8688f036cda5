// Issue 41: `pnpm generate` runs the generator as a bundle (scripts/generate.mjs) made from the sources as they are:
// in a copy of the repository, the bundled generator's whole pipeline writes exactly the committed files; an edit to
// a generator source is in the next run (never a stale bundle), and undone, the run is the first one again; a source
// esbuild cannot read falls back to the sources through tsx, which names the fault; the bundled second process makes
// a version's type files as the sources' do.
import { fork, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import type { TypesAnswer } from '../../packages/codegen/src/emit/types/types-child.js';
import { emitVersionTypes } from '../../packages/codegen/src/emit/types/version-types.js';
import { loadProtocols } from '../../packages/codegen/src/load/load-protocols.js';
import { buildModel } from '../../packages/codegen/src/model/build-model.js';
import { validateVersion } from '../../packages/codegen/src/validate/validate-version.js';
import { copyRepository } from '../support/copy-repository.js';
import { ROOT } from '../support/spec-files.js';

const copy = copyRepository('agentproto-generate-launcher-');
cpSync(path.join(ROOT, 'pnpm-lock.yaml'), path.join(copy, 'pnpm-lock.yaml'));
mkdirSync(path.join(copy, 'scripts'));
for (const file of ['scripts/generate.ts', 'scripts/generate.mjs'])
  cpSync(path.join(ROOT, file), path.join(copy, file));
// The copy's bundles, in the cache its node_modules shares with this tree (one folder per repository folder).
const bundles = path.join(
  ROOT,
  'node_modules/.cache/agentproto-generate',
  createHash('sha256').update(`${copy}/`).digest('hex').slice(0, 16),
);
afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
  rmSync(bundles, { recursive: true, force: true });
});

/** `node scripts/generate.mjs <args>` in the copy, as `pnpm generate` runs it; minutes for a whole run. */
function generate(args: string[]): { code: number | null; out: string } {
  const run = spawnSync(process.execPath, ['scripts/generate.mjs', ...args], {
    cwd: copy,
    encoding: 'utf8',
    timeout: 900_000,
  });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

/** The kept bundles' keys, the one used last first. */
const kept = (): string[] => JSON.parse(readFileSync(path.join(bundles, 'index.json'), 'utf8'));

describe('41 > pnpm generate runs a bundle of the generator made from its sources as they are', () => {
  const command = path.join(copy, 'packages/cli/src/commands/generate.ts');
  const original = readFileSync(command, 'utf8');

  it('the bundled whole pipeline (its second process too) writes the committed files, byte for byte', () => {
    expect(generate(['--no-cache'])).toEqual({ code: 0, out: 'nothing to regenerate\n' });
    expect(kept()).toHaveLength(1);
  }, 1_800_000);

  it('an edited generator source is in the next run; undone, the first bundle is used again', () => {
    const first = kept()[0];
    const edited = original.replace(
      "'generated files are up to date'",
      "'generated files are up to date (edited)'",
    );
    expect(edited).not.toBe(original);
    writeFileSync(command, edited);
    expect(generate(['--check'])).toEqual({ code: 0, out: 'generated files are up to date (edited)\n' });
    expect(kept()).toHaveLength(2);
    writeFileSync(command, original);
    expect(generate(['--check'])).toEqual({ code: 0, out: 'generated files are up to date\n' });
    expect(kept()).toEqual([first, expect.any(String)]);
  }, 600_000);

  it('a source esbuild cannot read runs from the sources, whose loader names the fault', () => {
    writeFileSync(command, `${original}\nexport const broken = ;\n`);
    try {
      const run = generate(['--check']);
      expect(run.code).toBe(2);
      expect(run.out).toMatch(/packages\/cli\/src\/commands\/generate\.ts:\d+:\d+: ERROR: Unexpected ";"/);
      expect(run.out).not.toMatch(/^\s+at /m);
      expect(kept()).toHaveLength(2);
    } finally {
      writeFileSync(command, original);
    }
  }, 600_000);

  it("the bundled second process makes a version's type files as the sources make them", async () => {
    const child = path.join(bundles, kept()[0] ?? '', 'types-child.js');
    expect(existsSync(child)).toBe(true);
    const version = (await loadProtocols(ROOT, ['fixie']))[0];
    if (!version) throw new Error('no fixie version to make types for');
    validateVersion(version);
    const model = buildModel(version);
    const folder = mkdtempSync(path.join(tmpdir(), 'agentproto-launcher-types-'));
    const file = path.join(folder, 'model.bin');
    writeFileSync(file, serialize(model));
    const process2 = fork(child, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    try {
      const answer = await new Promise<TypesAnswer>((resolve, reject) => {
        process2.once('message', (m: TypesAnswer) => resolve(m));
        process2.once('exit', (code) => reject(new Error(`the bundled second process exited (${code})`)));
        process2.send({ id: 7, file });
      });
      expect(answer).toEqual({ id: 7, types: await emitVersionTypes(model) });
    } finally {
      process2.disconnect();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 600_000);
});
