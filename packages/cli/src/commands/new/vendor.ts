// Until the @agentproto packages are on a registry, a new project carries them: `agentproto new` packs the packages
// the project depends on into its vendor/ folder, and the project's package.json names those tarballs with `file:`.
// The tarballs come from where this CLI finds the packages: packed afresh from the workspace's sources when it runs
// inside a checkout of the repository (`pnpm pack`, which builds dist/ first), or re-packed as they are installed
// beside an installed CLI (`npm pack`; an installed package is exactly what its tarball held).
import { execFile } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../../exit-codes.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** How long packing one package may take: a workspace pack builds the package first. */
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
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    exports?: Record<string, unknown>;
  };
  const main = manifest.exports?.['.'] as { default?: string } | undefined;
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

/**
 * Packs each package into `vendorDir` and returns, by package name, the tarball's file name there. Packing runs one
 * package at a time (a workspace pack runs the build, which uses both cores).
 */
export async function vendorPackages(
  names: readonly string[],
  vendorDir: string,
): Promise<Record<string, string>> {
  await mkdir(vendorDir, { recursive: true });
  const out: Record<string, string> = {};
  for (const name of names) {
    const source = packageSource(name);
    const [command, args] = source.workspace
      ? ['pnpm', ['pack', '--pack-destination', vendorDir]]
      : ['npm', ['pack', '--ignore-scripts', '--pack-destination', vendorDir, source.dir]];
    try {
      await run(command, args, { cwd: source.dir, timeout: PACK_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new UsageError(
        `could not pack ${name} into ${vendorDir} with ${command} (${(e.stderr || e.message).trim().split('\n').at(-1)}); ` +
          'pass --registry to depend on the published packages instead',
      );
    }
    out[name] = tarballName(name, source.version);
  }
  return out;
}
