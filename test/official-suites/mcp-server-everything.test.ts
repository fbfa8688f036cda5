// Our typed client and our MCP conformance kit against a server nobody here wrote: the official `server-everything` (pinned in
// test/official-suites/mcp, Streamable HTTP, on 127.0.0.1 through loopback-only.cjs). It passes what that server
// implements, and fails exactly where the server departs from the specification, each by its requirement:
// - mcp.lifecycle.session: an unknown session is 400, where the specification says 404 (its own HTTP wrapper; the
//   SDK's transport answers 404);
// - mcp.tools.unknown (SHOULD): an unknown tool is a tool error (`isError`), not -32602 (the SDK's McpServer);
// - mcp.origin.foreign: a foreign Origin is served (no DNS-rebinding protection, CORS for any origin);
// - mcp.wire.schemas: transport errors carry `"id": null`, which MCP's schema does not allow.
// Over stdio (its default transport, the server as our child process) our typed client runs the same calls.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runConformance } from '@agentproto/conformance';
import { connectMcp, connectMcpStdio, GENERATED } from '@agentproto/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printedUrl } from '../support/installed.js';

const SUITE = path.resolve(import.meta.dirname, 'mcp');
const SERVER = path.join(SUITE, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** The checks that fail, each for the server's deviation named above. */
const DEVIATIONS = ['mcp.lifecycle.session', 'mcp.origin.foreign', 'mcp.tools.unknown', 'mcp.wire.schemas'];

let child: ChildProcess | undefined;
let url = '';

beforeAll(async () => {
  if (!existsSync(SERVER))
    throw new Error(
      'server-everything is not installed: run `bash scripts/install-test-tools.sh` before this test stage',
    );
  child = spawn(
    process.execPath,
    ['--require', path.resolve(import.meta.dirname, 'loopback-only.cjs'), SERVER, 'streamableHttp'],
    { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  url = await printedUrl(
    child,
    'server-everything',
    /agentproto-test: listening on (http:\/\/127\.0\.0\.1:\d+)/,
  );
}, 120_000);

afterAll(() => {
  child?.kill('SIGKILL');
});

describe('official server-everything > our MCP kit', () => {
  it('2025-11-25 > passes what the server implements; fails only its deviations', async () => {
    // One of its tools runs 10 s by default: each request may take longer than the kit's default 10 s.
    const report = await runConformance({ protocol: 'mcp@2025-11-25', target: url, timeoutMs: 30_000 });
    const failed = report.checks.filter((c) => c.status === 'fail').map((c) => c.id);
    const passed = report.checks.filter((c) => c.status === 'pass').map((c) => c.id);
    expect(failed.sort(), JSON.stringify(report.checks, null, 2)).toEqual(DEVIATIONS);
    for (const id of [
      'mcp.lifecycle.initialize',
      'mcp.lifecycle.session.required',
      'mcp.ping',
      'mcp.notification.accepted',
      'mcp.version.unsupported',
      'mcp.tools.list',
      'mcp.tools.call',
      'mcp.resources.read',
      'mcp.prompts.get',
      'mcp.method.unknown',
    ])
      expect(passed, id).toContain(id);
    const wire = report.checks.find((c) => c.id === 'mcp.wire.schemas');
    expect(wire?.message).toMatch(/\/id/);
  }, 300_000);

  it('2025-11-25 > our typed client: initialize and a session, typed calls read from event-stream answers', async () => {
    const v = GENERATED['2025-11-25'].validators;
    const mcp = await connectMcp({ url: `${url}/mcp`, version: '2025-11-25' });
    expect(mcp.session).toBeTruthy();
    const { tools } = await mcp.client['tools/list']({});
    expect(v.ListToolsResult({ tools }), JSON.stringify(v.ListToolsResult.errors)).toBe(true);
    expect(tools.map((t) => t.name)).toContain('echo');
    const echoed = await mcp.client['tools/call']({
      name: 'echo',
      arguments: { message: 'from agentproto' },
    });
    expect(v.CallToolResult(echoed), JSON.stringify(v.CallToolResult.errors)).toBe(true);
    expect(JSON.stringify(echoed)).toContain('from agentproto');
    const resources = await mcp.client['resources/list']({});
    expect(v.ListResourcesResult(resources), JSON.stringify(v.ListResourcesResult.errors)).toBe(true);
    await mcp.close();
  }, 120_000);
});

describe('official server-everything > our typed client over stdio', () => {
  it('2025-11-25 > the server as a child process: initialize, typed calls, its notifications, then it exits', async () => {
    const v = GENERATED['2025-11-25'].validators;
    const told: unknown[] = [];
    const log: string[] = [];
    const mcp = await connectMcpStdio({
      command: process.execPath,
      args: [SERVER, 'stdio'],
      version: '2025-11-25',
      onMessage: (m) => told.push(m),
      onStderr: (line) => log.push(line),
    });
    expect(mcp.server.protocolVersion).toBe('2025-11-25');
    expect(mcp.session).toBeUndefined();
    const { tools } = await mcp.client['tools/list']({});
    expect(v.ListToolsResult({ tools }), JSON.stringify(v.ListToolsResult.errors)).toBe(true);
    const echoed = await mcp.client['tools/call']({ name: 'echo', arguments: { message: 'over stdio' } });
    expect(v.CallToolResult(echoed), JSON.stringify(v.CallToolResult.errors)).toBe(true);
    expect(JSON.stringify(echoed)).toContain('over stdio');
    // A tool the server does not have: its answer, typed, says so.
    const unknown = await mcp.client['tools/call']({ name: 'no-such-tool', arguments: {} }).then(
      (r) => JSON.stringify(r),
      (e: unknown) => String(e),
    );
    expect(unknown).toMatch(/no-such-tool/);
    // What it sent that answers nothing (list changes, log lines) reached onMessage; its log went to onStderr.
    for (const m of told) expect(JSON.stringify(m)).toMatch(/"method":"notifications\//);
    expect(log.join('\n')).toMatch(/STDIO/i);
    await mcp.close();
    expect(mcp.process.exitCode !== null || mcp.process.signalCode !== null).toBe(true);
    // Once closed, a call is refused by name, not left waiting.
    await expect(mcp.client['tools/list']({})).rejects.toThrow(/closed/);
  }, 120_000);
});
