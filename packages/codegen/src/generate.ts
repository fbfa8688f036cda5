// generate = write ∘ emit ∘ model ∘ validate ∘ load: the pipeline, in memory until the write stage. A run is made of
// parts (run-units.ts), each rendered by its module under render/: every version's folder, every translation between
// two versions, each package's version-wide files, and the registry of every protocol, from the manifests.
import { keepStamp } from './cache/stamp.js';
import { type LoadedTree, loadTree } from './load/load-protocols.js';
import { joinOutputs, type Unit, type UnitOutput, unitId } from './run-units.js';
import { type CheckResult, type OutputFile, writeFiles } from './write/write-files.js';

export { outputDir, REGISTRY_DIR } from './run-units.js';

/** Options of one generator run. */
export interface GenerateOptions {
  /** Repository root: the folder holding `schemas/` and `packages/`. */
  root: string;
  /** Only these protocol ids (all when omitted). */
  protocols?: readonly string[];
  /** Write nothing; report the files that differ from what would be generated. */
  check?: boolean;
}

/** Runs load → validate → model → emit in memory and returns every output file with its banner. */
export async function renderAll(
  root: string,
  protocols?: readonly string[],
): Promise<{ dirs: string[]; files: OutputFile[] }> {
  const tree = await loadTree(root, protocols);
  const units = unitsOf(tree, protocols);
  return joinOutputs(units.map(unitId), await renderTree(tree, units));
}

/**
 * The parts of a run over a loaded tree (run-plan.ts plans the same from the files): each version, each translation,
 * each package's version-wide files, and the registry.
 */
function unitsOf(tree: LoadedTree, protocols?: readonly string[]): Unit[] {
  return [
    ...tree.versions.map((v): Unit => ({ kind: 'version', protocol: v.protocol, version: v.version })),
    ...tree.translations.map(
      (t): Unit => ({ kind: 'translation', protocol: t.protocol, file: t.source.file }),
    ),
    ...tree.manifests
      .filter((m) => !protocols || protocols.includes(m.manifest.id))
      .map((m): Unit => ({ kind: 'package', protocol: m.manifest.id })),
    { kind: 'registry' },
  ];
}

/**
 * Renders some parts of a run (run-plan.ts): loads the protocols they belong to — whole, so the load stage checks
 * each as a full run does — and runs validate → model → emit for those parts only. Returns each part's output by its
 * name.
 */
export async function renderUnits(root: string, units: readonly Unit[]): Promise<Map<string, UnitOutput>> {
  const protocols = [...new Set(units.flatMap((u) => (u.kind === 'registry' ? [] : [u.protocol])))];
  return renderTree(await loadTree(root, protocols), units);
}

/** The outputs of `units` over a loaded tree, by part name; a part the tree does not hold is an error. */
async function renderTree(tree: LoadedTree, units: readonly Unit[]): Promise<Map<string, UnitOutput>> {
  const out = new Map<string, UnitOutput>();
  for (const unit of units) out.set(unitId(unit), await renderUnit(tree, unit));
  return out;
}

/**
 * One part's output over a loaded tree. Each kind's renderer is loaded when a part of its kind is rendered, so a run
 * that renders one version's folder loads no translation or registry emitter.
 */
async function renderUnit(tree: LoadedTree, unit: Unit): Promise<UnitOutput> {
  switch (unit.kind) {
    case 'version': {
      const loaded = tree.versions.find((v) => v.protocol === unit.protocol && v.version === unit.version);
      if (!loaded) throw new Error(`the load stage read no ${unit.protocol}@${unit.version}`);
      return (await import('./render/render-version.js')).renderVersion(loaded);
    }
    case 'translation': {
      const t = tree.translations.find((x) => x.source.file === unit.file);
      if (!t) throw new Error(`the load stage read no translation ${unit.file}`);
      return {
        dirs: [],
        files: [(await import('./render/render-translation.js')).renderTranslation(tree, t)],
      };
    }
    case 'package': {
      const loaded = tree.manifests.find((m) => m.manifest.id === unit.protocol);
      if (!loaded) throw new Error(`the load stage read no manifest of ${unit.protocol}`);
      return {
        dirs: [],
        files: (await import('./render/render-package.js')).renderPackage(loaded, tree.translations),
      };
    }
    case 'registry':
      return (await import('./render/render-registry.js')).renderRegistry(tree.manifests);
  }
}

/** generate = write ∘ emit ∘ model ∘ validate ∘ load. Returns the stale (or rewritten) files. */
export async function generate(options: GenerateOptions): Promise<CheckResult> {
  const { dirs, files } = await renderAll(options.root, options.protocols);
  return writeFiles(options.root, dirs, await keepStamp(options.root, files), options.check ?? false);
}
