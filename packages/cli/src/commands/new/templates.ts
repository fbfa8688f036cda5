// The files of a new agent project. The protocol-specific part (`src/agent.ts` and anything beside it) is the protocol
// package's template: real TypeScript in that package, type-checked with the repository, copied as it is. What every
// project has (package.json, the server, the conformance test, tsconfig, README) is written here, from the binding.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProtocolBinding } from '@agentproto/runtime/contract';
/** A file of a new agent project: its path inside the project and its text. */
export interface ProjectFile {
  path: string;
  content: string;
}

/** What a protocol's template needs to know. */
export interface TemplateInput {
  /** The project's (and agent's) name, as npm accepts it. */
  name: string;
  /** The protocol id and version, as `--protocol` takes them (`agentscope@1.1`). */
  protocol: string;
  version: string;
  /** How the project names each @agentproto package it depends on (a `file:vendor/…` tarball or a range). */
  ours: Readonly<Record<string, string>>;
  /** Ranges of the third-party packages it depends on, taken from our packages' own manifests. */
  ranges: Readonly<Record<string, string>>;
  /** Whether our packages come from vendor/ (then npm must use them for transitive dependencies too). */
  vendored: boolean;
  /** The store a stateful project's server opens unless AGENT_STORE names another (`agentproto new --store`). */
  store: ProjectStore;
}

/** A new project's compiler options: strict, as our own sources are compiled. */
export const PROJECT_COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: true,
  noEmit: true,
};

/** The port `npm start` listens on by default: not one the reference agents use (8000, 8086, 8090, 8181). */
export const PROJECT_PORT = 3000;

/** Third-party packages every project depends on: the agent is a Hono app, served by @hono/node-server. */
const PROJECT_DEPENDENCIES = ['@hono/node-server', 'hono'];

/**
 * Whether a template keeps state: its agent.ts exports `createApp(store)`. Such a project's server opens the store
 * AGENT_STORE names, else the one `agentproto new --store` chose (`PROJECT_STORES`).
 */
export function keepsState(files: readonly ProjectFile[]): boolean {
  return files.some((f) => f.path === 'agent.ts' && /\bexport function createApp\(/.test(f.content));
}

/**
 * The stores `agentproto new --store` offers a stateful project: what its server opens when AGENT_STORE is not set,
 * the driver the project then depends on (an optional peer of the runtime), and what its README says of it. Memory is
 * the default so that a new project installs in seconds with no native build; SQLite's driver, better-sqlite3,
 * compiles with node-gyp (python3, make and a C++ compiler, about a minute and a half on two cores).
 */
export const PROJECT_STORES = {
  memory: {
    spec: 'memory',
    driver: undefined,
    readme:
      'Its state lives in memory: a restart forgets every task and run. For state that survives restarts and crashes, make the project with `agentproto new --store sqlite` (or add `better-sqlite3` and set `AGENT_STORE=sqlite:./agent.db`).',
  },
  sqlite: {
    spec: 'sqlite:./agent.db',
    driver: 'better-sqlite3',
    readme:
      'Its state lives in `./agent.db` (SQLite, WAL mode): it survives restarts and crashes. The SQLite driver, better-sqlite3, builds with node-gyp during `npm install` (python3, make and a C++ compiler).',
  },
  redis: {
    spec: 'redis://127.0.0.1:6379',
    driver: 'ioredis',
    readme:
      'Its state lives in the Redis server at `redis://127.0.0.1:6379`: several processes (behind any load balancer) share tasks and runs; give each process its own `AGENTPROTO_INSTANCE` name.',
  },
} as const satisfies Record<string, { spec: string; driver: string | undefined; readme: string }>;

/** A store `agentproto new --store` takes. */
export type ProjectStore = keyof typeof PROJECT_STORES;

/** The store a stateful project gets without `--store`. */
export const DEFAULT_PROJECT_STORE: ProjectStore = 'memory';

/** The binding's template, or undefined when the protocol version has none. */
export type TemplatedBinding = ProtocolBinding & { template: NonNullable<ProtocolBinding['template']> };

/** Whether the protocol version has a project template. */
export function hasTemplate(binding: ProtocolBinding): binding is TemplatedBinding {
  return Boolean(binding.template);
}

/** Whether `store` names a store `agentproto new --store` takes. */
export function isProjectStore(store: string): store is ProjectStore {
  return Object.hasOwn(PROJECT_STORES, store);
}

/** The template's files, read from the protocol package: each path relative to the template folder. */
export async function templateFiles(binding: TemplatedBinding): Promise<ProjectFile[]> {
  const dir = fileURLToPath(binding.template.dir);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: ProjectFile[] = [];
  for (const e of entries.filter((x) => x.isFile()).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(e.parentPath, e.name);
    files.push({
      path: path.relative(dir, full).split(path.sep).join('/'),
      content: await readFile(full, 'utf8'),
    });
  }
  return files;
}

/** The package a bare import specifier names (`@agentproto/fixie/1.0` → `@agentproto/fixie`); undefined for a path. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * What the project's development needs of ours: this CLI (so `npx agentproto` inside the project runs ours, at the
 * version the project was made with, never a stranger's package of that name from the registry), and the conformance
 * kit with the registry it resolves protocols through, for the project's tests. Development dependencies: a
 * production install (`npm install --omit=dev`) carries only the protocol's own package.
 */
export const DEV_PACKAGES: readonly string[] = [
  '@agentproto/cli',
  '@agentproto/conformance',
  '@agentproto/registry',
];

/**
 * The packages a project of this template depends on: ours (the protocol package, the runtime, the conformance kit
 * with the registry, and any other of ours the template imports), then third-party ones (every project's, those the
 * template imports, and those its manifest adds).
 */
export function templatePackages(
  binding: TemplatedBinding,
  files: readonly ProjectFile[],
  store: ProjectStore = DEFAULT_PROJECT_STORE,
): { ours: string[]; thirdParty: string[] } {
  const imported = new Set<string>();
  for (const f of files)
    for (const m of f.content.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)) {
      const pkg = packageOf(m[1] ?? '');
      if (pkg) imported.add(pkg);
    }
  const ours = new Set([binding.package, '@agentproto/runtime', ...DEV_PACKAGES]);
  const thirdParty = new Set([...PROJECT_DEPENDENCIES, ...binding.template.dependencies]);
  const driver = PROJECT_STORES[store].driver;
  if (keepsState(files) && driver) thirdParty.add(driver);
  for (const pkg of imported) (pkg.startsWith('@agentproto/') ? ours : thirdParty).add(pkg);
  return { ours: [...ours].sort(), thirdParty: [...thirdParty].sort() };
}

