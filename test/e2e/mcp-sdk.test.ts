// The official MCP TypeScript SDK's client (@modelcontextprotocol/sdk, pinned) over Streamable HTTP against our
// reference server on 127.0.0.1, revision 2025-11-25: the handshake and its session, tools of every content kind, a
// tool error, resources, templates, prompts and completion, each answer validated by our own schemas too; and the
// session ended by the SDK's DELETE.
import { GENERATED } from '@agentproto/mcp';
import { createReferenceServer } from '@agentproto/mcp/reference-agent';
import { closeLocal, type LocalServer, serveLocal } from '@agentproto/runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { list, prop } from '../support/typed.js';

const v = GENERATED['2025-11-25'].validators;
let local: LocalServer;
let client: Client;
let transport: StreamableHTTPClientTransport;

beforeAll(async () => {
  local = await serveLocal(createReferenceServer().app.fetch, 0);
  client = new Client({ name: 'agentproto-sdk-test', version: '1.0.0' });
  transport = new StreamableHTTPClientTransport(new URL(`${local.url}/mcp`));
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  if (local) await closeLocal(local);
});

describe('mcp > the official SDK client drives the reference server (2025-11-25)', () => {
  it('initialize > the SDK settles on 2025-11-25 and keeps the session the server gave', () => {
    expect(transport.sessionId).toMatch(/^[\x21-\x7E]+$/);
    expect(client.getServerVersion()).toMatchObject({ name: 'agentproto-reference-agent' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  });

  it('tools > listed, then each kind of content called, and a tool error is a result', async () => {
    const { tools } = await client.listTools();
    expect(v.ListToolsResult({ tools })).toBe(true);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['test_simple_text', 'add']));
    for (const [name, kind] of [
      ['test_simple_text', 'text'],
      ['test_image_content', 'image'],
      ['test_audio_content', 'audio'],
      ['test_embedded_resource', 'resource'],
    ] as const) {
      const result = await client.callTool({ name, arguments: {} });
      expect(v.CallToolResult(result), JSON.stringify(v.CallToolResult.errors)).toBe(true);
      expect(prop(list(result.content)[0], 'type')).toBe(kind);
    }
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 0.5 } });
    expect(sum.structuredContent).toEqual({ sum: 2.5 });
    expect(await client.callTool({ name: 'test_error_handling', arguments: {} })).toMatchObject({
      isError: true,
    });
  });

  it('resources > listed, read, and read through a template', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary']);
    const text = await client.readResource({ uri: 'test://static-text' });
    expect(v.ReadResourceResult(text)).toBe(true);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates[0]?.uriTemplate).toBe('test://template/{id}/data');
    expect(JSON.stringify(await client.readResource({ uri: 'test://template/7/data' }))).toContain(
      'Data for ID: 7',
    );
  });

  it('prompts and completion > rendered with arguments; candidates completed', async () => {
    const prompt = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'a', arg2: 'b' },
    });
    expect(v.GetPromptResult(prompt)).toBe(true);
    expect(JSON.stringify(prompt.messages)).toContain("arg1='a'");
    const done = await client.complete({
      ref: { type: 'ref/prompt', name: 'trip_plan' },
      argument: { name: 'city', value: 'Pa' },
    });
    expect(done.completion.values).toEqual(['Paris']);
  });

  it('errors > an unknown tool comes back as the SDK reports a JSON-RPC error', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('ping and logging > answered', async () => {
    await expect(client.ping()).resolves.toBeDefined();
    await expect(client.setLoggingLevel('warning')).resolves.toBeDefined();
  });

  it('session end > the SDK ends it with DELETE; a request in it afterwards is 404', async () => {
    const id = transport.sessionId ?? '';
    await transport.terminateSession();
    const after = await fetch(`${local.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    expect(after.status).toBe(404);
  });
});
