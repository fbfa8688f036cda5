// The generator's stamp: a generated file, committed with the rest, that records the key of the run that wrote the
// generated files (run-cache.ts: the hash of every input) and the SHA-256 of each file it wrote. `generate --check` on
// a fresh clone, where no run cache exists, reads it: when the inputs still hash to its key, the generated files are
// right exactly when they still hash as it says, so the check hashes files instead of running the pipeline. When the
// key differs (a schema, a generator source or the lockfile changed), the check runs the pipeline as before.
//
// The stamp is written by a full `pnpm generate` only, never by hand. A check never fails on the stamp itself: a stamp
// whose key is out of date only makes the check run the pipeline (and says so), it is not drift in what users read.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CheckResult, OutputFile } from '../write/write-files.js';

/** Where a full run's stamp lives: in a generated folder of every full run, so generate owns it. */
export const STAMP_FILE = 'packages/registry/src/generated/stamp.json';

/** What a stamp records. */
export interface Stamp {
  /** The run key of the inputs the files were generated from. */
  key: string;
  /** The folders the run owns. */
  dirs: string[];
  /** Each generated file (the stamp left out) and the SHA-256 of its text, by path. */
  files: Record<string, string>;
}

/** Whether a value is an object whose members can be read. */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The stamp of a run's output, as the file's text (sorted, so equal outputs make equal stamps). */
export function stampFile(
  key: string,
  dirs: readonly string[],
  files: readonly OutputFile[],
  file: string,
): OutputFile {
  const stamp: Stamp = {
    key,
    dirs: [...dirs].sort(),
    files: Object.fromEntries(
      files
        .filter((f) => f.path !== file)
        .map((f) => [f.path, sha256(f.content)] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ),
  };
  return { path: file, content: `${JSON.stringify(stamp, null, 2)}\n` };
}

/**
 * `files` and, when they hold no stamp, the full run's stamp as it is on disk: a run that writes none (over some
 * protocols, or the plain pipeline) leaves it alone rather than removing it from the registry's folder it owns.
 */
export async function keepStamp(root: string, files: readonly OutputFile[]): Promise<OutputFile[]> {
  if (files.some((f) => f.path === STAMP_FILE)) return [...files];
  const current = await readFile(path.join(root, STAMP_FILE), 'utf8').catch(() => undefined);
  return current === undefined ? [...files] : [...files, { path: STAMP_FILE, content: current }];
}

/** The stamp at `file` under `root`; undefined when there is none or it is not a stamp. */
export async function readStamp(root: string, file: string): Promise<Stamp | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path.join(root, file), 'utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const { key, dirs, files } = value;
  if (typeof key !== 'string' || !Array.isArray(dirs) || !dirs.every((d) => typeof d === 'string'))
    return undefined;
  if (!isObject(files)) return undefined;
  const entries = Object.entries(files).filter((e): e is [string, string] => typeof e[1] === 'string');
  if (entries.length !== Object.keys(files).length) return undefined;
  return { key, dirs, files: Object.fromEntries(entries) };
}

/**
 * What `--check` reports, from the stamp alone: a file whose text no longer hashes as recorded (or is gone), and a
 * file in an owned folder that the run did not write — the same list writeFiles makes from the run's output.
 */
export async function checkAgainstStamp(root: string, stamp: Stamp, file: string): Promise<CheckResult> {
  const stale: string[] = [];
  const wanted = new Set([...Object.keys(stamp.files), file, STAMP_FILE]);
  await Promise.all(
    Object.entries(stamp.files).map(async ([rel, hash]) => {
      const current = await readFile(path.join(root, rel)).catch(() => undefined);
      if (current === undefined) stale.push(`${rel} (missing)`);
      else if (sha256(current) !== hash) stale.push(rel);
    }),
  );
  const all = [...wanted];
  for (const dir of stamp.dirs)
    for (const name of await readdir(path.join(root, dir)).catch((): string[] => [])) {
      const rel = `${dir}/${name}`;
      if (wanted.has(rel) || all.some((f) => f.startsWith(`${rel}/`))) continue;
      stale.push(`${rel} (no longer generated)`);
    }
  return { stale: stale.sort() };
}
