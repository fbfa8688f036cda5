// `agentproto new` as a user meets it, for every protocol: the repository's CLI packs the packages a project needs
// into its vendor/ folder, and in a folder outside the repository (no workspace links) `npm install`, `npm run
// typecheck` (strict), `npm test` and `npm start` work untouched; `kill` of npm's process id stops the server. A
// project that keeps state starts on its default SQLite store and writes agent.db.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '@agentproto/cli';
import { knownProtocols, resolveBinding } from '@agentproto/conformance/registry';
import { describe, expect, it } from 'vitest';
import { npm, startProbeAndKill } from '../support/installed.js';

const work = mkdtempSync(path.join(tmpdir(), 'agentproto-new-'));

/**
 * Every protocol version whose package has a project template, from the registry. The probe is a path `npm start`
 * answers 200 on: the first of the version's paths with no parameter, past the root when there is one.
 */
const projects: Array<[string, { probe: string; protocolPackage: string }]> = [];
for (const p of knownProtocols())
  for (const { version } of p.versions) {
    const binding = await resolveBinding(`${p.protocol}@${version}`);
    if (!binding.template) continue;
    const plain = (binding.paths ?? ['/']).filter((x) => !x.includes('{'));
    const probe = plain.find((x) => x !== '/') ?? '/';
    projects.push([
      `${p.protocol}@${version}`,
      { probe, protocolPackage: p.package.replace('@agentproto/', '') },
    ]);
  }

/**
 * better-sqlite3 builds from source in each project it is installed in (about two minutes on two cores). The first
 * stateful project installs it for real and runs on SQLite; the others skip install scripts and run on memory, which
 * is what stays protocol-specific about them.
 */
let sqliteBuilt = false;

describe('agentproto new > a vendored project, installed outside the repository', () => {
  it.each(projects)(
    '%s > npm install, typecheck, test and start work untouched',
    async (protocol, { probe, protocolPackage }) => {
      const dir = path.join(work, protocol.replace(/[@.]/g, '-'));
      const out: string[] = [];
      const code = await runCli(['new', dir, '--protocol', protocol], {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
        stdin: async function* () {},
      });
      expect(code, out.join('\n')).toBe(0);
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      expect(manifest.dependencies[`@agentproto/${protocolPackage}`]).toMatch(/^file:vendor\/.+\.tgz$/);
      expect(readdirSync(path.join(dir, 'vendor')).sort()).toEqual(
        [`agentproto-${protocolPackage}`, 'agentproto-conformance', 'agentproto-runtime']
          .map((n) => `${n}-0.1.0.tgz`)
          .sort(),
      );
      const stateful = 'better-sqlite3' in manifest.dependencies;
      const buildSqlite = stateful && !sqliteBuilt;
      sqliteBuilt ||= buildSqlite;
      npm(dir, [
        'install',
        '--no-audit',
        '--no-fund',
        ...(stateful && !buildSqlite ? ['--ignore-scripts'] : []),
      ]);
      // Real installs from the vendored tarballs, and only the protocol's own package among the protocols.
      expect(readdirSync(path.join(dir, 'node_modules/@agentproto')).sort()).toEqual(
        ['conformance', protocolPackage, 'runtime'].sort(),
      );
      npm(dir, ['run', 'typecheck']);
      const test = npm(dir, ['test']);
      expect(test).toMatch(/# pass 1/);
      expect(test).toMatch(/# fail 0/);
      const env = stateful && !buildSqlite ? { AGENT_STORE: 'memory' } : {};
      expect(await startProbeAndKill(dir, probe, env)).toEqual({ status: 200, closed: true });
      if (buildSqlite) expect(existsSync(path.join(dir, 'agent.db'))).toBe(true);
    },
    600_000,
  );
});
