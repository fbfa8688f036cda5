import { describe, expect, it, onTestFinished } from 'vitest';
import { connectA2a } from '../client/connect.js';
import * as v03 from '../generated/0.3/validators.js';
import * as v10 from '../generated/1.0/validators.js';
import { createReferenceAgent } from '../reference-agent/index.js';

// One agent, written against 1.0, answering 0.3 clients through the generated translation: what a 0.3 client sees on
// the wire must be pure 0.3 (its own shapes and error forms), and 1.0 keeps answering as before.

// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the agent answered
type Json = any;

const { app } = createReferenceAgent({ chunkDelayMs: 0 });
const JSON_BODY = { 'content-type': 'application/json' };
let id = 0;
const rpc = async (method: string, params: unknown, headers: Record<string, string> = JSON_BODY) => {
  const res = await app.request('/jsonrpc', {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  const body: Json = await res.json();
  return { status: res.status, body };
};
const sse = async (res: Response): Promise<Json[]> =>
  (await res.text())
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => JSON.parse(b.slice(6)));
const send = (text: string) => ({
  message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
});
/**
 * A webhook's config in 0.3's ProtoJSON, for an agent that lets push go to 127.0.0.1: it is never called (the tasks it
 * is made for wait for input, and have no update after it).
 */
const HOOK = {
  url: 'http://127.0.0.1:9/a2a',
  token: 'tok',
  authentication: { schemes: ['Bearer'], credentials: 'secret' },
};
const protoSend = (text: string) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', content: [{ text }] },
});

