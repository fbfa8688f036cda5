// Faults the official A2A TCK (1.0 line) found in this server, each pinned here (DECISIONS 95 to 98).
import { describe, expect, it } from 'vitest';
import * as validators from '../generated/1.0/validators.js';
import { createReferenceAgent } from '../reference-agent/index.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the agent answered
type Json = any;

const { app } = createReferenceAgent({ chunkDelayMs: 0 });
const V = { 'A2A-Version': '1.0' };
const json = { ...V, 'content-type': 'application/json' };
let rpcId = 0;
const rpcAt = async (path: string, method: string, params: unknown): Promise<Json> => {
  const res = await app.request(path, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  return { status: res.status, ...(await res.json()) };
};
const post = async (path: string, body: unknown): Promise<Json> =>
  (await app.request(path, { method: 'POST', headers: json, body: JSON.stringify(body) })).json();
const get = async (path: string): Promise<Json> => (await app.request(path, { headers: V })).json();

/** A message with fields no schema declares, at the top, in a part and under free-form members. */
const unknownFields = () => ({
  messageId: `tck-complete-task-${crypto.randomUUID()}`,
  role: 'ROLE_USER',
  parts: [{ text: 'hi', tckPartField: 1, metadata: { kept: true } }],
  metadata: { client_key: 'kept' },
  tckUnknownField: 'dropped',
});

describe('TCK findings > unrecognized Message fields', () => {
  it.each([
    ['HTTP+JSON', async (message: unknown) => (await post('/message:send', { message })).task],
    [
      'JSON-RPC',
      async (message: unknown) => (await rpcAt('/jsonrpc', 'SendMessage', { message })).result.task,
    ],
  ] as const)('%s > ignored: not stored, not echoed in history; free-form members kept', async (_, send) => {
    const task = await send(unknownFields());
    for (const seen of [task, await get(`/tasks/${task.id}`)]) {
      const [first] = seen.history;
      expect(first).not.toHaveProperty('tckUnknownField');
      expect(first.parts[0]).toEqual({ text: 'hi', metadata: { kept: true } });
      expect(first.metadata).toEqual({ client_key: 'kept' });
      expect(validators.Task(seen)).toBe(true);
    }
  });
});

describe('TCK findings > ListTasks page token', () => {
  it.each(['not a token', 'bm9wZQ', ''.padEnd(8, '!')])(
    'invalid "%s" > -32602 over JSON-RPC, 400 INVALID_ARGUMENT over HTTP+JSON, both naming pageToken',
    async (token) => {
      const rpc = await rpcAt('/jsonrpc', 'ListTasks', { pageToken: token });
      expect(rpc.error.code).toBe(-32602);
      expect(rpc.error.data[0].fieldViolations[0].field).toBe('pageToken');
      const res = await app.request(`/tasks?pageToken=${encodeURIComponent(token)}`, { headers: V });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(validators.ErrorResponse(body)).toBe(true);
      expect(body.error.status).toBe('INVALID_ARGUMENT');
      expect(body.error.details[0].fieldViolations[0].field).toBe('pageToken');
    },
  );
});

describe('TCK findings > JSON-RPC endpoint URL', () => {
  it.each([
    ['/jsonrpc', 200],
    ['/jsonrpc/', 200],
    ['/jsonrpc//', 404],
  ] as const)('%s > answers %i', async (path, status) => {
    const res = await app.request(path, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'nope' } }),
    });
    expect(res.status).toBe(status);
    if (status === 200) expect((await res.json()).error.code).toBe(-32001);
  });
  it('trailing slash > a 0.3 request (no A2A-Version) reaches the 0.3 app there too', async () => {
    const res = await app.request('/jsonrpc/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'nope' } }),
    });
    expect((await res.json()).error.code).toBe(-32001);
  });
});
