// `agentproto conformance --client`, with real client processes (one per scenario): our own clients, one script per
// protocol for every version that has client scenarios (connectA2a for A2A 1.0 and 0.3, connectMcp for MCP 2025-11-25
// and the stateless 2026-07-28, the generated Agent Protocol v1 client, the Fixie client over NDJSON, the AgentScope
// client over SSE, the generated Agent Protocol draft 2025 client) and the official SDKs' clients (@a2a-js/sdk 1.3.0
// with its 0.3 compat transports) pass every client scenario, with no deviation to list.
// More real clients pass every scenario but the deviations listed in an expected-failures file next to this test (each
// sourced in the protocol's DECISIONS.md): the MCP SDK's client (@modelcontextprotocol/sdk) against 2025-11-25; the MCP
// SDK's v2 client (@modelcontextprotocol/client 2.4.0) pinned to 2026-07-28, and left to negotiate (`auto`) against
// 2025-11-25, which it reaches after a server/discover probe;
// @a2a-js/sdk preferring its HTTP+JSON transports, and our generated HTTP+JSON clients, for A2A 1.0 and 0.3, whose
// every request after the card is an HTTP+JSON operation (what each scenario's result names). A
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
import { parse as parseYaml } from 'yaml';
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

/** Runs the first command of README.md that `line` matches, as written (bash, in the checkout). */
function readmeCommand(line: RegExp): Promise<{ status: number; stdout: string; stderr: string }> {
  const command = line.exec(readFileSync(path.join(ROOT, 'README.md'), 'utf8'))?.[0];
  if (!command) throw new Error(`README.md shows no command matching ${line}`);
  return new Promise((resolve) =>
    execFile(
      'bash',
      ['-c', command],
      { cwd: ROOT, encoding: 'utf8', timeout: 600_000 },
      (error, stdout, stderr) =>
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    ),
  );
}

const run = (protocol: string, command: string, ...more: string[]) =>
  runCollected(['conformance', '--protocol', protocol, '--client', command, ...more]);

/** A client judged with its known deviations (an expected-failures file next to this test), or none. */
interface RealClient {
  protocol: string;
  script: string;
  deviations?: string;
  sent?: RegExp;
  /**
   * `--timeout` of its run. The MCP SDKs' clients wait 60 s for a call whose stream ended early (their listed
   * deviation), so any timeout under that gives the same verdict; 15 s spares the stage 15 s a row, and still leaves
   * their other scenarios, about a second each, fifteen times what they take.
   */
  timeoutMs?: number;
}

/** A2A's HTTP+JSON operations and nothing else, after the card: a REST client's requests in every scenario. */
const REST_1_0 = /^it sent getAgentCard(, (sendMessage|sendStreamingMessage))+ and exited/;
const REST_0_3 = /^it sent getWellKnownAgentCard(, (sendMessage|sendStreamingMessage))+ and exited/;

/** How many checks a version's client scenarios make: the requests', one per header rule, one per scenario. */
function checkCount(protocol: string): number {
  const [id = '', version = ''] = protocol.split('@');
  const file = JSON.parse(
    readFileSync(path.join(ROOT, 'schemas', id, version, 'client-scenarios.json'), 'utf8'),
  );
  return 1 + (file.headers?.length ?? 0) + file.scenarios.length;
}

