// `pnpm build [package...]`: turns each package's TypeScript sources into what a published package ships, in dist/:
// - JavaScript: each file transpiled on its own (esbuild, no bundling); imports already name `.js` files, so dist
//   mirrors src. Generated validators are JavaScript already and are copied with their `.d.ts` files.
// - Declarations: one `tsc` run over every package (tsconfig.build.json, incremental), so a user's compiler reads
//   `.d.ts` files and never our sources under its own options.
// Protocol packages also get their published schema set in schemas/. `publishConfig.exports` points at dist; the
// workspace itself keeps working from src.
// A package whose dist/ was built from exactly the inputs there are now (a hash of every package's sources and
// manifest, the schemas, this script, the compiler options and the lockfile) is not built again: packing every package
// and then a release's dry run build once.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
// Where a package's schemas/ folder keeps the README of the whole set (the CLI's export command reads it there).
const SET_README = '_set/README.md';

/** Whether a file under a package's src/ is one of its tests, which a build leaves out (tsconfig.build.json too). */
const isTest = (file: string) => /\.(test|case)\.ts$/.test(file);

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(p)));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !isTest(e.name)) out.push(p);
  }
  return out;
}

async function copyJs(from: string, to: string): Promise<void> {
  for (const e of await readdir(from, { withFileTypes: true })) {
    const p = path.join(from, e.name);
    if (e.isDirectory()) await copyJs(p, path.join(to, e.name));
    else if (e.name.endsWith('.js') || e.name.endsWith('.d.ts')) await cp(p, path.join(to, e.name));
  }
}

/** Every file under `dir` (none when it does not exist), as paths relative to ROOT. */
async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(path.relative(ROOT, p));
  }
  return out;
}

