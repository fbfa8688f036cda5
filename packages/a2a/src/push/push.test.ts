// Push notifications end to end in one process: configs over both bindings, deliveries to a receiver on 127.0.0.1
// (headers, body, order), retries on an injected clock, the address policy at config time and at connect time, the
// outbox taken up by a store opened again, and webhooks that fail, hang or redirect while the task runs on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryStore } from '@agentproto/runtime';
import { openSqliteStore } from '@agentproto/runtime/stores/sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import * as validators from '../generated/1.0/validators.js';
import { createReferenceAgent, type ReferenceOptions } from '../reference-agent/reference-agent.js';
import { createA2aServer } from '../server/create-a2a-server.js';
import { NOTIFICATION_TOKEN_HEADER } from './deliver.js';
import { backoffMs, type PushClock } from './outbox.js';
import { DEFAULT_PUSH_LIMITS } from './push-config.js';
import { type Received, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the agent answered
type Json = any;

const V = { 'A2A-Version': '1.0', 'content-type': 'application/json' };
const cleanups: Array<() => Promise<unknown> | undefined> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-push-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a delivery carried, read as the JSON it is. */
const bodyOf = (r: Received | undefined): Json => r?.body;

/** A clock that never waits: it records each wait asked for. */
function instantClock(): PushClock & { waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms), random: () => 0.5 };
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  cleanups.push(() => r.close());
  return r;
}

