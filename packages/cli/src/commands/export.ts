// `agentproto export`: the publishable schema set. Inside a checkout of the repository it is rendered from schemas/
// by the generator; anywhere else it is put together from the parts the installed packages ship (each protocol
// package's schemas/ folder and catalog entries, and the conformance kit's report schema), which the build cut from
// the same rendering, so both ways write the same files.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { knownProtocols } from '@agentproto/registry';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { Output } from '../output.js';
import { repositoryRoot } from '../repository-root.js';
import { packageSource } from './new/vendor.js';

/** Options of `agentproto export`. */
export interface ExportOptions {
  protocol?: string[];
  root?: string;
}

/** Where a package's schemas/ folder keeps the README of the whole set (its own README.md is the protocol's). */
const SET_README = '_set/README.md';

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
  const count = await writeSet(outdir, await schemaSet(root, options.protocol));
  io.out(`wrote ${count} files to ${outdir}`);
  return ExitCode.ok;
}

/** One file of the set: its path inside the set's folder and its text. */
export interface SetFile {
  path: string;
  content: string;
}

/**
 * The publishable set: rendered from the repository's schemas/ by the generator (loaded only then) inside a checkout,
 * else put together from the installed packages' schemas/ folders.
 */
export async function schemaSet(root: string | undefined, protocols?: string[]): Promise<SetFile[]> {
  if (root) {
    const { renderExport } = await import('@agentproto/codegen');
    return renderExport(root, protocols);
  }
  return setFromPackages(protocols);
}

/** Writes the set's files under `outdir`; returns how many. */
export async function writeSet(outdir: string, files: readonly SetFile[]): Promise<number> {
  for (const f of files) {
    const target = path.join(outdir, f.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, f.content);
  }
  return files.length;
}

/** Puts the set together from the installed packages' schemas/ folders. */
async function setFromPackages(protocols?: string[]): Promise<SetFile[]> {
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
  const files: SetFile[] = [];
  let readme: string | undefined;
  for (const { folder, pkg } of parts) {
    const shipped = path.join(packageSource(pkg).dir, 'schemas');
    if (!existsSync(path.join(shipped, 'catalog.json')))
      throw new UsageError(`${pkg} ships no schemas/ folder; reinstall it`);
    for (const file of await listFiles(shipped)) {
      if (file === SET_README || file === 'catalog.json') continue;
      files.push({ path: `${folder}/${file}`, content: await readFile(path.join(shipped, file), 'utf8') });
    }
    // sound: catalog.json is written by the generator into every package it builds, always in this shape
    const part = JSON.parse(readFileSync(path.join(shipped, 'catalog.json'), 'utf8')) as Catalog;
    catalog.$schema = part.$schema;
    catalog.schemas.push(...part.schemas);
    readme ??= readFileSync(path.join(shipped, SET_README), 'utf8');
  }
  files.push({ path: 'catalog.json', content: `${JSON.stringify(catalog, null, 2)}\n` });
  files.push({ path: 'README.md', content: readme ?? '' });
  return files.sort((a, b) => a.path.localeCompare(b.path));
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
