// `agentproto proxy`, the checks a record alone cannot say and the command's options: JSON-RPC answers and streams
// (an A2A agent's JSON-RPC endpoint), answers the operation does not declare (a status, a stream), NDJSON streams
// (fixie@1.0), and the usage errors of `proxyCommand`. Hand-written agents on 127.0.0.1 answer the bytes each test
// needs; no test waits on time: the checks of an answer run before its last bytes reach the client.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveBinding } from '@agentproto/registry';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../exit-codes.js';
import { runCli } from '../../index.js';
import type { Output } from '../../output.js';
import { proxyCommand } from './proxy.js';
import { startProxy } from './proxy-server.js';
import type { InvalidMessage, ProxyReport } from './reporters.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** An agent on 127.0.0.1 that reads each request whole, then answers it with `handler`. */
async function agent(handler: Handler): Promise<string> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(Buffer.from(c));
    await handler(req, res, Buffer.concat(chunks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  // sound: a server listening on a TCP port has an AddressInfo
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A proxy for `spec` in front of `target`, collecting what it reports. */
async function proxy(spec: string, target: string) {
  const reports: ProxyReport[] = [];
  const running = await startProxy({
    binding: await resolveBinding(spec),
    target,
    onReport: (r) => reports.push(r),
  });
  open.push(running.close);
  const invalid = () => reports.filter((r): r is InvalidMessage => r.kind === 'invalid');
  return { running, reports, invalid };
}

/** One request, its answer read whole: status and body bytes. */
async function send(url: string, method = 'GET', body?: string): Promise<{ status: number; body: Buffer }> {
  const answer = await fetch(url, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body }),
  });
  return { status: answer.status, body: Buffer.from(await answer.arrayBuffer()) };
}

const json = (value: unknown) => JSON.stringify(value);
const USER = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'Hello' }] };
const REPLY = { messageId: 'm-2', role: 'ROLE_AGENT', parts: [{ text: 'Hi' }] };
const rpcCall = (id: number, method: string, params: unknown) => ({ jsonrpc: '2.0', id, method, params });
/** Where each report points, in order: direction, item, type, and each issue's pointer, rule and value. */
const summary = (reports: readonly InvalidMessage[]) =>
  reports.map((r) => ({
    direction: r.direction,
    ...(r.item === undefined ? {} : { item: r.item }),
    ...(r.type === undefined ? {} : { type: r.type }),
    issues: r.issues.map((i) => [i.pointer, i.rule, i.got]),
  }));