describe('A2A 0.3 beside 1.0, from one handler set', () => {
  it('card > one document both versions read: 1.0 interfaces and 0.3 root fields', async () => {
    const card = await (await app.request('/.well-known/agent-card.json')).json();
    expect(v10.AgentCard(card)).toBe(true);
    expect(v03.AgentCard(card), JSON.stringify(v03.AgentCard.errors)).toBe(true);
    expect(card.protocolVersion).toBe('0.3');
    expect(card.url).toMatch(/\/jsonrpc$/);
    expect(card.preferredTransport).toBe('JSONRPC');
    // Every 0.3 interface, the main one included (0.3 §5.6.2 "Completeness").
    expect(card.additionalInterfaces).toEqual([
      { url: card.url, transport: 'JSONRPC' },
      { url: expect.any(String), transport: 'HTTP+JSON' },
    ]);
  });

  it.each([
    ['no version header', JSON_BODY],
    ['A2A-Version: 0.3', { ...JSON_BODY, 'A2A-Version': '0.3' }],
    ['A2A-Version: 0.3.0', { ...JSON_BODY, 'A2A-Version': '0.3.0' }],
  ])('json-rpc > message/send with %s answers a 0.3 task', async (_name, headers) => {
    const { body } = await rpc('message/send', send('Plan a trip to Porto'), headers);
    expect(v03.TaskOrMessage(body.result), JSON.stringify(v03.TaskOrMessage.errors)).toBe(true);
    expect(body.result.kind).toBe('task');
    expect(body.result.status.state).toBe('completed');
    expect(JSON.stringify(body)).not.toMatch(/TASK_STATE_|ROLE_/);
  });

  it('json-rpc > message/stream is 0.3 events, the last status update final', async () => {
    const res = await app.request('/jsonrpc', {
      method: 'POST',
      headers: JSON_BODY,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 's',
        method: 'message/stream',
        params: send('Plan a trip to Graz'),
      }),
    });
    const events = await sse(res);
    expect(events.length).toBeGreaterThan(2);
    for (const e of events) {
      expect(e.id).toBe('s');
      expect(v03.StreamEvent(e.result), JSON.stringify(v03.StreamEvent.errors)).toBe(true);
    }
    const updates = events.map((e) => e.result).filter((r) => r.kind === 'status-update');
    expect(updates.at(-1)).toMatchObject({ final: true, status: { state: 'completed' } });
    expect(updates.slice(0, -1).every((u) => u.final === false)).toBe(true);
  });

  it('json-rpc > tasks/get reads the task the 0.3 send made, with 0.3 history', async () => {
    const sent = (await rpc('message/send', send('Plan a trip to Lisbon'))).body.result;
    const { body } = await rpc('tasks/get', { id: sent.id, historyLength: 1 });
    expect(v03.Task(body.result)).toBe(true);
    expect(body.result.history).toHaveLength(1);
  });

  it.each([
    ['unknown task > -32001 without 1.0 details', 'tasks/get', { id: 'no-such-task' }, -32001],
    ['invalid params > -32602', 'message/send', { message: { role: 'user' } }, -32602],
    [
      'a 1.0 message shape > -32602',
      'message/send',
      { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } },
      -32602,
    ],
    ['unknown method > -32601', 'tasks/list', {}, -32601],
    [
      'valid in 0.3, not in 1.0 (no parts) > -32602, and the task is never made',
      'message/send',
      { message: { kind: 'message', messageId: 'm0', role: 'user', parts: [] } },
      -32602,
    ],
  ])('json-rpc errors > %s', async (_name, method, params, code) => {
    const { status, body } = await rpc(method, params);
    expect(status).toBe(200);
    expect(body.error.code).toBe(code);
    expect(v03.JSONRPCErrorResponse(body)).toBe(true);
    expect(JSON.stringify(body)).not.toContain('type.googleapis.com/google.rpc.ErrorInfo');
  });

  it.each(['0.9', '2.0'])('version > %s is VersionNotSupportedError', async (version) => {
    const { body } = await rpc('message/send', send('x'), { ...JSON_BODY, 'A2A-Version': version });
    expect(body.error.code).toBe(-32009);
  });

  it('http+json > /v1/message:send takes and answers ProtoJSON of the 0.3 proto', async () => {
    const res = await app.request('/v1/message:send', {
      method: 'POST',
      headers: JSON_BODY,
      body: JSON.stringify(protoSend('Plan a trip to Rome')),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(v03.ProtoSendMessageResponse(body), JSON.stringify(v03.ProtoSendMessageResponse.errors)).toBe(
      true,
    );
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    const got = await app.request(`/v1/tasks/${body.task.id}?historyLength=1`, { headers: JSON_BODY });
    const task = await got.json();
    expect(v03.ProtoTask(task)).toBe(true);
    expect(task.history[0].content).toBeDefined();
  });

  it('http+json > /v1/message:stream is bare ProtoStreamResponse events', async () => {
    const res = await app.request('/v1/message:stream', {
      method: 'POST',
      headers: JSON_BODY,
      body: JSON.stringify(protoSend('Plan a trip to Bern')),
    });
    const events = await sse(res);
    expect(events.length).toBeGreaterThan(2);
    for (const e of events)
      expect(v03.ProtoStreamResponse(e), JSON.stringify(v03.ProtoStreamResponse.errors)).toBe(true);
    expect(events.at(-1)).toMatchObject({ statusUpdate: { final: true } });
  });

  it.each([
    ['unknown task > 404 -32001', '/v1/tasks/no-such-task', undefined, 404, -32001],
    ['invalid body > 400 -32602', '/v1/message:send', { message: { role: 'ROLE_USER' } }, 400, -32602],
    ['a JSON-RPC dialect body > 400 -32602', '/v1/message:send', send('x'), 400, -32602],
  ])('http+json errors > %s', async (_name, path, body, status, code) => {
    const res = await app.request(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: JSON_BODY,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status).toBe(status);
    const answer = await res.json();
    expect(v03.RestError(answer), JSON.stringify(answer)).toBe(true);
    expect(answer.code).toBe(code);
  });

  // DECISIONS 71: the create body in either form, the bare config (@a2a-js/sdk) or the whole proto request
  // (a2a-python, in ProtoJSON's camelCase; the official TCK's REST client, in proto field names).
  it.each([
    [
      'the bare config',
      (t: string) => ({ name: `tasks/${t}/pushNotificationConfigs/c1`, pushNotificationConfig: HOOK }),
    ],
    [
      'the whole request',
      (t: string) => ({
        parent: `tasks/${t}`,
        configId: 'c1',
        config: {
          name: `tasks/${t}/pushNotificationConfigs/c1`,
          pushNotificationConfig: { id: 'c1', ...HOOK },
        },
      }),
    ],
    [
      'the whole request under proto field names',
      (t: string) => ({
        parent: `tasks/${t}`,
        config_id: 'c1',
        config: {
          name: `tasks/${t}/pushNotificationConfigs/c1`,
          push_notification_config: { id: 'c1', ...HOOK },
        },
      }),
    ],
    [
      "the whole request as the official TCK's REST client writes it (an empty token and authentication)",
      (t: string) => ({
        parent: `tasks/${t}`,
        config_id: 'c1',
        config: {
          name: `tasks/${t}/pushNotificationConfigs/c1`,
          push_notification_config: { id: 'c1', url: HOOK.url, token: '', authentication: {} },
        },
      }),
      // Nothing of the empty token and authentication is kept.
      { taskId: '', id: 'c1', url: HOOK.url },
    ],
  ])('http+json push > a config created from %s', async (_name, body, read10 = undefined) => {
    const { app, push } = createReferenceAgent({ chunkDelayMs: 0, push: { allowHosts: ['127.0.0.1'] } });
    onTestFinished(() => push?.close());
    const sent = await app.request('/v1/message:send', {
      method: 'POST',
      headers: JSON_BODY,
      body: JSON.stringify(protoSend('hi')),
    });
    const { task } = await sent.json();
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const res = await app.request(`/v1/tasks/${task.id}/pushNotificationConfigs`, {
      method: 'POST',
      headers: JSON_BODY,
      body: JSON.stringify(body(task.id)),
    });
    const answer = await res.json();
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(v03.ProtoTaskPushNotificationConfig(answer)).toBe(true);
    expect(answer.name).toBe(`tasks/${task.id}/pushNotificationConfigs/c1`);
    // As a 1.0 client reads it: the config's own fields, nothing of the form it came in.
    const read = await app.request('/jsonrpc', {
      method: 'POST',
      headers: { ...JSON_BODY, 'A2A-Version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'GetTaskPushNotificationConfig',
        params: { taskId: task.id, id: 'c1' },
      }),
    });
    expect((await read.json()).result).toEqual(
      read10
        ? { ...read10, taskId: task.id }
        : {
            taskId: task.id,
            id: 'c1',
            url: HOOK.url,
            token: HOOK.token,
            authentication: { scheme: 'Bearer', credentials: 'secret' },
          },
    );
  });

  it('http+json errors > a body that breaks its schema names each fault: first in the message, all in data', async () => {
    const res = await app.request('/v1/message:send', {
      method: 'POST',
      headers: JSON_BODY,
      body: JSON.stringify({ message: { role: 'ROLE_USER' } }),
    });
    expect(res.status).toBe(400);
    const answer = await res.json();
    expect(v03.RestError(answer), JSON.stringify(answer)).toBe(true);
    expect(answer).toEqual({
      code: -32602,
      message:
        'the body breaks its schema: body /message/messageId is required but missing (and 1 more in data.errors)',
      data: {
        errors: [
          { location: 'body', pointer: '/message/messageId', message: 'is required but missing' },
          { location: 'body', pointer: '/message/content', message: 'is required but missing' },
        ],
      },
    });
  });

  it.each([
    ['A2A-Version: 2.0', { 'A2A-Version': '2.0' }, ''],
    ['A2A-Version: 1.0 (a version served, but not on this path)', { 'A2A-Version': '1.0' }, ''],
    ['the A2A-Version query parameter: 0.9', {}, '?A2A-Version=0.9'],
  ])(
    'http+json version > /v1/ with %s is VersionNotSupportedError, 400 -32009 in 0.3 form',
    async (_name, headers, query) => {
      const res = await app.request(`/v1/message:send${query}`, {
        method: 'POST',
        headers: { ...JSON_BODY, ...headers },
        body: JSON.stringify(protoSend('Plan a trip to Turin')),
      });
      expect(res.status).toBe(400);
      const answer = await res.json();
      expect(v03.RestError(answer), JSON.stringify(answer)).toBe(true);
      expect(answer.code).toBe(-32009);
      expect(answer.message).toMatch(/speaks A2A 0\.3, not (2\.0|1\.0|0\.9)/);
    },
  );

  it.each([
    ['A2A-Version: 0.3', { 'A2A-Version': '0.3' }],
    ['A2A-Version: 0.3.0', { 'A2A-Version': '0.3.0' }],
  ])('http+json version > /v1/ with %s is served', async (_name, headers) => {
    const res = await app.request('/v1/message:send', {
      method: 'POST',
      headers: { ...JSON_BODY, ...headers },
      body: JSON.stringify(protoSend('Plan a trip to Turin')),
    });
    expect(res.status).toBe(200);
  });

  // 0.3 §6.11: a streaming method answers with an SSE stream of JSON-RPC responses, so an error met before the first
  // event is that stream's one event; 1.0 answers it as one JSON response (DECISIONS 21).
  it.each([
    ['0.3 tasks/resubscribe', 'tasks/resubscribe', {}, 'text/event-stream'],
    ['1.0 SubscribeToTask', 'SubscribeToTask', { 'A2A-Version': '1.0' }, 'application/json'],
  ])('json-rpc > %s of an unknown task: TaskNotFound as %s', async (_name, method, headers, type) => {
    const res = await app.request('/jsonrpc', {
      method: 'POST',
      headers: { ...JSON_BODY, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { id: 'no-such-task' } }),
    });
    expect(res.headers.get('content-type')).toContain(type);
    const answers: Json[] = type === 'text/event-stream' ? await sse(res) : [await res.json()];
    expect(answers).toEqual([{ jsonrpc: '2.0', id: 7, error: expect.objectContaining({ code: -32001 }) }]);
  });

  it('1.0 > unchanged: SendMessage with A2A-Version 1.0 answers a 1.0 response', async () => {
    const { body } = await rpc(
      'SendMessage',
      { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'Plan a trip to Oslo' }] } },
      { ...JSON_BODY, 'A2A-Version': '1.0' },
    );
    expect(v10.SendMessageResponse(body.result)).toBe(true);
    expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});

