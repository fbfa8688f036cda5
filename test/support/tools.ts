// The programs the second test stage checks our output with (Python's jsonschema, Go, gojsonschema, quicktype's
// Python types' dateutil). They come from Debian packages that scripts/install-test-tools.sh installs before the
// tests start; a test never installs them itself.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const SETUP = 'bash scripts/install-test-tools.sh';

/** Fails with the command that installs what is missing, when `check` does not run. */
export function requireTool(what: string, command: string, args: string[], env?: NodeJS.ProcessEnv): void {
  try {
    execFileSync(command, args, { stdio: 'pipe', timeout: 60_000, ...(env ? { env } : {}) });
  } catch {
    throw new Error(`${what} is missing: run \`${SETUP}\` (as root) before this test stage`);
  }
}

/** Go in GOPATH mode over Debian's Go sources (where golang-github-xeipuuv-gojsonschema-dev installs). */
export const GO_ENV: NodeJS.ProcessEnv = { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode' };

/**
 * A Python with jsonschema 4.18 or later and `referencing`, which Debian 12 does not package (its python3-jsonschema
 * is 4.10): the first of `python3` on PATH and pyenv's versions that has them, if any.
 */
export function pythonWithReferencing(): string | undefined {
  const home = process.env.HOME ?? '/root';
  const candidates = ['python3', path.join(home, '.pyenv/shims/python3')];
  const versions = path.join(home, '.pyenv/versions');
  if (existsSync(versions))
    for (const v of readdirSync(versions).sort().reverse())
      candidates.push(path.join(versions, v, 'bin/python3'));
  for (const python of candidates) {
    try {
      execFileSync(python, ['-c', 'import jsonschema, referencing'], { stdio: 'pipe', timeout: 30_000 });
      return python;
    } catch {}
  }
  return undefined;
}
