// Until the @agentproto packages are on a registry, a new project carries them: `agentproto new` packs the packages
// the project depends on into its vendor/ folder, and the project's package.json names those tarballs with `file:`.
// The tarballs come from where this CLI finds the packages: packed afresh from the workspace's sources when it runs
// inside a checkout of the repository (`pnpm pack`, which builds dist/ first), or re-packed as they are installed
// beside an installed CLI (`npm pack`; an installed package is exactly what its tarball held). A package packed once
// is copied, not packed again, while its files stay as they were (one process making several projects).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../../exit-codes.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** How long one step of vendoring may take: the build of the workspace packages, or the pack of one. */
const PACK_TIMEOUT_MS = 180_000;

/** An installed or workspace package, as this CLI resolves it. */
export interface PackageSource {
  name: string;
  version: string;
  dir: string;
  /** Its dependencies, by name (ranges as published, or `workspace:` specs inside the repository). */
  dependencies: Readonly<Record<string, string>>;
  /** Its peer dependencies, by name (optional ones included). */
  peerDependencies: Readonly<Record<string, string>>;
  /** Whether it is a workspace package whose exports point at TypeScript sources. */
  workspace: boolean;
}

/** Finds a package the way this CLI imports it. */
export function packageSource(name: string): PackageSource {
  let manifestPath: string;
  try {
    manifestPath = realpathSync(require.resolve(`${name}/package.json`));
  } catch {
    throw new UsageError(
      `${name} is not installed beside agentproto; reinstall @agentproto/cli or pass --registry`,
    );
  }
  // sound: one of our own packages' package.json (every caller names an @agentproto package), whose main export is
  // an object of conditions, its `default` a file name
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    exports?: { '.'?: { default?: string } };
  };
  const main = manifest.exports?.['.'];
  return {
    name,
    version: manifest.version,
    dir: path.dirname(manifestPath),
    dependencies: manifest.dependencies ?? {},
    peerDependencies: manifest.peerDependencies ?? {},
    workspace: main?.default?.endsWith('.ts') ?? false,
  };
}

/** The file name npm and pnpm give a package's tarball: `@scope/name` at 1.2.3 is `scope-name-1.2.3.tgz`. */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/** The folders a package's own files never lie in: what installs and builds write. */
const NOT_SOURCES = new Set(['node_modules', 'dist', '.tmp', '.turbo']);

/**
 * What a package's files are now: each file's path, size and modification time, outside the folders installs and
 * builds write. Two equal fingerprints mean nothing a pack reads has changed.
 */