describe('agentproto proxy > JSON-RPC', () => {
  it("an invalid result is reported against its method's result type, matched by id, its pointer into the answer as sent", async () => {
    // A batch answered in the other order: each result is checked against the method of the call with its id.
    const calls = [rpcCall(1, 'SendMessage', { message: USER }), rpcCall(2, 'GetTask', { id: 'task-1' })];
    const answers = [
      { jsonrpc: '2.0', id: 2, result: { id: 'task-1', contextId: 'ctx-1', status: { state: 'RUNNING' } } },
      { jsonrpc: '2.0', id: 1, result: { message: REPLY } },
    ];
    const single = { jsonrpc: '2.0', id: 3, result: { message: { ...REPLY, role: 'robot' } } };
    const target = await agent((_, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json(Array.isArray(JSON.parse(body.toString())) ? answers : single));
    });
    const { running, invalid } = await proxy('a2a@1.0', target);
    const batch = await send(`${running.url}/jsonrpc`, 'POST', json(calls));
    expect(JSON.parse(batch.body.toString())).toEqual(answers);
    await send(`${running.url}/jsonrpc`, 'POST', json(rpcCall(3, 'SendMessage', { message: USER })));
    expect(summary(invalid())).toEqual([
      { direction: 'response', type: 'Task', issues: [['/0/result/status/state', 'enum', '"RUNNING"']] },
      {
        direction: 'response',
        type: 'SendMessageResponse',
        issues: [['/result/message/role', 'enum', '"robot"']],
      },
    ]);
  });

  it('an error envelope that breaks JSON-RPC 2.0 is reported (rule json-rpc); a well-formed one is not', async () => {
    const errors: unknown[] = [
      { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } },
      { jsonrpc: '2.0', id: 1, error: { code: 'oops', message: 5 } },
      { jsonrpc: '2.0', id: 1, error: 'boom' },
      { jsonrpc: '2.0', id: 1 },
    ];
    let next = 0;
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json(errors[next++]));
    });
    const { running, invalid } = await proxy('a2a@1.0', target);
    for (const answer of errors) {
      const via = await send(
        `${running.url}/jsonrpc`,
        'POST',
        json(rpcCall(1, 'SendMessage', { message: USER })),
      );
      expect(JSON.parse(via.body.toString())).toEqual(answer);
    }
    expect(summary(invalid())).toEqual([
      {
        direction: 'response',
        issues: [
          ['/error/code', 'json-rpc', '"oops"'],
          ['/error/message', 'json-rpc', '5'],
        ],
      },
      { direction: 'response', issues: [['/error', 'json-rpc', '"boom"']] },
      { direction: 'response', issues: [['', 'json-rpc', json({ jsonrpc: '2.0', id: 1 })]] },
    ]);
  });

  it('an envelope without jsonrpc "2.0", with both result and error, or with an id no call of the request has is reported once, where the fault is', async () => {
    const OK = { message: REPLY };
    const ERROR = { code: -32000, message: 'no' };
    // What the agent answers each request with, in order; the request is the answer's `call` (a batch: a list).
    const cases: Array<{ call: unknown; answer: unknown }> = [
      { call: rpcCall(1, 'SendMessage', { message: USER }), answer: { id: 1, result: OK } },
      { call: rpcCall(1, 'SendMessage', { message: USER }), answer: { jsonrpc: '1.0', id: 1, result: OK } },
      {
        call: rpcCall(1, 'SendMessage', { message: USER }),
        answer: { jsonrpc: '2.0', id: 1, result: OK, error: ERROR },
      },
      { call: rpcCall(1, 'SendMessage', { message: USER }), answer: { jsonrpc: '2.0', id: 7, result: OK } },
      { call: rpcCall(1, 'SendMessage', { message: USER }), answer: { jsonrpc: '2.0', id: 7, error: ERROR } },
      // The error of a call whose id could not be read has a null id: not an issue.
      {
        call: rpcCall(1, 'SendMessage', { message: USER }),
        answer: { jsonrpc: '2.0', id: null, error: ERROR },
      },
      {
        call: [rpcCall(1, 'SendMessage', { message: USER }), rpcCall(2, 'SendMessage', { message: USER })],
        answer: [
          { jsonrpc: '2.0', id: 2, result: OK },
          { jsonrpc: '2.0', id: 3, result: OK },
        ],
      },
      // A request without jsonrpc "2.0" is reported; its answer, well formed, is not.
      {
        call: { id: 1, method: 'SendMessage', params: { message: USER } },
        answer: { jsonrpc: '2.0', id: 1, result: OK },
      },
    ];
    let next = 0;
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json(cases[next++]?.answer));
    });
    const { running, invalid } = await proxy('a2a@1.0', target);
    for (const { call, answer } of cases) {
      const via = await send(`${running.url}/jsonrpc`, 'POST', json(call));
      expect(JSON.parse(via.body.toString())).toEqual(answer);
    }
    expect(summary(invalid())).toEqual([
      { direction: 'response', type: 'SendMessageResponse', issues: [['/jsonrpc', 'json-rpc', undefined]] },
      { direction: 'response', type: 'SendMessageResponse', issues: [['/jsonrpc', 'json-rpc', '"1.0"']] },
      { direction: 'response', issues: [['', 'json-rpc', expect.stringMatching(/^\{"jsonrpc":"2.0"/)]] },
      // An id no call has names no method: the result is checked against none.
      { direction: 'response', issues: [['/id', 'json-rpc-id', '7']] },
      { direction: 'response', issues: [['/id', 'json-rpc-id', '7']] },
      { direction: 'response', issues: [['/1/id', 'json-rpc-id', '3']] },
      { direction: 'request', type: 'rpc_SendMessage_params', issues: [['/jsonrpc', 'json-rpc', undefined]] },
    ]);
    expect(invalid()[2]?.issues[0]?.message).toBe('a JSON-RPC response has a result or an error, not both');
    expect(invalid()[3]?.issues[0]?.message).toBe('answers no call of the request (its ids: 1)');
    expect(invalid()[5]?.issues[0]?.message).toBe('answers no call of the request (its ids: 1, 2)');
  });

  it("a JSON-RPC stream's envelopes are checked too, each fault said once (not again by the stream check)", async () => {
    const status = {
      statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } },
    };
    const events: unknown[] = [
      {
        jsonrpc: '2.0',
        id: 'c-1',
        result: { task: { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } } },
      },
      { id: 'c-1', result: status },
      { jsonrpc: '1.0', id: 'c-1', result: status },
      { jsonrpc: '2.0', id: 'c-9', result: status },
      { jsonrpc: '2.0', id: 'c-1', result: status, error: { code: -32000, message: 'no' } },
    ];
    const stream = events.map((e) => `data: ${json(e)}\n\n`).join('');
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(stream);
    });
    const { running, invalid } = await proxy('a2a@1.0', target);
    const via = await send(
      `${running.url}/jsonrpc`,
      'POST',
      json({ jsonrpc: '2.0', id: 'c-1', method: 'SendStreamingMessage', params: { message: USER } }),
    );
    expect(via.body.toString()).toBe(stream);
    expect(summary(invalid())).toEqual([
      { direction: 'event', item: 2, issues: [['/jsonrpc', 'json-rpc', undefined]] },
      { direction: 'event', item: 3, issues: [['/jsonrpc', 'json-rpc', '"1.0"']] },
      { direction: 'event', item: 4, issues: [['/id', 'json-rpc-id', '"c-9"']] },
      {
        direction: 'event',
        item: 5,
        issues: [['', 'json-rpc', expect.stringMatching(/^\{"jsonrpc":"2.0"/)]],
      },
    ]);
  });

  it('an MCP stream may answer any method (its endpoint declares it); its envelopes are checked, its own requests and notifications included', async () => {
    const events: unknown[] = [
      { method: 'notifications/progress', params: { progressToken: 't', progress: 1 } },
      { jsonrpc: '2.0', id: 2, result: { content: [] } },
      { jsonrpc: '2.0', id: 1, result: { content: [] }, error: { code: -32000, message: 'no' } },
    ];
    const invalid = await mcpCallStreamed(events);
    expect(summary(invalid())).toEqual([
      { direction: 'event', item: 1, issues: [['/jsonrpc', 'json-rpc', undefined]] },
      { direction: 'event', item: 2, issues: [['/id', 'json-rpc-id', '2']] },
      {
        direction: 'event',
        item: 3,
        issues: [['', 'json-rpc', expect.stringMatching(/^\{"jsonrpc":"2.0"/)]],
      },
    ]);
  });

  it('a batch answering one call twice is reported at the second answer (json-rpc-id), naming the first; null ids and ids no call has are not', async () => {
    const OK = { message: REPLY };
    const ERROR = { code: -32600, message: 'Invalid Request' };
    // A notification (no id) gets no answer; two calls whose ids could not be read get an error with a null id each.
    const calls = [
      rpcCall(1, 'SendMessage', { message: USER }),
      rpcCall(2, 'SendMessage', { message: USER }),
      { jsonrpc: '2.0', method: 'SendMessage', params: { message: USER } },
    ];
    const answers = [
      { jsonrpc: '2.0', id: 1, result: OK },
      { jsonrpc: '2.0', id: 2, result: OK },
      { jsonrpc: '2.0', id: 1, error: ERROR },
      { jsonrpc: '2.0', id: null, error: ERROR },
      { jsonrpc: '2.0', id: null, error: ERROR },
      { jsonrpc: '2.0', id: 9, result: OK },
      { jsonrpc: '2.0', id: 9, result: OK },
    ];
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json(answers));
    });
    const { running, invalid } = await proxy('a2a@1.0', target);
    const via = await send(`${running.url}/jsonrpc`, 'POST', json(calls));
    expect(JSON.parse(via.body.toString())).toEqual(answers);
    expect(summary(invalid())).toEqual([
      { direction: 'response', issues: [['/2/id', 'json-rpc-id', '1']] },
      // An id no call has is said so, once each time, not as a second answer.
      { direction: 'response', issues: [['/5/id', 'json-rpc-id', '9']] },
      { direction: 'response', issues: [['/6/id', 'json-rpc-id', '9']] },
    ]);
    expect(invalid()[0]?.issues[0]?.message).toBe(
      'answers the call with id 1 a second time (answer /0 answered it)',
    );
  });

  it("a call answered twice on a POST's stream is reported once (json-rpc-id), naming the item that answered it first; a streaming method's many answers are not", async () => {
    const events: unknown[] = [
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } },
      { jsonrpc: '2.0', id: 1, result: { content: [] } },
      { jsonrpc: '2.0', id: 1, result: { content: [] } },
    ];
    const invalid = await mcpCallStreamed(events);
    // The stream check's own rule for it (one-response) is not said again.
    expect(summary(invalid())).toEqual([
      { direction: 'event', item: 3, issues: [['/id', 'json-rpc-id', '1']] },
    ]);
    expect(invalid()[0]?.issues[0]?.message).toBe(
      'answers the call with id 1 a second time (item 2 answered it)',
    );
  });

  it("MCP's GET stream (the server's own) has its envelopes checked; a response on it is reported unless the GET resumes a stream, where one is answered once", async () => {
    const own: unknown[] = [
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } },
      { jsonrpc: '1.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } },
      { jsonrpc: '2.0', id: 5, method: 'ping' },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {}, error: { code: -32000, message: 'no' } },
    ];
    const resumed: unknown[] = [
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 1, result: {} },
    ];
    const sse = (events: unknown[]) => events.map((e) => `data: ${json(e)}\n\n`).join('');
    const target = await agent((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(req.headers['last-event-id'] === undefined ? own : resumed));
    });
    const { running, invalid } = await proxy('mcp@2025-11-25', target);
    const headers = {
      accept: 'text/event-stream',
      'mcp-session-id': 's-1',
      'mcp-protocol-version': '2025-11-25',
    };
    const first = await fetch(`${running.url}/mcp`, { headers });
    expect(await first.text()).toBe(sse(own));
    const again = await fetch(`${running.url}/mcp`, { headers: { ...headers, 'last-event-id': 'e-7' } });
    expect(await again.text()).toBe(sse(resumed));
    expect(summary(invalid())).toEqual([
      { direction: 'event', item: 2, issues: [['/jsonrpc', 'json-rpc', '"1.0"']] },
      { direction: 'event', item: 4, issues: [['/id', 'json-rpc-id', '1']] },
      {
        direction: 'event',
        item: 5,
        issues: [
          ['', 'json-rpc', expect.stringMatching(/^\{"jsonrpc":"2.0"/)],
          ['/id', 'json-rpc-id', '2'],
        ],
      },
      { direction: 'event', item: 2, issues: [['/id', 'json-rpc-id', '1']] },
    ]);
    expect(invalid()[1]?.issues[0]?.message).toBe(
      "answers no call: the server's own stream (a GET without Last-Event-ID) carries its requests and notifications, never a response",
    );
  });

  it('a JSON-RPC method that declares no stream, answered with one, is reported (declared-stream); one that does is not', async () => {
    const event = `data: ${json({ jsonrpc: '2.0', id: 1, result: { message: REPLY } })}\n\n`;
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(event);
    });
    const { running, invalid } = await proxy('a2a@1.0', target);
    await send(`${running.url}/jsonrpc`, 'POST', json(rpcCall(1, 'SendMessage', { message: USER })));
    await send(`${running.url}/jsonrpc`, 'POST', json(rpcCall(1, 'SendStreamingMessage', { message: USER })));
    expect(summary(invalid())).toEqual([
      { direction: 'response', issues: [['', 'declared-stream', undefined]] },
    ]);
    expect(invalid()[0]?.issues[0]?.message).toBe(
      'SendMessage declares no stream: answered with text/event-stream',
    );
  });

  it('each item of a JSON-RPC SSE stream is checked: an invalid one is reported with its position and pointer, the bytes pass unchanged', async () => {
    const event = (result: unknown) => `data: ${json({ jsonrpc: '2.0', id: 'c-1', result })}\n\n`;
    const status = (state: string) => ({
      statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state } },
    });
    const stream =
      event({ task: { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } } }) +
      event(status('RUNNING')) +
      event(status('TASK_STATE_COMPLETED'));
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(stream);
    });
    const { running, invalid } = await proxy('a2a@1.0', target);
    const via = await send(
      `${running.url}/jsonrpc`,
      'POST',
      json({ jsonrpc: '2.0', id: 'c-1', method: 'SendStreamingMessage', params: { message: USER } }),
    );
    expect(via.body.toString()).toBe(stream);
    expect(summary(invalid())).toEqual([
      {
        direction: 'event',
        item: 2,
        issues: [['/result/statusUpdate/status/state', 'StreamResponse', '"RUNNING"']],
      },
    ]);
    expect(running.stats().items).toBe(3);
  });
});