function agent(options: ReferenceOptions = {}) {
  const errors: unknown[] = [];
  const server = createReferenceAgent({
    chunkDelayMs: 0,
    onError: (e) => errors.push(e),
    ...options,
    push: { allowHosts: ['127.0.0.1'], clock: instantClock(), ...options.push },
  });
  cleanups.push(() => server.push?.close());
  const rest = async (p: string, method = 'GET', body?: unknown) => {
    const res = await server.app.request(p, {
      method,
      headers: V,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.json() };
  };
  let id = 0;
  const rpc = async (method: string, params: unknown): Promise<Json> =>
    (
      await server.app.request('/jsonrpc', {
        method: 'POST',
        headers: V,
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      })
    ).json();
  return { server, rest, rpc, errors };
}

const message = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
  ...extra,
});
/** A task waiting for input (no city given): it stays open for configs. */
async function openTask(a: ReturnType<typeof agent>): Promise<string> {
  const { body } = await a.rest('/message:send', 'POST', message('Plan a trip'));
  expect(body.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  return body.task.id;
}

describe('push > configs over HTTP+JSON', () => {
  it('create, get, list, delete (twice: idempotent), then get is TaskNotFound', async () => {
    const a = agent();
    const taskId = await openTask(a);
    const base = `/tasks/${taskId}/pushNotificationConfigs`;
    const created = await a.rest(base, 'POST', {
      url: 'http://127.0.0.1:9/hook',
      token: 't-1',
      authentication: { scheme: 'Bearer', credentials: 'secret' },
    });
    expect(created.status).toBe(200);
    expect(validators.TaskPushNotificationConfig(created.body)).toBe(true);
    expect(created.body).toMatchObject({ taskId, url: 'http://127.0.0.1:9/hook', token: 't-1' });
    const id = created.body.id;
    expect(typeof id).toBe('string');
    expect((await a.rest(`${base}/${id}`)).body).toEqual(created.body);
    const listed = await a.rest(base);
    expect(listed.body).toEqual({ configs: [created.body], nextPageToken: '' });
    expect((await a.rest(`${base}/${id}`, 'DELETE')).status).toBe(200);
    expect((await a.rest(`${base}/${id}`, 'DELETE')).status).toBe(200);
    const gone = await a.rest(`${base}/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.details[0].reason).toBe('TASK_NOT_FOUND');
    expect((await a.rest(base)).body.configs).toEqual([]);
  });

  it('an unknown task is TaskNotFound for every operation', async () => {
    const a = agent();
    for (const [p, method, body] of [
      ['/tasks/nope/pushNotificationConfigs', 'POST', { url: 'http://127.0.0.1:9/' }],
      ['/tasks/nope/pushNotificationConfigs', 'GET'],
      ['/tasks/nope/pushNotificationConfigs/x', 'GET'],
      ['/tasks/nope/pushNotificationConfigs/x', 'DELETE'],
    ] as const) {
      const res = await a.rest(p, method, body);
      expect(res.status, `${method} ${p}`).toBe(404);
    }
  });

  it('the configs one task may have are limited: one more is a 400 naming the limit', async () => {
    const a = agent({ push: { limits: { maxConfigsPerTask: 2 } } });
    const taskId = await openTask(a);
    const base = `/tasks/${taskId}/pushNotificationConfigs`;
    for (const n of [1, 2])
      expect((await a.rest(base, 'POST', { url: `http://127.0.0.1:9/${n}` })).status).toBe(200);
    const third = await a.rest(base, 'POST', { url: 'http://127.0.0.1:9/3' });
    expect(third.status).toBe(400);
    expect(third.body.error.message).toMatch(/the most one task may have \(2\)/);
    // The same id again replaces its config: no new one.
    const [first] = (await a.rest(base)).body.configs;
    expect((await a.rest(base, 'POST', { id: first.id, url: 'http://127.0.0.1:9/again' })).status).toBe(200);
    expect(DEFAULT_PUSH_LIMITS.maxConfigsPerTask).toBe(100);
  });

  it('pages: pageSize and the token it gives; a made-up token is a 400', async () => {
    const a = agent();
    const taskId = await openTask(a);
    const base = `/tasks/${taskId}/pushNotificationConfigs`;
    for (const n of [1, 2, 3]) await a.rest(base, 'POST', { url: `http://127.0.0.1:9/${n}` });
    const first = (await a.rest(`${base}?pageSize=2`)).body;
    expect(first.configs).toHaveLength(2);
    const second = (await a.rest(`${base}?pageSize=2&pageToken=${first.nextPageToken}`)).body;
    expect(second).toMatchObject({ nextPageToken: '' });
    expect(second.configs).toHaveLength(1);
    expect((await a.rest(`${base}?pageToken=zz`)).status).toBe(400);
  });

  const invalid: Array<[string, { given: Json; field: string; want: RegExp }]> = [
    ['no URL', { given: { url: '' }, field: 'url', want: /.*/ }],
    ['not a URL', { given: { url: 'not a url' }, field: 'url', want: /absolute http or https URL/ }],
    ['another scheme', { given: { url: 'ftp://example.com/x' }, field: 'url', want: /ftp scheme/ }],
    [
      'an unknown authentication scheme',
      {
        given: { url: 'http://127.0.0.1:9/', authentication: { scheme: 'Magic' } },
        field: 'authentication.scheme',
        want: /IANA/,
      },
    ],
    [
      'a scheme missing',
      {
        given: { url: 'http://127.0.0.1:9/', authentication: { credentials: 'x' } },
        field: 'authentication.scheme',
        want: /.*/,
      },
    ],
    [
      'a token that cannot be a header',
      {
        given: { url: 'http://127.0.0.1:9/', token: 'a\r\nX-Evil: 1' },
        field: 'token',
        want: /visible ASCII/,
      },
    ],
    [
      'a loopback address not allowed',
      { given: { url: 'http://127.0.0.2/' }, field: 'url', want: /loopback/ },
    ],
    ['a private address', { given: { url: 'http://10.1.2.3/' }, field: 'url', want: /private/ }],
    [
      'the metadata address',
      { given: { url: 'http://169.254.169.254/latest' }, field: 'url', want: /metadata/ },
    ],
    ['a unique-local address', { given: { url: 'http://[fd12::1]/' }, field: 'url', want: /unique-local/ }],
    ['a link-local address', { given: { url: 'http://[fe80::1]/' }, field: 'url', want: /link-local/ }],
    [
      'an IPv4-mapped loopback',
      { given: { url: 'http://[::ffff:127.0.0.1]/' }, field: 'url', want: /loopback/ },
    ],
    ['localhost', { given: { url: 'http://localhost:8080/' }, field: 'url', want: /loopback name/ }],
    [
      'a name resolving to loopback',
      {
        given: { url: 'http://rebind.test/' },
        field: 'url',
        want: /rebind\.test \(127\.0\.0\.1\) is a loopback/,
      },
    ],
  ];
  it.each(invalid)('refused at config time > %s: 400 naming the field', async (_, { given, field, want }) => {
    const a = agent({ push: { resolve: async () => ['127.0.0.1'] } });
    const taskId = await openTask(a);
    const res = await a.rest(`/tasks/${taskId}/pushNotificationConfigs`, 'POST', given);
    expect(res.status).toBe(400);
    const violation = res.body.error.details[0].fieldViolations?.[0];
    // A body its schema refuses (an empty URL) is named by the runtime; the rest by the push checks.
    expect(violation?.field).toBe(field);
    expect(violation?.description).toMatch(want);
  });

  it('an agent whose card declares no push refuses every push operation and an inline config', async () => {
    const base = createReferenceAgent({ chunkDelayMs: 0 });
    const card = { ...base.manager.agent.card, capabilities: { streaming: true, pushNotifications: false } };
    const { app } = createA2aServer({ ...base.manager.agent, card }, { onError: () => {} });
    const list = await app.request('/tasks/x/pushNotificationConfigs', { headers: V });
    expect((await list.json()).error.details[0].reason).toBe('PUSH_NOTIFICATION_NOT_SUPPORTED');
    const send = await app.request('/message:send', {
      method: 'POST',
      headers: V,
      body: JSON.stringify(
        message('Plan a trip to Oslo', {
          configuration: { taskPushNotificationConfig: { url: 'https://example.com/' } },
        }),
      ),
    });
    expect((await send.json()).error.details[0].reason).toBe('PUSH_NOTIFICATION_NOT_SUPPORTED');
  });
});

describe('push > configs over JSON-RPC', () => {
  it('create, get, list, delete twice; invalid params are -32602 with the field', async () => {
    const a = agent();
    const taskId = await openTask(a);
    const created = await a.rpc('CreateTaskPushNotificationConfig', {
      taskId,
      url: 'http://127.0.0.1:9/rpc',
    });
    expect(validators.TaskPushNotificationConfig(created.result)).toBe(true);
    const { id } = created.result;
    expect((await a.rpc('GetTaskPushNotificationConfig', { taskId, id })).result).toEqual(created.result);
    expect((await a.rpc('ListTaskPushNotificationConfigs', { taskId })).result.configs).toEqual([
      created.result,
    ]);
    expect((await a.rpc('DeleteTaskPushNotificationConfig', { taskId, id })).result).toEqual({});
    expect((await a.rpc('DeleteTaskPushNotificationConfig', { taskId, id })).result).toEqual({});
    expect((await a.rpc('GetTaskPushNotificationConfig', { taskId, id })).error.code).toBe(-32001);
    const bad = await a.rpc('CreateTaskPushNotificationConfig', { taskId, url: 'gopher://x' });
    expect(bad.error.code).toBe(-32602);
    expect(bad.error.data[0].fieldViolations[0].field).toBe('url');
    const noTask = await a.rpc('CreateTaskPushNotificationConfig', { url: 'http://127.0.0.1:9/' });
    expect(noTask.error.code).toBe(-32602);
  });

  it('an inline config with a bad URL refuses the SendMessage before any task exists', async () => {
    const a = agent();
    const res = await a.rpc(
      'SendMessage',
      message('Plan a trip to Oslo', {
        configuration: { taskPushNotificationConfig: { url: 'http://10.0.0.1/' } },
      }),
    );
    expect(res.error.code).toBe(-32602);
    expect(res.error.data[0].fieldViolations[0].field).toBe('configuration.taskPushNotificationConfig.url');
    expect((await a.rest('/tasks')).body.tasks).toEqual([]);
  });
});

describe('push > delivery', () => {
  it('each update of a task with an inline config is POSTed as a StreamResponse, with the headers', async () => {
    const hook = await receiver();
    const a = agent();
    const config = {
      url: `${hook.url}/inline`,
      token: 'tok-123',
      authentication: { scheme: 'Bearer', credentials: 'cred-456' },
    };
    const { body } = await a.rest(
      '/message:send',
      'POST',
      message('Plan a trip to Oslo', { configuration: { taskPushNotificationConfig: config } }),
    );
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    // working, working (the plan starts), three artifact chunks, completed.
    const got = await hook.waitFor(6, '/inline');
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/a2a+json');
      expect(r.headers.authorization).toBe('Bearer cred-456');
      expect(r.headers[NOTIFICATION_TOKEN_HEADER.toLowerCase()]).toBe('tok-123');
      expect(validators.StreamResponse(r.body), JSON.stringify(r.body)).toBe(true);
    }
    const kinds = got.map((r) => Object.keys(bodyOf(r))[0]);
    expect(kinds[0]).toBe('statusUpdate');
    expect(kinds).toContain('artifactUpdate');
    expect(bodyOf(got.at(-1)).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    // The task ended and its last update was given: its configs are gone.
    await expect
      .poll(async () => (await a.rest(`/tasks/${body.task.id}/pushNotificationConfigs`)).body.configs)
      .toEqual([]);
  });

  it('a config made on a waiting task gets the updates of its next turn; none after it is deleted', async () => {
    const hook = await receiver();
    const a = agent();
    const taskId = await openTask(a);
    const base = `/tasks/${taskId}/pushNotificationConfigs`;
    const kept = (await a.rest(base, 'POST', { url: `${hook.url}/kept` })).body;
    const dropped = (await a.rest(base, 'POST', { url: `${hook.url}/dropped` })).body;
    await a.rest(`${base}/${dropped.id}`, 'DELETE');
    const answer = message('Oslo');
    answer.message = { ...answer.message, ...{ taskId } };
    expect((await a.rest('/message:send', 'POST', answer)).body.task.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
    const got = await hook.waitFor(1, '/kept');
    await expect
      .poll(() => bodyOf(hook.received.at(-1))?.statusUpdate?.status?.state)
      .toBe('TASK_STATE_COMPLETED');
    expect(got.length).toBeGreaterThan(0);
    expect(hook.received.filter((r) => r.path.startsWith('/dropped'))).toEqual([]);
    expect(kept.id).not.toBe(dropped.id);
  });

  it('a webhook answering 500 is tried again with exponential backoff and jitter (injected clock)', async () => {
    const hook = await receiver();
    hook.answer = (_, i) => (i < 3 ? 500 : 200);
    const clock = instantClock();
    const a = agent({ push: { clock, limits: { backoffBaseMs: 1000, backoffMaxMs: 60_000 } } });
    const taskId = await openTask(a);
    await a.rest(`/tasks/${taskId}/pushNotificationConfigs`, 'POST', { url: `${hook.url}/retry` });
    const answer = message('Oslo');
    answer.message = { ...answer.message, ...{ taskId } };
    await a.rest('/message:send', 'POST', answer);
    const got = await hook.waitFor(4, '/retry');
    // The first update, refused three times, then given: the same body each time.
    expect(new Set(got.slice(0, 4).map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(clock.waits.slice(0, 3)).toEqual([750, 1500, 3000]);
    expect(backoffMs(30, { backoffBaseMs: 1000, backoffMaxMs: 60_000 }, 1)).toBe(60_000);
    expect(backoffMs(1, { backoffBaseMs: 1000, backoffMaxMs: 60_000 }, 0)).toBe(500);
  });

  it('attempts are capped: an update refused every time is given up on and told to onError', async () => {
    const hook = await receiver();
    hook.answer = () => 503;
    const a = agent({ push: { limits: { maxAttempts: 3 } } });
    const taskId = await openTask(a);
    await a.rest(`/tasks/${taskId}/pushNotificationConfigs`, 'POST', { url: `${hook.url}/cap` });
    const answer = message('Oslo');
    answer.message = { ...answer.message, ...{ taskId } };
    await a.rest('/message:send', 'POST', answer);
    // Six updates, three attempts each.
    await hook.waitFor(18, '/cap');
    await expect
      .poll(() => a.errors.filter((e) => /update given up: the webhook answered 503/.test(String(e))).length)
      .toBe(6);
  });

  it('a redirect is not followed and not tried again', async () => {
    const hook = await receiver();
    hook.answer = (r) => (r.path.startsWith('/moved') ? { redirect: `${hook.url}/target` } : 200);
    const a = agent();
    await a.rest(
      '/message:send',
      'POST',
      message('reject', { configuration: { taskPushNotificationConfig: { url: `${hook.url}/moved` } } }),
    );
    await expect
      .poll(() => a.errors.some((e) => /302 \(a redirect: not followed\)/.test(String(e))))
      .toBe(true);
    expect(hook.received.filter((r) => r.path === '/target')).toEqual([]);
  });

  it('connect time: a name that resolved to a public address at config time and to 127.0.0.1 now is refused', async () => {
    const hook = await receiver();
    const port = new URL(hook.url).port;
    const a = agent({
      push: {
        allowHosts: [],
        resolve: async () => ['93.184.216.34'],
        // What the connection's lookup answers: the receiver's own loopback address.
        lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]),
      },
    });
    await a.rest(
      '/message:send',
      'POST',
      message('reject', {
        configuration: { taskPushNotificationConfig: { url: `http://rebind.test:${port}/x` } },
      }),
    );
    await expect
      .poll(() => a.errors.some((e) => /rebind\.test \(127\.0\.0\.1\) is a loopback address/.test(String(e))))
      .toBe(true);
    expect(hook.received).toEqual([]);
  });

  it('a webhook that hangs, fails or redirects never stalls the task or its stream', async () => {
    const hook = await receiver();
    hook.answer = (r) =>
      r.path === '/hang' ? 'hang' : r.path === '/fail' ? 500 : { redirect: 'http://127.0.0.1:1/' };
    const a = agent({ push: { limits: { timeoutMs: 60_000 } } });
    const configs = ['/hang', '/fail', '/redirect'].map((p) => ({ url: `${hook.url}${p}` }));
    const taskId = await openTask(a);
    for (const c of configs) await a.rest(`/tasks/${taskId}/pushNotificationConfigs`, 'POST', c);
    const answer = message('Oslo');
    answer.message = { ...answer.message, ...{ taskId } };
    const res = await a.server.app.request('/message:stream', {
      method: 'POST',
      headers: V,
      body: JSON.stringify(answer),
    });
    const text = await res.text();
    expect(text).toContain('TASK_STATE_COMPLETED');
    expect((await a.rest(`/tasks/${taskId}`)).body.status.state).toBe('TASK_STATE_COMPLETED');
    await hook.waitFor(1, '/hang');
  });
});

describe('push > the outbox outlives the process', () => {
  it('updates stored while the webhook was never reached are delivered by the next process on the same store file', async () => {
    const file = path.join(dir, 'outbox.db');
    const hook = await receiver();
    // The first process: its deliveries never finish (it is stopped before any does).
    const first = await openSqliteStore(file, { pollMs: 10 });
    const stuck = agent({
      store: first,
      instance: 'one',
      push: {
        // A delivery that never finishes until the process stops (its signal aborts).
        post: (_, post) =>
          new Promise((_, reject) =>
            post.signal?.addEventListener('abort', () => reject(new Error('stopped'))),
          ),
      },
    });
    const { body } = await stuck.rest(
      '/message:send',
      'POST',
      message('Plan a trip to Oslo', {
        configuration: { taskPushNotificationConfig: { url: `${hook.url}/later` } },
      }),
    );
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    await stuck.server.push?.close();
    await first.close();
    expect(hook.received).toEqual([]);
    // The same instance starts again on the file: everything the task stored reaches the webhook.
    const again = await openSqliteStore(file, { pollMs: 10 });
    cleanups.push(() => again.close());
    const next = agent({ store: again, instance: 'one' });
    await next.server.push?.ready;
    const got = await hook.waitFor(6, '/later');
    expect(bodyOf(got.at(-1)).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(
      got.every(
        (r) =>
          bodyOf(r).statusUpdate?.taskId === body.task.id ||
          bodyOf(r).artifactUpdate?.taskId === body.task.id,
      ),
    ).toBe(true);
  });

  it('a config made on a task that has ended is stored, owes nothing, and stays until deleted, past a restart', async () => {
    const file = path.join(dir, 'ended.db');
    const hook = await receiver();
    const first = await openSqliteStore(file, { pollMs: 10 });
    const one = agent({ store: first, instance: 'one' });
    const { body } = await one.rest('/message:send', 'POST', message('Plan a trip to Oslo'));
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    // §3.1.7 lists no error for a task that has ended (the official TCK makes its configs on completed tasks).
    const base = `/tasks/${body.task.id}/pushNotificationConfigs`;
    const created = await one.rest(base, 'POST', { id: 'late', url: `${hook.url}/late` });
    expect(created.status).toBe(200);
    expect((await one.rest(`${base}/late`)).body).toEqual(created.body);
    await one.server.push?.close();
    await first.close();
    // Taken up again by the same instance: kept (not removed as a config whose task's end was delivered is).
    const again = await openSqliteStore(file, { pollMs: 10 });
    cleanups.push(() => again.close());
    const two = agent({ store: again, instance: 'one' });
    await two.server.push?.ready;
    expect((await two.rest(base)).body.configs).toEqual([created.body]);
    expect(hook.received).toEqual([]);
    expect((await two.rest(`${base}/late`, 'DELETE')).status).toBe(200);
    expect((await two.rest(`${base}/late`)).status).toBe(404);
  });

  it('a config whose webhook fell behind past maxPending loses the oldest updates, said to onError', async () => {
    const hook = await receiver();
    hook.answer = () => 500;
    const store = new MemoryStore();
    const a = agent({ store, push: { limits: { maxAttempts: 1, maxPending: 1 } } });
    const taskId = await openTask(a);
    await a.rest(`/tasks/${taskId}/pushNotificationConfigs`, 'POST', { url: `${hook.url}/behind` });
    const answer = message('Oslo');
    answer.message = { ...answer.message, ...{ taskId } };
    await a.rest('/message:send', 'POST', answer);
    await expect
      .poll(() => a.errors.some((e) => /fell more than 1 updates behind/.test(String(e))))
      .toBe(true);
  });
});
