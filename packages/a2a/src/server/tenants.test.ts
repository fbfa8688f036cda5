// Tenants (DECISIONS 115): the `/{tenant}/…` routes of HTTP+JSON and `tenant` in JSON-RPC's params each select a
// tenant's own tasks; the paths without a tenant, and 0.3's under /v1/, still answer as before.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AgentStore, MemoryStore, openStore } from '@agentproto/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { TaskManager } from '../agent/task-manager.js';
import type { SendMessageRequest } from '../generated/1.0/index.js';
import * as validators from '../generated/1.0/validators.js';
import { createReferenceAgent } from '../reference-agent/index.js';
import { referenceAgent } from '../reference-agent/reference-agent.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the agent answered
type Json = any;

const errors: unknown[] = [];
const { app } = createReferenceAgent({ chunkDelayMs: 0, onError: (e) => errors.push(e) });
const V = { 'A2A-Version': '1.0' };
const json = { ...V, 'content-type': 'application/json' };
const message = (text: string): SendMessageRequest => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
});
const rest = (path: string, body?: unknown, method?: string) =>
  app.request(path, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: body === undefined ? V : json,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
let rpcId = 0;
const rpc = async (method: string, params: unknown): Promise<Json> => {
  const res = await app.request('/jsonrpc', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  return res.json();
};
/** A task waiting for input (the reference agent asks for a city), made under `prefix` (`/acme`, or '' for none). */
const taskUnder = async (prefix: string): Promise<Json> => {
  const res = await rest(`${prefix}/message:send`, message('Plan a trip'));
  expect(res.status).toBe(200);
  const { task } = await res.json();
  expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  return task;
};
const reason = async (res: Response) => (await res.json()).error.details[0].reason;

describe('tenants over HTTP+JSON', () => {
  it('tenant > a task sent under one tenant is found under it, and under no other', async () => {
    const task = await taskUnder('/acme');
    const got = await rest(`/acme/tasks/${task.id}`);
    expect(got.status).toBe(200);
    const body = await got.json();
    expect(body.id).toBe(task.id);
    expect(validators.Task(body)).toBe(true);
    // Task has no tenant field in 1.0: none is added.
    expect(body).not.toHaveProperty('tenant');
    for (const path of [`/globex/tasks/${task.id}`, `/tasks/${task.id}`]) {
      const other = await rest(path);
      expect(other.status).toBe(404);
      expect(await reason(other)).toBe('TASK_NOT_FOUND');
    }
  });
  it('tenant > cancel, subscribe and push configs of a task under another tenant: TaskNotFound', async () => {
    const task = await taskUnder('/acme');
    const refused = [
      await rest(`/globex/tasks/${task.id}:cancel`, {}),
      await rest(`/globex/tasks/${task.id}:subscribe`),
      await rest(`/globex/tasks/${task.id}/pushNotificationConfigs`),
      await rest(`/globex/tasks/${task.id}/pushNotificationConfigs/x`),
      await rest(`/globex/tasks/${task.id}/pushNotificationConfigs/x`, undefined, 'DELETE'),
      await rest(`/globex/message:send`, {
        message: { ...message('Porto').message, taskId: task.id, contextId: task.contextId },
      }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(404);
      expect(await reason(res)).toBe('TASK_NOT_FOUND');
    }
    const configs = await rest(`/acme/tasks/${task.id}/pushNotificationConfigs`);
    expect(configs.status).toBe(200);
    const canceled = await rest(`/acme/tasks/${task.id}:cancel`, {});
    expect(canceled.status).toBe(200);
    expect((await canceled.json()).status.state).toBe('TASK_STATE_CANCELED');
  });
  it("tenant > ListTasks under a tenant lists that tenant's tasks only; without one, the default tenant's", async () => {
    const [a1, a2, b, plain] = await Promise.all([
      taskUnder('/list-a'),
      taskUnder('/list-a'),
      taskUnder('/list-b'),
      taskUnder(''),
    ]);
    const ids = async (path: string) =>
      // sound: a ListTasks answer of the reference agent, whose `tasks` is a list of Task objects
      ((await (await rest(path)).json()).tasks as Json[]).map((t) => t.id).sort();
    expect(await ids('/list-a/tasks')).toEqual([a1.id, a2.id].sort());
    expect(await ids('/list-b/tasks')).toEqual([b.id]);
    const untenanted = await ids('/tasks?pageSize=100');
    expect(untenanted).toContain(plain.id);
    expect(untenanted).not.toContain(a1.id);
    expect(untenanted).not.toContain(b.id);
    const filtered = await ids(`/list-a/tasks?contextId=${a1.contextId}&status=TASK_STATE_INPUT_REQUIRED`);
    expect(filtered).toEqual([a1.id]);
  });
  it('tenant > a body naming another tenant than the path is refused; the same one is fine', async () => {
    const other = await rest('/acme/message:send', { ...message('hello'), tenant: 'globex' });
    expect(other.status).toBe(400);
    const body = await other.json();
    expect(validators.ErrorResponse(body)).toBe(true);
    expect(body.error.details[0].fieldViolations[0].field).toBe('tenant');
    expect(body.error.message).toContain('globex');
    const same = await rest('/acme/message:send', { ...message('Plan a trip'), tenant: 'acme' });
    expect(same.status).toBe(200);
    const { task } = await same.json();
    expect((await rest(`/acme/tasks/${task.id}`)).status).toBe(200);
  });
  it.each([
    ['too long', `/${'a'.repeat(129)}/tasks`],
    ['not an unreserved character', '/a%20b/tasks'],
    ['an encoded slash', '/a%2Fb/tasks'],
    ['not percent-encoded text', '/a%ZZ/tasks'],
  ])('tenant > a path tenant %s is 400 naming tenant', async (_, path) => {
    const res = await rest(path);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(validators.ErrorResponse(body)).toBe(true);
    expect(body.error.details[0].fieldViolations[0].field).toBe('tenant');
  });
  it('tenant > 128 characters is a tenant', async () => {
    expect((await rest(`/${'a'.repeat(128)}/tasks`)).status).toBe(200);
  });
  it('routes > the paths without a tenant and reserved first segments keep their meaning', async () => {
    // GET /tasks/tasks is GetTask of the task "tasks", not ListTasks of a tenant "tasks".
    const getTask = await rest('/tasks/tasks');
    expect(getTask.status).toBe(404);
    expect(await reason(getTask)).toBe('TASK_NOT_FOUND');
    // 0.3's paths are 0.3's: `v1` is never a tenant (a 1.0 path under it is refused, naming tenant).
    const v1 = await rest('/v1/tasks');
    expect(v1.status).toBe(400);
    expect((await v1.json()).error.details[0].fieldViolations[0].field).toBe('tenant');
    const task = await taskUnder('');
    expect((await app.request(`/v1/tasks/${task.id}`)).status).toBe(200);
    expect((await rest(`/tasks/${task.id}`)).status).toBe(200);
    expect((await app.request('/.well-known/agent-card.json')).status).toBe(200);
  });
});

describe('tenants over JSON-RPC', () => {
  it('tenant > params.tenant selects the tenant as the path does', async () => {
    const sent = await rpc('SendMessage', { ...message('Plan a trip'), tenant: 'acme' });
    const id = sent.result.task.id;
    expect((await rpc('GetTask', { id, tenant: 'acme' })).result.id).toBe(id);
    // The same tenant over HTTP+JSON.
    expect((await rest(`/acme/tasks/${id}`)).status).toBe(200);
    for (const params of [{ id, tenant: 'globex' }, { id }]) {
      const other = await rpc('GetTask', params);
      expect(other.error.code).toBe(-32001);
    }
    expect((await rpc('CancelTask', { id, tenant: 'globex' })).error.code).toBe(-32001);
    expect((await rpc('ListTaskPushNotificationConfigs', { taskId: id, tenant: 'globex' })).error.code).toBe(
      -32001,
    );
    const listed = await rpc('ListTasks', { tenant: 'acme' });
    expect(listed.result.tasks.map((t: Json) => t.id)).toContain(id);
    const elsewhere = await rpc('ListTasks', { tenant: 'rpc-empty' });
    expect(elsewhere.result.tasks).toEqual([]);
  });
  it.each([
    ['too long', 'a'.repeat(129)],
    ['a slash', 'a/b'],
    ['a reserved name', 'tasks'],
    ['a dot segment', '..'],
  ])('tenant > %s is InvalidParams naming tenant', async (_, tenant) => {
    const answer = await rpc('ListTasks', { tenant });
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toContain('tenant');
  });
});

const dir = mkdtempSync(path.join(tmpdir(), 'a2a-tenants-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['memory', async (): Promise<AgentStore> => new MemoryStore()],
  ['SQLite', () => openStore(`sqlite:${path.join(dir, 'tenants.db')}`)],
])('tenants in the task manager, %s store', (_, open) => {
  it('tenant > the tenant outlives snapshots, and the task index keeps tenants apart', async () => {
    const store = await open();
    const manager = new TaskManager(referenceAgent(0), { store });
    const sent = await manager.send({ ...message('Plan a trip'), tenant: 't1' });
    const task: Json = 'task' in sent ? sent.task : undefined;
    const { id, contextId } = task;
    // A second turn writes events and a snapshot of the finished task.
    await manager.send({
      message: { ...message('Porto').message, taskId: id, contextId },
      tenant: 't1',
    });
    expect((await manager.get(id, undefined, 't1')).status.state).toBe('TASK_STATE_COMPLETED');
    await expect(manager.get(id)).rejects.toThrow(/not found/);
    expect((await manager.list({ tenant: 't1' })).tasks.map((t) => t.id)).toEqual([id]);
    expect((await manager.list({})).tasks).toEqual([]);
    // A manager reading the store cold (no task kept in memory) sees the same.
    const cold = new TaskManager(referenceAgent(0), { store });
    await expect(cold.get(id, undefined, 't2')).rejects.toThrow(/not found/);
    expect((await cold.get(id, undefined, 't1')).id).toBe(id);
    await store.close();
  });
});
