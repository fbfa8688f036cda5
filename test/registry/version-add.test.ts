// Issue 19: a new version in one command. In a copy of the repository, `agentproto version add agentscope 1.2 --from
// 1.1` copies the schemas, lists the version, regenerates, and leaves a package that type-checks and validates both
// versions; `agentproto diff` then shows exactly what the author changed, and nothing else.
// Issue 35: the new version is complete and judged by its own schemas: its entry point and template are there, the
// reference agent serves it, conformance at agentscope@1.2 passes, and fails once a 1.2 schema requires what the
// agent does not send; a version whose traits are missing is a type error. The same walk, for every other protocol
// (in the same copy, so the copy and its links are made once): version add, a typed entry point
// `@agentproto/<package>/<new>` and the template type-check, the reference agent serves the new version, conformance
// passes by its schemas, and fails once its schema requires what the agent does not send.
// Every version is added first, and one whole `generate --check` and one type check of the whole copy (side by side)
// then judge them all: the checks of both walks read those two results.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { agentprotoIn, copyRepository } from '../support/copy-repository.js';
import { printedUrl } from '../support/installed.js';
import { execFailure } from '../support/typed.js';

let copy: string;
let added: { code: number; out: string };
/** `version add` of each other protocol (the walks below), run in the same copy after AgentScope's. */
const adds = new Map<string, { code: number; out: string }>();
/** After every `version add`: the copy's `generate --check` and its whole type check (new entry points probed). */
let whole: { generated: { code: number; out: string }; typechecked: { code: number; out: string } };
let agent: ChildProcess | undefined;
let agentUrl: Promise<string> | undefined;
// The reference agents the walk of every protocol starts, stopped at the end.
const agents: ChildProcess[] = [];

/**
 * The copy's type check: its exit code and output. `only` narrows it to some files (and what they import), with the
 * repository's compiler options: a whole check of the copy takes most of a minute on two cores.
 */
function typecheck(only?: readonly string[]): { code: number; out: string } {
  let project = copy;
  if (only) {
    project = path.join(copy, 'tsconfig.only.json');
    writeFileSync(project, JSON.stringify({ extends: './tsconfig.base.json', include: only }));
  }
  try {
    execFileSync(
      process.execPath,
      [path.join(copy, 'node_modules/typescript/bin/tsc'), '-p', project, '--noEmit'],
      {
        cwd: copy,
        stdio: 'pipe',
        timeout: 300_000,
      },
    );
    return { code: 0, out: '' };
  } catch (error) {
    const e = execFailure(error);
    return { code: e.status ?? -1, out: `${e.stdout}${e.stderr}` };
  }
}

/** Runs `node <args>` in the copy without blocking: its exit code, and its output (only stdout when it succeeded). */
function nodeIn(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      args,
      {
        cwd: copy,
        encoding: 'utf8',
        timeout: 600_000,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, CI: 'true' },
      },
      (error, stdout, stderr) =>
        resolve(
          error
            ? { code: typeof error.code === 'number' ? error.code : -1, out: `${stdout}${stderr}` }
            : { code: 0, out: stdout },
        ),
    ),
  );
}

/** A module importing each walk's new entry point `@agentproto/<package>/<new>` (TS2307 when it is not exported). */
function writeProbes() {
  for (const [id, { to }] of WALKS) {
    const name = String(
      JSON.parse(readFileSync(path.join(copy, packageDir(id), 'package.json'), 'utf8')).name,
    );
    // Under test/, which the copy's tsconfig.json includes: the whole type check reads them.
    mkdirSync(path.join(copy, 'test/version-probes'), { recursive: true });
    writeFileSync(
      path.join(copy, `test/version-probes/${id}.ts`),
      `export * as entry from '${name}/${to}';\n`,
    );
  }
}

/**
 * How long a reference agent of the copy may take to print its URL: a bound for a stuck child, not a verdict on speed.
 * The copy's CLI starts through tsx from sources, and on a loaded machine (two cores, other runs beside) that start
 * once took more than a minute. The tests that start an agent have ten minutes, as the stage's other tests do.
 */
const START_BOUND_MS = 300_000;

