import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { knownProtocols } from '@agentproto/registry';
import { parse as parseYaml } from 'yaml';
import { prop } from './typed.js';

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

/** One example or counterexample file of a protocol version. */
export interface SpecFile {
  protocol: string;
  version: string;
  typeName: string;
  /** `<TypeName>/<name>.json`, as the expected-errors manifest names it. */
  key: string;
  file: string;
  value: unknown;
}

/**
 * Every protocol version the registry (generated from the manifests) lists, with its folder under schemas/ and its
 * package's folder (relative to the root).
 */
export function protocolVersions(): Array<{
  protocol: string;
  version: string;
  dir: string;
  packageDir: string;
}> {
  return knownProtocols().flatMap((p) =>
    p.versions.map(({ version }) => ({
      protocol: p.protocol,
      version,
      dir: path.join(ROOT, 'schemas', p.protocol, version),
      packageDir: `packages/${p.package.split('/')[1]}`,
    })),
  );
}

/** The files of `examples/` or `counterexamples/` of one version, parsed. */
export function specFiles(
  v: { protocol: string; version: string; dir: string },
  kind: 'examples' | 'counterexamples',
) {
  const out: SpecFile[] = [];
  const base = path.join(v.dir, kind);
  if (!existsSync(base)) return out;
  for (const typeName of readdirSync(base).sort()) {
    const tdir = path.join(base, typeName);
    if (
      !readdirSync(base, { withFileTypes: true })
        .find((e) => e.name === typeName)
        ?.isDirectory()
    )
      continue;
    for (const name of readdirSync(tdir).sort()) {
      const file = path.join(tdir, name);
      out.push({
        protocol: v.protocol,
        version: v.version,
        typeName,
        key: `${typeName}/${name}`,
        file,
        value: JSON.parse(readFileSync(file, 'utf8')),
      });
    }
  }
  return out;
}

/** The type names a version folder defines itself: its `*.schema.json` files (an extension's are its own only). */
export function typeNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.schema.json'))
    .map((n) => n.slice(0, -'.schema.json'.length))
    .sort();
}

/** The file that defines a type for a version: its own, or (for an extension) the one of the version it extends. */
export function schemaFile(dir: string, typeName: string): string {
  const own = path.join(dir, `${typeName}.schema.json`);
  if (existsSync(own)) return own;
  const manifest: unknown = parseYaml(readFileSync(path.join(path.dirname(dir), 'protocol.yaml'), 'utf8'));
  const base = prop(prop(prop(manifest, 'versions'), path.basename(dir)), 'extends');
  return typeof base === 'string' && base ? schemaFile(path.join(path.dirname(dir), base), typeName) : own;
}

/** Every version folder under schemas/ that holds `file` (a version's client-scenarios.json…), as `<id>@<version>`. */
export function versionsWith(file: string): string[] {
  const schemas = path.join(ROOT, 'schemas');
  return readdirSync(schemas, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(path.join(schemas, d.name), { withFileTypes: true })
        .filter((v) => v.isDirectory() && existsSync(path.join(schemas, d.name, v.name, file)))
        .map((v) => `${d.name}@${v.name}`),
    );
}
