import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

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

/** Every protocol version folder under schemas/ that holds an openapi.yaml. */
export function protocolVersions(): Array<{ protocol: string; version: string; dir: string }> {
  const out = [];
  for (const protocol of readdirSync(path.join(ROOT, 'schemas')).sort()) {
    const pdir = path.join(ROOT, 'schemas', protocol);
    if (!existsSync(pdir) || !readdirSync(pdir, { withFileTypes: true }).some((e) => e.isDirectory()))
      continue;
    for (const version of readdirSync(pdir).sort()) {
      const dir = path.join(pdir, version);
      if (existsSync(path.join(dir, 'openapi.yaml'))) out.push({ protocol, version, dir });
    }
  }
  return out;
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

/** The public type names of a version: its `*.schema.json` files. */
export function typeNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.schema.json'))
    .map((n) => n.slice(0, -'.schema.json'.length))
    .sort();
}
