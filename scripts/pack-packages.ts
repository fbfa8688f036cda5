// `pnpm pack-packages [dir]`: the tarballs a user installs, one per package, as `pnpm publish` would upload them
// (publishConfig applied, `workspace:` ranges replaced, dist/ and schemas/ built by each package's prepack).
// Default folder: .tarballs/. Until the packages are on a registry, this is how they leave the repository:
// `npm install <dir>/*.tgz` in any project installs them together.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? path.join(ROOT, '.tarballs'));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// Every package built at once first (one compiler run); each prepack then finds its package up to date.
execFileSync('pnpm', ['build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], timeout: 900_000 });
// One package at a time: each prepack runs the build, which shares one declaration cache.
execFileSync(
  'pnpm',
  [
    'pack',
    '--recursive',
    '--filter',
    './packages/*',
    '--workspace-concurrency',
    '1',
    '--pack-destination',
    out,
  ],
  { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], timeout: 900_000 },
);
for (const f of readdirSync(out).sort()) console.log(path.join(out, f));
