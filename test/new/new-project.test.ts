// `agentproto new` as a user meets it: our packages are packed with `pnpm pack` (never workspace links), each new
// project installs them from those tarballs with npm, and `npm install && npm test && npm start` work untouched —
// for every protocol.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '@agentproto/cli';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

const PACKED = ['runtime', 'agent-protocol', 'agentscope', 'fixie', 'agent-protocol-2025', 'conformance'];
const work = mkdtempSync(path.join(tmpdir(), 'agentproto-new-'));
const tarballs = path.join(work, 'tarballs');

beforeAll(() => {
  for (const pkg of PACKED) {
    // prepack builds the package's dist/ and schemas/ first.
    execFileSync('pnpm', ['pack', '--pack-destination', tarballs], {
      cwd: path.join(ROOT, 'packages', pkg),
      stdio: 'pipe',
      timeout: 120_000,
    });
  }
}, 600_000);

/** Points the project's @agentproto dependencies (direct and transitive) at the tarballs. */
function useTarballs(dir: string) {
  const specs: Record<string, string> = {};
  for (const t of readdirSync(tarballs)) {
    const name = t.replace(/^agentproto-/, '').replace(/-\d+\.\d+\.\d+\.tgz$/, '');
    specs[`@agentproto/${name}`] = `file:${path.join(tarballs, t)}`;
  }
  const file = path.join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  for (const section of ['dependencies', 'devDependencies']) {
    for (const name of Object.keys(pkg[section] ?? {})) {
      if (name.startsWith('@agentproto/')) {
        expect(specs[name], `${name} was packed`).toBeDefined();
        pkg[section][name] = specs[name];
      }
    }
  }
  // The same spec for a direct dependency and its override, as npm requires.
  pkg.overrides = specs;
  writeFileSync(file, JSON.stringify(pkg, null, 2));
}

function npm(dir: string, args: string[]) {
  return execFileSync('npm', args, {
    cwd: dir,
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: 300_000,
    env: { ...process.env, NODE_ENV: 'development' },
  });
}

/** Starts the project with `npm start` on a free port, asks it `probe`, and stops it. */
async function startAndProbe(dir: string, probe: string): Promise<number> {
  const child = spawn('npm', ['start'], {
    cwd: dir,
    env: { ...process.env, PORT: '0' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no URL within 30 s: ${output}`)),
      30_000,
    );
    const read = (d: Buffer) => {
      output += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
  });
  try {
    return (await fetch(`${url}${probe}`)).status;
  } finally {
    // npm starts tsx, which starts node: stop the whole group.
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  }
}

const projects: Array<[string, { probe: string }]> = [
  ['agent-protocol@v1', { probe: '/ap/v1/agent/tasks' }],
  ['agent-protocol@v1-awaiting-input', { probe: '/ap/v1/agent/tasks' }],
  ['agentscope@0.1', { probe: '/health' }],
  ['agentscope@1.1', { probe: '/health' }],
  ['fixie@1.0', { probe: '/' }],
  ['agent-protocol-2025@draft-2025-02', { probe: '/' }],
];

describe('agentproto new > projects installed from packed tarballs', () => {
  it.each(projects)(
    '%s > npm install, npm test and npm start work untouched',
    async (protocol, { probe }) => {
      const dir = path.join(work, protocol.replace(/[@.]/g, '-'));
      const out: string[] = [];
      const code = await runCli(['new', dir, '--protocol', protocol], {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
        stdin: async function* () {},
      });
      expect(code, out.join('\n')).toBe(0);
      useTarballs(dir);
      npm(dir, ['install', '--no-audit', '--no-fund']);
      // No workspace links: every @agentproto package is a real install from a tarball.
      const installed = readdirSync(path.join(dir, 'node_modules/@agentproto'));
      expect(installed).toContain('conformance');
      const test = npm(dir, ['test']);
      expect(test).toMatch(/# pass 1/);
      expect(test).toMatch(/# fail 0/);
      expect(await startAndProbe(dir, probe)).toBe(200);
    },
    600_000,
  );
});
