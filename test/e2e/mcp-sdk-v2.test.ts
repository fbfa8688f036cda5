// The official MCP TypeScript SDK's v2 client (@modelcontextprotocol/client, pinned), which speaks revision
// 2026-07-28, over Streamable HTTP against our reference server on 127.0.0.1: no handshake and no session, the
// per-request `_meta` and mirrored headers on every request, tools, resources, prompts and completion, a question
// answered through `input_required` rounds (the SDK fulfils them with its elicitation handler and retries with the
// `requestState` we signed), and progress; each answer validated by our own 2026-07-28 schemas too. Then the same
// client left to negotiate (`mode: 'auto'`) settles on 2026-07-28 by itself.
import { GENERATED } from '@agentproto/mcp';
import { createReferenceServer } from '@agentproto/mcp/reference-agent';
import { closeLocal, type LocalServer, serveLocal } from '@agentproto/runtime';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { list, prop } from '../support/typed.js';

const REVISION = '2026-07-28';
const v = GENERATED[REVISION].validators;
let local: LocalServer;
/** Every request the server was sent, as the SDK sent it: method, the headers that mirror it, and the body. */
const seen: Array<{ method: string; headers: Record<string, string | null>; body: unknown }> = [];

/** A v2 client of the SDK pinned to 2026-07-28 (or negotiating), able to answer elicitation questions. */
async function connect(mode: 'auto' | { pin: typeof REVISION }): Promise<Client> {
  const client = new Client(
    { name: 'agentproto-sdk-v2-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
  );
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { username: 'ada', email: 'ada@example.com' },
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${local.url}/mcp`)));
  return client;
}

beforeAll(async () => {
  const app = createReferenceServer().app;
  // What the SDK sends is recorded on its way in, then served as usual.
  local = await serveLocal(async (request: Request) => {
    if (request.method === 'POST') {
      const body: unknown = await request.clone().json();
      const method = typeof body === 'object' && body !== null && 'method' in body ? String(body.method) : '';
      const headers = Object.fromEntries(
        ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id'].map((h) => [
          h,
          request.headers.get(h),
        ]),
      );
      seen.push({ method, headers, body });
    }
    return app.fetch(request);
  }, 0);
});
afterAll(async () => {
  if (local) await closeLocal(local);
});

describe('mcp > the official SDK v2 client drives the reference server (2026-07-28)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect({ pin: REVISION });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('connect > the 2026-07-28 era: no initialize, no session, the revision on every request', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(REVISION);
    expect(seen.map((s) => s.method)).not.toContain('initialize');
    for (const s of seen) {
      expect(s.headers['mcp-protocol-version']).toBe(REVISION);
      expect(s.headers['mcp-session-id']).toBeNull();
    }
  });

  it('tools > listed and called; the SDK mirrors method and name in headers our server checks', async () => {
    const listed = await client.listTools();
    // As for every complete result, the SDK leaves out `resultType`, which the wire carries.
    expect(v.ListToolsResult({ ...listed, resultType: 'complete' })).toBe(true);
    expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['test_simple_text', 'add']));
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 0.5 } });
    expect(sum.structuredContent).toEqual({ sum: 2.5 });
    const image = await client.callTool({ name: 'test_image_content', arguments: {} });
    expect(prop(list(image.content)[0], 'type')).toBe('image');
    expect(await client.callTool({ name: 'test_error_handling', arguments: {} })).toMatchObject({
      isError: true,
    });
    const call = seen.findLast((s) => s.method === 'tools/call');
    expect(call?.headers).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'test_error_handling' });
    expect(v.CallToolRequest(call?.body), JSON.stringify(v.CallToolRequest.errors)).toBe(true);
  });

  it('input_required > the SDK answers our question and retries with the requestState we signed', async () => {
    const before = seen.length;
    const result = await client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Who are you?' },
    });
    expect(JSON.stringify(result.content)).toContain('ada@example.com');
    const calls = seen.slice(before).filter((s) => s.method === 'tools/call');
    // The first call is answered input_required; the retry carries the answers and our requestState, byte for byte.
    expect(calls).toHaveLength(2);
    const retry = calls[1]?.body;
    expect(prop(prop(retry, 'params'), 'requestState')).toEqual(expect.any(String));
    expect(prop(prop(retry, 'params'), 'inputResponses')).toBeDefined();
    expect(v.CallToolRequest(retry), JSON.stringify(v.CallToolRequest.errors)).toBe(true);
  });

  it('progress > the tool reports it to the SDK on the answer stream', async () => {
    const reported: number[] = [];
    const result = await client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      { onprogress: (p) => reported.push(p.progress) },
    );
    // The SDK hands back a complete result without its `resultType` (the wire carries it: the official suite checks).
    expect(
      v.CallToolResult({ resultType: 'complete', ...result }),
      JSON.stringify(v.CallToolResult.errors),
    ).toBe(true);
    expect(reported).toEqual([0, 50, 100]);
  });

  it('resources, prompts and completion > read, rendered and completed', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary']);
    const text = await client.readResource({ uri: 'test://static-text' });
    expect(v.ReadResourceResult({ resultType: 'complete', ...text })).toBe(true);
    expect(JSON.stringify(await client.readResource({ uri: 'test://template/7/data' }))).toContain(
      'Data for ID: 7',
    );
    const prompt = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'a', arg2: 'b' },
    });
    expect(JSON.stringify(prompt.messages)).toContain("arg1='a'");
    const done = await client.complete({
      ref: { type: 'ref/prompt', name: 'trip_plan' },
      argument: { name: 'city', value: 'Pa' },
    });
    expect(done.completion.values).toEqual(['Paris']);
  });

  it('errors > an unknown tool comes back as the SDK reports a JSON-RPC error', async () => {
    await expect(client.callTool({ name: 'agentproto_no_such_tool', arguments: {} })).rejects.toThrow(
      /-32602|not found|unknown/i,
    );
  });
});

describe('mcp > the SDK v2 client left to negotiate', () => {
  it("mode 'auto' > discovers the server and settles on 2026-07-28", async () => {
    const client = await connect('auto');
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(REVISION);
      expect(client.getServerVersion()).toMatchObject({ name: 'agentproto-reference-agent' });
    } finally {
      await client.close();
    }
  });
});
