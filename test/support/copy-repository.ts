// A working copy of the repository in a temporary folder, for tests that change schemas or manifests (a throwaway
// protocol, a new version) and run the copy's own agentproto command on them.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './spec-files.js';
import { execFailure } from './typed.js';

/**
 * A copy of the repository that resolves modules as the original does: packages copied (their node_modules hold
 * relative symlinks, kept as they are), with the test helpers their tests import, the root's third-party modules
 * linked to the original's.
 */
export function copyRepository(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  // test/support too: package tests import its helpers (test/support/typed.ts), and the copy type-checks them.
  for (const entry of [
    'schemas',
    'packages',
    'test/support',
    'package.json',
    'tsconfig.json',
    'tsconfig.base.json',
  ])
    cpSync(path.join(ROOT, entry), path.join(dir, entry), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (from) => !/[/\\](dist|\.tarballs)$/.test(from),
    });
  mkdirSync(path.join(dir, 'node_modules'));
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '@agentproto')
      cpSync(path.join(ROOT, 'node_modules', entry), path.join(dir, 'node_modules', entry), {
        recursive: true,
        verbatimSymlinks: true,
      });
    else symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(dir, 'node_modules', entry));
  }
  return dir;
}

/**
 * Runs the copy's agentproto command in the copy; returns its exit code and output. `timeoutMs` bounds a stuck run
 * (whole runs of the generator on a loaded machine want minutes: a `generate --check` of every protocol once took
 * over two).
 */
export function agentprotoIn(
  copy: string,
  args: string[],
  timeoutMs = 300_000,
): { code: number; out: string } {
  try {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(copy, 'packages/cli/bin/agentproto.js'), ...args],
      { cwd: copy, encoding: 'utf8', stdio: 'pipe', timeout: timeoutMs, env: { ...process.env, CI: 'true' } },
    );
    return { code: 0, out };
  } catch (error) {
    const e = execFailure(error);
    return { code: e.status ?? -1, out: `${e.stdout}${e.stderr}` };
  }
}
