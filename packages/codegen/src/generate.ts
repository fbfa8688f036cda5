// generate = write ∘ emit ∘ model ∘ validate ∘ load: the pipeline, in memory until the write stage. Besides each
// version's files it emits the registry of every protocol, from the manifests.
import { keepStamp } from './cache/stamp.js';
import { DiagnosticsError } from './diagnostics.js';
import { sideFromVersion } from './diff/read-side.js';
import { emitVersion } from './emit/emit-version.js';
import { emitRegistry } from './emit/registry/emit-registry.js';
import { emitTranslationList, emitTranslators, translatorFile } from './emit/translators/emit-translators.js';
import { emitEntry, emitLatest, emitModules, emitVersions } from './emit/versions/emit-versions.js';
import { MANIFEST_FILE } from './load/load-manifests.js';
import { loadTree } from './load/load-protocols.js';
import { buildModel } from './model/build-model.js';
import type { ProtocolModel } from './model/protocol-model.js';
import { translationShapes, validateTranslation } from './validate/validate-translation.js';
import { validateVersion } from './validate/validate-version.js';
import { banner, type CheckResult, type OutputFile, writeFiles } from './write/write-files.js';

/** Options of one generator run. */
export interface GenerateOptions {
  /** Repository root: the folder holding `schemas/` and `packages/`. */
  root: string;
  /** Only these protocol ids (all when omitted). */
  protocols?: readonly string[];
  /** Write nothing; report the files that differ from what would be generated. */
  check?: boolean;
}

/** Where a protocol version's generated code lives, relative to the repository root. */
export function outputDir(model: Pick<ProtocolModel, 'binding' | 'version'>): string {
  return `${model.binding.packageDir}/src/generated/${model.version}`;
}

/** The generated registry of every protocol and version, which the conformance kit and the CLI read. */
export const REGISTRY_DIR = 'packages/registry/src/generated';

/** Runs load → validate → model → emit in memory and returns every output file with its banner. */
export async function renderAll(
  root: string,
  protocols?: readonly string[],
): Promise<{ dirs: string[]; files: OutputFile[] }> {
  const files: OutputFile[] = [];
  const dirs: string[] = [];
  const tree = await loadTree(root, protocols);
  const packages = new Set<string>();
  for (const loaded of tree.versions) {
    validateVersion(loaded);
    const model = buildModel(loaded);
    const dir = outputDir(model);
    dirs.push(dir);
    packages.add(`${model.binding.packageDir}/src/generated`);
    for (const f of await emitVersion(model)) {
      files.push({ path: `${dir}/${f.name}`, content: `${banner(f.source)}${f.content.trimEnd()}\n` });
    }
  }
  // Translations between two versions: checked against both and against their diff, then emitted as codecs.
  for (const t of tree.translations) {
    const version = (v: string) => tree.versions.find((x) => x.protocol === t.protocol && x.version === v);
    const from = version(t.source.value.from);
    const to = version(t.source.value.to);
    if (!from || !to)
      throw new DiagnosticsError([
        {
          file: t.source.file,
          pointer: from ? '/to' : '/from',
          message: `${t.protocol} has no version "${from ? t.source.value.to : t.source.value.from}"`,
        },
      ]);
    const sides = { from: sideFromVersion(from), to: sideFromVersion(to) };
    const problems = validateTranslation(t, sides.from, sides.to);
    if (problems.length > 0) throw new DiagnosticsError(problems);
    const dir = `${from.packageDir}/src/generated`;
    files.push({
      path: `${dir}/${translatorFile(t)}`,
      content: `${banner(t.source.file)}${String(emitTranslators(t, translationShapes(sides))).trimEnd()}\n`,
    });
  }
  for (const loaded of tree.manifests) {
    const mine = tree.translations.filter((t) => t.protocol === loaded.manifest.id);
    if (mine.length === 0) continue;
    files.push({
      path: `${loaded.packageDir}/src/generated/translations.ts`,
      content: `${banner(`schemas/${loaded.manifest.id}/${MANIFEST_FILE}`)}${String(emitTranslationList(mine)).trimEnd()}\n`,
    });
  }
  // What each package knows of its versions as a whole: their list and traits, their code by version, and (when the
  // manifest declares an entry) every version's entry point.
  for (const loaded of tree.manifests) {
    if (protocols && !protocols.includes(loaded.manifest.id)) continue;
    const dir = `${loaded.packageDir}/src/generated`;
    const source = `schemas/${loaded.manifest.id}/${MANIFEST_FILE}`;
    const emitted: Array<[string, { toString(): string } | undefined]> = [
      ['versions.ts', emitVersions(loaded)],
      ['modules.ts', emitModules(loaded)],
      ['latest.ts', emitLatest(loaded)],
      ...Object.keys(loaded.manifest.versions).map((version): [string, ReturnType<typeof emitEntry>] => [
        `${version}/entry.ts`,
        emitEntry(loaded, version),
      ]),
    ];
    for (const [name, code] of emitted)
      if (code !== undefined)
        files.push({ path: `${dir}/${name}`, content: `${banner(source)}${String(code).trimEnd()}\n` });
  }
  // A package's generated folder holds one folder per version the manifest lists, the files above, and nothing else.
  dirs.push(...packages);
  dirs.push(REGISTRY_DIR);
  const registry = String(emitRegistry(tree.manifests));
  files.push({
    path: `${REGISTRY_DIR}/registry.ts`,
    content: `${banner(`schemas/*/${MANIFEST_FILE}`)}${registry.trimEnd()}\n`,
  });
  return { dirs, files };
}

/** generate = write ∘ emit ∘ model ∘ validate ∘ load. Returns the stale (or rewritten) files. */
export async function generate(options: GenerateOptions): Promise<CheckResult> {
  const { dirs, files } = await renderAll(options.root, options.protocols);
  return writeFiles(options.root, dirs, await keepStamp(options.root, files), options.check ?? false);
}
