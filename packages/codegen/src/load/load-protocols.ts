// Load stage: the only stage of the generator that reads files. It starts from the protocol manifests
// (`schemas/<id>/protocol.yaml`), reads each listed version's schema files and OpenAPI document with locations, and
// its examples and counterexamples, so the later stages (validate, model, emit, export) never touch the disk.
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Requirement } from '@agentproto/runtime/contract';
import { type Diagnostic, DiagnosticsError } from '../diagnostics.js';
import {
  type LoadedManifest,
  listDirs,
  loadManifests,
  MANIFEST_FILE,
  type ProtocolManifest,
  type VersionManifest,
} from './load-manifests.js';
import {
  CLIENT_REQUIREMENTS_FILE,
  type RequirementsFile,
  readRequirements,
  resolveRequirements,
} from './load-requirements.js';
import { type LoadedTranslation, loadTranslations } from './load-translations.js';
import { at, readSource, type SourceFile, toPosix, type YamlParser } from './source-file.js';

export { type SourceFile, toPosix } from './source-file.js';

/** An example or counterexample file of a version, as read (`examples/<TypeName>/<what>.json`). */
export interface FixtureFile {
  kind: 'examples' | 'counterexamples';
  /** Path inside the kind's folder (`Task/minimal.json`). */
  path: string;
  text: string;
}

/** Everything one protocol version's folder holds, and what its protocol's manifest says of it. */
export interface LoadedVersion {
  /** Protocol id: the folder name under schemas/. */
  protocol: string;
  /** Version id: the folder name under schemas/<protocol>/. */
  version: string;
  /** Folder of the version, relative to the repository root. */
  dir: string;
  /** One entry per `<TypeName>.schema.json`, sorted by type name. */
  schemas: Array<SourceFile & { typeName: string }>;
  /** The version's `openapi.yaml` (for an extension without its own, the base version's), with its text. */
  openapi: SourceFile & { text: string };
  /**
   * The version's JSON-RPC surface, `openrpc.json` (OpenRPC 1.3), when it has one (for an extension without its own,
   * the base version's).
   */
  openrpc?: SourceFile & { text: string };
  /** For an extension: the version it extends (the manifest's `extends`). */
  extends?: string;
  /** The protocol's manifest, and this version's entry in it. */
  manifest: ProtocolManifest;
  entry: VersionManifest;
  /** The protocol package's folder, relative to the repository root (`packages/fixie`). */
  packageDir: string;
  /** The version's own examples and counterexamples, sorted by path. */
  fixtures: FixtureFile[];
  /** The version's requirements (`requirements.yaml`, with the version it extends resolved), when it has them. */
  requirements?: Requirement[];
  /** The file they come from, relative to the repository root. */
  requirementsFile?: string;
  /** What the version requires of a client (`client-requirements.yaml`, its `extends` resolved), when it says. */
  clientRequirements?: Requirement[];
  /** The file they come from, relative to the repository root. */
  clientRequirementsFile?: string;
}

/** A folder under schemas/ that is not a protocol but a set of standalone schemas (the conformance report's). */
export interface StandaloneSchemas {
  /** Folder name under schemas/. */
  name: string;
  /** Every `*.schema.json` inside it, by path relative to it (`report/ConformanceReport.schema.json`). */
  files: Array<{ name: string; text: string }>;
}

/** What the load stage read: every manifest, the versions asked for, and the standalone schema folders. */
export interface LoadedTree {
  manifests: LoadedManifest[];
  versions: LoadedVersion[];
  standalone: StandaloneSchemas[];
  /** `schemas/README.md`: the README of the exported set ('' when there is none). */
  readme: string;
  /** Each protocol's prose beside its versions (`README.md`, `DECISIONS.md`), by protocol id and file name. */
  prose: Array<{ protocol: string; name: string; text: string }>;
  /** The translation manifests of the protocols read (`only`), as protocol.yaml lists them. */
  translations: LoadedTranslation[];
}

/**
 * The files beside a protocol's versions that the published set (and the docs site) carries: its prose, and test
 * vectors for other languages (A2A's signed agent cards). Each is optional.
 */
export const PROSE_FILES = ['README.md', 'DECISIONS.md', 'card-signing-vectors.json'] as const;

/** The base of every `$id`: `<base>/<protocol>/<version>/<TypeName>.schema.json`. */
export const SCHEMA_ID_BASE = 'https://agentproto.dev/schemas';

