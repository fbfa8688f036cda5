// The generator's cache: what each part of a run (run-plan.ts) made, kept under the part's key, one record file per
// key. A key is the hash of everything the part reads, so a record is right for any tree whose inputs hash the same:
// copies of the repository that share the cache folder share records safely, and switching back to a branch finds its
// parts still there. Only parts of a run that succeeded are kept; the folder keeps the records used last (a hit
// refreshes a record's time) and drops the oldest beyond RECORDS_KEPT. It lives in node_modules/.cache (never
// committed); `--no-cache` neither reads nor writes it.
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { UnitOutput } from '../run-units.js';
import type { PlannedUnit } from './run-plan.js';

/** Where the cache lives, under the repository root. */
export const RUN_CACHE_DIR = 'node_modules/.cache/agentproto-generate';

/** The folder of part records, under RUN_CACHE_DIR. */
const UNITS_DIR = 'units';

/**
 * How many part records the cache keeps: a full run has a dozen or so parts, so this holds several trees' worth
 * (branches, copies of the repository) and stays within some tens of megabytes.
 */
export const RECORDS_KEPT = 96;

/** A record file: the part's name and key (read back to make sure), and its output. */
interface UnitRecord extends UnitOutput {
  unit: string;
  key: string;
}

/** Whether a value is an object whose members can be read. */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const recordFile = (root: string, key: string) => path.join(root, RUN_CACHE_DIR, UNITS_DIR, `${key}.json`);

/** The output kept for a planned part; undefined when there is none, or the record is not one of this part. */
export async function readUnitRecord(root: string, planned: PlannedUnit): Promise<UnitOutput | undefined> {
  const file = recordFile(root, planned.key);
  let record: unknown;
  try {
    record = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(record) || record.unit !== planned.id || record.key !== planned.key) return undefined;
  // Used now: the last the folder drops. A record removed meanwhile by another run is no failure.
  const now = new Date();
  await utimes(file, now, now).catch(() => undefined);
  return { dirs: record.dirs, files: record.files };
}

/** Keeps a part's output under its key (written whole, then renamed: a reader never sees half of it). */
export async function saveUnitRecord(root: string, planned: PlannedUnit, output: UnitOutput): Promise<void> {
  const file = recordFile(root, planned.key);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const record: UnitRecord = {
    unit: planned.id,
    key: planned.key,
    dirs: output.dirs,
    files: output.files,
  };
  await writeFile(temporary, JSON.stringify(record));
  await rename(temporary, file);
}

/** Drops the records used longest ago beyond `kept`. */
export function pruneUnitRecords(root: string, kept = RECORDS_KEPT): Promise<void> {
  return pruneRecords(path.join(root, RUN_CACHE_DIR, UNITS_DIR), kept);
}

/** Drops the record files (`*.json`) of `dir` used longest ago beyond `kept`. */
export async function pruneRecords(dir: string, kept: number): Promise<void> {
  const names = (await readdir(dir).catch((): string[] => [])).filter((n) => n.endsWith('.json'));
  if (names.length <= kept) return;
  const dated = await Promise.all(
    names.map(async (name) => ({
      name,
      time: await stat(path.join(dir, name)).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    })),
  );
  dated.sort((a, b) => b.time - a.time || (a.name < b.name ? -1 : 1));
  await Promise.all(dated.slice(kept).map((d) => rm(path.join(dir, d.name), { force: true })));
}

/** Whether a parsed record file has a record's shape. */
function isRecord(value: unknown): value is UnitRecord {
  return (
    isObject(value) &&
    typeof value.unit === 'string' &&
    typeof value.key === 'string' &&
    Array.isArray(value.dirs) &&
    value.dirs.every((d) => typeof d === 'string') &&
    Array.isArray(value.files) &&
    value.files.every((f) => isObject(f) && typeof f.path === 'string' && typeof f.content === 'string')
  );
}
