// generate = write ∘ emit ∘ model ∘ validate ∘ load: the pipeline, in memory until the write stage. A run is made of
// parts (run-units.ts), each rendered by its module under render/: every version's folder, every translation between
// two versions, each package's version-wide files, and the registry of every protocol, from the manifests.
import type { PieceMemo } from './cache/piece-memo.js';
import { keepStamp } from './cache/stamp.js';
import type { TypesMaker } from './emit/types/types-process.js';
import { type LoadedTree, loadTree } from './load/load-protocols.js';
import type { YamlParser } from './load/source-file.js';
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
  /**
   * Make the versions' type files in a second process while this one makes the rest (types-process.ts): faster on a
   * machine with a core to spare, the same output. Default false.
   */
  parallel?: boolean;
}

/**
 * How a run renders its parts: `parallel` as in GenerateOptions; `types`, a second process the caller started already
 * (startTypesProcess) and lets go of itself, used instead of starting one; `memo`, the generator's cache of pieces of
 * parts (piece-memo.ts), when the run has one; `parseYaml`, how the load stage parses YAML (the generator's cache of
 * values, cache/yaml-values.ts, when the run has one).
 */
export interface RenderOptions {
  parallel?: boolean;
  types?: TypesMaker;
  memo?: PieceMemo;
  parseYaml?: YamlParser;
}

/** Runs load → validate → model → emit in memory and returns every output file with its banner. */
export async function renderAll(
  root: string,
  protocols?: readonly string[],
  options: RenderOptions = {},
): Promise<{ dirs: string[]; files: OutputFile[] }> {
  preloadRenderers(['version', 'translation', 'package', 'registry']);
  return withTypesMaker(options.parallel === true, options.types, async (types) => {
    const tree = await loadTree(root, protocols);
    const units = unitsOf(tree, protocols);
    return joinOutputs(units.map(unitId), await renderTree(tree, units, types));
  });
}

/**
 * Runs `render` with the maker of the versions' type files: with `parallel`, the caller's second process (`started`)
 * or else one started before the run loads anything (it loads its libraries meanwhile) and let go of when the run is
 * done, however it ends.
 */
async function withTypesMaker<T>(
  parallel: boolean,
  started: TypesMaker | undefined,
  render: (types?: TypesMaker) => Promise<T>,
): Promise<T> {
  if (!parallel) return render();
  if (started) return render(started);
  const types = (await import('./emit/types/types-process.js')).startTypesProcess();
  try {
    return await render(types);
  } finally {
    types.close();
  }
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
export async function renderUnits(
  root: string,
  units: readonly Unit[],
  options: RenderOptions = {},
): Promise<Map<string, UnitOutput>> {
  const protocols = [...new Set(units.flatMap((u) => (u.kind === 'registry' ? [] : [u.protocol])))];
  // A second process is worth starting only for a version's folder: the only part with type files.
  const parallel = options.parallel === true && units.some((u) => u.kind === 'version');
  preloadRenderers(units.map((u) => u.kind));
  return withTypesMaker(parallel, options.types, async (types) =>
    renderTree(await loadTree(root, protocols, options.parseYaml), units, types, options.memo),
  );
}

/** The outputs of `units` over a loaded tree, by part name; a part the tree does not hold is an error. */
async function renderTree(
  tree: LoadedTree,
  units: readonly Unit[],
  types?: TypesMaker,
  memo?: PieceMemo,
): Promise<Map<string, UnitOutput>> {
  const out = new Map<string, UnitOutput>();
  if (!types) {
    for (const unit of units) out.set(unitId(unit), await renderUnit(tree, unit, types, memo));
    return out;
  }
  // With a second process (types-process.ts), every part is started at once: a version waiting for its type files
  // lets this process render the next part meanwhile. Each part is pure, so the output is the same; the error thrown
  // is the first failed part's in order, as when they went one by one.
  const settled = await Promise.allSettled(units.map((unit) => renderUnit(tree, unit, types, memo)));
  for (const [i, result] of settled.entries()) {
    if (result.status === 'rejected') throw result.reason;
    const unit = units[i];
    if (unit) out.set(unitId(unit), result.value);
  }
  return out;
}

/**
 * Each kind of part's renderer module. Node loads a module once: a second import of it is the first one's promise.
 */
const RENDERERS = {
  version: () => import('./render/render-version.js'),
  translation: () => import('./render/render-translation.js'),
  package: () => import('./render/render-package.js'),
  registry: () => import('./render/render-registry.js'),
} satisfies Record<Unit['kind'], () => Promise<unknown>>;

/**
 * Starts loading the renderers of `kinds` and does not wait for them. Under tsx each module is compiled on its hooks
 * thread: started here, that work overlaps the load stage's reading of the schemas instead of following it. A module
 * that fails to load is left for renderUnit's own import of it to report.
 */
function preloadRenderers(kinds: Iterable<Unit['kind']>): void {
  for (const kind of new Set(kinds)) RENDERERS[kind]().catch(() => undefined);
}

/**
 * One part's output over a loaded tree. Each kind's renderer is loaded only when the run has a part of its kind
 * (preloadRenderers), so a run that renders one version's folder loads no translation or registry emitter.
 */
async function renderUnit(
  tree: LoadedTree,
  unit: Unit,
  types?: TypesMaker,
  memo?: PieceMemo,
): Promise<UnitOutput> {
  switch (unit.kind) {
    case 'version': {
      const loaded = tree.versions.find((v) => v.protocol === unit.protocol && v.version === unit.version);
      if (!loaded) throw new Error(`the load stage read no ${unit.protocol}@${unit.version}`);
      return (await RENDERERS.version()).renderVersion(loaded, types, memo);
    }
    case 'translation': {
      const t = tree.translations.find((x) => x.source.file === unit.file);
      if (!t) throw new Error(`the load stage read no translation ${unit.file}`);
      return {
        dirs: [],
        files: [(await RENDERERS.translation()).renderTranslation(tree, t, memo)],
      };
    }
    case 'package': {
      const loaded = tree.manifests.find((m) => m.manifest.id === unit.protocol);
      if (!loaded) throw new Error(`the load stage read no manifest of ${unit.protocol}`);
      return {
        dirs: [],
        files: (await RENDERERS.package()).renderPackage(loaded, tree.translations),
      };
    }
    case 'registry':
      return (await RENDERERS.registry()).renderRegistry(tree.manifests);
  }
}

/** generate = write ∘ emit ∘ model ∘ validate ∘ load. Returns the stale (or rewritten) files. */
export async function generate(options: GenerateOptions): Promise<CheckResult> {
  const { dirs, files } = await renderAll(
    options.root,
    options.protocols,
    options.parallel === undefined ? {} : { parallel: options.parallel },
  );
  return writeFiles(options.root, dirs, await keepStamp(options.root, files), options.check ?? false);
}
