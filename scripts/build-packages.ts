// `pnpm build [package...]`: turns each package's TypeScript sources into what a published package ships, in dist/:
// - JavaScript: each file transpiled on its own (esbuild, no bundling); imports already name `.js` files, so dist
//   mirrors src. Generated validators are JavaScript already and are copied with their `.d.ts` files.
// - Declarations: one `tsc` run over every package (tsconfig.build.json, incremental), so a user's compiler reads
//   `.d.ts` files and never our sources under its own options.
// Protocol packages also get their published schema set in schemas/. `publishConfig.exports` points at dist; the
// workspace itself keeps working from src.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderExport } from '@agentproto/codegen';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(p)));
    else if (/\.ts$/.test(e.name) && !/\.(test|d)\.ts$/.test(e.name)) out.push(p);
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

const only = process.argv.slice(2);
const DECLARATIONS = path.join(ROOT, 'node_modules/.cache/agentproto-declarations');
execFileSync(
  process.execPath,
  [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: ROOT,
    stdio: 'inherit',
  },
);
for (const pkg of (await readdir(path.join(ROOT, 'packages'))).sort()) {
  if (only.length > 0 && !only.includes(pkg)) continue;
  const dir = path.join(ROOT, 'packages', pkg);
  const src = path.join(dir, 'src');
  const dist = path.join(dir, 'dist');
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
  await cp(path.join(DECLARATIONS, pkg, 'src'), dist, { recursive: true });
  // A protocol package ships its published schema set (what `agentproto export` writes) in schemas/.
  if (existsSync(path.join(ROOT, 'schemas', pkg))) {
    const shipped = path.join(dir, 'schemas');
    await rm(shipped, { recursive: true, force: true });
    for (const f of await renderExport(ROOT, [pkg])) {
      // The protocol's own folder, and the README that explains the set; the catalog spans every protocol.
      const inside = f.path.startsWith(`${pkg}/`)
        ? f.path.slice(pkg.length + 1)
        : f.path === 'README.md'
          ? f.path
          : undefined;
      if (inside === undefined) continue;
      const target = path.join(shipped, inside);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, f.content);
    }
  }
  console.log(`built packages/${pkg}/dist`);
}
