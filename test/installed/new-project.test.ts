// `agentproto new` as a user meets it, for every protocol: the repository's CLI packs the packages a project needs
// into its vendor/ folder, and in a folder outside the repository (no workspace links) `npm install`, `npm run
// typecheck` (strict), `npm test` and `npm start` work untouched; `kill` of npm's process id stops the server. A
// project that keeps state starts on memory by default (no native build to install), and one made with
// `--store sqlite` installs better-sqlite3 for real, starts on SQLite and writes agent.db.
// The first project installs into an empty folder; every later one starts from a copy of that project's node_modules
// (the same vendored tarballs and third-party packages; projects differ in which of them they name) and runs `npm
// install`, which still resolves the project's own package.json, adds what it lacks and prunes what it does not name
// (about 2 s of CPU where an install into an empty folder takes 18). npm reads the cache the first install filled
// (`--prefer-offline`).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '@agentproto/cli';
import { knownProtocols, resolveBinding } from '@agentproto/registry';
import { afterAll, describe, expect, it } from 'vitest';
import { npm, startProbeAndKill } from '../support/installed.js';
import { ROOT } from '../support/spec-files.js';

const work = mkdtempSync(path.join(tmpdir(), 'agentproto-new-'));
/** The first project installed into an empty folder, whose node_modules later projects start from. */
let freshlyInstalled: string | undefined;
// About 60 MB of node_modules a project: removed at the end, or every run leaves most of a gigabyte in the temp folder.
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Every protocol version whose package has a project template, from the registry. The probe is a path `npm start`
 * answers on: the first of the version's paths with no parameter, past the root when there is one. It answers 200,
 * or 405 where the version takes no GET there or declares 405 for it (MCP's endpoint: POST, and GET only for a
 * server that offers its own stream).
 */
const projects: Array<[string, { probe: string; statuses: number[]; protocolPackage: string }]> = [];
for (const p of knownProtocols())
  for (const { version } of p.versions) {
    const binding = await resolveBinding(`${p.protocol}@${version}`);
    if (!binding.template) continue;
    const plain = (binding.paths ?? ['/']).filter((x) => !x.includes('{'));
    const probe = plain.find((x) => x !== '/') ?? '/';
    const get = ((await binding.surface?.())?.operations ?? []).find(
      (o) => o.method.toUpperCase() === 'GET' && o.path === probe,
    );
    projects.push([
      `${p.protocol}@${version}`,
      {
        probe,
        statuses: !get || get.responses['405'] ? [200, 405] : [200],
        protocolPackage: p.package.replace('@agentproto/', ''),
      },
    ]);
  }

describe('agentproto new > a vendored project, installed outside the repository', () => {
  it.each(projects)(
    '%s > npm install, typecheck, test and start work untouched',
    async (protocol, { probe, statuses, protocolPackage }) => {
      await newProject(protocol, probe, protocolPackage, [], statuses);
    },
    600_000,
  );

  it('--store sqlite > better-sqlite3 installed in the project, the server on SQLite, agent.db written', async () => {
    const found = projects.find(([p]) => p.startsWith('a2a@'));
    if (!found) throw new Error('no a2a project template');
    const [protocol, { probe, statuses, protocolPackage }] = found;
    const dir = await newProject(
      protocol,
      probe,
      protocolPackage,
      ['--store', 'sqlite'],
      statuses,
      localPrebuild(),
    );
    expect(existsSync(path.join(dir, 'agent.db'))).toBe(true);
  }, 600_000);
});

/**
 * better-sqlite3's install script asks prebuild-install for a binary from GitHub, which this machine cannot reach, and
 * then compiles SQLite with node-gyp: two minutes on two cores, the same compile the repository's own `pnpm install`
 * has just done. prebuild-install first looks for the binary in a local folder (`npm_config_<name>_local_prebuilds`),
 * so the repository's build is offered there, packed under the name prebuild-install asks for: the project's install
 * runs the package's own install script, and takes it when npm resolves the same version (else it compiles, as a
 * user's install does). The compile itself is proven by the repository's install.
 */
function localPrebuild(): NodeJS.ProcessEnv {
  const require = createRequire(new URL('../../packages/runtime/package.json', import.meta.url));
  const root = path.dirname(require.resolve('better-sqlite3/package.json'));
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const folder = path.join(work, 'prebuilds');
  mkdirSync(folder, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', path.join(folder, name), '-C', root, 'build/Release/better_sqlite3.node']);
  return { npm_config_better_sqlite3_local_prebuilds: folder };
}

/** Writes, installs, type-checks, tests, starts and stops one project; returns its folder. */
async function newProject(
  protocol: string,
  probe: string,
  protocolPackage: string,
  extra: string[],
  statuses: number[],
  env: NodeJS.ProcessEnv = {},
) {
  const dir = path.join(work, [protocol, ...extra].join('-').replace(/[@.]/g, '-'));
  const out: string[] = [];
  const code = await runCli(['new', dir, '--protocol', protocol, ...extra], {
    out: (l) => out.push(l),
    err: (l) => out.push(l),
    stdin: async function* () {},
  });
  expect(code, out.join('\n')).toBe(0);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  expect(manifest.dependencies[`@agentproto/${protocolPackage}`]).toMatch(/^file:vendor\/.+\.tgz$/);
  // What the project runs needs only the protocol's own package of ours, beside the runtime.
  expect(Object.keys(manifest.dependencies).filter((n) => n.startsWith('@agentproto/'))).toEqual(
    [`@agentproto/${protocolPackage}`, '@agentproto/runtime'].sort(),
  );
  // Its development has the CLI (so `npx agentproto` there is ours), the conformance kit and the registry; vendor/
  // carries a tarball of each of ours, the CLI's own dependencies included, none of them on a registry yet.
  expect(Object.keys(manifest.devDependencies).filter((n) => n.startsWith('@agentproto/'))).toEqual([
    '@agentproto/cli',
    '@agentproto/conformance',
    '@agentproto/registry',
  ]);
  const everyPackage = readdirSync(path.join(ROOT, 'packages')).filter((p) =>
    existsSync(path.join(ROOT, 'packages', p, 'package.json')),
  );
  expect(readdirSync(path.join(dir, 'vendor')).sort()).toEqual(
    everyPackage.map((n) => `agentproto-${n}-0.1.0.tgz`).sort(),
  );
  expect('better-sqlite3' in manifest.dependencies).toBe(extra.includes('sqlite'));
  // `cp -a` keeps the links in node_modules/.bin and the times that let npm trust node_modules/.package-lock.json.
  if (freshlyInstalled)
    execFileSync('cp', ['-a', path.join(freshlyInstalled, 'node_modules'), path.join(dir, 'node_modules')]);
  npm(dir, ['install', '--prefer-offline', '--no-audit', '--no-fund'], env);
  freshlyInstalled ??= dir;
  // Real installs from the vendored tarballs; `npx agentproto` inside the project runs the CLI it was made with.
  expect(readdirSync(path.join(dir, 'node_modules/@agentproto')).sort()).toEqual([...everyPackage].sort());
  const cliVersion = JSON.parse(readFileSync(path.join(ROOT, 'packages/cli/package.json'), 'utf8')).version;
  expect(npm(dir, ['exec', '--', 'agentproto', '--version']).trim()).toBe(cliVersion);
  npm(dir, ['run', 'typecheck']);
  const test = npm(dir, ['test']);
  expect(test).toMatch(/# pass 1/);
  expect(test).toMatch(/# fail 0/);
  const { status, closed } = await startProbeAndKill(dir, probe, {});
  expect(statuses).toContain(status);
  expect(closed).toBe(true);
  return dir;
}
