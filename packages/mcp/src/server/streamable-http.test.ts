import { describe, expect, it } from 'vitest';
import { checked, prop, record } from '../../../../test/support/typed.js';
import { GENERATED } from '../generated/modules.js';
import { createReferenceServer } from '../reference-agent/index.js';
import type { McpServerDefinition } from './definition.js';
import { matchTemplate } from './rpc-handlers.js';
import { SessionStore } from './sessions.js';
import { createMcpApp } from './streamable-http.js';

const OLD = '2025-11-25';
const NEW = '2026-07-28';
const ACCEPT = 'application/json, text/event-stream';

type Json = Record<string, unknown>;

function post(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  body: unknown,
  headers: Record<string, string> = {},
) {
  return app.request('http://127.0.0.1:3000/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const initialize = (version = OLD) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});

async function openSession(app = createReferenceServer().app) {
  const answer = await post(app, initialize());
  const session = answer.headers.get('mcp-session-id') ?? '';
  return { app, session, headers: { 'mcp-session-id': session, 'mcp-protocol-version': OLD }, answer };
}

/** A 2026-07-28 request, its headers mirroring its body. */
function stateless(method: string, params: Json = {}, extra: Record<string, string> = {}) {
  const body = {
    jsonrpc: '2.0',
    id: 7,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': NEW,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const name =
    typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return {
    body,
    headers: {
      'mcp-protocol-version': NEW,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...extra,
    },
  };
}

describe('streamable http > 2025-11-25 (handshake and sessions)', () => {
  const v = GENERATED[OLD].validators;

  it('initialize > agrees on the revision, opens a session, and answers an InitializeResult', async () => {
    const { answer, session } = await openSession();
    expect(answer.status).toBe(200);
    expect(session).toMatch(/^[\x21-\x7E]+$/);
    const body = record(await answer.json());
    expect(v.InitializeResult(body.result), JSON.stringify(v.InitializeResult.errors)).toBe(true);
    expect(body.result).toMatchObject({
      protocolVersion: OLD,
      serverInfo: { name: 'agentproto-reference-agent' },
    });
  });

  it('initialize > a revision it does not speak gets the one it does (the client decides)', async () => {
    const body = record(await (await post(createReferenceServer().app, initialize('2024-11-05'))).json());
    expect(prop(body.result, 'protocolVersion')).toBe(OLD);
  });

  it('session > a request without one is 400, with an unknown one 404, with its own answered', async () => {
    const { app, headers } = await openSession();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect((await post(app, list, { 'mcp-protocol-version': OLD })).status).toBe(400);
    expect((await post(app, list, { ...headers, 'mcp-session-id': 'nope' })).status).toBe(404);
    const answer = await post(app, list, headers);
    expect(answer.status).toBe(200);
    const body = record(await answer.json());
    expect(v.JSONRPCResultResponse(body)).toBe(true);
    expect(v.ListToolsResult(body.result), JSON.stringify(v.ListToolsResult.errors)).toBe(true);
    expect(body.result).not.toHaveProperty('resultType');
  });

  it('delete > ends the session; the next request with it is 404', async () => {
    const { app, headers } = await openSession();
    const end = await app.request('http://127.0.0.1:3000/mcp', { method: 'DELETE', headers });
    expect(end.status).toBe(200);
    expect((await post(app, { jsonrpc: '2.0', id: 3, method: 'ping' }, headers)).status).toBe(404);
  });

  it.each([
    ['test_simple_text', 'text'],
    ['test_image_content', 'image'],
    ['test_audio_content', 'audio'],
    ['test_embedded_resource', 'resource'],
  ])('tools/call > %s answers %s content that validates', async (name, type) => {
    const { app, headers } = await openSession();
    const body = record(
      await (
        await post(
          app,
          { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name, arguments: {} } },
          headers,
        )
      ).json(),
    );
    expect(v.CallToolResult(body.result), JSON.stringify(v.CallToolResult.errors)).toBe(true);
    expect(checked(body.result, v.CallToolResult).content[0]?.type).toBe(type);
  });

  it('tools/call > a failing tool and bad arguments are tool errors; an unknown tool is -32602', async () => {
    const { app, headers } = await openSession();
    const call = async (params: Json) =>
      record(
        await (await post(app, { jsonrpc: '2.0', id: 5, method: 'tools/call', params }, headers)).json(),
      );
    expect(await call({ name: 'test_error_handling', arguments: {} })).toMatchObject({
      result: { isError: true },
    });
    const bad = await call({ name: 'add', arguments: { a: 'one', b: 2 } });
    expect(bad).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(bad)).toContain('/a must be number');
    expect(await call({ name: 'add', arguments: { a: 1.5, b: 2 } })).toMatchObject({
      result: { structuredContent: { sum: 3.5 } },
    });
    expect(await call({ name: 'nope' })).toMatchObject({ error: { code: -32602 } });
  });

  it('resources/read > a resource nobody serves is -32002; a template fills its variables', async () => {
    const { app, headers } = await openSession();
    const read = async (uri: string) =>
      record(
        await (
          await post(app, { jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri } }, headers)
        ).json(),
      );
    expect(await read('test://nothing')).toMatchObject({ error: { code: -32002 } });
    const filled = await read('test://template/42/data');
    expect(v.ReadResourceResult(filled.result)).toBe(true);
    expect(JSON.stringify(filled)).toContain('Data for ID: 42');
  });

  it('completion/complete > candidates of a prompt argument', async () => {
    const { app, headers } = await openSession();
    const params = { ref: { type: 'ref/prompt', name: 'trip_plan' }, argument: { name: 'city', value: 'b' } };
    const body = record(
      await (
        await post(app, { jsonrpc: '2.0', id: 8, method: 'completion/complete', params }, headers)
      ).json(),
    );
    expect(v.CompleteResult(body.result)).toBe(true);
    expect(body.result).toMatchObject({
      completion: { values: ['Berlin', 'Bern'], total: 2, hasMore: false },
    });
  });

  it('notifications and responses > 202 and no body', async () => {
    const { app, headers } = await openSession();
    const note = await post(app, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
    expect((await post(app, { jsonrpc: '2.0', id: 99, result: {} }, headers)).status).toBe(202);
  });

  it('a task method is -32601: this server runs no tasks', async () => {
    const { app, headers } = await openSession();
    const body = record(
      await (await post(app, { jsonrpc: '2.0', id: 9, method: 'tasks/list' }, headers)).json(),
    );
    expect(body).toMatchObject({ error: { code: -32601 } });
  });
});

describe('streamable http > 2026-07-28 (stateless)', () => {
  const v = GENERATED[NEW].validators;
  const app = createReferenceServer().app;

  it('tools/call > needs no session; the result says resultType and names the server', async () => {
    const { body, headers } = stateless('tools/call', { name: 'test_simple_text', arguments: {} });
    const answer = record(await (await post(app, body, headers)).json());
    expect(v.CallToolResultResponse(answer), JSON.stringify(v.CallToolResultResponse.errors)).toBe(true);
    expect(v.CallToolResult(answer.result), JSON.stringify(v.CallToolResult.errors)).toBe(true);
    expect(answer.result).toMatchObject({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'agentproto-reference-agent' } },
    });
  });

  it('lists and reads > say how long they may be cached', async () => {
    for (const [method, type] of [
      ['tools/list', 'ListToolsResult'],
      ['resources/list', 'ListResourcesResult'],
      ['prompts/list', 'ListPromptsResult'],
      ['resources/templates/list', 'ListResourceTemplatesResult'],
    ] as const) {
      const { body, headers } = stateless(method);
      const answer = record(await (await post(app, body, headers)).json());
      expect(v[type](answer.result), `${method}: ${JSON.stringify(v[type].errors)}`).toBe(true);
      expect(answer.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    }
  });

  it('server/discover > every revision served (as -32022 lists them), and the capabilities', async () => {
    const { body, headers } = stateless('server/discover');
    const answer = record(await (await post(app, body, headers)).json());
    expect(v.DiscoverResult(answer.result), JSON.stringify(v.DiscoverResult.errors)).toBe(true);
    expect(answer.result).toMatchObject({ supportedVersions: [OLD, NEW], capabilities: { tools: {} } });
  });

  it('headers > a method, revision or name that disagrees with the body is 400 and -32020', async () => {
    const call = stateless('tools/call', { name: 'test_simple_text', arguments: {} });
    for (const headers of [
      { ...call.headers, 'mcp-method': 'tools/list' },
      { ...call.headers, 'mcp-name': 'other' },
      { 'mcp-protocol-version': NEW, 'mcp-method': 'tools/call' },
    ]) {
      const answer = await post(app, call.body, headers);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ id: 7, error: { code: -32020 } });
    }
  });

  it('headers > a name that is not plain ASCII comes base64-encoded, and is decoded', async () => {
    const prompt = stateless('prompts/get', { name: 'trip_plan', arguments: { city: 'Zürich' } });
    const answer = await post(app, prompt.body, {
      ...prompt.headers,
      'mcp-name': `=?base64?${btoa('trip_plan')}?=`,
    });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(await answer.json())).toContain('Zürich');
  });

  it('a revision the server does not speak > 400 and -32022 listing those it does', async () => {
    const { body, headers } = stateless('tools/list');
    const answer = await post(app, body, { ...headers, 'mcp-protocol-version': '2099-01-01' });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error: { code: -32022, data: { requested: '2099-01-01', supported: [OLD, NEW] } },
    });
  });

  it('a method the revision does not serve > 404 and -32601 (initialize is gone)', async () => {
    const { headers } = stateless('initialize');
    const answer = await post(
      app,
      { ...initialize(NEW), params: { ...initialize(NEW).params, _meta: {} } },
      headers,
    );
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: { code: -32601 } });
  });

  it('resources/read > a resource nobody serves is -32602 in this revision', async () => {
    const { body, headers } = stateless('resources/read', { uri: 'test://nothing' });
    expect(await (await post(app, body, headers)).json()).toMatchObject({ error: { code: -32602 } });
  });

  it('subscriptions/listen > a stream: the acknowledgement, tagged, then the result that ends it', async () => {
    const { body, headers } = stateless('subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    const answer = await post(app, body, headers);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    const events = (await answer.text())
      .split('\n\n')
      .filter(Boolean)
      .map((e) => record(JSON.parse(e.replace(/^data: /, ''))));
    expect(events).toHaveLength(2);
    expect(
      v.SubscriptionsAcknowledgedNotification(events[0]),
      JSON.stringify(v.SubscriptionsAcknowledgedNotification.errors),
    ).toBe(true);
    expect(
      v.SubscriptionsListenResultResponse(events[1]),
      JSON.stringify(v.SubscriptionsListenResultResponse.errors),
    ).toBe(true);
    // The completion result: the standard result fields and the subscription's metadata, nothing of its own
    // (DECISIONS 45).
    expect(events[1]).toMatchObject({
      id: 7,
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } },
    });
    expect(Object.keys(record(events[1]?.result)).sort()).toEqual(['_meta', 'resultType']);
  });
});