describe('agentproto proxy > what the operation does not declare', () => {
  it('an answer with a status the operation does not declare is reported (declared-status), with or without a body', async () => {
    // fixie@1.0's GET / declares 200 and 403 only.
    let status = 500;
    const target = await agent((_, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status === 204 ? undefined : json({ message: { text: 'no' } }));
    });
    const { running, invalid } = await proxy('fixie@1.0', target);
    expect((await send(`${running.url}/`)).status).toBe(500);
    status = 204;
    expect((await send(`${running.url}/`)).status).toBe(204);
    expect(summary(invalid())).toEqual([
      { direction: 'response', issues: [['', 'declared-status', '500']] },
      { direction: 'response', issues: [['', 'declared-status', '204']] },
    ]);
    expect(invalid()[0]?.issues[0]?.message).toBe('status 500 is not declared for GET /');
  });

  it('a stream the operation does not declare is reported (declared-stream), and passes unchanged', async () => {
    // GET / answers JSON or YAML; POST / declares its stream for 200 only.
    const sse = `data: ${json({ message: { text: 'hi' } })}\n\n`;
    const ndjson = `${json({ message: { text: 'hi' } })}\n`;
    const target = await agent((req, res) => {
      const get = req.method === 'GET';
      res.writeHead(get ? 200 : 500, { 'content-type': get ? 'text/event-stream' : 'application/x-ndjson' });
      res.end(get ? sse : ndjson);
    });
    const { running, invalid } = await proxy('fixie@1.0', target);
    expect((await send(`${running.url}/`)).body.toString()).toBe(sse);
    const post = await send(`${running.url}/`, 'POST', json({ message: { text: 'q' } }));
    expect(post.body.toString()).toBe(ndjson);
    expect(summary(invalid())).toEqual([
      { direction: 'response', issues: [['', 'declared-stream', undefined]] },
      {
        direction: 'response',
        issues: [
          ['', 'declared-status', '500'],
          ['', 'declared-stream', undefined],
        ],
      },
    ]);
    expect(invalid()[0]?.issues[0]?.message).toBe(
      'GET / declares no stream for status 200 and text/event-stream',
    );
  });
});

