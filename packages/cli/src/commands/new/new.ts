// `agentproto new <dir> --protocol <id>`: a standalone agent project from the protocol package's template, with our
// packages vendored as tarballs (or named by range with --registry).
import { existsSync, readFileSync } from 'node:fs';
import { lstat, mkdir, readdir, readlink, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError } from '../../exit-codes.js';
import type { Output } from '../../output.js';
import { protocolChoices, resolveProtocol } from '../../protocols.js';
import {
  DEFAULT_PROJECT_STORE,
  hasTemplate,
  isProjectStore,
  keepsState,
  PROJECT_STORES,
  projectFiles,
  templateFiles,
  templatePackages,
} from './templates.js';
import { packageSource, vendorPackages } from './vendor.js';

/** Options of `agentproto new`. */
export interface NewOptions {
  protocol: string;
  name?: string;
  force?: boolean;
  /** Depend on the published @agentproto packages (version ranges) instead of tarballs in vendor/. */
  registry?: boolean;
  /** The store a stateful project opens by default: memory (the default), sqlite or redis. */
  store?: string;
}

/** The range of @types/node a project gets: the Node.js line our packages support (`engines`: >= 20). */
const TYPES_NODE_RANGE = '^20.19.0';

/** This CLI's manifest: the version of our packages a project depends on, and the tsx range (a dev dependency here). */
// sound: this package's own package.json, which names a version and its development dependencies (tsx among them)
const CLI = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
};

/**
 * `agentproto new <dir> --protocol <id>[@<version>] [--name <name>] [--force] [--registry]`: writes a standalone agent
 * project (package.json, typed handlers that already answer validly, a conformance test, a strict tsconfig, a README)
 * with our packages packed into its vendor/ folder, or named by version range with --registry. Refuses a folder that
 * is not empty unless --force.
 */
export async function newCommand(dir: string, options: NewOptions, io: Output): Promise<number> {
  const binding = await resolveProtocol(options.protocol);
  if (!hasTemplate(binding))
    throw new UsageError(
      `${binding.protocol}@${binding.version} has no project template (${binding.package} ships none); protocols: ${protocolChoices()}`,
    );
  const key = `${binding.protocol}@${binding.version}`;
  const name = options.name ?? path.basename(path.resolve(dir));
  if (!/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(name) || name.length > 214)
    throw new UsageError(
      `"${name}" is not a valid npm package name (lowercase letters, digits, -, ., _); pass --name`,
    );
  if (existsSync(dir)) {
    const entries = await readdir(dir).catch(() => {
      throw new UsageError(`${dir} exists and is not a folder`);
    });
    if (entries.length > 0 && !options.force)
      throw new UsageError(`${dir} is not empty; pass --force to write the project into it anyway`);
  }
  const store = options.store ?? DEFAULT_PROJECT_STORE;
  if (!isProjectStore(store))
    throw new UsageError(`--store must be one of ${Object.keys(PROJECT_STORES).join(', ')}, not "${store}"`);
  const template = await templateFiles(binding);
  if (options.store !== undefined && !keepsState(template))
    throw new UsageError(`${key} keeps no state: its projects take no --store`);
  // Third-party ranges come from our packages' own manifests, so a project gets what they were built against.
  const { ours, thirdParty } = templatePackages(binding, template, store);
  const protocolPackage = packageSource(binding.package);
  const ranges: Record<string, string> = {
    tsx: CLI.devDependencies.tsx ?? '^4.20.0',
    // The generator's TypeScript: an optional peer of @agentproto/codegen (see its type-libraries.ts).
    typescript: packageSource('@agentproto/codegen').peerDependencies.typescript ?? '~5.9.3',
    '@types/node': TYPES_NODE_RANGE,
  };
  // A store's driver (better-sqlite3, ioredis) is an optional peer of the runtime, which names the versions it takes.
  const runtimePeers = packageSource('@agentproto/runtime').peerDependencies;
  for (const dep of thirdParty) {
    const range = protocolPackage.dependencies[dep] ?? runtimePeers[dep];
    if (!range)
      throw new Error(
        `the ${key} template uses ${dep}, which ${binding.package} does not depend on: add it to that package's dependencies`,
      );
    ranges[dep] = range;
  }
  let specs: Record<string, string>;
  if (options.registry) {
    specs = Object.fromEntries(ours.map((n) => [n, `^${CLI.version}`]));
  } else {
    await refuseLinkOut(dir, 'vendor');
    const vendored = withOurDependencies(ours);
    io.out(`packing ${vendored.join(', ')} into ${path.join(dir, 'vendor')}…`);
    const tarballs = await vendorPackages(vendored, path.resolve(dir, 'vendor'));
    specs = Object.fromEntries(Object.entries(tarballs).map(([n, file]) => [n, `file:vendor/${file}`]));
  }
  const files = projectFiles(binding, template, {
    name,
    protocol: binding.protocol,
    version: binding.version,
    ours: specs,
    ranges,
    vendored: !options.registry,
    store,
  });
  // --force writes into a folder that holds things already: none of them may lead a write outside it.
  for (const f of files) await refuseLinkOut(dir, f.path);
  for (const f of files) {
    const target = path.join(dir, f.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, f.content);
  }
  io.out(`wrote a ${key} agent to ${dir}:`);
  for (const f of files) io.out(`  ${f.path}`);
  if (!options.registry) io.out(`  vendor/ (${Object.keys(specs).length} tarballs)`);
  io.out(`next: cd ${shellQuoted(dir)} && npm install && npm run typecheck && npm test && npm start`);
  return ExitCode.ok;
}

/**
 * `names` and every @agentproto package they depend on, directly or not (the CLI depends on each protocol package):
 * a vendored project carries a tarball for each, since none is on a registry npm could fetch it from. Sorted.
 */
function withOurDependencies(names: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string): void => {
    if (found.has(name)) return;
    found.add(name);
    for (const dep of Object.keys(packageSource(name).dependencies))
      if (dep.startsWith('@agentproto/')) visit(dep);
  };
  for (const name of names) visit(name);
  return [...found].sort();
}

/**
 * Refuses (a usage error) to write `relative` under `dir` when a link on the way (a folder or the file itself, as
 * --force may find them) leads outside `dir`: the project must never overwrite a file elsewhere. A link that stays
 * inside is followed as usual.
 */
async function refuseLinkOut(dir: string, relative: string): Promise<void> {
  if (!existsSync(dir)) return;
  const root = await realpath(dir);
  let at = dir;
  for (const part of relative.split('/')) {
    at = path.join(at, part);
    const info = await lstat(at).catch(() => undefined);
    if (!info) return; // not there yet: written fresh, as a real file or folder
    if (!info.isSymbolicLink()) continue;
    const real = await realpath(at).catch(() => undefined);
    const inside = real === undefined ? undefined : path.relative(root, real);
    // `..` alone or as the first segment leaves the folder; a name such as `..notes` inside it does not.
    if (
      inside === undefined ||
      inside === '..' ||
      inside.startsWith(`..${path.sep}`) ||
      path.isAbsolute(inside)
    )
      throw new UsageError(
        `${at} is a link to ${real ?? (await readlink(at))}, outside ${dir}: agentproto new does not write through it; remove the link or choose another folder`,
      );
  }
}

/** A path as a POSIX shell reads it back: as it is when it holds only safe characters, else in single quotes. */
export function shellQuoted(p: string): string {
  return /^[\w./@%+=:,-]+$/.test(p) ? p : `'${p.replace(/'/g, "'\\''")}'`;
}
