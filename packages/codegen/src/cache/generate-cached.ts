// `generate` through the stamp (stamp.ts) and the cache of each part of a run (run-plan.ts, unit-records.ts), in a module
// of its own that loads no emitter. A full `--check` whose inputs hash to the committed stamp's key hashes the
// generated files against it (a fresh clone has no cache, and this is what CI runs). Otherwise each part whose key has
// a record is taken from it, and the pipeline renders the others only — none at all when nothing changed, one
// version's folder after an edit to that version's schema. Either way the files on disk are compared, so a generated
// file edited by hand is found as before.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TypesMaker } from '../emit/types/types-process.js';
import type { GenerateOptions } from '../generate.js';
import { joinOutputs, type UnitOutput } from '../run-units.js';
import { type CheckResult, type OutputFile, writeFiles } from '../write/write-files.js';
import { PIECES_DIR, PIECES_KEPT, pieceMemo } from './piece-memo.js';
import { planRun } from './run-plan.js';
import { checkAgainstStamp, keepStamp, readStamp, STAMP_FILE, stampFile } from './stamp.js';
import {
  pruneRecords,
  pruneUnitRecords,
  RUN_CACHE_DIR,
  readUnitRecord,
  saveUnitRecord,
} from './unit-records.js';
import { cachedYamlParser, YAML_DIR, YAML_KEPT } from './yaml-values.js';

/**
 * Options of a cached run: those of `generate` (but `parallel` defaults to true: this is the command's run), and
 * whether to use the cache (default true).
 */
export interface CachedGenerateOptions extends GenerateOptions {
  cache?: boolean;
  /**
   * The stamp a run writes and a check reads (relative to the root), or false for none. Default: STAMP_FILE for a run
   * over every protocol, none for a run over some.
   */
  stamp?: string | false;
}

/** What a cached run found, and which parts of it were rendered rather than taken from the cache. */
export interface CachedGenerateResult extends CheckResult {
  /** True when no part was rendered: the whole output came from the cache (or the stamp). */
  cached: boolean;
  /** The parts the pipeline rendered (run-plan.ts's names), in the plan's order; all of them with `--no-cache`. */
  rendered: string[];
  /** True when a check was answered by the stamp, without the pipeline or the cache. */
  stamped?: true;
  /**
   * The stamp's path, when the stamp on disk names other inputs than these: `generate` rewrites it (a check never fails
   * on it, but runs the pipeline until then).
   */
  stampOutdated?: string;
}

/** generate, through the stamp and the cache: the pipeline renders only the parts whose inputs changed. */
export async function generateCached(options: CachedGenerateOptions): Promise<CachedGenerateResult> {
  const { check = false, parallel = true } = options;
  // A run that writes starts its second process (types-process.ts) before anything else: it loads its libraries while
  // this one plans the run and loads the schemas, so it is ready when the first version's model is made. It is let go
  // of at the end, used or not. A check waits until the pipeline runs, as the stamp answers most checks without it.
  const types =
    parallel && !check ? (await import('../emit/types/types-process.js')).startTypesProcess() : undefined;
  try {
    return await cachedRun(options, types);
  } finally {
    types?.close();
  }
}

/** generateCached's run, with the second process it started (if any). */
async function cachedRun(options: CachedGenerateOptions, types?: TypesMaker): Promise<CachedGenerateResult> {
  const { root, protocols, check = false, parallel = true } = options;
  const cache = options.cache !== false;
  const stamp = options.stamp ?? (protocols === undefined ? STAMP_FILE : false);
  const plan = planRun(root, protocols);
  const onDisk = stamp === false ? undefined : await readStamp(root, stamp);
  if (check && cache && stamp !== false && onDisk?.key === plan.key)
    return {
      ...(await checkAgainstStamp(root, onDisk, stamp)),
      cached: true,
      rendered: [],
      stamped: true,
    };
  const outdated = stamp !== false && onDisk?.key !== plan.key ? { stampOutdated: stamp } : {};
  const kept = new Map<string, UnitOutput>();
  if (cache)
    await Promise.all(
      plan.units.map(async (u) => {
        const output = await readUnitRecord(root, u);
        if (output) kept.set(u.id, output);
      }),
    );
  const missing = plan.units.filter((u) => !kept.has(u.id));
  const started = types ? { types } : {};
  // Pieces of the parts rendered (piece-memo.ts), and the values of the YAML files read (yaml-values.ts), through the
  // cache as the parts are.
  const memo = cache ? pieceMemo(root, plan.generator) : undefined;
  const yaml = cache ? pieceMemo(root, plan.generator, YAML_DIR) : undefined;
  let output: UnitOutput;
  if (!cache) {
    // --no-cache: the whole pipeline, as `generate` without the cache runs it.
    output = await (await import('../generate.js')).renderAll(root, protocols, { parallel, ...started });
  } else {
    const rendered =
      missing.length === 0
        ? new Map<string, UnitOutput>()
        : await (await import('../generate.js')).renderUnits(
            root,
            missing.map((u) => u.unit),
            {
              parallel,
              ...started,
              ...(memo ? { memo } : {}),
              ...(yaml ? { parseYaml: cachedYamlParser(yaml) } : {}),
            },
          );
    output = joinOutputs(
      plan.units.map((u) => u.id),
      new Map([...kept, ...rendered]),
    );
    // A part's record is what the pipeline rendered for it, whatever the write stage then finds on disk.
    for (const u of missing) {
      const mine = rendered.get(u.id);
      if (mine) await saveUnitRecord(root, u, mine);
    }
    if (missing.length > 0) await pruneUnitRecords(root);
    if (memo && memo.made() > 0) await pruneRecords(path.join(root, RUN_CACHE_DIR, PIECES_DIR), PIECES_KEPT);
    if (yaml && yaml.made() > 0) await pruneRecords(path.join(root, RUN_CACHE_DIR, YAML_DIR), YAML_KEPT);
  }
  const files: OutputFile[] = [...output.files];
  if (stamp !== false) {
    // A check does not judge the stamp (the file on disk stands in for it): only the files users read are drift.
    const current = check ? await readText(root, stamp) : undefined;
    files.push(
      current === undefined
        ? stampFile(plan.key, output.dirs, output.files, stamp)
        : { path: stamp, content: current },
    );
  }
  const result = await writeFiles(root, output.dirs, await keepStamp(root, files), check);
  return {
    ...result,
    cached: cache && missing.length === 0,
    rendered: (cache ? missing : plan.units).map((u) => u.id),
    ...(check ? outdated : {}),
  };
}

/** A file's text, or undefined when it cannot be read. */
function readText(root: string, file: string): Promise<string | undefined> {
  return readFile(path.join(root, file), 'utf8').catch(() => undefined);
}
