// `pnpm pack-packages [dir]`: the tarballs a user installs, one per package, as `pnpm publish` would upload them
// (publishConfig applied, `workspace:` ranges replaced, dist/ and schemas/ built by each package's prepack).
// Default folder: .tarballs/. Until the packages are on a registry, this is how they leave the repository:
// `npm install <dir>/*.tgz` in any project installs them together.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? path.join(ROOT, '.tarballs'));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// Progress and the steps' messages go to standard error (the compiler's errors too, which it prints on its standard
// output); standard output is kept for the list of tarballs, one path a line, which scripts read.
// Every package built at once first (one compiler run); each prepack then finds its package up to date.
console.error('building every package (one compiler run, then each package that changed)…');
execFileSync('pnpm', ['build'], {
  cwd: ROOT,
  stdio: ['ignore', process.stderr, 'inherit'],
  timeout: 900_000,
});
// One package at a time, each with a line of progress (pnpm's own listing of each tarball's files is left out).
const packages = readdirSync(path.join(ROOT, 'packages'))
  .filter((p) => existsSync(path.join(ROOT, 'packages', p, 'package.json')))
  .sort();
for (const [i, pkg] of packages.entries()) {
  console.error(`packing packages/${pkg} (${i + 1} of ${packages.length})…`);
  execFileSync('pnpm', ['pack', '--pack-destination', out], {
    cwd: path.join(ROOT, 'packages', pkg),
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 900_000,
  });
}
for (const f of readdirSync(out).sort()) console.log(path.join(out, f));
