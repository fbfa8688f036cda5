// `pnpm build` builds a package again only when what it reads has changed: a dist/ built from the inputs there are
// now is left as it is (packing every package, then a release's dry run, build once), and one built from other inputs
// is built again.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

const build = () =>
  execFileSync('pnpm', ['build', 'runtime'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: 300_000,
  });
const dist = path.join(ROOT, 'packages/runtime/dist');
const stamp = path.join(
  ROOT,
  'node_modules/.cache/agentproto-builds',
  createHash('sha256').update(dist).digest('hex').slice(0, 32),
);

describe('build > only what changed', () => {
  it('a dist/ built from the current inputs is kept; one built from other inputs is built again', () => {
    build();
    expect(existsSync(stamp)).toBe(true);
    expect(build()).toContain('packages/runtime/dist is up to date');
    writeFileSync(stamp, 'inputs of another build');
    expect(build()).toContain('built packages/runtime/dist');
    expect(build()).toContain('packages/runtime/dist is up to date');
  }, 600_000);
});
