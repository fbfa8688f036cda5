// Issue 14: which protocols exist is data. The registry is generated from schemas/<id>/protocol.yaml; the generic
// packages (codegen, runtime, registry, conformance, cli) name no protocol in their code; and every package a manifest
// names is wired where npm needs it (the registry's optional peers, the CLI's dependencies), so a protocol added to the
// manifests but not there fails here with what to add, not at a user's `npm install`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { knownProtocols } from '@agentproto/registry';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

const GENERIC = ['codegen', 'runtime', 'registry', 'conformance', 'cli'];

/** The hand-written TypeScript of a package: its src/, without tests or generated files. */
function handWritten(pkg: string): string[] {
  const src = path.join(ROOT, 'packages', pkg, 'src');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.split(path.sep).includes('generated'))
    .map((f) => path.join(src, f));
}

/** Source without its comments: protocols may be named as examples in prose, never in code. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The names (protocol ids, package names) a source's code mentions as a string or path segment. */
const named = (text: string, names: readonly string[]) =>
  names.filter((n) => new RegExp(`['"\`/]${n.replace(/[/@-]/g, '\\$&')}['"\`/@]`).test(code(text)));

const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

describe('14 > protocols are data', () => {
  const protocols = knownProtocols();

  it('registry > lists every protocol folder that has a manifest', () => {
    const withManifest = readdirSync(path.join(ROOT, 'schemas'), { withFileTypes: true })
      .filter(
        (e) => e.isDirectory() && readdirSync(path.join(ROOT, 'schemas', e.name)).includes('protocol.yaml'),
      )
      .map((e) => e.name)
      .sort();
    expect(protocols.map((p) => p.protocol).sort()).toEqual(withManifest);
    expect(withManifest.length).toBeGreaterThanOrEqual(4);
  });

  it.each(GENERIC)('generic > %s names no protocol in its code', (pkg) => {
    const names = protocols.flatMap((p) => [p.protocol, p.package]);
    const found = handWritten(pkg).flatMap((file) =>
      named(readFileSync(file, 'utf8'), names).map((n) => `${path.relative(ROOT, file)}: ${n}`),
    );
    expect(found).toEqual([]);
  });

  it('generic > the check finds a protocol named in code, not in a comment (it can fail)', () => {
    const names = ['fixie', 'agentscope', '@agentproto/fixie'];
    expect(named("if (id === 'fixie') x(); // agentscope", names)).toEqual(['fixie']);
    expect(named("await import('@agentproto/fixie/1.0/binding');", names)).toEqual([
      'fixie',
      '@agentproto/fixie',
    ]);
    expect(named('/** `agentscope@1.1` */\nconst y = 1;', names)).toEqual([]);
  });

  it('readme > the table of protocols lists exactly the registry: ids and versions', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const rows = readme
      .split('\n')
      .filter((l) => /^\| .+ \| `[a-z0-9-]+` +\|/.test(l))
      .map((l) => {
        const cells = l.split('|').map((c) => c.trim());
        const versions = [...(cells[3] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]);
        return `${(cells[2] ?? '').replaceAll('`', '')}: ${versions.join(', ')}`;
      });
    expect(rows.sort()).toEqual(
      protocols.map((p) => `${p.protocol}: ${p.versions.map((v) => v.version).join(', ')}`).sort(),
    );
  });

  it('wiring > every protocol package is an optional peer of the registry and a dependency of the CLI', () => {
    const registry = readJson('packages/registry/package.json');
    const cli = readJson('packages/cli/package.json');
    const missing = protocols.flatMap((p) => [
      ...(registry.peerDependencies?.[p.package]
        ? []
        : [`packages/registry: peerDependencies["${p.package}"]`]),
      ...(registry.peerDependenciesMeta?.[p.package]?.optional
        ? []
        : [`packages/registry: peerDependenciesMeta["${p.package}"].optional`]),
      ...(cli.dependencies?.[p.package] ? [] : [`packages/cli: dependencies["${p.package}"]`]),
    ]);
    expect(missing).toEqual([]);
  });
});
