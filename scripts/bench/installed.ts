// The packages as users get them: packed (`pnpm pack-packages`, as a release would) and installed with npm in a
// temporary folder outside the repository, once per `pnpm bench` run; built JavaScript, no tsx.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Where the installed packages are: the folder, its `agentproto` bin, and the CLI's built entry module. */
export interface Installed {
  dir: string;
  bin: string;
  cliModule: string;
}

let installed: Installed | undefined;

/** Packs and installs every package (the first call); later calls return the same folder. */
export function installPackages(): Installed {
  if (installed) return installed;
  const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-bench-'));
  const tarballs = path.join(dir, 'tarballs');
  execFileSync('pnpm', ['pack-packages', tarballs], { cwd: ROOT, stdio: 'pipe' });
  writeFileSync(path.join(dir, 'package.json'), '{"name":"bench","version":"1.0.0","private":true}\n');
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', ...readdirSync(tarballs).map((f) => path.join(tarballs, f))],
    { cwd: dir, stdio: 'pipe' },
  );
  installed = {
    dir,
    bin: path.join(dir, 'node_modules/.bin/agentproto'),
    cliModule: path.join(dir, 'node_modules/@agentproto/cli/dist/index.js'),
  };
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return installed;
}
