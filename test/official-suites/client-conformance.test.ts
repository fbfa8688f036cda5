// `agentproto conformance --client`, with real client processes (one per scenario): our own clients, one script per
// protocol for every version that has client scenarios (connectA2a for A2A 1.0 and 0.3, connectMcp for MCP 2025-11-25
// and the stateless 2026-07-28, the generated Agent Protocol v1 client, the Fixie client over NDJSON, the AgentScope
// client over SSE, the generated Agent Protocol draft 2025 client) and the official SDKs' clients (@a2a-js/sdk 1.3.0
// with its 0.3 compat transports, @modelcontextprotocol/sdk) pass every client scenario, with no deviation to list; a
// deliberately broken client (a 0.3-shaped body, no A2A-Version, sent to a 1.0 agent) fails with exit 1 naming what it
// sent; and a command that cannot start is a usage error (exit 2). Second stage: each scenario starts a client process.
// The client scripts are bundled once (esbuild, as a published client is built code): a process then starts in a
// fifth of the CPU a tsx process spends compiling the packages' TypeScript, and about a hundred of them run.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCollected } from '../support/run-cli.js';
import { ROOT } from '../support/spec-files.js';

const CLIENTS = path.join(ROOT, 'test/support/clients');
let bundled = '';

beforeAll(async () => {
  bundled = mkdtempSync(path.join(tmpdir(), 'agentproto-clients-'));
  await build({
    entryPoints: readdirSync(CLIENTS)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(CLIENTS, f)),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: bundled,
    outExtension: { '.js': '.mjs' },
    // The CommonJS modules some dependencies are made of call `require`, which an ES module does not have.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
}, 300_000);

/** The command running a client script (`<file>.ts [arguments]`), bundled. */
const client = (script: string) => {
  const [file = '', ...args] = script.split(' ');
  return ['node', path.join(bundled, file.replace(/\.ts$/, '.mjs')), ...args].join(' ');
};

const run = (protocol: string, command: string, ...more: string[]) =>
  runCollected(['conformance', '--protocol', protocol, '--client', command, ...more]);

describe('client conformance > client processes', () => {
  // Side by side with the runs below, and first: its client processes start with tsx, as the README shows, and it
  // takes longest.
  it.concurrent('README > its --client command runs as written, in the checkout, and passes', async ({
    expect,
  }) => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const command = /^npx agentproto conformance [^\n]*--client [^\n]*$/m.exec(readme)?.[0];
    if (!command) throw new Error('README.md shows no `agentproto conformance --client` command');
    const r = await new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        'bash',
        ['-c', command],
        { cwd: ROOT, encoding: 'utf8', timeout: 600_000 },
        (error, stdout, stderr) =>
          resolve({ status: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      ),
    );
    // npx may warn about pnpm's own settings in the environment (npm_config_*), so only the exit code is asserted.
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/a2a\.client\.requests/);
  });

  // Side by side (up to vitest's maxConcurrency, 5, at once): each run starts its own scripted agent on a free port
  // and its own client processes, so the runs share nothing.
  it.concurrent.for([
    ['a2a@1.0', 'a2a-client.ts', 9],
    ['a2a@0.3', 'a2a-client.ts', 6],
    ['mcp@2025-11-25', 'mcp-client.ts', 9],
    ['agent-protocol@v1', 'agent-protocol-client.ts', 5],
    ['agent-protocol@v1-awaiting-input', 'agent-protocol-client.ts', 6],
    ['mcp@2026-07-28', 'mcp-client.ts 2026-07-28', 9],
    ['fixie@1.0', 'fixie-client.ts', 7],
    ['agentscope@0.1', 'agentscope-client.ts 0.1', 5],
    ['agentscope@1.1', 'agentscope-client.ts 1.1', 6],
    ['agent-protocol-2025@draft-2025-02', 'agent-protocol-2025-client.ts', 6],
    ['a2a@1.0', 'a2a-sdk-client.ts', 9],
    ['a2a@0.3', 'a2a-sdk-client.ts', 6],
    ['mcp@2025-11-25', 'mcp-sdk-client.ts', 9],
  ] as const)('%s > %s passes every client check', async ([protocol, script, checks], { expect }) => {
    const { code, out, err } = await run(protocol, client(script), '--reporter', 'json');
    expect(err).toBe('');
    const report = JSON.parse(out);
    expect(report.checks.filter((c: { status: string }) => c.status !== 'pass')).toEqual([]);
    expect(report.summary.passed).toBe(checks);
    expect(code).toBe(0);
  });

  it('broken > a 0.3-shaped body without A2A-Version fails with exit 1, naming what it sent', async () => {
    const { code, out } = await run('a2a@1.0', client('broken-a2a-client.ts'), '--scenario', 'send-message');
    expect(out).toMatch(
      /FAIL {2}MUST {3}a2a\.client\.requests: .*"message\/send" is not a method of a2a@1\.0; it sent: \{"jsonrpc"/,
    );
    expect(out).toMatch(/FAIL {2}MUST {3}a2a\.client\.header\.a2a-version: .*has no A2A-Version header/);
    expect(code).toBe(1);
  });

  it('usage > a command that cannot start exits 2 with why', async () => {
    const { code, err } = await run(
      'a2a@1.0',
      'agentproto-no-such-client-command',
      '--scenario',
      'send-message',
    );
    expect(err).toMatch(/the client command could not start \(exit 127\).*not found/);
    expect(code).toBe(2);
  });
});
