// `generate` through the run cache (run-cache.ts) and the stamp (stamp.ts), in a module of its own that loads no
// emitter. A full `--check` whose inputs hash to the committed stamp's key hashes the generated files against it (a
// fresh clone has no run cache, and this is what CI runs); a run whose inputs are those of the last run kept in the
// cache reads that run's output and goes straight to the write stage. Either way the files on disk are compared, so a
// generated file edited by hand is found as before. A miss loads the pipeline.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { GenerateOptions } from '../generate.js';
import { type CheckResult, type OutputFile, writeFiles } from '../write/write-files.js';
import { cachedRun, runKey, saveRun } from './run-cache.js';
import { checkAgainstStamp, keepStamp, readStamp, STAMP_FILE, stampFile } from './stamp.js';

/** Options of a cached run: those of `generate`, and whether to use the cache (default true). */
export interface CachedGenerateOptions extends GenerateOptions {
  cache?: boolean;
  /**
   * The stamp a run writes and a check reads (relative to the root), or false for none. Default: STAMP_FILE for a run
   * over every protocol, none for a run over some.
   */
  stamp?: string | false;
}

/** What a cached run found, and whether its output came from the cache. */
export interface CachedGenerateResult extends CheckResult {
  cached: boolean;
  /** True when a check was answered by the stamp, without the pipeline or the run cache. */
  stamped?: true;
  /**
   * The stamp's path, when the stamp on disk names other inputs than these: `generate` rewrites it (a check never fails
   * on it, but runs the pipeline until then).
   */
  stampOutdated?: string;
}

/** generate, through the stamp and the run cache: the pipeline runs only when an input changed. */
export async function generateCached(options: CachedGenerateOptions): Promise<CachedGenerateResult> {
  const { root, protocols, check = false } = options;
  const stamp = options.stamp ?? (protocols === undefined ? STAMP_FILE : false);
  const key = options.cache === false ? undefined : await runKey(root, protocols);
  const onDisk = stamp === false ? undefined : await readStamp(root, stamp);
  if (check && stamp !== false && key !== undefined && onDisk?.key === key)
    return { ...(await checkAgainstStamp(root, onDisk, stamp)), cached: true, stamped: true };
  const outdated = stamp !== false && onDisk?.key !== key ? { stampOutdated: stamp } : {};
  const hit = key === undefined ? undefined : await cachedRun(root, key, protocols);
  const output = hit ?? (await (await import('../generate.js')).renderAll(root, protocols));
  const files: OutputFile[] = [...output.files];
  if (stamp !== false) {
    const stampKey = key ?? (await runKey(root, protocols));
    // A check does not judge the stamp (the file on disk stands in for it): only the files users read are drift.
    const current = check ? await readText(root, stamp) : undefined;
    files.push(
      current === undefined
        ? stampFile(stampKey, output.dirs, output.files, stamp)
        : { path: stamp, content: current },
    );
  }
  const result = await writeFiles(root, output.dirs, await keepStamp(root, files), check);
  if (!hit && key !== undefined) await saveRun(root, key, output, protocols);
  return { ...result, cached: hit !== undefined, ...(check ? outdated : {}) };
}

/** A file's text, or undefined when it cannot be read. */
function readText(root: string, file: string): Promise<string | undefined> {
  return readFile(path.join(root, file), 'utf8').catch(() => undefined);
}
