// The official A2A SDK's client (@a2a-js/sdk, pinned) drives our reference agent over a real socket, through both
// bindings: send, stream, get, list, cancel, subscribe and input-required. Every answer it receives is captured on the
// wire and validated with our schemas and stream rules.
import {
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  SendMessageRequest,
  SubscribeToTaskRequest,
} from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { A2aStreamCheck, validators } from '@agentproto/a2a';
import { startReferenceAgent } from '@agentproto/a2a/reference-agent/serve';
import { describeErrors, type Validator } from '@agentproto/runtime';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberAt, prop, stringAt } from '../support/typed.js';

let server: ServerType;
let url: string;
beforeAll(async () => {
  ({ server, url } = await startReferenceAgent(0, { chunkDelayMs: 2, onError: () => {} }));
});
afterAll(() => server.close());

/** What each JSON-RPC method and each HTTP+JSON route answers with. */
const RPC_RESULTS: Record<string, string> = {
  SendMessage: 'SendMessageResponse',
  GetTask: 'Task',
  ListTasks: 'ListTasksResponse',
  CancelTask: 'Task',
};
function restResult(method: string, path: string): string | undefined {
  if (path === '/.well-known/agent-card.json') return 'AgentCard';
  if (path === '/message:send') return 'SendMessageResponse';
  if (path === '/tasks') return 'ListTasksResponse';
  if (/^\/tasks\/[^/]+(:cancel)?$/.test(path)) return 'Task';
  return method ? undefined : undefined;
}

/** Problems in one captured answer: its body against the type the request asked for, a stream against the rules. */
function problemsOf(
  request: { method: string; path: string; rpc?: string },
  status: number,
  type: string,
  text: string,
): string[] {
  const out: string[] = [];
  const check = (typeName: string, value: unknown, where: string) => {
    const byName: Readonly<Record<string, Validator>> = validators;
    const validate = byName[typeName];
    if (!validate) return out.push(`${where}: no validator ${typeName}`);
    if (!validate(value))
      for (const i of describeErrors(validate.errors))
        out.push(`${where} ${typeName}${i.pointer}: ${i.message}`);
  };
  const where = `${request.method} ${request.path}${request.rpc ? ` ${request.rpc}` : ''}`;
  if (type.startsWith('text/event-stream')) {
    const rules = new A2aStreamCheck();
    const items = text
      .split('\n\n')
      .filter((b) => b.startsWith('data: '))
      .map((b) => JSON.parse(b.slice(6)));
    const issues = [...items.flatMap((item, i) => rules.push(item, { index: i + 1 })), ...rules.end()];
    for (const i of issues) out.push(`${where} event ${i.index}${i.pointer}: ${i.message} (${i.rule})`);
    if (items.length === 0) out.push(`${where}: an empty stream`);
    return out;
  }
  const body = JSON.parse(text);
  if (request.rpc) {
    check('JsonRpcResponse', body, where);
    const result = RPC_RESULTS[request.rpc];
    if ('result' in body && result) check(result, body.result, where);
  } else if (status >= 400) check('ErrorResponse', body, where);
  else {
    const result = restResult(request.method, request.path);
    if (result) check(result, body, where);
    else out.push(`${where}: no expected type`);
  }
  return out;
}

const captured: Array<{ where: string; problems: string[] }> = [];
const reading: Promise<void>[] = [];
const recordingFetch: typeof fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  const rpc =
    request.method === 'POST' && new URL(request.url).pathname === '/jsonrpc'
      ? stringAt(await request.clone().json(), 'method')
      : undefined;
  const response = await fetch(request);
  const meta = { method: request.method, path: new URL(request.url).pathname, ...(rpc ? { rpc } : {}) };
  // A stream is read from a copy as it arrives, while the SDK reads the original.
  reading.push(
    response
      .clone()
      .text()
      .then((text) => {
        const type = response.headers.get('content-type') ?? '';
        captured.push({
          where: `${meta.method} ${meta.path} ${rpc ?? ''}`,
          problems: problemsOf(meta, response.status, type, text),
        });
      }),
  );
  return response;
};