const SCHEMA_SUFFIX = '.schema.json';

/** The file of a version's JSON-RPC surface, beside its `openapi.yaml`. */
export const OPENRPC_FILE = 'openrpc.json';

/**
 * Reads the tree: every manifest (always all of them: the registry lists every protocol), and the versions of the
 * protocols in `only` (all when omitted). A version with `extends` has every type of its base, with the schema
 * files it holds itself added or put in place of the base's same-named ones, and the base's `openapi.yaml` unless it
 * has its own; the base's files are given the extension's `$id`s, so the base is never edited. Throws a
 * DiagnosticsError listing every problem. YAML files are parsed with `parseYaml` (the locating parser unless said).
 */
export async function loadTree(
  root: string,
  only?: readonly string[],
  parseYaml?: YamlParser,
): Promise<LoadedTree> {
  const diagnostics: Diagnostic[] = [];
  const manifests = await loadManifests(root, diagnostics, parseYaml);
  const versions: LoadedVersion[] = [];
  const standalone: StandaloneSchemas[] = [];
  const prose: LoadedTree['prose'] = [];
  const protocolIds = new Set(manifests.map((m) => m.manifest.id));
  for (const folder of await listDirs(path.join(root, 'schemas'))) {
    if (protocolIds.has(folder) || only) continue;
    const dir = path.join(root, 'schemas', folder);
    const names = (await listFiles(dir)).filter((n) => n.endsWith(SCHEMA_SUFFIX));
    if (names.length === 0) continue;
    const files = [];
    for (const name of names) files.push({ name, text: await readFile(path.join(dir, name), 'utf8') });
    standalone.push({ name: folder, files });
  }
  for (const loaded of manifests) {
    const { manifest, source } = loaded;
    if (only && !only.includes(manifest.id)) continue;
    const protocolDir = path.join(root, 'schemas', manifest.id);
    for (const name of PROSE_FILES) {
      const text = await readFile(path.join(protocolDir, name), 'utf8').catch(() => undefined);
      if (text !== undefined) prose.push({ protocol: manifest.id, name, text });
    }
    const listed = new Set(Object.keys(manifest.versions));
    for (const folder of await listDirs(protocolDir))
      if (!listed.has(folder))
        diagnostics.push({
          ...at(source, '/versions'),
          message: `schemas/${manifest.id}/${folder}/ is not a version ${MANIFEST_FILE} lists: add it, or move it out`,
        });
    const own = new Map<string, LoadedVersion>();
    const requirementFiles = new Map<string, SourceFile<RequirementsFile>>();
    const clientRequirementFiles = new Map<string, SourceFile<RequirementsFile>>();
    // Bases first, so an extension finds its base loaded whatever the manifest's order.
    const order = Object.keys(manifest.versions).sort(
      (a, b) =>
        Number(manifest.versions[a]?.extends !== undefined) -
        Number(manifest.versions[b]?.extends !== undefined),
    );
    for (const version of order) {
      const entry = manifest.versions[version];
      if (!entry) continue;
      const dir = path.join(protocolDir, version);
      const names = await readdir(dir).then(
        (n) => n.sort(),
        () => undefined,
      );
      if (!names) {
        diagnostics.push({
          ...at(source, `/versions/${version}`),
          message: `no folder schemas/${manifest.id}/${version}/`,
        });
        continue;
      }
      const base = entry.extends === undefined ? undefined : own.get(entry.extends);
      if (entry.extends !== undefined && !base) continue; // the manifest check already reported it
      if (!base && !names.includes('openapi.yaml')) {
        diagnostics.push({
          ...at(source, `/versions/${version}`),
          message: `schemas/${manifest.id}/${version}/ has no openapi.yaml (a version that has none names the version it extends)`,
        });
        continue;
      }
      const mine = await readVersion(
        root,
        loaded,
        version,
        entry,
        dir,
        names,
        diagnostics,
        parseYaml,
        base?.openapi,
        base?.openrpc,
      );
      if (!mine) continue;
      const requirements = await readRequirements(root, dir, diagnostics, parseYaml);
      if (requirements) requirementFiles.set(version, requirements);
      const client = await readRequirements(root, dir, diagnostics, parseYaml, CLIENT_REQUIREMENTS_FILE);
      if (client) clientRequirementFiles.set(version, client);
      if (base) {
        const replaced = new Set(mine.schemas.map((x) => x.typeName));
        const inherited = base.schemas
          .filter((x) => !replaced.has(x.typeName))
          .map((x) => ({ ...x, value: withId(x.value, schemaId(manifest.id, version, x.typeName)) }));
        mine.schemas = [...inherited, ...mine.schemas].sort((a, b) => a.typeName.localeCompare(b.typeName));
        mine.extends = base.version;
      }
      own.set(version, mine);
    }
    for (const [version, file] of requirementFiles) {
      const mine = own.get(version);
      if (!mine) continue;
      mine.requirements = resolveRequirements(version, requirementFiles, diagnostics);
      mine.requirementsFile = file.file;
    }
    for (const [version, file] of clientRequirementFiles) {
      const mine = own.get(version);
      if (!mine) continue;
      mine.clientRequirements = resolveRequirements(
        version,
        clientRequirementFiles,
        diagnostics,
        [],
        CLIENT_REQUIREMENTS_FILE,
      );
      mine.clientRequirementsFile = file.file;
    }
    versions.push(...[...own.values()].sort((a, b) => a.version.localeCompare(b.version)));
  }
  const translations = await loadTranslations(
    root,
    manifests.filter((m) => !only || only.includes(m.manifest.id)),
    diagnostics,
    parseYaml,
  );
  if (diagnostics.length > 0) throw new DiagnosticsError(diagnostics);
  const readme = await readFile(path.join(root, 'schemas', 'README.md'), 'utf8').catch(() => '');
  return { manifests, versions, standalone, readme, prose, translations };
}

