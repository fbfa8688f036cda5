// A generator run, cut into parts that each depend on their own inputs: one per protocol version (its generated
// folder), one per translation between two versions, one per protocol package (what the package knows of its versions
// as a whole: versions.ts, modules.ts, latest.ts, the entry points, translations.ts) and the registry of every
// protocol. A part's key is the hash of the generator itself (its sources, the runtime modules they import, its
// manifest and the lockfile: generator-sources.ts) and of the files the part reads, so a change to one version's schema
// changes that version's key, and a translation's from or to it, and no other. The plan reads the protocol manifests
// (plainly, with `yaml`) only to learn the parts and what each reads; every part's key holds its protocol's manifest,
// so a manifest the load stage would reject changes the keys, the pipeline runs and reports it. Every check the load
// stage makes of a protocol reads inputs of its package part, and the pipeline loads a protocol whole whenever one of
// its parts runs, so a part taken from the cache never hides a diagnostic.
import { createHash } from 'node:crypto';
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { type Unit, unitId } from '../run-units.js';
import { filesUnder, generatorSources, NOT_READ, type WorkspacePackage } from './generator-sources.js';

/** A part of a planned run: what it is, its name and the key of its inputs. */
export interface PlannedUnit {
  unit: Unit;
  id: string;
  key: string;
}

/** A run's parts, and the key of the whole run (the stamp's: every part's key, and the protocols asked for). */
export interface RunPlan {
  key: string;
  /** The generator's own hash (its sources, the runtime modules they import, its manifest and the lockfile). */
  generator: string;
  units: PlannedUnit[];
}

/** A protocol's manifest file (load-manifests.ts's MANIFEST_FILE; not imported, as that module loads ajv). */
export const MANIFEST = 'protocol.yaml';
/** A version's requirements (load-requirements.ts's REQUIREMENTS_FILE, not imported for the same reason). */
export const REQUIREMENTS = 'requirements.yaml';
/** What a version requires of a client (load-requirements.ts's CLIENT_REQUIREMENTS_FILE), which may extend too. */
export const CLIENT_REQUIREMENTS = 'client-requirements.yaml';

/** What the plan needs of a protocol manifest. */
interface ManifestSketch {
  /** The package's folder, `packages/<name>` (from `package`, as the load stage derives it). */
  packageDir?: string;
  /** Each version listed, and the version it extends. */
  versions: Map<string, string | undefined>;
  /** The translation manifests listed, relative to the root. */
  translations: string[];
}

/** Whether a value is an object whose members can be read. */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

