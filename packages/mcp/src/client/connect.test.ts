import { describe, expect, it } from 'vitest';
import { prop } from '../../../../test/support/typed.js';
import { GENERATED } from '../generated/modules.js';
import { createReferenceServer } from '../reference-agent/index.js';
import { connectMcp } from './connect.js';

const URL = 'http://127.0.0.1:3000/mcp';

describe('connectMcp > the typed client, connected as each revision wants', () => {
  it('2025-11-25 > initialize and a session; typed calls; progress on the answer stream; DELETE ends it', async () => {
    const { app } = createReferenceServer();
    const seen: unknown[] = [];
    const mcp = await connectMcp({
      url: URL,
      version: '2025-11-25',
      fetch: (r) => app.fetch(r),
      onMessage: (m) => seen.push(m),
    });
    expect(mcp.session).toMatch(/^[\x21-\x7E]+$/);
    expect(mcp.server).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'agentproto-reference-agent' },
    });
    const { tools } = await mcp.client['tools/list']({});
    expect(tools.map((t) => t.name)).toContain('test_tool_with_progress');
    const sum = await mcp.client['tools/call']({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(GENERATED['2025-11-25'].validators.CallToolResult(sum)).toBe(true);
    expect(sum.structuredContent).toEqual({ sum: 5 });
    const done = await mcp.client['tools/call']({
      name: 'test_tool_with_progress',
      arguments: {},
      _meta: { progressToken: 'tok' },
    });
    expect(GENERATED['2025-11-25'].validators.CallToolResult(done)).toBe(true);
    expect(seen.map((m) => prop(m, 'method'))).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
    ]);
    const session = mcp.session;
    await mcp.close();
    const after = await app.request(URL, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session ?? '',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    expect(after.status).toBe(404);
  });

  it('2026-07-28 > discovery, then requests that carry _meta and the mirrored headers', async () => {
    const { app } = createReferenceServer();
    const mcp = await connectMcp({ url: URL, version: '2026-07-28', fetch: (r) => app.fetch(r) });
    expect(mcp.session).toBeUndefined();
    expect(mcp.server).toMatchObject({ supportedVersions: expect.arrayContaining(['2026-07-28']) });
    const prompt = await mcp.client['prompts/get']({ name: 'trip_plan', arguments: { city: 'Zürich' } });
    expect(JSON.stringify(prompt)).toContain('Zürich');
    // A question the client did not declare it can answer is the server's -32021, as a JsonRpcError.
    await expect(
      mcp.client['tools/call']({ name: 'test_missing_capability', arguments: {} }),
    ).rejects.toMatchObject({ code: -32021 });
    await mcp.close();
  });

  it('a server that does not serve the revision refuses the connection, and says why', async () => {
    // This one serves only 2026-07-28: an initialize (which carries no revision header) names no revision it knows.
    const { app } = createReferenceServer({ versions: ['2026-07-28'] });
    await expect(
      connectMcp({ url: URL, version: '2025-11-25', fetch: (r) => app.fetch(r) }),
    ).rejects.toMatchObject({ code: -32020, message: expect.stringContaining('MCP-Protocol-Version') });
  });
});
