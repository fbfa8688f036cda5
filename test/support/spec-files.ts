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

/** Every protocol version folder under schemas/: those with an openapi.yaml, and extensions of them. */
export function protocolVersions(): Array<{ protocol: string; version: string; dir: string }> {
  const out = [];
  for (const protocol of readdirSync(path.join(ROOT, 'schemas')).sort()) {
    const pdir = path.join(ROOT, 'schemas', protocol);
    if (!existsSync(pdir) || !readdirSync(pdir, { withFileTypes: true }).some((e) => e.isDirectory()))
      continue;
    for (const version of readdirSync(pdir).sort()) {
      const dir = path.join(pdir, version);
      // A version has its own openapi.yaml, or extends another (extension.yaml).
      if (existsSync(path.join(dir, 'openapi.yaml')) || existsSync(path.join(dir, 'extension.yaml')))
        out.push({ protocol, version, dir });
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
  const manifest = path.join(dir, 'extension.yaml');
  if (existsSync(own) || !existsSync(manifest)) return own;
  const base = /^extends:\s*(\S+)/m.exec(readFileSync(manifest, 'utf8'))?.[1] ?? '';
  return schemaFile(path.join(path.dirname(dir), base), typeName);
}