/** A YAML file's value, or undefined when it is absent or does not parse. */
function parseYaml(text: Buffer | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return parse(text.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The string values of some top-level keys of a YAML file, read from their own lines without parsing the rest (a
 * requirements file runs to hundreds of lines; the plan needs its `extends`, and a translation manifest's `from` and
 * `to`). An absent file has none. Undefined when the file is not a plain block mapping whose keys open their lines
 * (flow style, quoted keys, several documents), a key is there twice, or its value is not a string on its own line:
 * the plan then takes every file the value could name.
 */
export function topLevelStrings(
  text: Buffer | undefined,
  keys: readonly string[],
): Map<string, string> | undefined {
  const found = new Map<string, string>();
  if (text === undefined) return found;
  const lines = text.toString('utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    if (/^(\s|#|$)/.test(line)) continue;
    const key = /^([A-Za-z0-9_-]+):(?:\s|$)/.exec(line)?.[1];
    if (key === undefined) return undefined;
    if (!keys.includes(key)) continue;
    // A plain scalar may go on over indented lines: then the line alone is not the value.
    const next = lines.slice(i + 1).find((l) => l.trim() !== '');
    if (found.has(key) || (next !== undefined && /^\s/.test(next))) return undefined;
    let value: unknown;
    try {
      value = parse(line);
    } catch {
      return undefined;
    }
    const string = isObject(value) ? value[key] : undefined;
    if (typeof string !== 'string' || string === '') return undefined;
    found.set(key, string);
  }
  return found;
}

/** A manifest's parts as the plan reads them; undefined when it is not a manifest (the load stage says why). */
function sketchManifest(protocol: string, text: Buffer | undefined): ManifestSketch | undefined {
  const value = parseYaml(text);
  if (!isObject(value) || !isObject(value.versions)) return undefined;
  const versions = new Map<string, string | undefined>();
  for (const [version, entry] of Object.entries(value.versions))
    versions.set(version, isObject(entry) && typeof entry.extends === 'string' ? entry.extends : undefined);
  const name = typeof value.package === 'string' ? value.package.split('/')[1] : undefined;
  const translations = Array.isArray(value.translations) ? value.translations : [];
  return {
    ...(name ? { packageDir: `packages/${name}` } : {}),
    versions,
    translations: translations
      .filter((t): t is string => typeof t === 'string')
      .map((t) => path.posix.join('schemas', protocol, t)),
  };
}

/** The key of one part: the generator's hash, the part's name and each input's name and hash, in name order. */
function keyOf(generator: string, id: string, inputs: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  hash.update(`${generator}\0${id}\0`);
  for (const name of [...inputs.keys()].sort()) hash.update(`${name.length}:${name}${inputs.get(name)}\n`);
  return hash.digest('hex');
}

/**
 * Plans a run over `root` (for `protocols`, or all): reads every input once — the generator's sources, the schemas,
 * each package's manifest and file names — and returns the parts with their keys.
 */
export function planRun(root: string, protocols?: readonly string[]): RunPlan {
  const read = (file: string): Buffer | undefined => {
    try {
      return readFileSync(path.join(root, file));
    } catch {
      return undefined;
    }
  };
  const folders = (dir: string): string[] => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      return [];
    }
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  };
  const packages = (() => {
    try {
      return readdirSync(path.join(root, 'packages')).sort();
    } catch {
      return [];
    }
  })().map((p) => {
    const dir = `packages/${p}`;
    return {
      dir,
      manifest: read(`${dir}/package.json`),
      listing: sha256(filesUnder(root, dir, NOT_READ).join('\n')),
    };
  });
  const workspace = new Map<string, WorkspacePackage>();
  for (const { dir, manifest } of packages) {
    const parsed = parsePackageManifest(manifest);
    if (parsed) workspace.set(parsed.name, { dir, exports: parsed.exports });
  }
  const generatorHash = createHash('sha256');
  const generatorFiles = new Map<string, string | Buffer>([
    ['pnpm-lock.yaml', read('pnpm-lock.yaml') ?? ''],
    ['packages/codegen/package.json', read('packages/codegen/package.json') ?? ''],
    ...generatorSources(root, workspace),
  ]);
  for (const [file, text] of generatorFiles) {
    generatorHash.update(`${file}\0${Buffer.byteLength(text)}\0`);
    generatorHash.update(text);
  }
  const generator = generatorHash.digest('hex');
  const schemaFiles = filesUnder(root, 'schemas');
  const texts = new Map(schemaFiles.map((file) => [file, read(file)]));
  const hashes = new Map(schemaFiles.map((file) => [file, sha256(texts.get(file) ?? '')]));
  // A file a part reads that is not there is an input too: its absence.
  const hashOf = (file: string) => hashes.get(file) ?? 'absent';
  const filesIn = (folder: string) => schemaFiles.filter((f) => f.startsWith(`${folder}/`));

  const planned: PlannedUnit[] = [];
  const add = (unit: Unit, inputs: ReadonlyMap<string, string>) => {
    const id = unitId(unit);
    planned.push({ unit, id, key: keyOf(generator, id, inputs) });
  };
  const manifests = schemaFiles.filter((f) => /^schemas\/[^/]+\/protocol\.yaml$/.test(f));
  for (const manifestFile of manifests) {
    const protocol = manifestFile.split('/')[1] ?? '';
    if (protocols && !protocols.includes(protocol)) continue;
    const folder = `schemas/${protocol}`;
    const sketch = sketchManifest(protocol, texts.get(manifestFile));
    const subfolders = folders(folder);
    // What a version's code is made from: its folder, the folder of the version it extends (whose schemas and
    // documents it inherits), and the requirements files its own `requirements.yaml` (and `client-requirements.yaml`) extends (each of the protocol's,
    // when one does not say plainly which).
    const versionReads = (version: string, into: Map<string, string>, seen = new Set<string>()) => {
      if (seen.has(version)) return;
      seen.add(version);
      for (const f of filesIn(`${folder}/${version}`)) into.set(f, hashOf(f));
      const base = sketch?.versions.get(version);
      if (base !== undefined) versionReads(base, into, seen);
      for (const name of [REQUIREMENTS, CLIENT_REQUIREMENTS]) {
        const requirementsSeen = new Set<string>();
        for (let v: string | undefined = version; v !== undefined && !requirementsSeen.has(v); ) {
          requirementsSeen.add(v);
          const file = `${folder}/${v}/${name}`;
          into.set(file, hashOf(file));
          const read = topLevelStrings(texts.get(file), ['extends']);
          if (!read)
            for (const other of subfolders)
              into.set(`${folder}/${other}/${name}`, hashOf(`${folder}/${other}/${name}`));
          v = read?.get('extends');
        }
      }
    };
    const withManifest = () => new Map([[manifestFile, hashOf(manifestFile)]]);
    for (const version of sketch?.versions.keys() ?? []) {
      const inputs = withManifest();
      versionReads(version, inputs);
      add({ kind: 'version', protocol, version }, inputs);
    }
    for (const file of sketch?.translations ?? []) {
      const inputs = withManifest();
      inputs.set(file, hashOf(file));
      const read = topLevelStrings(texts.get(file), ['from', 'to']);
      const sides = [read?.get('from'), read?.get('to')];
      if (sides.every((s) => s !== undefined)) for (const side of sides) versionReads(side, inputs);
      // A manifest whose sides the plan cannot tell: the protocol's every file.
      else for (const f of filesIn(folder)) inputs.set(f, hashOf(f));
      add({ kind: 'translation', protocol, file }, inputs);
    }
    // The package part: what the load stage checks of the protocol beyond its versions (its folders, the files its
    // manifest names, the package holding them) and what the package's version-wide files are made from.
    const inputs = withManifest();
    for (const f of schemaFiles)
      if (f.startsWith(`${folder}/`) && !f.slice(folder.length + 1).includes('/')) inputs.set(f, hashOf(f));
    inputs.set(`${folder}/`, sha256(subfolders.join('\n')));
    for (const p of packages)
      if (sketch?.packageDir === undefined || p.dir === sketch.packageDir) {
        inputs.set(`${p.dir}/package.json`, sha256(p.manifest ?? ''));
        inputs.set(`${p.dir}/`, p.listing);
      }
    add({ kind: 'package', protocol }, inputs);
  }
  // The registry: every manifest, and the packages they name (every package's manifest).
  const registry = new Map(manifests.map((f) => [f, hashOf(f)]));
  for (const p of packages) registry.set(`${p.dir}/package.json`, sha256(p.manifest ?? ''));
  add({ kind: 'registry' }, registry);

  const run = createHash('sha256').update(`${JSON.stringify(protocols ?? null)}\n`);
  for (const u of planned) run.update(`${u.id}\0${u.key}\n`);
  return { key: run.digest('hex'), generator, units: planned };
}

/** The key of a run over `root` (for `protocols`, or all): the stamp's key, `planRun(…).key`. */
export function runKey(root: string, protocols?: readonly string[]): string {
  return planRun(root, protocols).key;
}

/** A package manifest's name and `exports`; undefined when it is unreadable or names no package. */
function parsePackageManifest(text: Buffer | undefined): { name: string; exports: unknown } | undefined {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text?.toString('utf8') ?? '');
  } catch {
    return undefined;
  }
  return isObject(manifest) && typeof manifest.name === 'string'
    ? { name: manifest.name, exports: manifest.exports }
    : undefined;
}
