// A version's part of a run: its folder of generated code, through validate → model → emit.
import type { PieceMemo } from '../cache/piece-memo.js';
import { emitVersion } from '../emit/emit-version.js';
import type { TypesMaker } from '../emit/types/types-process.js';
import type { LoadedVersion } from '../load/load-protocols.js';
import { buildModel } from '../model/build-model.js';
import { outputDir, type UnitOutput } from '../run-units.js';
import { validateVersion } from '../validate/validate-version.js';
import { banner } from '../write/write-files.js';

/**
 * A version's folder: validate → model → emit (its type files by `types`, its slowest pieces through `memo` when the run
 * has a cache: emit-version.ts). The version's folder and its package's generated folder are owned.
 */
export async function renderVersion(
  loaded: LoadedVersion,
  types?: TypesMaker,
  memo?: PieceMemo,
): Promise<UnitOutput> {
  // The validators emitter compiles the schemas (and reports one that does not compile): not compiled here too.
  validateVersion(loaded, { compile: false });
  const model = buildModel(loaded);
  const dir = outputDir(model);
  const files = (await emitVersion(model, types, memo)).map((f) => ({
    path: `${dir}/${f.name}`,
    content: `${banner(f.source)}${f.content.trimEnd()}\n`,
  }));
  return { dirs: [dir, `${model.binding.packageDir}/src/generated`], files };
}
