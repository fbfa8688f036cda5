// The generator's run cache: what a run wrote, kept under the hash of everything it read (the schemas, the
// protocol packages' manifests and file names, every workspace source the generator loads — its own and the runtime
// modules it imports — and the lockfile). A run whose inputs hash the same as the last one's takes that run's output
// as it is — no schema parsed, no emitter loaded — and the write stage still compares every file with the disk, so a
// generated file edited by hand is found as before. Any change to any input is a miss: the whole pipeline runs, and
// its output becomes the new entry. Only a run that succeeded is kept. The cache lives in node_modules/.cache (never
// committed); `--no-cache` ignores it.
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

/** Whether a value is an object whose members can be read. */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The generator's own sources: where the walk of what it loads starts. */
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

/** A workspace package as the walk resolves it: its folder and its `exports` map. */
export interface WorkspacePackage {
  dir: string;
  exports: unknown;
}

/**
 * Module specifiers in a module's text: `from '…'`, `import '…'` and `import('…')` with a literal. A match inside a
 * string or a comment (an emitter's template names the modules generated code imports) only adds a file to the key:
 * a key that covers too much costs a run, one that covers too little lets `--check` pass stale.
 */
const SPECIFIER = /\b(?:from|import)[\s(]*(?:'([^'\n]+)'|"([^"\n]+)")/g;

/** The file a package's `exports` map gives for `subpath` (`.` or `./x`), patterns with one `*` included. */
function exported(exports: unknown, subpath: string): string | undefined {
  const target = (entry: unknown): string | undefined => {
    if (typeof entry === 'string') return entry;
    if (!isObject(entry)) return undefined;
    // The condition the generator runs under (tsx and vitest both take `import`, then `default`).
    return target(entry.import ?? entry.default ?? entry.types);
  };
  // One target, or conditions with no subpath keys: the package's `.` alone.
  if (!isObject(exports) || !Object.keys(exports).every((k) => k.startsWith('.')))
    return subpath === '.' ? target(exports) : undefined;
  if (subpath in exports) return target(exports[subpath]);
  for (const [key, entry] of Object.entries(exports)) {
    const [before = '', after, ...more] = key.split('*');
    if (after === undefined || more.length > 0) continue;
    if (subpath.length >= key.length - 1 && subpath.startsWith(before) && subpath.endsWith(after))
      return target(entry)?.replaceAll('*', subpath.slice(before.length, subpath.length - after.length));
  }
  return undefined;
}

/**
 * Every workspace source the generator loads: its own sources (tests left out) and, transitively, each module they
 * import by a relative path or through a workspace package's `exports` (`@agentproto/runtime/locate`, …; `packages`
 * maps each workspace package's name to it), as files relative to `root`, sorted. Imports of installed packages are
 * left to the lockfile. Derived from the imports rather than listed by hand, so a runtime module the generator comes
 * to use is covered the day it is imported.
 */
export async function generatorSources(
  root: string,
  packages: ReadonlyMap<string, WorkspacePackage>,
): Promise<string[]> {
  const texts = new Map<string, string | undefined>();
  const text = async (file: string): Promise<string | undefined> => {
    if (!texts.has(file))
      texts.set(file, await readFile(path.join(root, file), 'utf8').catch(() => undefined));
    return texts.get(file);
  };
  // A specifier ending in `.js` names the `.ts` file beside it (NodeNext's rule); the first candidate that exists.
  const firstExisting = async (candidates: string[]): Promise<string | undefined> => {
    for (const c of candidates) if ((await text(c)) !== undefined) return c;
    return undefined;
  };
  const asFile = (file: string) =>
    firstExisting(
      /\.[cm]?js$/.test(file)
        ? [file.replace(/\.([cm]?)js$/, '.$1ts'), file]
        : [file, `${file}.ts`, `${file}/index.ts`],
    );
  const resolve = async (from: string, specifier: string): Promise<string | undefined> => {
    if (specifier.startsWith('.')) return asFile(path.posix.join(path.posix.dirname(from), specifier));
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
    const pkg = packages.get(name);
    if (!pkg) return undefined;
    const target = exported(pkg.exports, `.${specifier.slice(name.length)}`);
    return target === undefined ? undefined : asFile(path.posix.join(pkg.dir, target));
  };
  const start = (await filesUnder(root, GENERATOR)).filter((f) => !f.endsWith('.test.ts'));
  const seen = new Set(start);
  const queue = [...start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const source = await text(file);
    if (source === undefined || !/\.[cm]?[jt]s$/.test(file)) continue;
    for (const [, single, double] of source.matchAll(SPECIFIER)) {
      const specifier = single ?? double;
      if (specifier === undefined) continue;
      const next = await resolve(file, specifier);
      if (next !== undefined && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return [...seen].sort();
}

/**
 * The key of a run over `root` (for `protocols`, or all): a hash of the schemas' files, the lockfile, every workspace
 * source the generator loads (its own and the runtime modules it imports: `generatorSources`), names and contents,
 * and each package's manifest and file names (the load stage checks that the modules a protocol manifest names exist).
 */
export async function runKey(root: string, protocols?: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  const add = (label: string, content: string | Buffer) => {
    hash.update(`${label}\0${content.length}\0`);
    hash.update(content);
  };
  const read = (file: string) => readFile(path.join(root, file)).catch(() => Buffer.alloc(0));
  add('protocols', JSON.stringify(protocols ?? null));
  const packages = (await readdir(path.join(root, 'packages'))).sort().map((p) => `packages/${p}`);
  const listed = await Promise.all(
    packages.map(async (dir) => ({
      dir,
      manifest: await read(`${dir}/package.json`),
      files: await filesUnder(root, dir, NOT_READ),
    })),
  );
  const workspace = new Map<string, WorkspacePackage>();
  for (const { dir, manifest } of listed) {
    const parsed = parseManifest(manifest);
    if (parsed) workspace.set(parsed.name, { dir, exports: parsed.exports });
  }
  const contents = [
    'pnpm-lock.yaml',
    'packages/codegen/package.json',
    ...(await generatorSources(root, workspace)),
    ...(await filesUnder(root, 'schemas')),
  ];
  // Read together, hashed in order: the key does not depend on which read finishes first.
  const texts = await Promise.all(contents.map(read));
  contents.forEach((file, i) => {
    add(file, texts[i] ?? Buffer.alloc(0));
  });
  for (const { dir, manifest, files } of listed) {
    add(`${dir}/package.json`, manifest);
    add(`${dir}/`, files.join('\n'));
  }
  return hash.digest('hex');
}

/** A package manifest's name and `exports`; undefined when it is unreadable or names no package. */
function parseManifest(text: Buffer): { name: string; exports: unknown } | undefined {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text.toString('utf8'));
  } catch {
    return undefined;
  }
  return isObject(manifest) && typeof manifest.name === 'string'
    ? { name: manifest.name, exports: manifest.exports }
    : undefined;
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
