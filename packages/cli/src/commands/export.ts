// `agentproto export`: the publishable schema set. Inside a checkout of the repository it is rendered from schemas/
// by the generator; anywhere else it is put together from the parts the installed packages ship (each protocol
// package's schemas/ folder and catalog entries, and the conformance kit's report schema), which the build cut from
// the same rendering, so both ways write the same files.
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { knownProtocols } from '@agentproto/conformance/registry';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { Output } from '../output.js';
import { repositoryRoot } from '../repository-root.js';
import { packageSource } from './new/vendor.js';

/** Options of `agentproto export`. */
export interface ExportOptions {
  protocol?: string[];
  root?: string;
}

interface Catalog {
  $schema: string;
  version: number;
  schemas: unknown[];
}

/**
 * `agentproto export <outdir> [--protocol <id>...] [--root <dir>]`: writes the publishable schema set (per-type
 * files, OpenAPI documents, 2020-12 and draft-07 bundles, catalog.json, examples and counterexamples) for other
 * languages.
 */
export async function exportCommand(outdir: string, options: ExportOptions, io: Output): Promise<number> {
  const root = options.root ? path.resolve(options.root) : repositoryRoot(process.cwd());
  const count = root
    ? await exportFromRepository(root, outdir, options.protocol)
    : await exportFromPackages(outdir, options.protocol);
  io.out(`wrote ${count} files to ${outdir}`);
  return ExitCode.ok;
}

/** Renders the set from the repository's schemas/ with the generator (loaded only here). */
async function exportFromRepository(root: string, outdir: string, protocols?: string[]): Promise<number> {
  const { renderExport } = await import('@agentproto/codegen');
  const files = await renderExport(root, protocols);
  for (const f of files) {
    const target = path.join(outdir, f.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, f.content);
  }
  return files.length;
}

/** Puts the set together from the installed packages' schemas/ folders. */
async function exportFromPackages(outdir: string, protocols?: string[]): Promise<number> {
  const known = knownProtocols();
  for (const id of protocols ?? []) {
    if (!known.some((k) => k.protocol === id))
      throw new UsageError(`unknown protocol "${id}"; known: ${known.map((k) => k.protocol).join(', ')}`);
  }
  const parts = known
    .filter((k) => !protocols || protocols.includes(k.protocol))
    .map((k) => ({ folder: k.protocol, pkg: k.package }))
    .sort((a, b) => a.folder.localeCompare(b.folder));
  // The report schemas (the diff's, the conformance kit's) are part of the whole set, not of a protocol's.
  if (!protocols)
    parts.push(
      { folder: 'codegen', pkg: '@agentproto/codegen' },
      { folder: 'conformance', pkg: '@agentproto/conformance' },
    );
  const catalog: Catalog = { $schema: '', version: 1, schemas: [] };
  let count = 0;
  let readme: string | undefined;
  for (const { folder, pkg } of parts) {
    const shipped = path.join(packageSource(pkg).dir, 'schemas');
    if (!existsSync(path.join(shipped, 'catalog.json')))
      throw new UsageError(`${pkg} ships no schemas/ folder; reinstall it`);
    for (const file of await listFiles(shipped)) {
      if (file === 'README.md' || file === 'catalog.json') continue;
      const target = path.join(outdir, folder, file);
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(path.join(shipped, file), target);
      count++;
    }
    const part = JSON.parse(readFileSync(path.join(shipped, 'catalog.json'), 'utf8')) as Catalog;
    catalog.$schema = part.$schema;
    catalog.schemas.push(...part.schemas);
    readme ??= readFileSync(path.join(shipped, 'README.md'), 'utf8');
  }
  await mkdir(outdir, { recursive: true });
  await writeFile(path.join(outdir, 'catalog.json'), `${JSON.stringify(catalog, null, 2)}\n`);
  await writeFile(path.join(outdir, 'README.md'), readme ?? '');
  return count + 2;
}

/** Every file under `dir`, as paths relative to it. */
async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...(await listFiles(path.join(dir, e.name), `${prefix}${e.name}/`)));
    else out.push(`${prefix}${e.name}`);
  }
  return out;
}