describe('agentproto proxy > NDJSON', () => {
  it('each line is an item: a bad one is reported with its index, a line that is not JSON too; the bytes pass unchanged', async () => {
    // The third line is cut between two writes; the second write waits until the client has the first part, so the
    // proxy reads the line in two pieces.
    const first = `${json({ message: { text: 'a', embeds: {} } })}\n${json({ message: { text: 5 } })}\n{"message":`;
    const second = `{"text":"b"}}\nnot json\r\n${json({ message: { text: 'c' } })}`;
    let clientHasFirst: () => void = () => {};
    const firstArrived = new Promise<void>((resolve) => {
      clientHasFirst = resolve;
    });
    const target = await agent(async (_, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(first);
      await firstArrived;
      res.end(second);
    });
    const { running, invalid } = await proxy('fixie@1.0', target);
    const answer = await fetch(`${running.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: json({ message: { text: 'q' } }),
    });
    const reader = answer.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      chunks.push(next.value);
      size += next.value.length;
      if (size >= first.length) clientHasFirst();
    }
    expect(Buffer.concat(chunks).toString()).toBe(first + second);
    expect(summary(invalid())).toEqual([
      { direction: 'event', item: 2, type: 'AgentResponse', issues: [['/message/text', 'type', '5']] },
      { direction: 'event', item: 4, issues: [['', 'json', undefined]] },
    ]);
    expect(invalid()[1]?.issues[0]?.message).toMatch(/^not JSON/);
    expect(running.stats().items).toBe(5);
  });
});

/** The usage error of a --port that is not a decimal port number. */
const portError = (value: string) =>
  `--port must be a decimal port number from 0 to 65535 (0 picks a free one), not ${json(value)}`;

describe('agentproto proxy > usage errors', () => {
  const quiet: Output = { out: () => {}, err: () => {}, stdin: async function* () {} };
  const CASES: Array<[string, Record<string, string>, string]> = [
    ['http://127.0.0.1:9', { reporter: 'xml' }, '--reporter must be text or json, not xml'],
    ['http://127.0.0.1:9', { port: 'abc' }, portError('abc')],
    ['http://127.0.0.1:9', { port: '70000' }, portError('70000')],
    ['http://127.0.0.1:9', { port: '-1' }, portError('-1')],
    ['http://127.0.0.1:9', { port: '80.5' }, portError('80.5')],
    ['http://127.0.0.1:9', { port: '' }, portError('')],
    ['http://127.0.0.1:9', { port: '0x1F90' }, portError('0x1F90')],
    ['http://127.0.0.1:9', { port: '1e3' }, portError('1e3')],
    ['http://127.0.0.1:9', { port: ' 80' }, portError(' 80')],
    ['http://127.0.0.1:9', { port: '+80' }, portError('+80')],
    ['http://127.0.0.1:9', { port: '65536' }, portError('65536')],
    ['http://127.0.0.1:9', { port: '8080 ' }, portError('8080 ')],
    ['http://127.0.0.1:9', { port: '08080' }, portError('08080')],
    ['ftp://127.0.0.1:9', {}, "ftp://127.0.0.1:9: the agent's URL must be http:// or https://"],
    ['127.0.0.1:9', {}, "127.0.0.1:9: the agent's URL must be http:// or https://"],
    // The scheme is read case-insensitively: an HTTPS:// agent is an https one, whose --ca file is then read.
    [
      'HTTPS://127.0.0.1:9',
      { ca: '/nonexistent/ca.pem' },
      "--ca /nonexistent/ca.pem: cannot read it: ENOENT: no such file or directory, open '/nonexistent/ca.pem'",
    ],
    ['http://[::1', {}, "http://[::1: the agent's URL is not a valid URL"],
    ['http://127.0.0.1:99999', {}, "http://127.0.0.1:99999: the agent's URL is not a valid URL"],
  ];

  it('a bad --reporter, a bad --port, a target that is not an http(s) URL: a UsageError saying which, before anything listens', async () => {
    for (const [target, options, message] of CASES) {
      let listened = false;
      const io: Output = {
        ...quiet,
        err: () => {
          listened = true;
        },
      };
      // Were the option let through, the proxy would start, and stop at once: nothing is left listening.
      const outcome = await proxyCommand(
        target,
        { protocol: 'a2a@1.0', ...options },
        io,
        Promise.resolve(),
      ).then(
        (code) => `exit ${code}`,
        (error: unknown) => error,
      );
      expect(outcome, `${target} ${json(options)}`).toBeInstanceOf(UsageError);
      expect(outcome).toHaveProperty('message', message);
      expect(listened).toBe(false);
    }
  });

  it('an upper-case HTTP:// target and a decimal --port are accepted: the proxy forwards to the agent', async () => {
    const target = await agent((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    const banners: string[] = [];
    let answered: (body: string) => void = () => {};
    const through = new Promise<string>((resolve) => {
      answered = resolve;
    });
    const io: Output = {
      ...quiet,
      err: (line) => {
        banners.push(line);
        const url = /at (http:\/\/127\.0\.0\.1:[0-9]+) /.exec(line)?.[1];
        if (url) void send(`${url}/not-a-path`).then((a) => answered(a.body.toString()));
      },
    };
    const code = await proxyCommand(
      target.replace('http://', 'HTTP://'),
      { protocol: 'a2a@1.0', port: '0' },
      io,
      through,
    );
    expect(await through).toBe('ok');
    expect(code).toBe(0);
    expect(banners[0]).toContain(`→ ${target.replace('http://', 'HTTP://')}`);
  });

  it('the required arguments missing are all named in one usage error (exit 2), the one missing alone when one is', async () => {
    const usage = '(usage: agentproto proxy <target-url> --protocol <id[@version]> [options])';
    const cases: Array<[string[], string]> = [
      [[], `missing the agent's URL <target-url> and --protocol <id[@version]> ${usage}`],
      [['--port', '0'], `missing the agent's URL <target-url> and --protocol <id[@version]> ${usage}`],
      [['http://127.0.0.1:9'], `missing --protocol <id[@version]> ${usage}`],
      [['--protocol', 'a2a@1.0'], `missing the agent's URL <target-url> ${usage}`],
    ];
    for (const [args, message] of cases) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(['proxy', ...args], {
        out: (l) => out.push(l),
        err: (l) => err.push(l),
        stdin: async function* () {},
      });
      expect(code, json(args)).toBe(2);
      expect(err).toEqual([`agentproto: ${message}`]);
      expect(out).toEqual([]);
    }
    await expect(proxyCommand(undefined, {}, quiet, Promise.resolve())).rejects.toThrow(
      new UsageError(`missing the agent's URL <target-url> and --protocol <id[@version]> ${usage}`),
    );
  });

  it('the command exits 2 with one line on standard error, and nothing on standard output', async () => {
    for (const [target, options, message] of CASES) {
      const out: string[] = [];
      const err: string[] = [];
      const flags = Object.entries(options).flatMap(([name, value]) => [`--${name}`, value]);
      // The protocol named does not exist: were the option let through, the command would stop there, not listen.
      const code = await runCli(['proxy', target, '--protocol', 'no-such-protocol', ...flags], {
        out: (l) => out.push(l),
        err: (l) => err.push(l),
        stdin: async function* () {},
      });
      expect(code, `${target} ${json(options)}`).toBe(2);
      expect(err).toEqual([`agentproto: ${message}`]);
      expect(out).toEqual([]);
    }
  });
});

/**
 * An MCP 2025-11-25 agent answering a `tools/call` (id 1) with `events` as its SSE stream, called through the proxy:
 * the stream passes unchanged (checked here), and the proxy's findings are answered.
 */
async function mcpCallStreamed(events: unknown[]) {
  const stream = events.map((e) => `data: ${json(e)}\n\n`).join('');
  const target = await agent((_, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(stream);
  });
  const { running, invalid } = await proxy('mcp@2025-11-25', target);
  const via = await send(
    `${running.url}/mcp`,
    'POST',
    json(rpcCall(1, 'tools/call', { name: 'echo', arguments: {}, _meta: { progressToken: 't' } })),
  );
  expect(via.body.toString()).toBe(stream);
  return invalid;
}
