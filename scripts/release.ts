// `pnpm release [--dry-run]`: publishes every package to npm in dependency order (the runtime first, the CLI last),
// each built by its prepack, with `workspace:` ranges replaced by the versions released together.
// The flow: `pnpm changeset` records a change; `pnpm changeset version` turns the pending changesets into version
// bumps and changelogs (commit that); `pnpm release` publishes. A real release refuses to run while changesets are
// still pending, since their versions would not be in it. `--dry-run` (run by CI) packs and checks everything,
// uploads nothing, and lists the pending changesets instead of refusing.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const dryRun = process.argv.includes('--dry-run');
const unknown = process.argv.slice(2).filter((a) => a !== '--dry-run');
if (unknown.length > 0) {
  console.error(`release: unknown argument ${unknown.join(' ')}; usage: pnpm release [--dry-run]`);
  process.exit(2);
}

const pending = readdirSync(path.join(ROOT, '.changeset')).filter(
  (f) => f.endsWith('.md') && f !== 'README.md',
);
if (pending.length > 0) {
  const list = pending.map((f) => `  .changeset/${f}`).join('\n');
  if (!dryRun) {
    console.error(
      `release: ${pending.length} changesets are pending; run \`pnpm changeset version\`, commit, then release:\n${list}`,
    );
    process.exit(1);
  }
  console.log(
    `release (dry run): ${pending.length} pending changesets would first become version bumps:\n${list}`,
  );
}

const args = [
  'publish',
  '--recursive',
  '--access',
  'public',
  // The build below has just made every dist/; each package's prepack would only start it again to find its package
  // up to date (about 4 s of CPU a package).
  '--ignore-scripts',
  ...(dryRun ? ['--dry-run', '--no-git-checks'] : []),
];
try {
  // Every package built at once first (one compiler run); the publish then packs what it built.
  execFileSync('pnpm', ['build'], { cwd: ROOT, stdio: 'inherit', timeout: 900_000 });
  execFileSync('pnpm', args, { cwd: ROOT, stdio: 'inherit', timeout: 1_800_000 });
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`release: pnpm ${args.join(' ')} failed (${message.split('\n')[0]})`);
  process.exit(1);
}
