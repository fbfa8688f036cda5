// What `agentproto diff` compares: each argument is a protocol version (`agentscope@0.1`: the source schemas in a
// checkout, else the schemas the installed protocol package ships), a folder of schemas, or a bundle file.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { DiffSide } from '@agentproto/codegen';
import { knownProtocols } from '@agentproto/registry';
import { UsageError } from '../../exit-codes.js';
import { repositoryRoot } from '../../repository-root.js';

/** Reads one side of a diff. Throws a UsageError naming what was expected when the argument is none of the three. */
export async function readSide(spec: string, cwd: string = process.cwd()): Promise<DiffSide> {
  const { SideError, loadTree, sideFromPath, sideFromVersion } = await import('@agentproto/codegen');
  try {
    if (existsSync(path.resolve(cwd, spec))) return await sideFromPath(spec, cwd);
    const m = /^([a-z][a-z0-9-]*)(?:@(.+))?$/.exec(spec);
    if (!m?.[1])
      throw new UsageError(`${spec}: no such file or folder, and not a protocol version (id@version)`);
    const id = m[1];
    const protocol = knownProtocols().find((p) => p.protocol === id);
    if (!protocol)
      throw new UsageError(
        `${spec}: no such file or folder, and no protocol "${id}"; known: ${knownProtocols()
          .map((p) => p.protocol)
          .join(', ')}`,
      );
    const version = m[2] ?? protocol.latest;
    if (!protocol.versions.some((v) => v.version === version))
      throw new UsageError(
        `protocol ${id} has no version "${version}"; known: ${protocol.versions.map((v) => v.version).join(', ')}`,
      );
    // In a checkout, the source schemas (so a diff sees what is being edited); elsewhere, the package's own.
    const root = repositoryRoot(cwd);
    if (root && existsSync(path.join(root, 'schemas', id, 'protocol.yaml'))) {
      const tree = await loadTree(root, [id]);
      const loaded = tree.versions.find((v) => v.version === version);
      if (loaded) return sideFromVersion(loaded);
    }
    let manifest: string;
    try {
      manifest = createRequire(import.meta.url).resolve(`${protocol.package}/package.json`);
    } catch {
      throw new UsageError(
        `${spec} needs ${protocol.package}, which is not installed: npm install --save-dev ${protocol.package}`,
      );
    }
    const side = await sideFromPath(path.join(path.dirname(manifest), 'schemas', version), cwd);
    return { ...side, label: `${id}@${version}` };
  } catch (error) {
    if (error instanceof SideError) throw new UsageError(error.message);
    throw error;
  }
}
