import { describe, expect, it } from 'vitest';
import { A2aError } from '../errors/a2a-error.js';
import type { Task } from '../generated/1.0/index.js';
import { type A2aOperations, serveA2a } from './serve-a2a.js';

// One typed operation set, no task manager: what each binding hands it must be the same request message.
const seen: Array<[string, unknown]> = [];
const task: Task = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } };
const unsupported = () => {
  throw new A2aError('UNSUPPORTED_OPERATION');
};
const operations: A2aOperations = {
  agentCard: () => ({
    name: 'n',
    description: 'd',
    version: '1',
    supportedInterfaces: [{ url: 'http://x/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
  }),
  getTask: (params) => {
    seen.push(['getTask', params]);
    if (params.id !== 't1') throw new A2aError('TASK_NOT_FOUND');
    return task;
  },
  cancelTask: (params) => {
    seen.push(['cancelTask', params]);
    return { ...task, status: { state: 'TASK_STATE_CANCELED' } };
  },
  listTasks: (params) => {
    seen.push(['listTasks', params]);
    return { tasks: [task], nextPageToken: '', pageSize: params.pageSize ?? 50, totalSize: 1 };
  },
  sendMessage: unsupported,
  sendStreamingMessage: unsupported,
  subscribeToTask: unsupported,
  createTaskPushNotificationConfig: unsupported,
  getTaskPushNotificationConfig: unsupported,
  listTaskPushNotificationConfigs: unsupported,
  deleteTaskPushNotificationConfig: unsupported,
  getExtendedAgentCard: unsupported,
};
const app = serveA2a(operations);
const V = { 'A2A-Version': '1.0', 'content-type': 'application/json' };
const rpc = async (method: string, params: unknown) => {
  const res = await app.request('/jsonrpc', {
    method: 'POST',
    headers: V,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer: { result?: unknown; error?: { code: number } } = await res.json();
  return answer;
};

describe('serveA2a', () => {
  it.each([
    [
      'getTask',
      { rest: ['GET', '/tasks/t1?historyLength=2'], rpc: ['GetTask', { id: 't1', historyLength: 2 }] },
    ],
    [
      'cancelTask',
      {
        rest: ['POST', '/tasks/t1:cancel', { metadata: { why: 'x' } }],
        rpc: ['CancelTask', { id: 't1', metadata: { why: 'x' } }],
      },
    ],
    [
      'listTasks',
      {
        rest: ['GET', '/tasks?contextId=c1&pageSize=3&includeArtifacts=true'],
        rpc: ['ListTasks', { contextId: 'c1', pageSize: 3, includeArtifacts: true }],
      },
    ],
  ] as const)(
    'bindings > %s gets the same request message and gives the same answer over both',
    async (name, { rest, rpc: [method, params] }) => {
      seen.length = 0;
      const [verb, path] = rest;
      const body = rest.length === 3 ? rest[2] : undefined;
      const res = await app.request(path, {
        method: verb,
        headers: V,
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const viaRest = await res.json();
      const viaRpc = (await rpc(method, params)).result;
      expect(viaRest).toEqual(viaRpc);
      expect(seen.map(([n]) => n)).toEqual([name, name]);
      expect(seen[0]?.[1]).toEqual(seen[1]?.[1]);
    },
  );
  it('errors > an A2aError thrown by an operation is 404 over HTTP+JSON and -32001 over JSON-RPC', async () => {
    expect((await app.request('/tasks/nope', { headers: V })).status).toBe(404);
    expect((await rpc('GetTask', { id: 'nope' })).error?.code).toBe(-32001);
  });
});
