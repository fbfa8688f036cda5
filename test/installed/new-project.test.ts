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
// Two projects are worked on at a time (each in its own folder, on its own port): once the first has installed, the
// next starts beside it. Each step of a project is one process at a time (npm, tsc, node) that often waits, so two
// projects side by side finish sooner than one after the other. Each test still judges its own project, by its error.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '@agentproto/cli';
import { knownProtocols, resolveBinding } from '@agentproto/registry';
import { afterAll, describe, expect, it } from 'vitest';
import { npmAsync, startProbeAndKill } from '../support/installed.js';
import { ROOT } from '../support/spec-files.js';

const work = mkdtempSync(path.join(tmpdir(), 'agentproto-new-'));
/** The first project installed into an empty folder, whose node_modules later projects start from. */
let freshlyInstalled: string | undefined;
/** Resolves once the first project has installed: the others copy its node_modules. */
let seeded: () => void = () => {};
const seed = new Promise<void>((resolve) => {
  seeded = resolve;
});
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

/** What one project's walk came to: its folder, or the error (an assertion's included) that stopped it. */
type Outcome = { dir: string } | { error: unknown };

/**
 * Every project's walk, started together when the first test starts and run two at a time: the first alone until
 * it has installed, the rest in order as a place frees. Each test awaits its own; none rejects before a test awaits it.
 */
let walks: Map<string, Promise<Outcome>> | undefined;

/** The `--store sqlite` project's key among the walks. */
const SQLITE = 'sqlite';

function startWalks(): Map<string, Promise<Outcome>> {
  const found = projects.find(([p]) => p.startsWith('a2a@'));
  if (!found) throw new Error('no a2a project template');
  const jobs: Array<[string, () => Promise<string>]> = projects.map(([protocol, p]) => [
    protocol,
    () => newProject(protocol, p.probe, p.protocolPackage, [], p.statuses),
  ]);
  const [a2a, p] = found;
  jobs.push([
    SQLITE,
    () => newProject(a2a, p.probe, p.protocolPackage, ['--store', 'sqlite'], p.statuses, localPrebuild()),
  ]);
  let free = 2;
  const waiting: Array<() => void> = [];
  const place = async () => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const leave = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  const out = new Map<string, Promise<Outcome>>();
  jobs.forEach(([key, walk], i) => {
    const run = async (): Promise<Outcome> => {
      if (i > 0) await seed;
      await place();
      try {
        return { dir: await walk() };
      } catch (error) {
        return { error };
      } finally {
        // A first project that fails before it installs still lets the others go on (and fail on their own).
        if (i === 0) seeded();
        leave();
      }
    };
    out.set(key, run());
  });
  return out;
}

/** Awaits one project's walk: its folder, or its error thrown in the test that names it. */
async function walked(key: string): Promise<string> {
  walks ??= startWalks();
  const outcome = await walks.get(key);
  if (!outcome) throw new Error(`no walk for ${key}`);
  if ('error' in outcome) throw outcome.error;
  return outcome.dir;
}

describe('agentproto new > a vendored project, installed outside the repository', () => {
  it.each(projects)(
    '%s > npm install, typecheck, test and start work untouched',
    async (protocol) => {
      await walked(protocol);
    },
    600_000,
  );

  it('--store sqlite > better-sqlite3 installed in the project, the server on SQLite, agent.db written', async () => {
    const dir = await walked(SQLITE);
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

const run = promisify(execFile);
/** The `agentproto new` commands so far, chained: each starts when the one before has finished. */
let newCommands: Promise<void> = Promise.resolve();

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
  // One `new` at a time: the CLI packs the packages once per process and copies that pack afterwards.
  const made = newCommands.then(() =>
    runCli(['new', dir, '--protocol', protocol, ...extra], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
      stdin: async function* () {},
    }),
  );
  newCommands = made.then(
    () => {},
    () => {},
  );
  const code = await made;
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
    await run('cp', ['-a', path.join(freshlyInstalled, 'node_modules'), path.join(dir, 'node_modules')]);
  await npmAsync(dir, ['install', '--prefer-offline', '--no-audit', '--no-fund'], env);
  if (!freshlyInstalled) {
    freshlyInstalled = dir;
    seeded();
  }
  // Real installs from the vendored tarballs; `npx agentproto` inside the project runs the CLI it was made with.
  expect(readdirSync(path.join(dir, 'node_modules/@agentproto')).sort()).toEqual([...everyPackage].sort());
  const cliVersion = JSON.parse(readFileSync(path.join(ROOT, 'packages/cli/package.json'), 'utf8')).version;
  expect((await npmAsync(dir, ['exec', '--', 'agentproto', '--version'])).trim()).toBe(cliVersion);
  await npmAsync(dir, ['run', 'typecheck']);
  const test = await npmAsync(dir, ['test']);
  expect(test).toMatch(/# pass 1/);
  expect(test).toMatch(/# fail 0/);
  const { status, closed } = await startProbeAndKill(dir, probe, {});
  expect(statuses).toContain(status);
  expect(closed).toBe(true);
  return dir;
}
