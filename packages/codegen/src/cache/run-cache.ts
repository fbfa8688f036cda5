// The generator's run cache: what a run wrote, kept under the hash of everything it read (the schemas, the
// protocol packages' manifests and file names, the generator's own sources and the lockfile). A run whose inputs
// hash the same as the last one's takes that run's output as it is — no schema parsed, no emitter loaded — and the
// write stage still compares every file with the disk, so a generated file edited by hand is found as before. Any
// change to any input is a miss: the whole pipeline runs, and its output becomes the new entry. Only a run that
// succeeded is kept. The cache lives in node_modules/.cache (never committed); `--no-cache` ignores it.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutputFile } from '../write/write-files.js';

/** Where run records live, under the repository root. */
export const RUN_CACHE_DIR = 'node_modules/.cache/agentproto-generate';

/** A run's output: the generated folders it owns and every file it made. */
export interface RunOutput {
  dirs: string[];
  files: OutputFile[];
}

/** What a run record holds: its key and its output. */
interface RunRecord extends RunOutput {
  key: string;
}

/** The generator's sources: what decides its output besides the schemas. */
const GENERATOR = path.join('packages', 'codegen', 'src');
/** Folders a package's file listing leaves out: what the generator writes, builds make, or no manifest names. */
const NOT_READ = new Set(['node_modules', 'dist', 'generated', '.cache', 'schemas']);

/** Every file under `dir` (relative to `root`), sorted; `skip` leaves folders out by name. */
async function filesUnder(root: string, dir: string, skip?: ReadonlySet<string>): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const child = path.join(rel, e.name);
      if (e.isDirectory()) {
        if (!skip?.has(e.name)) await walk(child);
      } else if (e.isFile()) out.push(child.split(path.sep).join('/'));
    }
  };
  await walk(dir);
  return out.sort();
}

/**
 * The key of a run over `root` (for `protocols`, or all): a hash of the schemas' files, the generator's sources and
 * the lockfile (names and contents), and each package's manifest and file names (the load stage checks that the
 * modules a protocol manifest names exist).
 */
export async function runKey(root: string, protocols?: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  const add = (label: string, content: string | Buffer) => {
    hash.update(`${label}\0${content.length}\0`);
    hash.update(content);
  };
  add('protocols', JSON.stringify(protocols ?? null));
  const contents = [
    'pnpm-lock.yaml',
    'packages/codegen/package.json',
    ...(await filesUnder(root, GENERATOR)).filter((f) => !f.endsWith('.test.ts')),
    ...(await filesUnder(root, 'schemas')),
  ];
  const read = (file: string) => readFile(path.join(root, file)).catch(() => Buffer.alloc(0));
  // Read together, hashed in order: the key does not depend on which read finishes first.
  const texts = await Promise.all(contents.map(read));
  contents.forEach((file, i) => {
    add(file, texts[i] ?? Buffer.alloc(0));
  });
  const packages = (await readdir(path.join(root, 'packages'))).sort().map((p) => `packages/${p}`);
  const listed = await Promise.all(
    packages.map(async (dir) => ({
      manifest: await read(`${dir}/package.json`),
      files: await filesUnder(root, dir, NOT_READ),
    })),
  );
  packages.forEach((dir, i) => {
    add(`${dir}/package.json`, listed[i]?.manifest ?? Buffer.alloc(0));
    add(`${dir}/`, (listed[i]?.files ?? []).join('\n'));
  });
  return hash.digest('hex');
}

/** The record file of runs over `protocols`. */
function recordFile(root: string, protocols?: readonly string[]): string {
  const name = protocols
    ? createHash('sha256').update(JSON.stringify(protocols)).digest('hex').slice(0, 16)
    : 'all';
  return path.join(root, RUN_CACHE_DIR, `run-${name}.json`);
}

/** The output of the last run over `protocols` when its key is `key`; undefined on a miss or an unreadable record. */
export async function cachedRun(
  root: string,
  key: string,
  protocols?: readonly string[],
): Promise<RunOutput | undefined> {
  let record: unknown;
  try {
    record = JSON.parse(await readFile(recordFile(root, protocols), 'utf8'));
  } catch {
    return undefined;
  }
  return isRecord(record) && record.key === key ? { dirs: record.dirs, files: record.files } : undefined;
}

/** Keeps a successful run's output under its key (written whole, then renamed: a reader never sees half of it). */
export async function saveRun(
  root: string,
  key: string,
  output: RunOutput,
  protocols?: readonly string[],
): Promise<void> {
  const file = recordFile(root, protocols);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const record: RunRecord = { key, dirs: output.dirs, files: output.files };
  await writeFile(temporary, JSON.stringify(record));
  await rename(temporary, file);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Whether a parsed record file has a run record's shape. */
function isRecord(value: unknown): value is RunRecord {
  return (
    isObject(value) &&
    typeof value.key === 'string' &&
    Array.isArray(value.dirs) &&
    value.dirs.every((d) => typeof d === 'string') &&
    Array.isArray(value.files) &&
    value.files.every((f) => isObject(f) && typeof f.path === 'string' && typeof f.content === 'string')
  );
}
