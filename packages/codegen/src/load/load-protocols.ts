import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Diagnostic, DiagnosticsError } from '../diagnostics.js';
import { type Locator, parseJsonWithLocator, parseYamlWithLocator } from './locate.js';

/** A source file read from disk, parsed, with a way to find lines for pointers. */
export interface SourceFile<T = unknown> {
  /** Path relative to the repository root, with forward slashes. */
  file: string;
  value: T;
  locate: Locator;
}

/** Everything one protocol version's folder holds. */
export interface LoadedVersion {
  /** Protocol id: the folder name under schemas/. */
  protocol: string;
  /** Version id: the folder name under schemas/<protocol>/. */
  version: string;
  /** Folder of the version, relative to the repository root. */
  dir: string;
  /** One entry per `<TypeName>.schema.json`, sorted by type name. */
  schemas: Array<SourceFile & { typeName: string }>;
  /** The version's `openapi.yaml`. */
  openapi: SourceFile;
}

/** The base of every `$id`: `<base>/<protocol>/<version>/<TypeName>.schema.json`. */
export const SCHEMA_ID_BASE = 'https://agentproto.dev/schemas';

const SCHEMA_SUFFIX = '.schema.json';

/**
 * Load stage: the only stage that reads files. Finds every `schemas/<protocol>/<version>/` folder that holds an
 * `openapi.yaml`, and parses its schema files and OpenAPI document with locations.
 */
export async function loadProtocols(root: string, only?: readonly string[]): Promise<LoadedVersion[]> {
  const schemasDir = path.join(root, 'schemas');
  const diagnostics: Diagnostic[] = [];
  const versions: LoadedVersion[] = [];
  for (const protocol of await listDirs(schemasDir)) {
    if (only && !only.includes(protocol)) continue;
    for (const version of await listDirs(path.join(schemasDir, protocol))) {
      const dir = path.join(schemasDir, protocol, version);
      const names = (await readdir(dir)).sort();
      if (!names.includes('openapi.yaml')) continue;
      const rel = toPosix(path.relative(root, dir));
      const schemas: LoadedVersion['schemas'] = [];
      for (const name of names.filter((n) => n.endsWith(SCHEMA_SUFFIX))) {
        const loaded = await readSource(root, path.join(dir, name), 'json', diagnostics);
        if (loaded) schemas.push({ ...loaded, typeName: name.slice(0, -SCHEMA_SUFFIX.length) });
      }
      const openapi = await readSource(root, path.join(dir, 'openapi.yaml'), 'yaml', diagnostics);
      if (openapi) versions.push({ protocol, version, dir: rel, schemas, openapi });
    }
  }
  if (diagnostics.length > 0) throw new DiagnosticsError(diagnostics);
  return versions;
}

async function readSource(
  root: string,
  file: string,
  kind: 'json' | 'yaml',
  diagnostics: Diagnostic[],
): Promise<SourceFile | undefined> {
  const rel = toPosix(path.relative(root, file));
  const text = await readFile(file, 'utf8');
  try {
    const parsed = kind === 'json' ? parseJsonWithLocator(text) : parseYamlWithLocator(text);
    return { file: rel, ...parsed };
  } catch (error) {
    diagnostics.push({
      file: rel,
      pointer: '',
      message: `not valid ${kind.toUpperCase()}: ${(error as Error).message}`,
    });
    return undefined;
  }
}

async function listDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** Turns a platform path into the forward-slash form used in diagnostics and banners. */
export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