/** Starts the copy's AgentScope reference agent at a version on a free port; resolves with its root URL. */
function startAgent(version: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'packages/agentscope/src/reference-agent/serve.ts',
      '--version',
      version,
      '--port',
      '0',
    ],
    { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  agent = child;
  return printedUrl(child, `the ${version} agent`, undefined, START_BOUND_MS);
}

beforeAll(async () => {
  copy = copyRepository('agentproto-version-add-');
  added = agentprotoIn(copy, ['version', 'add', 'agentscope', '1.2', '--from', '1.1']);
  for (const [id, { from, to }] of WALKS)
    adds.set(id, agentprotoIn(copy, ['version', 'add', id, to, '--from', from]));
  writeProbes();
  const [generated, typechecked] = await Promise.all([
    nodeIn(['--import', 'tsx', path.join(copy, 'packages/cli/bin/agentproto.js'), 'generate', '--check']),
    nodeIn([path.join(copy, 'node_modules/typescript/bin/tsc'), '-p', copy, '--noEmit']),
  ]);
  whole = { generated, typechecked: typechecked.code === 0 ? { code: 0, out: '' } : typechecked };
}, 900_000);

afterAll(() => {
  agent?.kill('SIGKILL');
  for (const a of agents) a.kill('SIGKILL');
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('19 > version add', () => {
  it('copies the folder with its $ids moved, and lists the version in the manifest', () => {
    expect(added.code, added.out).toBe(0);
    expect(added.out).toMatch(/copied \d+ files: schemas\/agentscope\/1\.1\/ → schemas\/agentscope\/1\.2\//);
    const message = JSON.parse(
      readFileSync(path.join(copy, 'schemas/agentscope/1.2/Message.schema.json'), 'utf8'),
    );
    expect(message.$id).toBe('https://agentproto.dev/schemas/agentscope/1.2/Message.schema.json');
    expect(existsSync(path.join(copy, 'schemas/agentscope/1.2/examples/Message'))).toBe(true);
    const manifest = parse(readFileSync(path.join(copy, 'schemas/agentscope/protocol.yaml'), 'utf8'));
    expect(manifest.latest).toBe('1.1');
    // The old entry, traits and all; the template is the new version's own copy.
    expect(manifest.versions['1.2']).toEqual({
      ...manifest.versions['1.1'],
      title: 'AgentScope Agent API 1.2',
      template: { ...manifest.versions['1.1'].template, dir: 'templates/1.2' },
    });
    expect(added.out).toContain('copied the project template to packages/agentscope/templates/1.2/');
    expect(readFileSync(path.join(copy, 'packages/agentscope/templates/1.2/agent.ts'), 'utf8')).toContain(
      "from '@agentproto/agentscope/1.2'",
    );
  });

  it('regenerates: the package has both versions, up to date, and type-checks', () => {
    expect(existsSync(path.join(copy, 'packages/agentscope/src/generated/1.2/validators.js'))).toBe(true);
    expect(readFileSync(path.join(copy, 'packages/registry/src/generated/registry.ts'), 'utf8')).toContain(
      'import("@agentproto/agentscope/1.2/binding")',
    );
    // The entry point `@agentproto/agentscope/1.2`, generated like the rest (the template imports it).
    expect(existsSync(path.join(copy, 'packages/agentscope/src/generated/1.2/entry.ts'))).toBe(true);
    // The whole checks, once every version is added (beforeAll).
    expect(whole.generated.code, whole.generated.out).toBe(0);
    expect(whole.typechecked).toEqual({ code: 0, out: '' });
  });

  it('conformance > the reference agent at 1.2 passes agentscope@1.2', async () => {
    agentUrl = startAgent('1.2');
    const run = agentprotoIn(copy, ['conformance', await agentUrl, '--protocol', 'agentscope@1.2']);
    expect(run.out).toMatch(/agentscope@1\.2 at http:\/\/127\.0\.0\.1:\d+: 8 passed, 0 failed, 0 skipped/);
    expect(run.code, run.out).toBe(0);
  }, 600_000);

  it('validate > the new version checks messages, and streams with its stream rules', () => {
    const v = path.join(copy, 'schemas/agentscope/1.2');
    const messages = agentprotoIn(copy, [
      'validate',
      path.join(v, 'examples/Message'),
      '--protocol',
      'agentscope@1.2',
      '--type',
      'Message',
    ]);
    expect(messages.code, messages.out).toBe(0);
    const streams = agentprotoIn(copy, ['validate', path.join(v, 'streams'), '--protocol', 'agentscope@1.2']);
    expect(streams.code, streams.out).toBe(0);
  }, 120_000);

  it('diff > nothing at first, then exactly what the author changed', () => {
    expect(
      agentprotoIn(copy, ['diff', 'agentscope@1.1', 'agentscope@1.2', '--fail-on', 'any']),
    ).toMatchObject({
      code: 0,
      out: expect.stringMatching(/: 0 changes$/m),
    });
    const file = path.join(copy, 'schemas/agentscope/1.2/RunStatus.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    schema.enum.push('paused');
    writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    const run = agentprotoIn(copy, [
      'diff',
      'agentscope@1.1',
      'agentscope@1.2',
      '--reporter',
      'json',
      '--fail-on',
      'receiver',
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.out);
    expect(report.changes).toMatchObject([
      {
        rule: 'enum-value-added',
        subject: 'RunStatus',
        breaks: 'receivers',
        proven: true,
        new: { file: 'schemas/agentscope/1.2/RunStatus.schema.json', pointer: '' },
        witnesses: [{ message: 'paused' }],
      },
    ]);
    expect(report.changes).toHaveLength(1);
  }, 120_000);

  it('conformance > a property 1.2 requires and the agent does not send fails agentscope@1.2, naming it', async () => {
    // The agent started above: what it sends did not change, only what 1.2 requires.
    agentUrl ??= startAgent('1.2');
    const url = await agentUrl;
    const file = path.join(copy, 'schemas/agentscope/1.2/AgentResponse.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    schema.properties.trace_id = { description: 'The trace the response belongs to.', type: 'string' };
    schema.required = [...(schema.required ?? []), 'trace_id'];
    writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    expect(agentprotoIn(copy, ['generate', '--protocol', 'agentscope']).code).toBe(0);
    const run = agentprotoIn(copy, ['conformance', url, '--protocol', 'agentscope@1.2']);
    expect(run.code, run.out).toBe(1);
    // Both the schema check and the stream check judge 1.2's events by 1.2's schemas.
    expect(run.out).toMatch(
      /FAIL +MUST +as\.wire\.schemas: .*\/trace_id: is required but missing \(AgentResponse\)/,
    );
    expect(run.out).toMatch(/FAIL +MUST +as\.stream\.rules: .*\/trace_id: is required but missing/);
    // 1.1's schemas did not change: the same agent passes them.
    const old = agentprotoIn(copy, ['conformance', url, '--protocol', 'agentscope@1.1']);
    expect(old.code, old.out).toBe(0);
  }, 600_000);

  it('traits > a version without its traits is a type error where the package states them', () => {
    const file = path.join(copy, 'schemas/agentscope/protocol.yaml');
    const manifest = parseDocument(readFileSync(file, 'utf8'));
    manifest.deleteIn(['versions', '1.2', 'traits']);
    writeFileSync(file, manifest.toString({ lineWidth: 0 }));
    expect(agentprotoIn(copy, ['generate', '--protocol', 'agentscope']).code).toBe(0);
    const { code, out } = typecheck(['packages/agentscope/src/version-traits.ts']);
    expect(code).not.toBe(0);
    expect(out).toMatch(/packages\/agentscope\/src\/version-traits\.ts\(\d+,\d+\): error TS2322/);
    expect(out).toContain('integerSequence');
  }, 360_000);
});

/** One protocol's walk: the version it copies, the new one, and the type whose schema then requires `trace_id`. */
interface Walk {
  from: string;
  to: string;
  /** A type the reference agent sends in the conformance run (its schema file, `<type>.schema.json`). */
  type: string;
}

const WALKS: Array<[string, Walk]> = [
  ['fixie', { from: '1.0', to: '1.1', type: 'AgentResponse' }],
  ['agent-protocol', { from: 'v1', to: 'v2', type: 'Task' }],
  ['agent-protocol-2025', { from: 'draft-2025-02', to: 'draft-2025-03', type: 'AgentDescriptor' }],
  ['mcp', { from: '2025-11-25', to: '2025-12-01', type: 'InitializeResult' }],
  ['a2a', { from: '1.0', to: '1.1', type: 'AgentCard' }],
];

/** The package folder of a protocol, from its manifest's `package`. */
function packageDir(id: string): string {
  const manifest = parse(readFileSync(path.join(copy, 'schemas', id, 'protocol.yaml'), 'utf8'));
  // A package is named `@agentproto/<folder>`.
  return path.join('packages', String(manifest.package).split('/')[1] ?? '');
}

/** Starts the copy's reference agent of `id@version` with `agentproto serve` on a free port; resolves with its URL. */
function serve(id: string, version: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/cli/bin/agentproto.js', 'serve', `${id}@${version}`, '--port', '0'],
    { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } },
  );
  agents.push(child);
  return printedUrl(child, `the ${id}@${version} agent`, undefined, START_BOUND_MS);
}

describe('35 > version add, every protocol', () => {
  const urls = new Map<string, Promise<string>>();

  it('adds each version: listed, regenerated and up to date', () => {
    for (const [id, { to }] of WALKS) {
      const add = adds.get(id);
      expect(add?.code, add?.out).toBe(0);
      expect(add?.out).toContain(`listed ${to} in schemas/${id}/protocol.yaml`);
    }
    // The whole `generate --check`, once every version is added (beforeAll).
    expect(whole.generated.code, whole.generated.out).toBe(0);
  });

  it('typecheck > every new entry point `@agentproto/<package>/<new>`, and every new template', () => {
    // The probes importing each new entry point (test/version-probes/, written by beforeAll) and the new templates,
    // which `version add` points at the new entry point when they imported the old one, are in the whole type check.
    const probes: string[] = [];
    for (const [id, { from, to }] of WALKS) {
      const dir = packageDir(id);
      const name = String(JSON.parse(readFileSync(path.join(copy, dir, 'package.json'), 'utf8')).name);
      probes.push(readFileSync(path.join(copy, `test/version-probes/${id}.ts`), 'utf8'));
      const manifest = parse(readFileSync(path.join(copy, 'schemas', id, 'protocol.yaml'), 'utf8'));
      const template: unknown = manifest.versions[to].template?.dir;
      if (typeof template !== 'string') continue;
      const agentTs = readFileSync(path.join(copy, dir, template, 'agent.ts'), 'utf8');
      expect(agentTs, `${id}'s template imports the old entry point`).not.toContain(`'${name}/${from}'`);
    }
    expect(probes).toHaveLength(WALKS.length);
    expect(whole.typechecked).toEqual({ code: 0, out: '' });
  });

  describe.each(WALKS)('%s', (id, { to, type }) => {
    const name = `${id}@${to}`;

    it(`conformance > the reference agent serves ${to} and passes ${name}`, async () => {
      urls.set(id, serve(id, to));
      const url = await urls.get(id);
      const run = agentprotoIn(copy, ['conformance', String(url), '--protocol', name]);
      expect(run.out).toMatch(
        new RegExp(`${name.replace(/[.]/g, '\\.')} at http://127\\.0\\.0\\.1:\\d+: \\d+ passed, 0 failed`),
      );
      expect(run.code, run.out).toBe(0);
    }, 600_000);

    it(`conformance > a property ${to} requires and the agent does not send fails ${name}`, async () => {
      // The agent started above: what it sends did not change, only what the new version requires.
      if (!urls.has(id)) urls.set(id, serve(id, to));
      const url = String(await urls.get(id));
      const file = path.join(copy, 'schemas', id, to, `${type}.schema.json`);
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      schema.properties = {
        ...schema.properties,
        trace_id: { description: 'The trace it belongs to.', type: 'string' },
      };
      schema.required = [...(schema.required ?? []), 'trace_id'];
      // A type made of `allOf` says it is an object where it states `required` (strict mode).
      schema.type ??= 'object';
      writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
      const generated = agentprotoIn(copy, ['generate', '--protocol', id]);
      expect(generated.code, generated.out).toBe(0);
      const run = agentprotoIn(copy, ['conformance', url, '--protocol', name]);
      expect(run.code, run.out).toBe(1);
      // Whichever check reads the type first fails, naming the property the new version requires.
      expect(run.out).toMatch(/FAIL +MUST +[\w.-]+: .*\/trace_id: is required but missing/);
    }, 600_000);
  });
});
