// Reads `schemas/<id>/protocol.yaml`, the one place that says which protocols and versions exist. Everything that
// lists protocols (the generated registry, `agentproto new`, `export`, the tests) is derived from these files.
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseYamlWithLocator } from '@agentproto/runtime/locate';
import type { ValidateFunction } from 'ajv';
import { compileKept } from '../ajv.js';
import type { Diagnostic } from '../diagnostics.js';
import { isRecord } from '../util/json.js';
import { at, holds, type SourceFile, toPosix, type YamlParser } from './source-file.js';

/** The file, in a protocol's folder under `schemas/`, that makes the folder a protocol. */
export const MANIFEST_FILE = 'protocol.yaml';

/** What `agentproto new` writes for a version: a folder of real TypeScript in the package, and README text. */
export interface TemplateManifest {
  /** Folder of the files that become the new project's `src/`, relative to the package. */
  dir: string;
  /** Markdown for the project README's "Extend it" section. */
  extend: string;
  /** Packages the project depends on beyond those its files import. */
  dependencies?: string[];
}

/** One version's entry in the manifest. */
export interface VersionManifest {
  title: string;
  /** Another version of the protocol whose types and OpenAPI document this one starts from. */
  extends?: string;
  /** A module of the package exporting `documentRules`: rules over whole documents beyond the schemas. */
  documentRules?: string;
  /** A module of the package exporting `streamCheck(version)`: the check of a whole stream (ordering rules). */
  streamCheck?: string;
  /**
   * The discovery documents that name the agent's own URLs, by type name: the JSON pointers of those URLs, a `*`
   * token for every index or key (an A2A 1.0 AgentCard's are at `/supportedInterfaces/<each>/url`). The binding
   * carries them as `discoveryUrls`.
   */
  discoveryUrls?: Record<string, string[]>;
  /** A module of the package exporting `createSuite(version)`: the version's conformance suite. */
  suite?: string;
  template?: TemplateManifest;
  /**
   * A module of the package exporting `referenceAgentFor(version)`: the version's reference agent, which `agentproto
   * serve` starts.
   */
  referenceAgent?: string;
  /**
   * What differs between this version and the protocol's others, as named values (`errorFrames: true`) that the
   * package's code reads from the generated `src/generated/versions.ts` instead of comparing version names.
   */
  traits?: Record<string, TraitValue>;
}

/** One trait's value: data, never code. */
export type TraitValue = boolean | number | string;

/**
 * What `@agentproto/<package>/<version>` exports beyond the generated code: `src/generated/<version>/entry.ts`
 * re-exports `module` and binds `forVersion(version)`'s results under the names `exports` lists.
 */
export interface EntryManifest {
  /** A module of the package exporting `forVersion(version)` and what every version shares. */
  module: string;
  /** The names of `forVersion`'s results, each exported by name from every version's entry point. */
  exports: string[];
  /**
   * Types `module` exports under a name the generated code also uses (a package's own client options beside the
   * generated client's): exported by name from every entry point, so the module's type is the one users get rather
   * than an ambiguous name.
   */
  overrideTypes?: string[];
}

/** A protocol's manifest, as written in `protocol.yaml`. */
export interface ProtocolManifest {
  id: string;
  title: string;
  /** The npm package the protocol's code is generated into; its folder is `packages/<name without scope>`. */
  package: string;
  /** The version `--protocol <id>` means. */
  latest: string;
  /** The versioned entry points' declaration; without it, the package writes its own. */
  entry?: EntryManifest;
  /**
   * Translation manifests beside protocol.yaml (`translate-0.3.yaml`): how one version's messages map to another's, so
   * one handler set serves both. Each is checked against `agentproto diff` of its two versions.
   */
  translations?: string[];
  versions: Record<string, VersionManifest>;
}

/** A manifest as loaded: its data, where it is, and the package folder it names (relative to the root). */
export interface LoadedManifest {
  source: SourceFile<ProtocolManifest>;
  manifest: ProtocolManifest;
  packageDir: string;
}

const MODULE = { type: 'string', pattern: '^src/[A-Za-z0-9_./-]+\\.ts$' } as const;
const VERSION_ID = '^[A-Za-z0-9][A-Za-z0-9._-]*$';
const NAME = { type: 'string', pattern: '^[A-Za-z_$][A-Za-z0-9_$]*$' } as const;

/** The manifest's own schema: what `protocol.yaml` must look like. */
export const MANIFEST_SCHEMA = {
  type: 'object',
  required: ['id', 'title', 'package', 'latest', 'versions'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
    title: { type: 'string', minLength: 1 },
    package: { type: 'string', pattern: '^@[a-z0-9-]+/[a-z0-9-]+$' },
    latest: { type: 'string' },
    entry: {
      type: 'object',
      required: ['module', 'exports'],
      additionalProperties: false,
      properties: {
        module: MODULE,
        exports: { type: 'array', items: NAME, minItems: 1, uniqueItems: true },
        overrideTypes: { type: 'array', items: NAME, minItems: 1, uniqueItems: true },
      },
    },
    translations: {
      type: 'array',
      items: { type: 'string', pattern: '^translate-[A-Za-z0-9._-]+\\.yaml$' },
      uniqueItems: true,
    },
    versions: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: VERSION_ID },
      additionalProperties: {
        type: 'object',
        required: ['title'],
        additionalProperties: false,
        properties: {
          title: { type: 'string', minLength: 1 },
          extends: { type: 'string' },
          documentRules: MODULE,
          streamCheck: MODULE,
          discoveryUrls: {
            type: 'object',
            propertyNames: NAME,
            minProperties: 1,
            additionalProperties: {
              type: 'array',
              minItems: 1,
              uniqueItems: true,
              items: { type: 'string', pattern: '^(/([^~/]|~[01])*)+$' },
            },
          },
          suite: MODULE,
          referenceAgent: MODULE,
          template: {
            type: 'object',
            required: ['dir', 'extend'],
            additionalProperties: false,
            properties: {
              dir: { type: 'string', pattern: '^[A-Za-z0-9_./-]+$' },
              extend: { type: 'string', minLength: 1 },
              dependencies: { type: 'array', items: { type: 'string' }, uniqueItems: true },
            },
          },
          traits: {
            type: 'object',
            propertyNames: NAME,
            additionalProperties: { anyOf: [{ type: 'boolean' }, { type: 'number' }, { type: 'string' }] },
          },
        },
      },
    },
  },
} as const;