/** Every file of a new agent project: the template's under `src/`, then the ones every project has. */
export function projectFiles(
  binding: TemplatedBinding,
  template: readonly ProjectFile[],
  t: TemplateInput,
): ProjectFile[] {
  const { ours, thirdParty } = templatePackages(binding, template, t.store);
  const store = PROJECT_STORES[t.store];
  const title = binding.title;
  // Values pasted into the project's TypeScript go in as string literals (JSON.stringify), never raw.
  const key = `${t.protocol}@${t.version}`;
  const spec = (name: string): string => {
    const found = t.ours[name] ?? t.ranges[name];
    if (!found) throw new Error(`no version for ${name}`);
    return found;
  };
  const sorted = (names: string[]) => Object.fromEntries(names.sort().map((n) => [n, spec(n)]));
  const port = PROJECT_PORT;
  const pkg = {
    name: t.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    description: `An agent that speaks ${title}.`,
    engines: { node: '>=20.18.1' },
    scripts: {
      // Scripts any shell runs (npm's sh, Windows' cmd): no `exec`, no globs. `kill` of npm's process id still stops
      // the server: runServeScript ends it once the script's shell is gone. The test files are named, since node 20's
      // `--test` neither expands a glob nor finds .ts files by itself: add yours here.
      start: 'node --import tsx src/server.ts',
      test: 'node --import tsx --test test/conformance.test.ts',
      typecheck: 'tsc',
    },
    dependencies: sorted([...ours.filter((n) => !DEV_PACKAGES.includes(n)), ...thirdParty, 'tsx']),
    devDependencies: sorted([...DEV_PACKAGES, '@types/node', 'typescript']),
    // npm installs a vendored tarball for a transitive dependency only when an override names the same tarball: every
    // tarball in vendor/ (the CLI's own @agentproto dependencies among them) gets one.
    ...(t.vendored
      ? {
          overrides: Object.fromEntries(
            Object.keys(t.ours)
              .sort()
              .map((n) => [n, spec(n)]),
          ),
        }
      : {}),
  };
  return [
    { path: 'package.json', content: `${JSON.stringify(pkg, null, 2)}\n` },
    ...template.map((f) => ({ path: `src/${f.path}`, content: f.content })),
    keepsState(template)
      ? {
          path: 'src/server.ts',
          content: `// Serves the agent on 127.0.0.1 (PORT, default ${port}). Ctrl-C stops it. Its state lives in the store
// AGENT_STORE names, else ${store.spec}: memory (nothing kept across restarts), sqlite:<file> (one file, kept across
// restarts; needs better-sqlite3) or redis://host:port (several processes share it; needs ioredis).
// A store that cannot be opened (AGENT_STORE names a file that is not SQLite), a bad PORT or a port in use is one
// line on stderr and exit code 2, never a stack trace.
import { openStore, runServeScript, serveLocal } from '@agentproto/runtime';
import { createApp } from './agent.js';

await runServeScript({ port: ${port} }, async ({ port }) => {
  const store = await openStore(process.env.AGENT_STORE || ${JSON.stringify(store.spec)});
  const { url } = await serveLocal(createApp(store).fetch, port);
  return [${JSON.stringify(`${t.name} (${title}) listening on`)}, url, \`(store: \${store.kind})\`].join(' ');
});
`,
        }
      : {
          path: 'src/server.ts',
          content: `// Serves the agent on 127.0.0.1 (PORT, default ${port}). Ctrl-C stops it. A bad PORT or a port in use is one line
// on stderr and exit code 2, never a stack trace.
import { runServeScript, serveLocal } from '@agentproto/runtime';
import { app } from './agent.js';

await runServeScript({ port: ${port} }, async ({ port }) => {
  const { url } = await serveLocal(app.fetch, port);
  return [${JSON.stringify(`${t.name} (${title}) listening on`)}, url].join(' ');
});
`,
        },
    {
      path: 'test/conformance.test.ts',
      content: `// Runs the agentproto conformance kit against the agent, in memory: every MUST and SHOULD check of
// ${t.protocol}@${t.version} must pass, and so must 200 requests built from the protocol's schemas (valid ones,
// and ones with one rule broken; a failure prints the smallest request that shows it as a curl command).
// Keep it passing as you write the agent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render, runConformance } from '@agentproto/conformance';
import { app } from '../src/agent.js';

test(${JSON.stringify(`the agent conforms to ${key}`)}, async () => {
  const report = await runConformance({
    protocol: ${JSON.stringify(key)},
    target: app,
    fuzz: { requests: 200, seed: 1 },
  });
  const failed = report.checks.filter((c) => c.status === 'fail' && c.level !== 'MAY');
  assert.deepEqual(failed, [], render(report, 'text'));
});
`,
    },
    {
      path: 'tsconfig.json',
      content: `${JSON.stringify(
        {
          compilerOptions: PROJECT_COMPILER_OPTIONS,
          include: ['src', 'test'],
        },
        null,
        2,
      )}\n`,
    },
    {
      path: '.gitignore',
      content:
        keepsState(template) && t.store === 'sqlite' ? 'node_modules/\nagent.db*\n' : 'node_modules/\n',
    },
    {
      path: 'README.md',
      content: `# ${t.name}

An agent that speaks **${title}** (\`${t.protocol}@${t.version}\`), made with \`agentproto new\`.

\`\`\`sh
npm install
npm run typecheck   # the TypeScript compiler, strict: every handler's answer is checked against the protocol
npm test            # the agentproto conformance kit against the agent, in memory
npm start           # serves it on http://127.0.0.1:${port} (PORT=… for another port)
\`\`\`
${
  keepsState(template)
    ? `
${store.readme} \`AGENT_STORE\` picks another store at start: \`memory\`, \`sqlite:./agent.db\` (with \`npm install
better-sqlite3\`) or \`redis://127.0.0.1:6379\` (with \`npm install ioredis\`; give each process its own
\`AGENTPROTO_INSTANCE\` name).
`
    : ''
}
${
  t.vendored
    ? `The @agentproto packages come from the tarballs in \`vendor/\`, which \`agentproto new\` packed from the CLI
that made this project: install needs the npm registry only for third-party packages. Keep \`vendor/\` with the
project (commit it). Once the packages are published, \`agentproto new --registry\` writes version ranges instead.`
    : 'The @agentproto packages come from the npm registry, as version ranges.'
}

## Extend it

${binding.template.extend}

Requests are validated before your code runs, and in development every answer is checked against the protocol
(set \`NODE_ENV=production\` to skip that check). \`npm test\` runs the conformance kit: keep it green.

To check the running agent from another terminal, with the agentproto CLI that made this project: \`agentproto conformance http://127.0.0.1:${port} --protocol ${t.protocol}@${t.version}\`.
`,
    },
  ];
}