/** The versions of the protocols in `only` (all when omitted): `loadTree(root, only).versions`. */
export async function loadProtocols(root: string, only?: readonly string[]): Promise<LoadedVersion[]> {
  return (await loadTree(root, only)).versions;
}

async function readVersion(
  root: string,
  loaded: LoadedManifest,
  version: string,
  entry: VersionManifest,
  dir: string,
  names: readonly string[],
  diagnostics: Diagnostic[],
  parseYaml: YamlParser | undefined,
  inheritedOpenapi?: SourceFile & { text: string },
  inheritedOpenrpc?: SourceFile & { text: string },
): Promise<LoadedVersion | undefined> {
  const schemas: LoadedVersion['schemas'] = [];
  for (const name of names.filter((n) => n.endsWith(SCHEMA_SUFFIX))) {
    const read = await readSource(root, path.join(dir, name), 'json', diagnostics);
    if (read)
      schemas.push({
        file: read.file,
        value: read.value,
        locate: read.locate,
        typeName: name.slice(0, -SCHEMA_SUFFIX.length),
      });
  }
  const openapi = names.includes('openapi.yaml')
    ? await readSource(root, path.join(dir, 'openapi.yaml'), 'yaml', diagnostics, parseYaml)
    : inheritedOpenapi;
  if (!openapi) return undefined;
  const openrpc = names.includes(OPENRPC_FILE)
    ? await readSource(root, path.join(dir, OPENRPC_FILE), 'json', diagnostics)
    : inheritedOpenrpc;
  // Each read in one call, as readSource reads: a version's fixtures run to hundreds of small files.
  const fixtures: FixtureFile[] = [];
  for (const kind of ['examples', 'counterexamples'] as const)
    for (const f of await listFiles(path.join(dir, kind)))
      fixtures.push({ kind, path: f, text: readFileSync(path.join(dir, kind, f), 'utf8') });
  return {
    protocol: loaded.manifest.id,
    version,
    dir: toPosix(path.relative(root, dir)),
    schemas,
    openapi,
    ...(openrpc ? { openrpc } : {}),
    manifest: loaded.manifest,
    entry,
    packageDir: loaded.packageDir,
    fixtures,
  };
}

/** The `$id` a type's schema file must carry. */
export function schemaId(protocol: string, version: string, typeName: string): string {
  return `${SCHEMA_ID_BASE}/${protocol}/${version}/${typeName}${SCHEMA_SUFFIX}`;
}

function withId(value: unknown, id: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, $id: id } : value;
}

/** Every file under `dir`, as forward-slash paths relative to it, sorted; none when it does not exist. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => toPosix(path.relative(dir, path.join(e.parentPath, e.name))))
    .sort();
}