let validateManifest: ValidateFunction<ProtocolManifest> | undefined;

/**
 * Reads every protocol manifest under `schemas/`, sorted by id. Checks each against MANIFEST_SCHEMA and against the
 * tree: the id is the folder's name, `latest` and every `extends` name a listed version, the package folder exists
 * and holds that package, and every module and template folder it names exists. Problems are diagnostics (file, line,
 * pointer), all of them, not just the first. YAML is parsed with `parseYaml`.
 */
export async function loadManifests(
  root: string,
  diagnostics: Diagnostic[],
  parseYaml: YamlParser = parseYamlWithLocator,
): Promise<LoadedManifest[]> {
  const schemasDir = path.join(root, 'schemas');
  const loaded: LoadedManifest[] = [];
  // A manifest that passes MANIFEST_SCHEMA is a ProtocolManifest: the schema states the interface.
  validateManifest ??= compileKept<ProtocolManifest>(MANIFEST_SCHEMA);
  for (const folder of await listDirs(schemasDir)) {
    const file = path.join(schemasDir, folder, MANIFEST_FILE);
    if (!(await exists(file))) continue;
    const rel = toPosix(path.relative(root, file));
    let source: SourceFile;
    try {
      source = { file: rel, ...parseYaml(await readFile(file, 'utf8')) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      diagnostics.push({ file: rel, pointer: '', message: `not valid YAML: ${message}` });
      continue;
    }
    if (!holds(source, validateManifest)) {
      for (const e of validateManifest.errors ?? []) {
        // An unknown key is reported at the key itself, so the line is the one to fix.
        const extra =
          typeof e.params.additionalProperty === 'string' ? e.params.additionalProperty : undefined;
        diagnostics.push(
          extra === undefined
            ? { ...at(source, e.instancePath), message: `${e.message ?? 'invalid'} (${MANIFEST_FILE})` }
            : {
                ...at(source, `${e.instancePath}/${extra}`),
                message: `"${extra}" is not a key of ${MANIFEST_FILE} here`,
              },
        );
      }
      continue;
    }
    const manifest = source.value;
    const before = diagnostics.length;
    if (manifest.id !== folder)
      diagnostics.push({ ...at(source, '/id'), message: `the id must be the folder's name, "${folder}"` });
    if (!(manifest.latest in manifest.versions))
      diagnostics.push({
        ...at(source, '/latest'),
        message: `"${manifest.latest}" is not one of the versions`,
      });
    const packageDir = `packages/${manifest.package.split('/')[1]}`;
    const packageName = await readPackageName(path.join(root, packageDir));
    if (packageName !== manifest.package)
      diagnostics.push({
        ...at(source, '/package'),
        message:
          packageName === undefined
            ? `no package at ${packageDir}/package.json: a protocol's code is generated into its package`
            : `${packageDir}/package.json names ${packageName}, not ${manifest.package}`,
      });
    if (manifest.entry && !(await exists(path.join(root, packageDir, manifest.entry.module))))
      diagnostics.push({
        ...at(source, '/entry/module'),
        message: `${packageDir}/${manifest.entry.module} does not exist`,
      });
    for (const [i, file] of (manifest.translations ?? []).entries())
      if (!(await exists(path.join(schemasDir, folder, file))))
        diagnostics.push({
          ...at(source, `/translations/${i}`),
          message: `schemas/${folder}/${file} does not exist`,
        });
    for (const [version, entry] of Object.entries(manifest.versions)) {
      const pointer = `/versions/${version}`;
      if (entry.extends !== undefined && !(entry.extends in manifest.versions))
        diagnostics.push({
          ...at(source, `${pointer}/extends`),
          message: `no version "${entry.extends}" of ${manifest.id} to extend`,
        });
      for (const kind of ['documentRules', 'streamCheck', 'suite', 'referenceAgent'] as const) {
        const module = entry[kind];
        if (module !== undefined && !(await exists(path.join(root, packageDir, module))))
          diagnostics.push({
            ...at(source, `${pointer}/${kind}`),
            message: `${packageDir}/${module} does not exist`,
          });
      }
      const template = entry.template?.dir;
      if (template !== undefined && !(await exists(path.join(root, packageDir, template, 'agent.ts'))))
        diagnostics.push({
          ...at(source, `${pointer}/template/dir`),
          message: `${packageDir}/${template}/agent.ts does not exist: a template's agent.ts exports the agent as \`app\``,
        });
    }
    if (diagnostics.length === before) loaded.push({ source, manifest, packageDir });
  }
  return loaded.sort((a, b) => a.manifest.id.localeCompare(b.manifest.id));
}

async function readPackageName(dir: string): Promise<string | undefined> {
  try {
    const pkg: unknown = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    return isRecord(pkg) && typeof pkg.name === 'string' ? pkg.name : undefined;
  } catch {
    return undefined;
  }
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** The folders directly inside `dir`, sorted. */
export async function listDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
