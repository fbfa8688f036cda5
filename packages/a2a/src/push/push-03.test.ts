// Push notifications to 0.3 clients (DECISIONS 114): a config a 0.3 client makes, inline in `message/send` or through
// `tasks/pushNotificationConfig/set`, is delivered in 0.3's shape (the Task, 0.3 §9.5) with 0.3's token header, while
// a 1.0 client's config on the same task gets 1.0's StreamResponses.
import { afterEach, describe, expect, it } from 'vitest';
import * as validators03 from '../generated/0.3/validators.js';
import * as validators from '../generated/1.0/validators.js';
import { createReferenceAgent } from '../reference-agent/reference-agent.js';
import { NOTIFICATION_TOKEN_HEADER } from './deliver.js';
import type { PushClock } from './outbox.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the agent answered
type Json = any;

const cleanups: Array<() => Promise<unknown> | undefined> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const clock: PushClock = { sleep: async () => {}, random: () => 0.5 };

async function setUp() {
  const errors: unknown[] = [];
  const server = createReferenceAgent({
    chunkDelayMs: 0,
    onError: (e) => errors.push(e),
    push: { allowHosts: ['127.0.0.1'], clock },
  });
  cleanups.push(() => server.push?.close());
  const hook: WebhookReceiver = await startWebhookReceiver();
  cleanups.push(() => hook.close());
  let id = 0;
  /** A JSON-RPC call; without A2A-Version it is 0.3 (§3.6.2). */
  const rpc = async (method: string, params: unknown, headers: Record<string, string> = {}): Promise<Json> =>
    (
      await server.app.request('/jsonrpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      })
    ).json();
  return { server, hook, rpc, errors };
}

const message03 = (text: string, extra: Record<string, unknown> = {}) => ({
  message: {
    kind: 'message',
    messageId: crypto.randomUUID(),
    role: 'user',
    parts: [{ kind: 'text', text }],
    ...extra,
  },
});
const config03 = (url: string) => ({
  url,
  token: 'tok-03',
  authentication: { schemes: ['Bearer'], credentials: 'secret-03' },
});

describe('push > 0.3 clients get 0.3 shapes', () => {
  it('inline in message/send: each delivery is the 0.3 Task, application/json, with the token header', async () => {
    const { server, hook, rpc, errors } = await setUp();
    const sent = await rpc('message/send', {
      ...message03('Plan a trip'),
      configuration: { pushNotificationConfig: config03(`${hook.url}/inline`) },
    });
    expect(sent.result.kind).toBe('task');
    // working, then input-required: the second is the task as that update left it.
    const got = await hook.waitFor(2, '/inline');
    for (const r of got) expect(validators03.Task(r.body), JSON.stringify(r.body)).toBe(true);
    const [first, last]: Json[] = got.map((r) => r.body);
    expect(first.status.state).toBe('working');
    expect(last).toMatchObject({ kind: 'task', id: sent.result.id, status: { state: 'input-required' } });
    for (const { headers } of got) {
      expect(headers['content-type']).toBe('application/json');
      expect(headers[NOTIFICATION_TOKEN_HEADER.toLowerCase()]).toBe('tok-03');
      expect(headers.authorization).toBe('Bearer secret-03');
    }
    // The config records the version that made it.
    const record = await server.push?.records.read(sent.result.id);
    expect(record?.configs.map((c) => c.version)).toEqual(['0.3']);
    expect(errors).toEqual([]);
  });

  it('tasks/pushNotificationConfig/set: 0.3 Tasks to the end; a 1.0 config on the task gets StreamResponses', async () => {
    const { hook, rpc, errors } = await setUp();
    const sent = await rpc('message/send', message03('Plan a trip'));
    const taskId = sent.result.id;
    const set = await rpc('tasks/pushNotificationConfig/set', {
      taskId,
      pushNotificationConfig: config03(`${hook.url}/v03`),
    });
    expect(set.error).toBeUndefined();
    const made10 = await rpc(
      'CreateTaskPushNotificationConfig',
      { taskId, url: `${hook.url}/v10` },
      { 'A2A-Version': '1.0' },
    );
    expect(made10.error).toBeUndefined();
    const answer = await rpc(
      'message/send',
      message03('Lisbon', { taskId, contextId: sent.result.contextId }),
    );
    expect(answer.result.status.state).toBe('completed');
    // working, working (the plan starts), three artifact chunks, completed: six updates to each.
    const old = await hook.waitFor(6, '/v03');
    const now = await hook.waitFor(6, '/v10');
    for (const r of old) expect(validators03.Task(r.body), JSON.stringify(r.body)).toBe(true);
    expect(old.at(-1)?.body).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    for (const r of now) expect(validators.StreamResponse(r.body), JSON.stringify(r.body)).toBe(true);
    expect(now[0]?.headers['content-type']).toBe('application/a2a+json');
    expect(errors).toEqual([]);
  });

  it('a 0.3 config made without an id is the task default (its id is the task id); a get without one reads it', async () => {
    const { server, hook, rpc } = await setUp();
    const sent = await rpc('message/send', {
      ...message03('Plan a trip'),
      configuration: { pushNotificationConfig: { url: `${hook.url}/inline` } },
    });
    const taskId = sent.result.id;
    expect((await server.push?.records.read(taskId))?.configs.map((c) => c.config.id)).toEqual([taskId]);
    // Set again without an id: the same default config, replaced.
    const set = await rpc('tasks/pushNotificationConfig/set', {
      taskId,
      pushNotificationConfig: { url: `${hook.url}/set` },
    });
    expect(set.result.pushNotificationConfig).toEqual({ id: taskId, url: `${hook.url}/set` });
    const got = await rpc('tasks/pushNotificationConfig/get', { id: taskId });
    expect(got.result).toEqual(set.result);
    expect(validators03.GetTaskPushNotificationConfigSuccessResponse({ jsonrpc: '2.0', id: 1, ...got })).toBe(
      true,
    );
    // HTTP+JSON's create without a config id: the same.
    const rest = await server.app.request(`/v1/tasks/${taskId}/pushNotificationConfigs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // a2a-python's form: the whole request, without `configId`.
      body: JSON.stringify({
        parent: `tasks/${taskId}`,
        config: {
          name: `tasks/${taskId}/pushNotificationConfigs/`,
          pushNotificationConfig: { url: `${hook.url}/rest` },
        },
      }),
    });
    expect(rest.status, await rest.clone().text()).toBe(200);
    expect((await rest.json()).name).toBe(`tasks/${taskId}/pushNotificationConfigs/${taskId}`);
    // A 1.0 client's config without an id gets a new one.
    const made10 = await rpc(
      'CreateTaskPushNotificationConfig',
      { taskId, url: `${hook.url}/v10` },
      { 'A2A-Version': '1.0' },
    );
    expect(made10.result.id).not.toBe(taskId);
    expect(made10.result.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
