// The agentproto CLI installed from its tarball with npm, in a folder outside the repository, as a user installs it:
// every command a user starts with works there, and a project it creates installs, type-checks, tests and starts.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderExport } from '@agentproto/codegen';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { installInNewFolder, npm, printedUrl, startProbeAndKill, tarballsIn } from '../support/installed.js';
import { ROOT } from '../support/spec-files.js';

let dir = '';
let cli = '';

beforeAll(() => {
  // Every tarball on one command line: npm satisfies the CLI's @agentproto dependencies with them.
  dir = installInNewFolder('agentproto-installed-cli-', Object.values(tarballsIn(inject('tarballs'))));
  cli = path.join(dir, 'node_modules/.bin/agentproto');
});

function agentproto(args: string[], cwd = dir) {
  const r = spawnSync(cli, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('installed cli', () => {
  it('--version and --help', () => {
    const version = JSON.parse(readFileSync(path.join(ROOT, 'packages/cli/package.json'), 'utf8')).version;
    expect(agentproto(['--version'])).toEqual({ code: 0, out: `${version}\n`, err: '' });
    const help = agentproto(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/validate .*\n[\s\S]*conformance/);
  });

  it('what it installs > no TypeScript writers, compiler or loader, and at most 60 MB in all', () => {
    // The generator's type writers are optional peers of @agentproto/codegen (only `generate`, in a checkout, uses
    // them) and the CLI runs its built JavaScript: none of these is installed beside it.
    const modules = path.join(dir, 'node_modules');
    for (const name of [
      'typescript',
      'openapi-typescript',
      'json-schema-to-typescript',
      'prettier',
      'tsx',
      'esbuild',
    ])
      expect(existsSync(path.join(modules, name)), name).toBe(false);
    let bytes = 0;
    for (const entry of readdirSync(modules, { recursive: true, withFileTypes: true }))
      if (entry.isFile()) bytes += statSync(path.join(entry.parentPath, entry.name)).size;
    expect(bytes / 1024 ** 2).toBeLessThanOrEqual(60);
  });

  it('validate > a valid and an invalid message, exit 0 and 1', () => {
    mkdirSync(path.join(dir, 'messages'), { recursive: true });
    const good = path.join(dir, 'messages/task.json');
    const bad = path.join(dir, 'messages/bad-task.json');
    writeFileSync(good, JSON.stringify({ task_id: 't1', input: 'hi', artifacts: [] }));
    writeFileSync(bad, JSON.stringify({ task_id: 5, artifacts: [] }));
    expect(agentproto(['validate', good, '--protocol', 'agent-protocol', '--type', 'Task'])).toMatchObject({
      code: 0,
    });
    const r = agentproto(['validate', bad, '--protocol', 'agent-protocol', '--type', 'Task']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/bad-task\.json:1: \/task_id: must be string/);
  });

  it('validate --workers > worker threads from the built JavaScript find what one thread finds, wherever it runs', () => {
    const log = path.join(dir, 'messages/events.ndjson');
    const event = (id: number, depth: number) =>
      JSON.stringify({
        id,
        run_id: 1,
        agent: 'a',
        type: 'TextOutput',
        role: 'assistant',
        depth,
        content: 'x',
      });
    // About 20 MB: more ranges (of about 8 MB) than threads, so the threads take turns from the queue.
    const lines = Array.from({ length: 200_000 }, (_, i) =>
      event(i + 1, i === 2500 || i === 190_000 ? -1 : 0),
    );
    writeFileSync(log, `${lines.join('\n')}\n`);
    const args = ['validate', log, '--protocol', 'agent-protocol-2025', '--type', 'TextOutput'];
    const one = agentproto(args);
    const two = agentproto([...args, '--workers', '2']);
    expect(one.code).toBe(1);
    expect(two).toEqual(one);
    expect(two.out).toMatch(/events\.ndjson:2501: event 2501: \/depth: must be >= 0/);
    expect(two.out).toMatch(/events\.ndjson:190001: event 190001: \/depth: must be >= 0/);
    // From a process started with `node -e` (whose --input-type a worker thread would refuse), as scripts run it.
    const script = `const { runCli } = await import(${JSON.stringify(path.join(dir, 'node_modules/@agentproto/cli/dist/index.js'))}); process.exitCode = await runCli(${JSON.stringify([...args, '--workers', '2'])});`;
    const evaluated = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect({ code: evaluated.status, out: evaluated.stdout, err: evaluated.stderr }).toEqual(one);
  });

  it('export > writes the same files as the repository renders, from what the packages ship', async () => {
    const out = path.join(dir, 'exported');
    const r = agentproto(['export', out]);
    expect(r.code, r.err).toBe(0);
    for (const f of await renderExport(ROOT)) {
      expect(readFileSync(path.join(out, f.path), 'utf8'), f.path).toBe(f.content);
    }
    const fixieOnly = path.join(dir, 'exported-fixie');
    expect(agentproto(['export', fixieOnly, '--protocol', 'fixie']).code).toBe(0);
    expect(readdirSync(fixieOnly).sort()).toEqual(['README.md', 'catalog.json', 'fixie']);
  });

  it('docs > the reference site from what the packages ship: every type has its page, no link leads nowhere', () => {
    const out = path.join(dir, 'site');
    const r = agentproto(['docs', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^wrote \d+ pages and \d+ other files to /);
    const pages = (sub: string) => readdirSync(path.join(out, sub)).sort();
    expect(pages('a2a/1.0/types')).toContain('Task.html');
    expect(pages('agentscope')).toEqual(['0.1', '1.1', 'changes', 'decisions.html', 'index.html']);
    expect(readFileSync(path.join(out, 'schemas/a2a/1.0/Task.schema.json'), 'utf8')).toContain(
      '"$id": "https://agentproto.dev/schemas/a2a/1.0/Task.schema.json"',
    );
    expect(readFileSync(path.join(out, 'agentscope/decisions.html'), 'utf8')).toMatch(/<h1 id=/);
  });

  it('inspect > serves its page and assets from the installed package, on 127.0.0.1, until stopped', async () => {
    const child = spawn(cli, ['inspect', 'http://127.0.0.1:9', '--protocol', 'fixie'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await printedUrl(child, 'inspect', /at (http:\/\/127\.0\.0\.1:\d+)/);
    try {
      expect(await (await fetch(url)).text()).toContain('agentproto inspector');
      expect((await fetch(`${url}/assets/inspector.js`)).status).toBe(200);
      expect(await (await fetch(`${url}/assets/base.css`)).text()).toContain('--accent');
      const info = await fetch(`${url}/api/info`, { headers: { 'x-agentproto-inspector': '1' } });
      expect(await info.json()).toMatchObject({ protocol: 'fixie', target: 'http://127.0.0.1:9' });
    } finally {
      child.kill('SIGINT');
    }
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('serve > a reference agent from the installed packages listens, answers, and stops on SIGTERM', async () => {
    const child = spawn(cli, ['serve', 'a2a', '--port', '0'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await printedUrl(child, 'serve');
    try {
      const card = await fetch(`${url}/.well-known/agent-card.json`);
      expect(card.status).toBe(200);
      expect(await card.json()).toMatchObject({ name: expect.any(String), skills: expect.any(Array) });
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('generate > outside a checkout, one line saying so, exit 2', () => {
    const r = agentproto(['generate']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^agentproto: `agentproto generate` works in a checkout of the agentproto repository .*\n$/,
    );
  });

  it('diff > compares the schemas the installed packages ship, and fails CI on what breaks senders', () => {
    const r = agentproto(['diff', 'agentscope@0.1', 'agentscope@1.1', '--fail-on', 'sender']);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(/breaks senders {2}ServiceInfo: `service` is now required/);
    expect(r.out).toMatch(
      / {2}old: node_modules\/@agentproto\/agentscope\/schemas\/0\.1\/ServiceInfo\.schema\.json:\d+ /,
    );
    expect(r.out).toMatch(/agentscope@0\.1 → agentscope@1\.1: \d+ changes/);
  });

  it('new > a project vendored from the installed packages installs, type-checks, tests and starts', async () => {
    const r = agentproto(['new', 'my-agent', '--protocol', 'agentscope']);
    expect(r.code, r.err).toBe(0);
    const project = path.join(dir, 'my-agent');
    npm(project, ['install', '--prefer-offline', '--no-audit', '--no-fund']);
    npm(project, ['run', 'typecheck']);
    expect(npm(project, ['test'])).toMatch(/# fail 0/);
    expect(await startProbeAndKill(project, '/health')).toEqual({ status: 200, closed: true });
  });
});
