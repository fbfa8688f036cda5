// The generator's own inputs: every workspace source it loads (its own and, through their imports, the runtime modules
// it uses), found by walking the imports rather than listed by hand. The run plan (run-plan.ts) hashes them into every
// part's key, so a change to the generator is a change to every part it makes.
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Whether a value is an object whose members can be read. */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The generator's own sources: where the walk of what it loads starts. */
const GENERATOR = path.join('packages', 'codegen', 'src');
/** Folders a package's file listing leaves out: what the generator writes, builds make, or no manifest names. */
export const NOT_READ = new Set(['node_modules', 'dist', 'generated', '.cache', 'schemas']);

/**
 * Every file under `dir` (relative to `root`), sorted; `skip` leaves folders out by name. Synchronous, as every read
 * of the plan: thousands of small files, read one call each, cost a fraction of what as many promises do.
 */
export function filesUnder(root: string, dir: string, skip?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = path.join(rel, e.name);
      if (e.isDirectory()) {
        if (!skip?.has(e.name)) walk(child);
      } else if (e.isFile()) out.push(child.split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** A file's text, or undefined when it cannot be read. */
export function readText(root: string, file: string): string | undefined {
  try {
    return readFileSync(path.join(root, file), 'utf8');
  } catch {
    return undefined;
  }
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
// No `\b` before the keyword: an identifier ending in one (`transform('…')`) only adds a file, and the pattern without
// it is a fifth of the ReDoS check's work (test/security/redos.test.ts proves it linear either way).
const SPECIFIER = /(?:from|import)[\s(]*(?:'([^'\n]+)'|"([^"\n]+)")/g;

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
 * Every workspace source the generator loads, with its text: its own sources (tests left out) and, transitively, each
 * module they import by a relative path or through a workspace package's `exports` (`@agentproto/runtime/locate`, …;
 * `packages` maps each workspace package's name to it), by path relative to `root`, in path order. Imports of
 * installed packages are left to the lockfile. Derived from the imports rather than listed by hand, so a runtime
 * module the generator comes to use is covered the day it is imported.
 */
export function generatorSources(
  root: string,
  packages: ReadonlyMap<string, WorkspacePackage>,
): Map<string, string> {
  const texts = new Map<string, string | undefined>();
  const text = (file: string): string | undefined => {
    if (!texts.has(file)) texts.set(file, readText(root, file));
    return texts.get(file);
  };
  // A specifier ending in `.js` names the `.ts` file beside it (NodeNext's rule); the first candidate that exists.
  const asFile = (file: string) =>
    (/\.[cm]?js$/.test(file)
      ? [file.replace(/\.([cm]?)js$/, '.$1ts'), file]
      : [file, `${file}.ts`, `${file}/index.ts`]
    ).find((c) => text(c) !== undefined);
  const resolve = (from: string, specifier: string): string | undefined => {
    if (specifier.startsWith('.')) return asFile(path.posix.join(path.posix.dirname(from), specifier));
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
    const pkg = packages.get(name);
    if (!pkg) return undefined;
    const target = exported(pkg.exports, `.${specifier.slice(name.length)}`);
    return target === undefined ? undefined : asFile(path.posix.join(pkg.dir, target));
  };
  const start = filesUnder(root, GENERATOR).filter((f) => !f.endsWith('.test.ts'));
  const seen = new Set(start);
  const queue = [...start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const source = text(file);
    if (source === undefined || !/\.[cm]?[jt]s$/.test(file)) continue;
    for (const [, single, double] of source.matchAll(SPECIFIER)) {
      const specifier = single ?? double;
      if (specifier === undefined) continue;
      const next = resolve(file, specifier);
      if (next !== undefined && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return new Map([...seen].sort().map((file) => [file, text(file) ?? '']));
}
