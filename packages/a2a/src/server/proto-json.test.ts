// A2A's HTTP+JSON binding is ProtoJSON (both openapi.yaml say `x-protoJson`), so the reference agent takes each field
// under its JSON name or its proto name (`message_id`), on 1.0's paths and on 0.3's (under /v1/), as the A2A TCK sends
// them; free-form members (`metadata`) keep their keys; a field under both names is refused with the binding's 400; an
// empty `contextId` is proto3's "not set". schemas/a2a/DECISIONS.md, the ProtoJSON names entry.
import { afterAll, describe, expect, it } from 'vitest';
import { createReferenceAgent } from '../reference-agent/index.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the agent answered
type Json = any;

const errors: unknown[] = [];
const { app } = createReferenceAgent({ chunkDelayMs: 0, onError: (e) => errors.push(e) });
const V10 = { 'A2A-Version': '1.0' };

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const answer: Json = await res.json();
  return { status: res.status, answer };
};
const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await app.request(path, { headers });
  const answer: Json = await res.json();
  return { status: res.status, answer };
};

describe('A2A HTTP+JSON > ProtoJSON field names', () => {
  it('0.3 > message_id (the proto name, as the TCK sends it) is taken as messageId', async () => {
    const { status, answer } = await post('/v1/message:send', {
      message: { message_id: 'tck-03', role: 'ROLE_USER', content: [{ text: 'Plan a trip to Porto' }] },
    });
    expect(status).toBe(200);
    expect(answer.task.history[0].messageId).toBe('tck-03');
  });

  it('1.0 > proto names at every depth: message_id, context_id, media_type of a part', async () => {
    const first = await post(
      '/message:send',
      { message: { messageId: 'p1', role: 'ROLE_USER', parts: [{ text: 'Plan a trip' }] } },
      V10,
    );
    expect(first.status).toBe(200);
    const contextId: string = first.answer.task.contextId;
    const { status, answer } = await post(
      '/message:send',
      {
        message: {
          message_id: 'p2',
          context_id: contextId,
          task_id: first.answer.task.id,
          role: 'ROLE_USER',
          parts: [{ text: 'Porto', media_type: 'text/plain' }],
        },
        configuration: { history_length: 5 },
      },
      V10,
    );
    expect(status).toBe(200);
    expect(answer.task.contextId).toBe(contextId);
    const sent = answer.task.history.find((m: Json) => m.messageId === 'p2');
    expect(sent.parts[0]).toEqual({ text: 'Porto', mediaType: 'text/plain' });
  });

  it('metadata is free-form: its my_key comes back as it was sent, on 1.0 and 0.3', async () => {
    const v10 = await post(
      '/message:send',
      {
        message: {
          message_id: 'meta-10',
          role: 'ROLE_USER',
          parts: [{ text: 'hi', metadata: { part_key: 1 } }],
          metadata: { my_key: 'kept', nested: { inner_key: true } },
        },
      },
      V10,
    );
    expect(v10.status).toBe(200);
    const stored = await get(`/tasks/${v10.answer.task.id}`, V10);
    const m10 = stored.answer.history.find((m: Json) => m.messageId === 'meta-10');
    expect(m10.metadata).toEqual({ my_key: 'kept', nested: { inner_key: true } });
    expect(m10.parts[0].metadata).toEqual({ part_key: 1 });

    const v03 = await post('/v1/message:send', {
      message: {
        message_id: 'meta-03',
        role: 'ROLE_USER',
        content: [{ data: { data: { user_key: 2 } } }, { text: 'hi' }],
        metadata: { my_key: 'kept' },
      },
    });
    expect(v03.status).toBe(200);
    const m03 = v03.answer.task.history.find((m: Json) => m.messageId === 'meta-03');
    expect(m03.metadata).toEqual({ my_key: 'kept' });
    expect(m03.content[0]).toEqual({ data: { data: { user_key: 2 } } });
  });

  it('both names of one field > 400 naming the field, in each binding form', async () => {
    const v03 = await post('/v1/message:send', {
      message: { messageId: 'a', message_id: 'b', role: 'ROLE_USER', content: [{ text: 'hi' }] },
    });
    expect(v03.status).toBe(400);
    expect(v03.answer.code).toBe(-32602);
    expect(v03.answer.message).toContain('"messageId"');
    expect(v03.answer.message).toContain('"message_id"');
    const v10 = await post(
      '/message:send',
      { message: { messageId: 'a', message_id: 'b', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      V10,
    );
    expect(v10.status).toBe(400);
    expect(v10.answer.error.status).toBe('INVALID_ARGUMENT');
    expect(v10.answer.error.message).toContain('"messageId"');
  });

  it('camelCase bodies are taken as they are', async () => {
    const { status, answer } = await post(
      '/message:send',
      {
        message: {
          messageId: 'camel',
          role: 'ROLE_USER',
          parts: [{ text: 'hi' }],
          metadata: { someKey: 1, some_key: 2 },
        },
        configuration: { historyLength: 3 },
      },
      V10,
    );
    expect(status).toBe(200);
    const sent = answer.task.history.find((m: Json) => m.messageId === 'camel');
    expect(sent.metadata).toEqual({ someKey: 1, some_key: 2 });
  });

  it('0.3 > an empty contextId is proto3 "not set": 200 with a new context, not 500', async () => {
    errors.length = 0;
    const { status, answer } = await post('/v1/message:send', {
      message: { messageId: 'empty-ctx', contextId: '', role: 'ROLE_USER', content: [{ text: 'hi' }] },
    });
    expect(status).toBe(200);
    expect(answer.task.contextId).not.toBe('');
    expect(errors).toEqual([]);
  });

  it('query parameters under their proto names: history_length is historyLength', async () => {
    const sent = await post('/v1/message:send', {
      message: { messageId: 'q1', role: 'ROLE_USER', content: [{ text: 'hi' }] },
    });
    const id: string = sent.answer.task.id;
    const all = await get(`/v1/tasks/${id}`);
    expect(all.answer.history.length).toBeGreaterThan(1);
    const one = await get(`/v1/tasks/${id}?history_length=1`);
    expect(one.status).toBe(200);
    expect(one.answer.history).toHaveLength(1);
    const both = await get(`/v1/tasks/${id}?history_length=1&historyLength=2`);
    expect(both.status).toBe(400);
    expect(both.answer.message).toContain('"historyLength"');
  });
});

describe('A2A 1.0 JSON-RPC > ProtoJSON field names in params', () => {
  // Webhooks on this machine allowed, for the config below (never called: its task has ended).
  const pushing = createReferenceAgent({ chunkDelayMs: 0, push: { allowHosts: ['127.0.0.1'] } });
  afterAll(() => pushing.push?.close());
  let id = 0;
  const rpc = async (method: string, params: unknown): Promise<Json> => {
    const res = await pushing.app.request('/jsonrpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...V10 },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    return res.json();
  };

  it('task_id, history_length and message_id (as the TCK sends them) are read as taskId, historyLength, messageId', async () => {
    const sent = await rpc('SendMessage', {
      message: { message_id: 'rpc-proto', role: 'ROLE_USER', parts: [{ text: 'Plan a trip to Porto' }] },
    });
    expect(sent.error).toBeUndefined();
    const taskId: string = sent.result.task.id;
    expect(sent.result.task.history[0].messageId).toBe('rpc-proto');
    const one = await rpc('GetTask', { id: taskId, history_length: 1 });
    expect(one.result.history).toHaveLength(1);
    const made = await rpc('CreateTaskPushNotificationConfig', {
      task_id: taskId,
      url: 'http://127.0.0.1:9/hook',
    });
    expect(made.error).toBeUndefined();
    expect(made.result.taskId).toBe(taskId);
  });

  it('a field under both its names is invalid params (-32602) naming it; free-form metadata keeps its keys', async () => {
    const both = await rpc('GetTask', { id: 'any', history_length: 1, historyLength: 2 });
    expect(both.error.code).toBe(-32602);
    expect(both.error.message).toContain('"historyLength"');
    const kept = await rpc('SendMessage', {
      message: {
        messageId: 'rpc-meta',
        role: 'ROLE_USER',
        parts: [{ text: 'hi' }],
        metadata: { some_key: 1 },
      },
    });
    expect(kept.result.task.history[0].metadata).toEqual({ some_key: 1 });
  });
});