const send = (text: string, extra: Record<string, unknown> = {}, configuration?: Record<string, unknown>) =>
  SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra },
    ...(configuration ? { configuration } : {}),
  });
/** The SDK's answer read as a task; throws (failing the test) when it is none. */
const taskOf = (result: unknown) => ({
  id: stringAt(result, 'id'),
  contextId: stringAt(result, 'contextId'),
  status: { state: numberAt(prop(result, 'status'), 'state') },
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('e2e > the A2A SDK client over %s', (binding) => {
  const client = async () =>
    new ClientFactory({
      transports: [
        new JsonRpcTransportFactory({ fetchImpl: recordingFetch }),
        new RestTransportFactory({ fetchImpl: recordingFetch }),
      ],
      preferredTransports: [binding],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: recordingFetch }),
    }).createFromUrl(url);

  it('send, get and list > a completed task, read back', async () => {
    const sdk = await client();
    const task = taskOf(await sdk.sendMessage(send('Plan a trip to Lisbon')));
    expect(task.status.state).toBe(3); // TASK_STATE_COMPLETED in the SDK's proto enum
    const got = taskOf(await sdk.getTask(GetTaskRequest.fromJSON({ id: task.id, historyLength: 1 })));
    expect(got.id).toBe(task.id);
    const page = await sdk.listTasks(ListTasksRequest.fromJSON({ contextId: task.contextId }));
    expect(page.tasks.map((t) => t.id)).toEqual([task.id]);
  });

  it('stream > the task first, updates after, the last one completed', async () => {
    const sdk = await client();
    const kinds: string[] = [];
    for await (const event of sdk.sendMessageStream(send('Plan a trip to Rome')))
      kinds.push(event.payload?.$case ?? '?');
    expect(kinds[0]).toBe('task');
    expect(kinds.filter((k) => k === 'artifactUpdate')).toHaveLength(3);
    expect(kinds.at(-1)).toBe('statusUpdate');
  });

  it('input-required > the question, then the answer on the same task completes it', async () => {
    const sdk = await client();
    const asked = taskOf(await sdk.sendMessage(send('Plan a trip')));
    expect(asked.status.state).toBe(6); // TASK_STATE_INPUT_REQUIRED
    const done = taskOf(
      await sdk.sendMessage(send('Porto', { taskId: asked.id, contextId: asked.contextId })),
    );
    expect([done.id, done.status.state]).toEqual([asked.id, 3]);
  });

  it('subscribe and cancel > a follower sees the task end canceled', async () => {
    const sdk = await client();
    const started = taskOf(await sdk.sendMessage(send('slow', {}, { returnImmediately: true })));
    const seen: string[] = [];
    const following = (async () => {
      for await (const event of sdk.resubscribeTask(SubscribeToTaskRequest.fromJSON({ id: started.id }))) {
        seen.push(event.payload?.$case ?? '?');
        if (seen.length === 2) await sdk.cancelTask(CancelTaskRequest.fromJSON({ id: started.id }));
      }
    })();
    await following;
    expect(seen[0]).toBe('task');
    const final = taskOf(await sdk.getTask(GetTaskRequest.fromJSON({ id: started.id })));
    expect(final.status.state).toBe(5); // TASK_STATE_CANCELED
    await expect(sdk.cancelTask(CancelTaskRequest.fromJSON({ id: started.id }))).rejects.toThrow();
  });

  it('errors > an unknown task reaches the SDK as its TaskNotFound error', async () => {
    const sdk = await client();
    await expect(sdk.getTask(GetTaskRequest.fromJSON({ id: 'no-such-task' }))).rejects.toMatchObject({
      name: expect.stringMatching(/TaskNotFound/),
    });
  });
});

describe('e2e > what the SDK client received', () => {
  it('wire > every answer validates against our schemas and stream rules', async () => {
    await Promise.all(reading);
    expect(captured.length).toBeGreaterThan(20);
    expect(captured.filter((c) => c.problems.length > 0)).toEqual([]);
  });
});