describe('streamable http > refused before anything runs', () => {
  let calls = 0;
  const counting: McpServerDefinition = {
    info: { name: 'counting', version: '1' },
    tools: [
      {
        name: 'count',
        inputSchema: { type: 'object' },
        call: () => {
          calls++;
          return { content: [{ type: 'text', text: String(calls) }] };
        },
      },
    ],
  };

  it('origin > a page elsewhere gets 403, a loopback page and a program are served', async () => {
    const app = createMcpApp(counting, { sessions: false });
    const { body, headers } = stateless('tools/call', { name: 'count', arguments: {} });
    const foreign = await post(app, body, { ...headers, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { code: -32600 } });
    expect(calls).toBe(0);
    expect((await post(app, body, { ...headers, origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await post(app, body, headers)).status).toBe(200);
    expect(calls).toBe(2);
  });

  it('host > a name the server does not answer to (DNS rebinding) gets 403; allowedHosts widens it', async () => {
    const { body, headers } = stateless('tools/list');
    const rebinding = await createMcpApp(counting).request('http://attacker.example/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, host: 'attacker.example', ...headers },
      body: JSON.stringify(body),
    });
    expect(rebinding.status).toBe(403);
    const allowed = await createMcpApp(counting, { allowedHosts: ['mcp.example'] }).request(
      'http://mcp.example/mcp',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
        body: JSON.stringify(body),
      },
    );
    expect(allowed.status).toBe(200);
  });

  it.each([
    ['an Accept without text/event-stream', { accept: 'application/json' }, '', 406],
    ['a batch', {}, '[]', 400],
    ['a body over the limit', {}, JSON.stringify({ pad: 'x'.repeat(2_000_000) }), 413],
  ])('%s > %s', async (_, extra, raw, status) => {
    const { body, headers } = stateless('tools/list');
    const answer = await post(createReferenceServer().app, raw || body, { ...headers, ...extra });
    expect(answer.status).toBe(status);
    expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });

  it('not JSON > -32700, never a 500', async () => {
    const answer = await post(createReferenceServer().app, '{nope', { 'mcp-protocol-version': OLD });
    expect(answer.status).toBeLessThan(500);
    expect(await answer.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('get > 405: no stream outside answers', async () => {
    const answer = await createReferenceServer().app.request('http://127.0.0.1/mcp', {
      headers: { accept: 'text/event-stream' },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST, DELETE');
  });
});

describe('sessions > bounded', () => {
  it('the least recently used goes when full; an idle one expires', () => {
    let now = 0;
    const store = new SessionStore({ maxSessions: 2, idleMs: 1000 }, () => now);
    const a = store.open(OLD);
    const b = store.open(OLD);
    store.use(a.id);
    const c = store.open(OLD);
    expect(store.use(b.id)).toBeUndefined();
    expect(store.use(a.id)).toBeDefined();
    now = 5000;
    expect(store.use(c.id)).toBeUndefined();
    expect(store.size).toBe(1);
  });
});

describe('resource templates > level-1 matching', () => {
  it.each([
    ['test://template/{id}/data', 'test://template/42/data', { id: '42' }],
    ['test://template/{id}/data', 'test://template/a%20b/data', { id: 'a b' }],
    ['file:///{dir}/{name}', 'file:///src/main.ts', { dir: 'src', name: 'main.ts' }],
    ['test://template/{id}/data', 'test://template//data', undefined],
    ['test://template/{id}/data', 'test://template/4/2/data', undefined],
    ['test://template/{id}/data', 'test://template/42/data/more', undefined],
    ['test://template/{id}/data', 'test://other/42/data', undefined],
    ['test://template/{id}/data', 'test://template/%E0%A4%A/data', undefined],
  ])('%s against %s', (uriTemplate, uri, want) => {
    expect(matchTemplate({ uriTemplate }, uri)).toEqual(want);
  });
});
