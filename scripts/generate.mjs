// `pnpm generate [--check]`: runs the generator (scripts/generate.ts and the TypeScript sources it imports) as one
// bundled ES module instead of through tsx's loader. Under the loader every module the generator loads is resolved and
// read by the loader's own thread, and the main thread waits for it: about a second of CPU in each of the run's two
// processes, on every run. The bundle is made with esbuild and kept under node_modules/.cache/agentproto-generate/,
// under the hash of everything it was made from: the content of each source it holds, the workspace's package
// manifests, the lockfile, this file, the Node version and the repository's place on disk. A source edited since, a source added or removed (an import line
// changes with it), a dependency upgraded: the hash differs and the bundle is made again before the run (about two
// seconds). What is bundled behaves as it does from source:
// - third-party modules are not bundled: each import names the file Node would load from the importing source;
// - `import.meta.url` in a source is that source's own URL (its paths to assets and caches do not move);
// - a dynamic import made by a generated module (the registry's loaders of protocol bindings, never used by the
//   generator) is left out, and fails with a clear error if it is ever taken;
// - the generator's second process (types-child.ts) is bundled too and started from the bundle.
// A bundle that cannot be made (a syntax error mid-edit, esbuild missing), or `--debug` (stack traces should name the
// TypeScript sources), runs the generator from its sources through tsx, as before.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = 'scripts/generate.ts';
const TYPES_CHILD = 'packages/codegen/src/emit/types/types-child.ts';
// Bundles kept per repository folder (a few, so that switching branches back and forth finds its own).
const KEPT = 3;
// Repository folders whose bundles are kept (copies of the repository share the cache through node_modules).
const KEPT_ROOTS = 8;
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'agentproto-generate');
const HERE = fileURLToPath(import.meta.url);

const sha256 = (/** @type {string | Buffer} */ data) => createHash('sha256').update(data).digest('hex');
const folder = path.join(CACHE, sha256(ROOT).slice(0, 16));

