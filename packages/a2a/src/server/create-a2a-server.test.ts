import { describe, expect, it } from 'vitest';
import * as validators from '../generated/1.0/validators.js';
import { createReferenceAgent } from '../reference-agent/index.js';
import { A2aStreamCheck } from '../stream/stream-rules.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the agent answered
type Json = any;

const errors: unknown[] = [];
const { app } = createReferenceAgent({ chunkDelayMs: 0, onError: (e) => errors.push(e) });
const V = { 'A2A-Version': '1.0' };
const json = { ...V, 'content-type': 'application/json' };
const message = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra },
});
const rest = (
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) =>
  app.request(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: init.headers ?? (init.body === undefined ? V : json),
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
let rpcId = 0;
const rpc = async (method: string, params: unknown, headers: Record<string, string> = json) => {
  const res = await app.request('/jsonrpc', {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const answer: Json = await res.json();
  return answer;
};
/** The events of an SSE answer, each also run through the stream rules. */
async function events(res: Response): Promise<Json[]> {
  const text = await res.text();
  const items = text
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => JSON.parse(b.slice(6)));
  const check = new A2aStreamCheck();
  const issues = [...items.flatMap((item, i) => check.push(item, { index: i + 1 })), ...check.end()];
  expect(issues).toEqual([]);
  return items;
}

describe('A2A server, HTTP+JSON', () => {
  it('card > served without a version header, with both interfaces, valid', async () => {
    const res = await app.request('/.well-known/agent-card.json');
    const card = await res.json();
    expect(validators.AgentCard(card)).toBe(true);
    expect(
      card.supportedInterfaces.map(
        (i: { protocolBinding: string; protocolVersion: string }) =>
          `${i.protocolBinding} ${i.protocolVersion}`,
      ),
    ).toEqual(['JSONRPC 1.0', 'HTTP+JSON 1.0', 'JSONRPC 0.3', 'HTTP+JSON 0.3']);
  });
  it.each([
    ['version > none means 0.3, which is refused', {}, 400],
    ['version > 2.0 is refused', { 'A2A-Version': '2.0' }, 400],
    ['version > a patch number is ignored', { 'A2A-Version': '1.0.1' }, 404],
    ['version > 1.0 is served', V, 404],
  ] as const)('%s', async (_, headers, status) => {
    const res = await app.request('/tasks/nope', { headers });
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(validators.ErrorResponse(body)).toBe(true);
    expect(body.error.details[0].reason).toBe(status === 400 ? 'VERSION_NOT_SUPPORTED' : 'TASK_NOT_FOUND');
  });
  it('version > the query parameter works as the header does', async () => {
    expect((await app.request('/tasks/nope?A2A-Version=1.0')).status).toBe(404);
  });
  it('send > blocks until the task completes, with the artifact chunks joined', async () => {
    const res = await rest('/message:send', { body: message('Plan a trip to Lisbon') });
    const body = await res.json();
    expect(validators.SendMessageResponse(body)).toBe(true);
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.task.artifacts[0].parts).toHaveLength(3);
  });
  it('send > a direct reply is a message, and no task is kept', async () => {
    const body = await (await rest('/message:send', { body: message('hello') })).json();
    expect(body.message.role).toBe('ROLE_AGENT');
    expect(body.task).toBeUndefined();
  });
  it('send > returnImmediately answers before the task is done', async () => {
    const res = await rest('/message:send', {
      body: { ...message('slow'), configuration: { returnImmediately: true } },
    });
    const { task } = await res.json();
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
    expect((await (await rest(`/tasks/${task.id}:cancel`, { body: {} })).json()).status.state).toBe(
      'TASK_STATE_CANCELED',
    );
  });
  it('input-required > the task asks, the next message on it finishes it', async () => {
    const first = (await (await rest('/message:send', { body: message('Plan a trip') })).json()).task;
    expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(first.status.message.parts[0].text).toContain('Which city');
    const items = await events(
      await rest('/message:stream', {
        body: message('Porto', { taskId: first.id, contextId: first.contextId }),
      }),
    );
    expect(items[0].task.id).toBe(first.id);
    expect(items.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    const done = await (await rest(`/tasks/${first.id}`)).json();
    expect(done.history.map((m: { role: string }) => m.role)).toEqual([
      'ROLE_USER',
      'ROLE_AGENT',
      'ROLE_USER',
      'ROLE_AGENT',
      'ROLE_AGENT',
    ]);
    const again = await rest('/message:send', { body: message('Faro', { taskId: first.id }) });
    expect(again.status).toBe(400);
    expect((await again.json()).error.details[0].reason).toBe('UNSUPPORTED_OPERATION');
  });
  it('input-required > of two answers sent at once, one continues the task and the other is refused', async () => {
    const asked = (await (await rest('/message:send', { body: message('Plan a trip') })).json()).task;
    const answers = await Promise.all(
      ['Porto', 'Faro'].map((city) => rest('/message:send', { body: message(city, { taskId: asked.id }) })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    const refused: Json = await answers.find((r) => r.status === 400)?.json();
    expect(refused.error.details[0].reason).toBe('UNSUPPORTED_OPERATION');
  });
  it('stream > a task, then its updates, then it closes', async () => {
    const items = await events(await rest('/message:stream', { body: message('Plan a trip to Rome') }));
    expect(Object.keys(items[0])).toEqual(['task']);
    expect(items.filter((i) => i.artifactUpdate)).toHaveLength(3);
  });
  it('subscribe > GET and POST follow a working task; a finished one is refused', async () => {
    for (const method of ['GET', 'POST']) {
      const { task } = await (
        await rest('/message:send', {
          body: { ...message('slow'), configuration: { returnImmediately: true } },
        })
      ).json();
      const res = await rest(`/tasks/${task.id}:subscribe`, { method, headers: V });
      const reading = events(res);
      await rest(`/tasks/${task.id}:cancel`, { body: {} });
      const items = await reading;
      expect(items[0].task.id).toBe(task.id);
      expect(items.at(-1).statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
      const late = await rest(`/tasks/${task.id}:subscribe`, { method, headers: V });
      expect(late.status).toBe(400);
      expect((await late.json()).error.details[0].reason).toBe('UNSUPPORTED_OPERATION');
    }
  });
  it('subscribe > a reader that leaves a stream waiting on a task that waits for input frees it, over both bindings', async () => {
    const asked = (await (await rest('/message:send', { body: message('Plan a trip') })).json()).task;
    const requests = [
      () => rest(`/tasks/${asked.id}:subscribe`, { method: 'POST', headers: V }),
      () =>
        app.request('/jsonrpc', {
          method: 'POST',
          headers: json,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SubscribeToTask',
            params: { id: asked.id },
          }),
        }),
    ];
    for (const open of requests) {
      const body = (await open()).body;
      if (!body) throw new Error('the answer has no body');
      const reader = body.getReader();
      expect((await reader.read()).done).toBe(false); // the task as it stands; nothing more will come
      // Before the fix the follower never heard the reader leave, and cancel never settled.
      const left = await Promise.race([
        reader.cancel().then(() => 'left'),
        new Promise((r) => setTimeout(() => r('stuck'), 2000)),
      ]);
      expect(left).toBe('left');
    }
  });
  it('cancel > twice is TASK_NOT_CANCELABLE; an unknown task TASK_NOT_FOUND', async () => {
    const { task } = await (await rest('/message:send', { body: message('Plan a trip to Oslo') })).json();
    const res = await rest(`/tasks/${task.id}:cancel`, { body: {} });
    expect(res.status).toBe(400);
    expect((await res.json()).error.details[0].reason).toBe('TASK_NOT_CANCELABLE');
    expect((await rest('/tasks/nope:cancel', { body: {} })).status).toBe(404);
  });
  it('get > historyLength 0 leaves history out; 1 keeps the last message', async () => {
    const { task } = await (await rest('/message:send', { body: message('Plan a trip to Bern') })).json();
    expect((await (await rest(`/tasks/${task.id}?historyLength=0`)).json()).history).toBeUndefined();
    expect((await (await rest(`/tasks/${task.id}?historyLength=1`)).json()).history).toHaveLength(1);
  });
  it('list > newest first, paged by token, artifacts only when asked', async () => {
    const contextId = crypto.randomUUID();
    for (const city of ['Lyon', 'Nice', 'Metz'])
      await rest('/message:send', { body: message(`Plan a trip to ${city}`, { contextId }) });
    const first = await (await rest(`/tasks?contextId=${contextId}&pageSize=2`)).json();
    expect(validators.ListTasksResponse(first)).toBe(true);
    expect(first).toMatchObject({ pageSize: 2, totalSize: 3 });
    expect(first.tasks[0].artifacts).toBeUndefined();
    const second = await (
      await rest(
        `/tasks?contextId=${contextId}&pageSize=2&includeArtifacts=true&pageToken=${first.nextPageToken}`,
      )
    ).json();
    expect(second.tasks).toHaveLength(1);
    expect(second.nextPageToken).toBe('');
    expect(second.tasks[0].artifacts).toHaveLength(1);
    const names = [...first.tasks, ...second.tasks].map(
      (t: { artifacts?: unknown; history: Array<{ parts: Array<{ text: string }> }> }) =>
        t.history[0]?.parts[0]?.text,
    );
    expect(names).toEqual(['Plan a trip to Metz', 'Plan a trip to Nice', 'Plan a trip to Lyon']);
  });
  it.each([
    [
      'card > a card that declares no extended card refuses it (§3.3.4)',
      '/extendedAgentCard',
      'UNSUPPORTED_OPERATION',
    ],
  ])('%s', async (_, path, reason) => {
    const res = await rest(path);
    expect(res.status).toBe(400);
    expect((await res.json()).error.details[0].reason).toBe(reason);
  });
  it('refusals > a body that breaks its schema is a 400 with each field named', async () => {
    const res = await rest('/message:send', { body: { message: { role: 'ROLE_USER', parts: [] } } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(validators.ErrorResponse(body)).toBe(true);
    expect(body.error.details[0].fieldViolations.map((v: { field: string }) => v.field).sort()).toEqual([
      'message.messageId',
      'message.parts',
    ]);
  });
  it('refusals > a part the agent does not take is CONTENT_TYPE_NOT_SUPPORTED', async () => {
    const res = await rest('/message:send', {
      body: {
        message: { messageId: 'm', role: 'ROLE_USER', parts: [{ raw: 'AAAA', mediaType: 'image/png' }] },
      },
    });
    expect((await res.json()).error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
  });
  it('failures > a turn that throws fails the task; the client sees no detail', async () => {
    errors.length = 0;
    const { task } = await (await rest('/message:send', { body: message('fail') })).json();
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(JSON.stringify(task)).not.toContain('asked to fail');
    expect(errors).toHaveLength(1);
  });
});

describe('A2A server, JSON-RPC', () => {
  it('send > the same task flow over the other binding', async () => {
    const { result } = await rpc('SendMessage', message('Plan a trip to Lisbon'));
    expect(validators.SendMessageResponse(result)).toBe(true);
    expect(result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const got = await rpc('GetTask', { id: result.task.id, historyLength: 0 });
    expect(got.result.history).toBeUndefined();
  });
  it.each([
    [
      'errors > an unknown task is -32001 with its ErrorInfo',
      'GetTask',
      { id: 'nope' },
      -32001,
      'TASK_NOT_FOUND',
    ],
    [
      'errors > no extended card declared is -32004 (§3.3.4)',
      'GetExtendedAgentCard',
      {},
      -32004,
      'UNSUPPORTED_OPERATION',
    ],
  ])('%s', async (_, method, params, code, reason) => {
    const { error } = await rpc(method, params);
    expect(error?.code).toBe(code);
    expect(error?.data?.[0]).toMatchObject({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason,
      domain: 'a2a-protocol.org',
    });
  });
  it('errors > invalid params are -32602 with a BadRequest', async () => {
    const { error } = await rpc('SendMessage', { message: { role: 'ROLE_USER' } });
    expect(error?.code).toBe(-32602);
    expect(error?.data?.[0]['@type']).toBe('type.googleapis.com/google.rpc.BadRequest');
  });
  it('version > a request without A2A-Version is 0.3, where 1.0 method names are unknown (-32601)', async () => {
    const { error } = await rpc('GetTask', { id: 'x' }, { 'content-type': 'application/json' });
    expect(error?.code).toBe(-32601);
  });
  it.each(['0.9', '2.0'])('version > %s is -32009', async (version) => {
    const { error } = await rpc(
      'GetTask',
      { id: 'x' },
      { 'A2A-Version': version, 'content-type': 'application/json' },
    );
    expect(error?.code).toBe(-32009);
  });
  it('stream > every event is a JSON-RPC response; subscribe to a finished task is -32004 as JSON', async () => {
    const res = await app.request('/jsonrpc', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'stream',
        method: 'SendStreamingMessage',
        params: message('Plan a trip to Graz'),
      }),
    });
    const items = await events(res);
    expect(items.every((i) => i.jsonrpc === '2.0' && i.id === 'stream')).toBe(true);
    const taskId = items[0].result.task.id;
    const { error } = await rpc('SubscribeToTask', { id: taskId });
    expect(error?.code).toBe(-32004);
  });
});
