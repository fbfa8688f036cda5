import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Locator, parseJsonWithLocator, parseYamlWithLocator } from '@agentproto/runtime/locate';
import { type Diagnostic, DiagnosticsError } from '../diagnostics.js';

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
  /** The version's `openapi.yaml` (for an extension without its own, the base version's). */
  openapi: SourceFile;
  /** For an extension: the version it extends (see EXTENSION_FILE). */
  extends?: string;
}

/**
 * A version folder holding this file instead of (or beside) an `openapi.yaml` is an extension of another version of
 * the same protocol: `extends: <version>`. It has every type of that version, with the `*.schema.json` files it holds
 * itself added or put in place of the base's same-named ones; it inherits the base's `openapi.yaml` unless it has its
 * own. The base's files are read as they are and given the extension's `$id`s, so the base is never edited.
 */
export const EXTENSION_FILE = 'extension.yaml';

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
    const own = new Map<string, LoadedVersion>();
    const extensions: Array<{ version: string; dir: string; base: string; manifest: SourceFile }> = [];
    for (const version of await listDirs(path.join(schemasDir, protocol))) {
      const dir = path.join(schemasDir, protocol, version);
      const names = (await readdir(dir)).sort();
      if (names.includes(EXTENSION_FILE)) {
        const manifest = await readSource(root, path.join(dir, EXTENSION_FILE), 'yaml', diagnostics);
        const base = (manifest?.value as { extends?: unknown } | undefined)?.extends;
        if (manifest && typeof base !== 'string') {
          diagnostics.push({
            ...at(manifest, '/extends'),
            message: 'an extension names the version it extends',
          });
        } else if (manifest && typeof base === 'string') {
          extensions.push({ version, dir, base, manifest });
        }
        continue;
      }
      if (!names.includes('openapi.yaml')) continue;
      const loaded = await readVersion(root, protocol, version, dir, names, diagnostics);
      if (loaded) own.set(version, loaded);
    }
    for (const ext of extensions) {
      const base = own.get(ext.base);
      if (!base) {
        diagnostics.push({
          ...at(ext.manifest, '/extends'),
          message: `no version "${ext.base}" of ${protocol} to extend`,
        });
        continue;
      }
      const names = (await readdir(ext.dir)).sort();
      const mine = await readVersion(root, protocol, ext.version, ext.dir, names, diagnostics, base.openapi);
      if (!mine) continue;
      const replaced = new Set(mine.schemas.map((x) => x.typeName));
      const inherited = base.schemas
        .filter((x) => !replaced.has(x.typeName))
        .map((x) => ({ ...x, value: withId(x.value, schemaId(protocol, ext.version, x.typeName)) }));
      mine.schemas = [...inherited, ...mine.schemas].sort((a, b) => a.typeName.localeCompare(b.typeName));
      mine.extends = ext.base;
      own.set(ext.version, mine);
    }
    versions.push(...[...own.values()].sort((a, b) => a.version.localeCompare(b.version)));
  }
  if (diagnostics.length > 0) throw new DiagnosticsError(diagnostics);
  return versions;
}

async function readVersion(
  root: string,
  protocol: string,
  version: string,
  dir: string,
  names: readonly string[],
  diagnostics: Diagnostic[],
  inheritedOpenapi?: SourceFile,
): Promise<LoadedVersion | undefined> {
  const schemas: LoadedVersion['schemas'] = [];
  for (const name of names.filter((n) => n.endsWith(SCHEMA_SUFFIX))) {
    const loaded = await readSource(root, path.join(dir, name), 'json', diagnostics);
    if (loaded) schemas.push({ ...loaded, typeName: name.slice(0, -SCHEMA_SUFFIX.length) });
  }
  const openapi = names.includes('openapi.yaml')
    ? await readSource(root, path.join(dir, 'openapi.yaml'), 'yaml', diagnostics)
    : inheritedOpenapi;
  if (!openapi) return undefined;
  return { protocol, version, dir: toPosix(path.relative(root, dir)), schemas, openapi };
}

/** The `$id` a type's schema file must carry. */
export function schemaId(protocol: string, version: string, typeName: string): string {
  return `${SCHEMA_ID_BASE}/${protocol}/${version}/${typeName}${SCHEMA_SUFFIX}`;
}

/** Where a diagnostic about a pointer of a source file points: file, pointer and line. */
function at(source: SourceFile, pointer: string): { file: string; pointer: string; line?: number } {
  const line = source.locate(pointer);
  return { file: source.file, pointer, ...(line === undefined ? {} : { line }) };
}

function withId(value: unknown, id: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, $id: id } : value;
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