export function fingerprint(dir: string): string {
  const parts: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      // A package's own schemas/ is the build's copy of the repository's (fingerprinted apart, where it comes from).
      if (NOT_SOURCES.has(entry.name) || (at === dir && entry.name === 'schemas')) continue;
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const stat = statSync(full);
        parts.push(`${path.relative(dir, full)}:${stat.size}:${stat.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return parts.sort().join('\n');
}

/** Tarballs this process packed, by package name and fingerprint, in a folder removed when the process exits. */
let packed: { dir: string; tarballs: Map<string, string> } | undefined;

function packCache(): { dir: string; tarballs: Map<string, string> } {
  if (!packed) {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-packed-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    packed = { dir, tarballs: new Map() };
  }
  return packed;
}

/**
 * Packs each package into `vendorDir` and returns, by package name, the tarball's file name there. The workspace
 * packages to pack are built first, in one `pnpm build` of them all (what each one's prepack would run, one start of
 * the build instead of one per package), then packed by one pnpm process without their prepack; a package this process
 * packed before, whose files have not changed since, is copied from that pack.
 */
export async function vendorPackages(
  names: readonly string[],
  vendorDir: string,
): Promise<Record<string, string>> {
  await mkdir(vendorDir, { recursive: true });
  const out: Record<string, string> = {};
  const cache = packCache();
  const wanted = names.map((name) => {
    const source = packageSource(name);
    // A workspace pack builds from the package's files and from the repository's schemas/<folder>, which it ships.
    const shipped = path.resolve(source.dir, '../../schemas', path.basename(source.dir));
    const key = `${name}\n${fingerprint(source.dir)}\n${source.workspace && existsSync(shipped) ? fingerprint(shipped) : ''}`;
    return { name, source, key, file: tarballName(name, source.version) };
  });
  const toBuild = wanted.filter((w) => w.source.workspace && !cache.tarballs.has(w.key));
  const root = toBuild[0] && path.resolve(toBuild[0].source.dir, '../..');
  if (root) {
    const folders = toBuild.map((w) => path.basename(w.source.dir));
    await packStep(
      'build',
      folders.join(', '),
      vendorDir,
      'pnpm',
      ['--dir', root, 'build', ...folders],
      root,
    );
  }
  // The rest packed into one new folder of this process's, by one pnpm process for the workspace packages and one npm
  // process for the installed ones (a start of pnpm or npm is about 1.5 s of CPU, more than packing most packages).
  const toPack = wanted.filter((w) => !cache.tarballs.has(w.key));
  const into = toPack.length > 0 ? mkdtempSync(path.join(cache.dir, 'pack-')) : '';
  const fromWorkspace = toPack.filter((w) => w.source.workspace);
  const installed = toPack.filter((w) => !w.source.workspace);
  if (root && fromWorkspace.length > 0)
    await packStep(
      'pack',
      fromWorkspace.map((w) => w.name).join(', '),
      vendorDir,
      'pnpm',
      [
        '--dir',
        root,
        '--recursive',
        ...fromWorkspace.flatMap((w) => ['--filter', w.name]),
        '--config.ignore-scripts=true',
        'pack',
        '--pack-destination',
        into,
      ],
      root,
    );
  if (installed.length > 0)
    await packStep(
      'pack',
      installed.map((w) => w.name).join(', '),
      vendorDir,
      'npm',
      ['pack', '--ignore-scripts', '--pack-destination', into, ...installed.map((w) => w.source.dir)],
      into,
    );
  for (const { name, key, file } of wanted) {
    const earlier = cache.tarballs.get(key);
    const from = earlier ?? path.join(into, file);
    try {
      await placeTarball(from, vendorDir, file);
    } catch (error) {
      // sound: copyFile and rename reject with an Error
      throw new UsageError(
        `could not copy ${name}'s tarball into ${vendorDir} (${(error as Error).message})`,
      );
    }
    // Keyed by what the files were before the pack: one edited during it is packed again next time.
    if (!earlier) cache.tarballs.set(key, from);
    out[name] = file;
  }
  return out;
}

/** Runs one step of vendoring (a build or a pack); a failure is a usage error that says what failed and the way out. */
async function packStep(
  step: 'build' | 'pack',
  what: string,
  vendorDir: string,
  command: string,
  args: string[],
  cwd: string,
): Promise<void> {
  try {
    await run(command, args, { cwd, timeout: PACK_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    // sound: execFile rejects with an Error that carries the child's stderr as text (no encoding is set)
    const e = error as { stderr?: string; message: string };
    throw new UsageError(
      `could not ${step} ${what} for ${vendorDir} with ${command} (${(e.stderr || e.message).trim().split('\n').at(-1)}); ` +
        'pass --registry to depend on the published packages instead',
    );
  }
}

/**
 * Puts a tarball at `vendorDir/file` without writing through whatever is there: it is copied to a new name in the
 * folder and renamed over `file`, and a rename replaces a link rather than the file it points to. `--force` may find
 * a link at that name leading outside the project (issue 34), and a check before an ordinary copy would leave a gap
 * between the check and the write.
 */
export async function placeTarball(from: string, vendorDir: string, file: string): Promise<void> {
  const staged = path.join(vendorDir, `.${file}.${process.pid}.partial`);
  try {
    await copyFile(from, staged);
    await rename(staged, path.join(vendorDir, file));
  } finally {
    await rm(staged, { force: true });
  }
}
