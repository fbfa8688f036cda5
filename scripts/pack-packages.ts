// `pnpm pack-packages [dir]`: the tarballs a user installs, one per package, as `pnpm publish` would upload them
// (publishConfig applied, `workspace:` ranges replaced, dist/ and schemas/ built by `pnpm build`).
// Default folder: .tarballs/. Until the packages are on a registry, this is how they leave the repository:
// `npm install <dir>/*.tgz` in any project installs them together.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? path.join(ROOT, '.tarballs'));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// Progress and the steps' messages go to standard error (the compiler's errors too, which it prints on its standard
// output); standard output is kept for the list of tarballs, one path a line, which scripts read.
// Every package built at once first (one compiler run, nothing when every dist/ is up to date).
console.error('building every package (one compiler run, then each package that changed)…');
execFileSync('pnpm', ['build'], {
  cwd: ROOT,
  stdio: ['ignore', process.stderr, 'inherit'],
  timeout: 900_000,
});
// Then every package packed by one pnpm process (pnpm's own listing of each tarball's files is left out). Each
// package's prepack (which runs the same build, for a `pnpm pack` or `pnpm publish` of one package alone) is skipped:
// it would only start the build once a package to find each up to date, about 4 s of CPU a package.
console.error('packing every package…');
execFileSync('pnpm', ['--recursive', '--config.ignore-scripts=true', 'pack', '--pack-destination', out], {
  cwd: ROOT,
  stdio: ['ignore', 'ignore', 'inherit'],
  timeout: 900_000,
});
for (const f of readdirSync(out).sort()) console.log(path.join(out, f));
