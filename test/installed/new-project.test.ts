// `agentproto new` as a user meets it, for every protocol: the repository's CLI packs the packages a project needs
// into its vendor/ folder, and in a folder outside the repository (no workspace links) `npm install`, `npm run
// typecheck` (strict), `npm test` and `npm start` work untouched; `kill` of npm's process id stops the server.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '@agentproto/cli';
import { describe, expect, it } from 'vitest';
import { npm, startProbeAndKill } from '../support/installed.js';

const work = mkdtempSync(path.join(tmpdir(), 'agentproto-new-'));

const projects: Array<[string, { probe: string; protocolPackage: string }]> = [
  ['agent-protocol@v1', { probe: '/ap/v1/agent/tasks', protocolPackage: 'agent-protocol' }],
  ['agent-protocol@v1-awaiting-input', { probe: '/ap/v1/agent/tasks', protocolPackage: 'agent-protocol' }],
  ['agentscope@0.1', { probe: '/health', protocolPackage: 'agentscope' }],
  ['agentscope@1.1', { probe: '/health', protocolPackage: 'agentscope' }],
  ['fixie@1.0', { probe: '/', protocolPackage: 'fixie' }],
  ['agent-protocol-2025@draft-2025-02', { probe: '/', protocolPackage: 'agent-protocol-2025' }],
];

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
      npm(dir, ['install', '--no-audit', '--no-fund']);
      // Real installs from the vendored tarballs, and only the protocol's own package among the protocols.
      expect(readdirSync(path.join(dir, 'node_modules/@agentproto')).sort()).toEqual(
        ['conformance', protocolPackage, 'runtime'].sort(),
      );
      npm(dir, ['run', 'typecheck']);
      const test = npm(dir, ['test']);
      expect(test).toMatch(/# pass 1/);
      expect(test).toMatch(/# fail 0/);
      expect(await startProbeAndKill(dir, probe)).toEqual({ status: 200, closed: true });
    },
    600_000,
  );
});