describe('connectA2a > a 1.0 client for any agent it can reach', () => {
  const methods: string[] = [];
  const inProcess = (card: (c: Json) => Json) => async (request: Request) => {
    if (request.method === 'POST') {
      const call: Json = await request.clone().json();
      methods.push(call.method);
    }
    const res = await app.request(new URL(request.url).pathname, request);
    if (!new URL(request.url).pathname.endsWith('agent-card.json')) return res;
    return Response.json(card(await res.json()));
  };
  it.each([
    ['the full card > 1.0, as it is', (c: Json) => c, '1.0'],
    [
      'a 0.3-only card > 0.3 through the codecs, with 1.0 methods and shapes',
      (c: Json) => ({ ...c, supportedInterfaces: undefined }),
      '0.3',
    ],
  ])('%s', async (_name, card, version) => {
    methods.length = 0;
    const conn = await connectA2a('http://agent.test/.well-known/agent-card.json', {
      fetch: inProcess(card),
    });
    expect(conn.version).toBe(version);
    const sent: Json = await conn.client.SendMessage({
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'Plan a trip to Porto' }],
      },
    });
    expect(v10.SendMessageResponse(sent), JSON.stringify(sent)).toBe(true);
    expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    const events: Json[] = [];
    for await (const e of conn.client.SendStreamingMessage({
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'Plan a trip to Graz' }],
      },
    }))
      events.push(e);
    expect(events.every((e) => v10.StreamResponse(e))).toBe(true);
    expect(events.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    // On the wire, the version it picked.
    expect(methods).toEqual(
      version === '0.3' ? ['message/send', 'message/stream'] : ['SendMessage', 'SendStreamingMessage'],
    );
  });
  it.each([
    [
      'a card over the JSON limit > refused, named',
      () => 'x'.repeat(2 * 1024 * 1024),
      /the card is over 1048576 bytes/,
    ],
    ['a card that is not JSON > refused, named', () => '{"name":', /the card is not JSON/],
  ])('%s', async (_name, body, want) => {
    const fetcher = async () => new Response(body(), { headers: { 'content-type': 'application/json' } });
    await expect(
      connectA2a('http://agent.test/.well-known/agent-card.json', { fetch: fetcher }),
    ).rejects.toThrow(want);
  });
  it('a 0.3-only card > a 1.0 method 0.3 lacks (ListTasks) is method-not-found from the agent', async () => {
    const conn = await connectA2a('http://agent.test/.well-known/agent-card.json', {
      fetch: inProcess((c: Json) => ({ ...c, supportedInterfaces: undefined })),
    });
    expect(conn.version).toBe('0.3');
    await expect(conn.client.ListTasks({})).rejects.toMatchObject({ code: -32601 });
  });
  it('a card with no version this client speaks > an error naming both sides', async () => {
    await expect(
      connectA2a('http://agent.test/.well-known/agent-card.json', {
        fetch: inProcess(() => ({
          name: 'x',
          supportedInterfaces: [{ url: 'http://x', protocolBinding: 'JSONRPC', protocolVersion: '2.0' }],
        })),
      }),
    ).rejects.toThrow(/offers JSON-RPC for 2\.0; this client speaks 1\.0, 0\.3/);
  });
});