describe('client conformance > client processes', () => {
  // Side by side with the runs below, and first: its client processes start with tsx, as the README shows, and it
  // takes longest.
  it.concurrent('README > its --client command runs as written, in the checkout, and passes', async ({
    expect,
  }) => {
    const r = await readmeCommand(/^npx agentproto conformance [^\n]*--client "[^\n]*$/m);
    // npx may warn about pnpm's own settings in the environment (npm_config_*), so only the exit code is asserted.
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/a2a\.client\.requests/);
  });

  it.concurrent('README > its --client --coverage command lists the client requirements, each covered', async ({
    expect,
  }) => {
    const r = await readmeCommand(/^npx agentproto conformance [^\n]*--client --coverage[^\n]*$/m);
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^a2a@1\.0 \(client\)$/m);
    expect(r.stdout).toMatch(/^MUST +client\.header\.a2a-version +a2a\.client\.header\.a2a-version$/m);
    expect(r.stdout).toMatch(/requirements: (\d+), covered by checks \1, excluded 0/);
  });

  // Side by side (up to vitest's maxConcurrency, 5, at once): each run starts its own scripted agent on a free port
  // and its own client processes, so the runs share nothing.
  it.concurrent.for([
    ['a2a@1.0', 'a2a-client.ts', 10],
    ['a2a@0.3', 'a2a-client.ts', 7],
    ['mcp@2025-11-25', 'mcp-client.ts', 12],
    ['agent-protocol@v1', 'agent-protocol-client.ts', 6],
    ['agent-protocol@v1-awaiting-input', 'agent-protocol-client.ts', 7],
    ['mcp@2026-07-28', 'mcp-client.ts 2026-07-28', 12],
    ['fixie@1.0', 'fixie-client.ts', 8],
    ['agentscope@0.1', 'agentscope-client.ts 0.1', 7],
    ['agentscope@1.1', 'agentscope-client.ts 1.1', 8],
    ['agent-protocol-2025@draft-2025-02', 'agent-protocol-2025-client.ts', 9],
    ['a2a@1.0', 'a2a-sdk-client.ts', 10],
    ['a2a@0.3', 'a2a-sdk-client.ts', 7],
  ] as const)('%s > %s passes every client check', async ([protocol, script, checks], { expect }) => {
    const { code, out, err } = await run(protocol, client(script), '--reporter', 'json');
    expect(err).toBe('');
    const report = JSON.parse(out);
    expect(report.checks.filter((c: { status: string }) => c.status !== 'pass')).toEqual([]);
    expect(report.summary.passed).toBe(checks);
    expect(code).toBe(0);
  });

  // More real clients, each held to every check of its version's scenario file: it passes them all but the deviations
  // its file lists (each failing, none passing: a listed check that passes fails the run), and, where a binding is
  // forced, every scenario's requests are that binding's operations (`sent`: what each scenario's message names).
  it.concurrent.for([
    {
      protocol: 'mcp@2025-11-25',
      script: 'mcp-sdk-client.ts',
      deviations: 'mcp-sdk-client.expected-failures.yaml',
      timeoutMs: 15_000,
    },
    {
      protocol: 'mcp@2026-07-28',
      script: 'mcp-sdk-v2-client.ts',
      deviations: 'mcp-sdk-v2-client.expected-failures.yaml',
      timeoutMs: 15_000,
    },
    {
      protocol: 'mcp@2025-11-25',
      script: 'mcp-sdk-v2-client.ts auto',
      deviations: 'mcp-sdk-v2-client-auto.expected-failures.yaml',
      timeoutMs: 15_000,
    },
    { protocol: 'a2a@1.0', script: 'a2a-sdk-client.ts rest', sent: REST_1_0 },
    { protocol: 'a2a@0.3', script: 'a2a-sdk-client.ts rest', sent: REST_0_3 },
    { protocol: 'a2a@1.0', script: 'a2a-client.ts rest', sent: REST_1_0 },
    { protocol: 'a2a@0.3', script: 'a2a-client.ts rest', sent: REST_0_3 },
  ] satisfies RealClient[])(
    '$protocol > $script passes every client check but its listed deviations',
    async (row, { expect }) => {
      const listed = row.deviations ? path.join(ROOT, 'test/official-suites', row.deviations) : undefined;
      const { code, out, err } = await run(
        row.protocol,
        client(row.script),
        '--reporter',
        'json',
        ...(listed ? ['--expected-failures', listed] : []),
        ...(row.timeoutMs ? ['--timeout', String(row.timeoutMs)] : []),
      );
      expect(err).toBe('');
      const report = JSON.parse(out);
      const checks: Array<{ id: string; status: string; message: string; expectedFailure?: boolean }> =
        report.checks;
      const deviations = listed ? Object.keys(parseYaml(readFileSync(listed, 'utf8')) ?? {}) : [];
      expect(checks.filter((c) => c.status !== 'pass').map((c) => c.id)).toEqual(
        checks.filter((c) => deviations.includes(c.id)).map((c) => c.id),
      );
      expect(checks.filter((c) => c.status !== 'pass' && c.expectedFailure !== true)).toEqual([]);
      expect(report.summary.staleExpectations).toBe(0);
      expect(report.summary.passed).toBe(checkCount(row.protocol) - deviations.length);
      if (row.sent)
        for (const c of checks.filter((c) => c.id.includes('.client.scenario.')))
          expect(c.message, c.id).toMatch(row.sent);
      expect(code).toBe(0);
    },
  );

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