/** The hash of everything a build reads. */
async function inputsHash(): Promise<string> {
  const files = [
    'scripts/build-packages.ts',
    'tsconfig.build.json',
    'tsconfig.base.json',
    'pnpm-lock.yaml',
    ...(await filesUnder(path.join(ROOT, 'schemas'))),
  ];
  // A package's tests (`*.test.ts`, `*.case.ts`) are neither transpiled, copied nor declared: editing one builds nothing.
  for (const pkg of await readdir(path.join(ROOT, 'packages')))
    files.push(
      `packages/${pkg}/package.json`,
      ...(await filesUnder(path.join(ROOT, 'packages', pkg, 'src'))).filter((f) => !isTest(f)),
    );
  const hash = createHash('sha256');
  for (const f of files.sort()) {
    hash.update(`${f}\0`);
    hash.update(existsSync(path.join(ROOT, f)) ? await readFile(path.join(ROOT, f)) : '');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Where the inputs hash a package's dist/ was built from is kept: per dist folder, outside what is packed. */
const stampOf = (dist: string) =>
  path.join(
    ROOT,
    'node_modules/.cache/agentproto-builds',
    createHash('sha256').update(dist).digest('hex').slice(0, 32),
  );

/** Whether a package's output was built from these inputs, and is still all there. */
async function upToDate(pkg: string, inputs: string): Promise<boolean> {
  const dir = path.join(ROOT, 'packages', pkg);
  const dist = path.join(dir, 'dist');
  if (!existsSync(dist) || !existsSync(stampOf(dist))) return false;
  if (existsSync(path.join(ROOT, 'schemas', pkg)) && !existsSync(path.join(dir, 'schemas'))) return false;
  return (await readFile(stampOf(dist), 'utf8')) === inputs;
}

const only = process.argv.slice(2);
const inputs = await inputsHash();
const wanted = (await readdir(path.join(ROOT, 'packages')))
  .sort()
  .filter((pkg) => only.length === 0 || only.includes(pkg));
const stale: string[] = [];
for (const pkg of wanted) {
  if (await upToDate(pkg, inputs)) console.log(`packages/${pkg}/dist is up to date`);
  else stale.push(pkg);
}
if (stale.length === 0) process.exit(0);
// Loaded only when something is built: the generator and esbuild take seconds to load.
const { renderExport } = await import('@agentproto/codegen');
const { build } = await import('esbuild');
/** The whole published schema set, rendered once for every package that ships part of it. */
let exported: Awaited<ReturnType<typeof import('@agentproto/codegen').renderExport>> | undefined;
const DECLARATIONS = path.join(ROOT, 'node_modules/.cache/agentproto-declarations');
// The declarations (one compiler run, most of a cold build and one core's work) are written while this process
// transpiles and assembles each package's dist/ beside it; each package's declarations and stamp go in once the
// compiler has succeeded. Settled to its error, if any, at once: awaited only after the packages are assembled.
const declared = new Promise<Error | undefined>((resolve) => {
  const tsc = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  // A build that fails first (esbuild, the schema set) leaves no compiler running behind it.
  process.once('exit', () => tsc.kill());
  tsc.once('error', resolve);
  tsc.once('exit', (code, signal) =>
    resolve(
      code === 0 ? undefined : new Error(`tsc -p tsconfig.build.json failed (${signal ?? `exit ${code}`})`),
    ),
  );
});
for (const pkg of stale) {
  const dir = path.join(ROOT, 'packages', pkg);
  const src = path.join(dir, 'src');
  const dist = path.join(dir, 'dist');
  // The stamp goes first: a build cut short leaves a dist/ that no stamp vouches for.
  await rm(stampOf(dist), { force: true });
  await rm(dist, { recursive: true, force: true });
  await build({
    entryPoints: await sources(src),
    outdir: dist,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    logLevel: 'warning',
  });
  await copyJs(src, dist);
  // A package with a folder under schemas/ (each protocol, and the conformance kit's report) ships its part of the
  // published schema set in schemas/: its folder, the README that explains the set, and its entries of catalog.json.
  // An installed `agentproto export` (and `agentproto docs`) puts these parts back together.
  if (existsSync(path.join(ROOT, 'schemas', pkg))) {
    const shipped = path.join(dir, 'schemas');
    await rm(shipped, { recursive: true, force: true });
    exported ??= await renderExport(ROOT);
    for (const f of exported) {
      let content = f.content;
      let inside: string | undefined;
      if (f.path.startsWith(`${pkg}/`)) inside = f.path.slice(pkg.length + 1);
      // The set's README goes apart from the protocol's own README.md (which sits at the top of its folder).
      else if (f.path === 'README.md') inside = SET_README;
      else if (f.path === 'catalog.json') {
        inside = f.path;
        // sound: catalog.json is the catalog the export wrote, whose `schemas` lists each schema by its url.
        const catalog = JSON.parse(content) as { schemas: Array<{ url: string }> };
        catalog.schemas = catalog.schemas.filter((s) => s.url.includes(`/schemas/${pkg}/`));
        content = `${JSON.stringify(catalog, null, 2)}\n`;
      }
      if (inside === undefined) continue;
      const target = path.join(shipped, inside);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
    }
    // Each version's client scenarios go beside its schemas, where an installed conformance kit looks for them
    // (`<package>/schemas/<version>/client-scenarios.json`, packages/conformance/src/client/scenarios.ts).
    for (const version of await readdir(path.join(ROOT, 'schemas', pkg))) {
      const scenarios = path.join(ROOT, 'schemas', pkg, version, 'client-scenarios.json');
      if (!existsSync(scenarios)) continue;
      await mkdir(path.join(shipped, version), { recursive: true });
      await cp(scenarios, path.join(shipped, version, 'client-scenarios.json'));
    }
  }
}
const failed = await declared;
if (failed) {
  // No stamp vouches for a dist/ without its declarations: the next build starts these packages again.
  console.error(`build: ${failed.message}`);
  process.exit(1);
}
for (const pkg of stale) {
  const dist = path.join(ROOT, 'packages', pkg, 'dist');
  await cp(path.join(DECLARATIONS, pkg, 'src'), dist, { recursive: true });
  await mkdir(path.dirname(stampOf(dist)), { recursive: true });
  await writeFile(stampOf(dist), inputs);
  console.log(`built packages/${pkg}/dist`);
}