/** The file's bytes, or undefined when it cannot be read. */
function read(/** @type {string} */ file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The key of a bundle made from `inputs` (paths relative to the root, each with its bytes as read): undefined when an
 * input is gone.
 * @param {Array<[string, Buffer | undefined]>} inputs
 */
function keyOf(inputs) {
  const hash = createHash('sha256');
  hash.update(
    `${process.version}\0${ROOT}\0${sha256(read(HERE) ?? '')}\0${sha256(read(path.join(ROOT, 'pnpm-lock.yaml')) ?? '')}\0`,
  );
  for (const [file, bytes] of [...inputs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (bytes === undefined) return undefined;
    hash.update(`${file}\0${sha256(bytes)}\0`);
  }
  return hash.digest('hex').slice(0, 32);
}

/** The kept bundles' keys, the one used last first. */
function keptKeys() {
  try {
    const index = JSON.parse(readFileSync(path.join(folder, 'index.json'), 'utf8'));
    return Array.isArray(index) ? index.filter((k) => typeof k === 'string' && /^[0-9a-f]{32}$/.test(k)) : [];
  } catch {
    return [];
  }
}

/** Writes the index (the keys, the one used last first) and drops the bundles past KEPT. */
function keep(/** @type {string[]} */ keys) {
  const kept = [...new Set(keys)].slice(0, KEPT);
  const tmp = path.join(folder, `.index-${process.pid}.json`);
  writeFileSync(tmp, JSON.stringify(kept));
  renameSync(tmp, path.join(folder, 'index.json'));
  for (const name of readdirSync(folder))
    if (/^[0-9a-f]{32}$/.test(name) && !kept.includes(name))
      rmSync(path.join(folder, name), { recursive: true, force: true });
}

/** The entry of a kept bundle made from the sources as they are now, or undefined. */
function keptBundle() {
  const keys = keptKeys();
  const bytes = new Map();
  const readOnce = (/** @type {string} */ file) => {
    if (!bytes.has(file)) bytes.set(file, read(path.join(ROOT, file)));
    return bytes.get(file);
  };
  for (const key of keys) {
    let inputs;
    try {
      inputs = JSON.parse(readFileSync(path.join(folder, key, 'inputs.json'), 'utf8'));
    } catch {
      continue;
    }
    if (!Array.isArray(inputs) || keyOf(inputs.map((f) => [String(f), readOnce(String(f))])) !== key)
      continue;
    const entry = path.join(folder, key, 'generate.js');
    if (!existsSync(entry)) continue;
    if (key !== keys[0]) keep([key, ...keys]);
    return entry;
  }
  return undefined;
}

/** Makes the bundle of the sources as they are now and returns its entry. Throws when esbuild cannot make it. */
async function makeBundle() {
  const esbuild = await import('esbuild');
  mkdirSync(folder, { recursive: true });
  const out = path.join(folder, `.build-${process.pid}-${Date.now()}`);
  /** @type {Map<string, Buffer>} */
  const loaded = new Map();
  const tsconfigRaw = { compilerOptions: { target: 'ES2022', verbatimModuleSyntax: true } };
  /** @type {import('esbuild').Plugin} */
  const plugin = {
    name: 'agentproto-generator',
    setup(build) {
      // A dynamic import made by a generated module: left out (see the header).
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import' || !/[/\\]src[/\\]generated[/\\]/.test(args.importer))
          return undefined;
        return { path: args.path, namespace: 'left-out' };
      });
      build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the generator's bundle (scripts/generate.mjs)`)});`,
        loader: 'js',
      }));
      // A third-party module: the file Node would load from the importer, by its absolute path.
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (
          args.pluginData === 'inner' ||
          args.path.startsWith('node:') ||
          args.path.startsWith('@agentproto/')
        )
          return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'inner',
        });
        if (found.errors.length > 0) return { errors: found.errors };
        return found.external ? { path: args.path, external: true } : { path: found.path, external: true };
      });
      // The repository's own sources: compiled one by one, each with its own `import.meta.url`.
      build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (args) => {
        const bytes = readFileSync(args.path);
        loaded.set(path.relative(ROOT, args.path), bytes);
        const { code } = esbuild.transformSync(bytes.toString('utf8'), {
          loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js',
          format: 'esm',
          target: 'node20',
          tsconfigRaw,
          sourcefile: args.path,
          define: {
            'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
            AGENTPROTO_TYPES_CHILD: '__agentprotoTypesChild',
          },
        });
        return { contents: code, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
  try {
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: { generate: ENTRY, 'types-child': TYPES_CHILD },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      conditions: [],
      outdir: out,
      chunkNames: 'chunk-[hash]',
      // Where the second process's module is: beside whichever output file this is in (see types-process.ts).
      banner: { js: "const __agentprotoTypesChild = new URL('./types-child.js', import.meta.url);" },
      plugins: [plugin],
      metafile: true,
      logLevel: 'silent',
    });
    // What esbuild read, and the manifests whose `exports` it resolved the workspace's imports through.
    const manifests = [
      'package.json',
      ...readdirSync(path.join(ROOT, 'packages')).map((p) => `packages/${p}/package.json`),
    ];
    const inputs = [
      ...Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('left-out:')),
      ...manifests.filter((f) => existsSync(path.join(ROOT, f))),
    ];
    const key = keyOf(inputs.map((f) => [f, loaded.get(f) ?? read(path.join(ROOT, f))]));
    if (key === undefined) throw new Error('a source went away while the bundle was made');
    writeFileSync(path.join(out, 'inputs.json'), JSON.stringify(inputs));
    // Renamed whole, so a bundle folder is complete or absent; another run that made the same bundle meanwhile keeps
    // its folder (it may be loading from it) and this one's is dropped.
    const final = path.join(folder, key);
    try {
      renameSync(out, final);
    } catch (error) {
      if (!existsSync(path.join(final, 'generate.js'))) throw error;
      rmSync(out, { recursive: true, force: true });
    }
    keep([key, ...keptKeys()]);
    return path.join(final, 'generate.js');
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Drops the bundles of the repository folders used longest ago, past KEPT_ROOTS and not used for an hour (a run in
 * another copy may still be loading from its bundle); marks this one used now.
 */
function pruneRoots() {
  const now = new Date();
  utimesSync(folder, now, now);
  const roots = readdirSync(CACHE)
    .filter((name) => /^[0-9a-f]{16}$/.test(name))
    .map((name) => ({ name, used: statSync(path.join(CACHE, name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  for (const { name, used } of roots.slice(KEPT_ROOTS))
    if (used < now.getTime() - 3_600_000) rmSync(path.join(CACHE, name), { recursive: true, force: true });
}

let entry;
if (!process.argv.includes('--debug')) {
  try {
    entry = keptBundle() ?? (await makeBundle());
  } catch {
    entry = undefined;
  }
  try {
    if (entry !== undefined) pruneRoots();
  } catch {
    // A cache that cannot be tidied still serves this run.
  }
}
if (entry === undefined) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = path.join(ROOT, ENTRY);
}
await import(pathToFileURL(entry).href);
