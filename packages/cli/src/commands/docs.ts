// `agentproto docs <outdir>`: the reference site of our protocols, static and offline. Made from the publishable
// schema set (the checkout's, or the installed packages'), each version's surface and validators (from its
// protocol package's binding), and the version-to-version change reports; the set itself goes under schemas/.
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { knownProtocols } from '@agentproto/registry';
import { ExitCode, UsageError } from '../exit-codes.js';
import { checkMessage } from '../message-check.js';
import type { Output } from '../output.js';
import { resolveProtocol } from '../protocols.js';
import { repositoryRoot } from '../repository-root.js';
import { readSide } from './diff/sides.js';
import { schemaSet, writeSet } from './export.js';

/** Options of `agentproto docs`. */
export interface DocsOptions {
  protocol?: string[];
  root?: string;
}

/** Builds the site into `outdir` (replacing a site built before); exit 1 if a link of it leads nowhere. */
export async function docsCommand(outdir: string, options: DocsOptions, io: Output): Promise<number> {
  const { renderSite, checkLinks, diffSides } = await import('@agentproto/codegen');
  const root = options.root ? path.resolve(options.root) : repositoryRoot(process.cwd());
  const all = knownProtocols();
  for (const id of options.protocol ?? [])
    if (!all.some((p) => p.protocol === id))
      throw new UsageError(`unknown protocol "${id}"; known: ${all.map((p) => p.protocol).join(', ')}`);
  const known = all.filter((p) => !options.protocol || options.protocol.includes(p.protocol));
  const files = await schemaSet(root, options.protocol);
  const versions = [];
  const changes = [];
  for (const p of known) {
    for (const { version } of p.versions) {
      const binding = await resolveProtocol(`${p.protocol}@${version}`);
      if (!binding.surface) continue;
      versions.push({
        protocol: p.protocol,
        version,
        surface: await binding.surface(),
        check: (typeName: string, value: unknown) => checkMessage(binding, typeName, value),
      });
    }
    // Each version against the one before it, in the manifest's order.
    for (let i = 1; i < p.versions.length; i++) {
      const from = p.versions[i - 1]?.version ?? '';
      const to = p.versions[i]?.version ?? '';
      const report = diffSides(
        await readSide(`${p.protocol}@${from}`, root ?? process.cwd()),
        await readSide(`${p.protocol}@${to}`, root ?? process.cwd()),
      );
      changes.push({ protocol: p.protocol, from, to, report });
    }
  }
  const site = renderSite({ files, versions, changes });
  const broken = checkLinks(site);
  // A site built before is replaced whole (no stale pages); any other folder with files in it is left alone.
  if (existsSync(path.join(outdir, 'assets', 'search-index.js')))
    await rm(outdir, { recursive: true, force: true });
  else if (existsSync(outdir) && (await readdir(outdir)).length > 0)
    throw new UsageError(
      `${outdir} holds files and is not a docs site built before; give an empty or new folder`,
    );
  await writeSet(outdir, site);
  for (const b of broken.slice(0, 20)) io.err(`${path.join(outdir, b.page)}: ${b.href}: ${b.why}`);
  const pages = site.filter((f) => f.path.endsWith('.html')).length;
  io.out(
    `wrote ${pages} pages and ${site.length - pages} other files to ${outdir}${broken.length > 0 ? `; ${broken.length} broken links` : ''}`,
  );
  io.out(`open ${path.join(outdir, 'index.html')}`);
  return broken.length > 0 ? ExitCode.invalid : ExitCode.ok;
}
