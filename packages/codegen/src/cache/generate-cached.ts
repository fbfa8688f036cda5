// `generate` through the run cache (run-cache.ts), in a module of its own that loads no emitter: a run whose inputs
// are those of the last one reads that run's output and goes straight to the write stage, so `pnpm generate --check`
// on an unchanged tree costs the hashing of its inputs and the comparison with the disk. A miss loads the pipeline.
import type { GenerateOptions } from '../generate.js';
import { type CheckResult, writeFiles } from '../write/write-files.js';
import { cachedRun, runKey, saveRun } from './run-cache.js';

/** Options of a cached run: those of `generate`, and whether to use the cache (default true). */
export interface CachedGenerateOptions extends GenerateOptions {
  cache?: boolean;
}

/** What a cached run found, and whether its output came from the cache. */
export interface CachedGenerateResult extends CheckResult {
  cached: boolean;
}

/** generate, through the run cache: the last run's output when every input is as it was, else a full run. */
export async function generateCached(options: CachedGenerateOptions): Promise<CachedGenerateResult> {
  const { root, protocols, check = false } = options;
  const key = options.cache === false ? undefined : await runKey(root, protocols);
  const hit = key === undefined ? undefined : await cachedRun(root, key, protocols);
  if (hit) return { ...(await writeFiles(root, hit.dirs, hit.files, check)), cached: true };
  const { renderAll } = await import('../generate.js');
  const output = await renderAll(root, protocols);
  const result = await writeFiles(root, output.dirs, output.files, check);
  if (key !== undefined) await saveRun(root, key, output, protocols);
  return { ...result, cached: false };
}
