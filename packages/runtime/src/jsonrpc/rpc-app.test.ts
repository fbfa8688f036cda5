import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { bodyOf, messageOf, numberAt, record } from '../../../../test/support/typed.js';
import { serveLocal } from '../serve-local.js';
import { readItems } from '../streams/read-frames.js';
import type { Validator } from '../validation.js';
import { createJsonRpcApp, createJsonRpcDispatcher, type RpcHandler, type RpcMethodSpec } from './rpc-app.js';
import { RpcCaller } from './rpc-client.js';
import { JsonRpcError } from './rpc-error.js';

// A validator for `{ a?: number, b?: number }` with `a` required, failing the way ajv reports.
const sumParams: Validator = (value: unknown): value is unknown => {
  const v: Record<string, unknown> = typeof value === 'object' && value !== null ? { ...value } : {};
  const errors = [];
  if (!('a' in v))
    errors.push({
      instancePath: '',
      keyword: 'required',
      params: { missingProperty: 'a' },
      message: "must have required property 'a'",
      schemaPath: '#/required',
    });
  for (const k of ['a', 'b'])
    if (k in v && typeof v[k] !== 'number')
      errors.push({
        instancePath: `/${k}`,
        keyword: 'type',
        params: { type: 'number' },
        message: 'must be number',
        schemaPath: '#/type',
      });
  sumParams.errors = errors.length > 0 ? errors : null;
  return errors.length === 0;
};
const anything: Validator = (_value: unknown): _value is unknown => true;
const numberResult: Validator = (value: unknown): value is number => typeof value === 'number';

const specs: RpcMethodSpec[] = [
  { name: 'sum', paramStructure: 'either', paramNames: ['a', 'b'], params: sumParams, result: numberResult },
  { name: 'named', paramStructure: 'by-name', paramNames: ['a'], params: anything },
  { name: 'fail', paramStructure: 'either', paramNames: [], params: anything },
  { name: 'refuse', paramStructure: 'either', paramNames: [], params: anything },
  { name: 'wrong', paramStructure: 'either', paramNames: [], params: anything, result: numberResult },
  {
    name: 'count',
    paramStructure: 'by-name',
    paramNames: ['to', 'breakAt'],
    params: anything,
    result: numberResult,
    stream: 'sse',
  },
];
const errors: string[] = [];
const handlers: Record<string, RpcHandler> = {
  sum: ({ a, b = 0 }: { a: number; b?: number }) => a + b,
  named: () => 'ok',
  fail: () => {
    throw new Error('secret detail');
  },
  refuse: () => {
    throw new JsonRpcError(-32001, 'Task not found', [{ '@type': 'x' }]);
  },
  wrong: () => 'not a number',
  count: async ({ to, breakAt }: { to: number; breakAt?: number }) => {
    if (to < 0) throw new JsonRpcError(-32004, 'cannot count down');
    return (async function* () {
      for (let i = 1; i <= to; i++) {
        if (i === breakAt) throw new JsonRpcError(-32099, 'broke');
        yield i;
      }
    })();
  },
};
const app = createJsonRpcApp(specs, handlers, {
  path: '/rpc',
  limits: { jsonBytes: 2048 },
  maxBatch: 3,
  onError: (e, m) => errors.push(`${m}: ${messageOf(e)}`),
});

const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  app.request('/rpc', { method: 'POST', body, headers });
/** Stands for "no id": a notification. */
const NONE = Symbol('no id');
const call = (method: string, params?: unknown, id: unknown = 1) =>
  JSON.stringify({
    jsonrpc: '2.0',
    method,
    ...(params === undefined ? {} : { params }),
    ...(id === NONE ? {} : { id }),
  });

describe('createJsonRpcApp', () => {
  it.each([
    [
      'call > params by name',
      { given: call('sum', { a: 2, b: 3 }), want: { jsonrpc: '2.0', id: 1, result: 5 } },
    ],
    [
      'call > params by position map to the declared names',
      { given: call('sum', [2, 3], 'x'), want: { jsonrpc: '2.0', id: 'x', result: 5 } },
    ],
    [
      'call > a null id is answered with null',
      { given: call('sum', { a: 1 }, null), want: { jsonrpc: '2.0', id: null, result: 1 } },
    ],
    [
      'errors > not JSON is a parse error with a null id',
      {
        given: '{"jsonrpc":',
        want: {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: expect.stringMatching(/^Parse error/) },
        },
      },
    ],
    [
      'errors > a wrong version is an invalid request',
      {
        given: JSON.stringify({ jsonrpc: '1.0', id: 4, method: 'sum' }),
        want: { jsonrpc: '2.0', id: 4, error: { code: -32600, message: expect.any(String) } },
      },
    ],
    [
      'errors > an object id is an invalid request answered with null',
      {
        given: JSON.stringify({ jsonrpc: '2.0', id: {}, method: 'sum' }),
        want: { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
      },
    ],
    [
      'errors > a string is not a request object',
      {
        given: '"hello"',
        want: { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
      },
    ],
    [
      'errors > an unknown method',
      {
        given: call('nope'),
        want: { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found: nope' } },
      },
    ],
    [
      'errors > invalid params carry each problem with its pointer',
      {
        given: call('sum', { b: 'x' }),
        want: {
          jsonrpc: '2.0',
          id: 1,
          error: {
            code: -32602,
            message: 'Invalid params',
            data: {
              errors: [
                { pointer: '/a', message: 'is required but missing' },
                { pointer: '/b', message: expect.any(String) },
              ],
            },
          },
        },
      },
    ],
    [
      'errors > params by position for a by-name method',
      {
        given: call('named', [1]),
        want: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.stringContaining('by name') } },
      },
    ],
    [
      'errors > more positional params than declared',
      {
        given: call('sum', [1, 2, 3]),
        want: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.any(String) } },
      },
    ],
    [
      'errors > params that are neither object nor array',
      {
        given: call('sum', 5),
        want: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.any(String) } },
      },
    ],
    [
      'errors > a handler failure is an internal error without its message',
      {
        given: call('fail'),
        want: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } },
      },
    ],
    [
      'errors > a JsonRpcError keeps its code, message and data',
      {
        given: call('refuse'),
        want: {
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32001, message: 'Task not found', data: [{ '@type': 'x' }] },
        },
      },
    ],
    [
      'errors > an invalid result is an internal error in development',
      {
        given: call('wrong'),
        want: {
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32603, message: expect.stringContaining('invalid result') },
        },
      },
    ],
    [
      'batch > answers in order, none for notifications',
      {
        given: `[${call('sum', [1], 1)},${call('sum', [5], NONE)},${call('nope', undefined, 2)}]`,
        want: [
          { jsonrpc: '2.0', id: 1, result: 1 },
          { jsonrpc: '2.0', id: 2, error: { code: -32601, message: expect.any(String) } },
        ],
      },
    ],
    [
      'batch > an invalid element is answered with null',
      {
        given: `[1,${call('sum', [1], 7)}]`,
        want: [
          { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
          { jsonrpc: '2.0', id: 7, result: 1 },
        ],
      },
    ],
    [
      'batch > empty is one invalid request',
      {
        given: '[]',
        want: {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: expect.stringContaining('empty') },
        },
      },
    ],
    [
      'batch > over the limit is refused whole',
      {
        given: `[${[1, 2, 3, 4].map((i) => call('sum', [i], i)).join(',')}]`,
        want: {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: expect.stringContaining('at most 3') },
        },
      },
    ],
    [
      'batch > a streaming method cannot be part of one',
      {
        given: `[${call('count', { to: 2 }, 9)}]`,
        want: [
          { jsonrpc: '2.0', id: 9, error: { code: -32600, message: expect.stringContaining('stream') } },
        ],
      },
    ],
    [
      'stream > an error before the first item is one JSON answer',
      {
        given: call('count', { to: -1 }),
        want: { jsonrpc: '2.0', id: 1, error: { code: -32004, message: 'cannot count down' } },
      },
    ],
  ] as const)('%s', async (_, { given, want }) => {
    const res = await post(given);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual(want);
  });

  it('errors > the handler failure is told to onError; the client sees none of it', async () => {
    errors.length = 0;
    const text = await (await post(call('fail'))).text();
    expect(text).not.toContain('secret');
    expect(errors).toEqual(['fail: secret detail']);
  });

  it.each([
    ['notification > a call without id gets 204 and no body', call('sum', [1], NONE)],
    ['notification > an unknown method without id is not answered either', call('nope', undefined, NONE)],
    ['batch > of notifications only gets 204', `[${call('sum', [1], NONE)}]`],
  ])('%s', async (_, body) => {
    const res = await post(body);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('limits > a body over jsonBytes keeps its 413 and is an invalid request', async () => {
    const res = await post(call('sum', { a: 1, pad: 'x'.repeat(4096) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('transport > another media type keeps its 415', async () => {
    const res = await post(call('sum', [1]), { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('stream > every event is a response carrying one result; an error ends it as the last event', async () => {
    const res = await post(call('count', { to: 5, breakAt: 3 }, 'c'));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = [];
    for await (const e of readItems(bodyOf(res), 'sse')) events.push(e);
    expect(events).toEqual([
      { jsonrpc: '2.0', id: 'c', result: 1 },
      { jsonrpc: '2.0', id: 'c', result: 2 },
      { jsonrpc: '2.0', id: 'c', error: { code: -32099, message: 'broke' } },
    ]);
  });

  it('start > a method without a handler is refused when the app is built', () => {
    expect(() => createJsonRpcApp(specs, {})).toThrow('no handler for method "sum"');
  });
});

describe('createJsonRpcDispatcher', () => {
  // The dispatcher behind a route that reads the body itself: what a transport such as MCP's does.
  const seen: Array<string | undefined> = [];
  const dispatch = createJsonRpcDispatcher(
    specs,
    {
      ...handlers,
      named: (_: unknown, context: { request: Request }) => {
        seen.push(context.request.headers.get('x-caller') ?? undefined);
        return 'ok';
      },
    },
    { maxBatch: 3, onError: () => {} },
  );
  const outer = new Hono().post('/rpc', async (c) => dispatch(c, await c.req.json()));
  const both = async (body: string) => {
    const init = { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-caller': 'me' } };
    const [a, d] = await Promise.all([app.request('/rpc', init), outer.request('/rpc', init)]);
    return {
      app: { status: a.status, body: await a.text() },
      dispatcher: { status: d.status, body: await d.text() },
    };
  };

  it.each([
    ['a call', call('sum', { a: 2, b: 3 })],
    ['params by position', call('sum', [2, 3], 'x')],
    ['invalid params (-32602 with every issue)', call('sum', { b: 'x' })],
    ['an unknown method', call('nope')],
    ['not a request object', '42'],
    ['a handler failure', call('fail')],
    ['a declared error', call('refuse')],
    ['a notification (no answer)', call('sum', { a: 1 }, NONE)],
    ['a batch', `[${call('sum', { a: 1 })},${call('nope', undefined, 2)}]`],
    ['a batch over the bound', `[${[1, 2, 3, 4].map((i) => call('sum', { a: i }, i)).join(',')}]`],
    ['a stream', call('count', { to: 3 })],
    ['a stream that breaks', call('count', { to: 3, breakAt: 2 })],
  ])('answers %s as the app does', async (_, body) => {
    const { app: fromApp, dispatcher } = await both(body);
    expect(dispatcher).toEqual(fromApp);
  });

  it('the check can fail: a dispatcher over other handlers answers otherwise', async () => {
    const other = createJsonRpcDispatcher(specs, { ...handlers, sum: () => 0 });
    const route = new Hono().post('/rpc', async (c) => other(c, await c.req.json()));
    const got = await route.request('/rpc', { method: 'POST', body: call('sum', { a: 2 }) });
    expect(await got.json()).toEqual({ jsonrpc: '2.0', id: 1, result: 0 });
  });

  it("handlers get the outer request as their context's request", async () => {
    await both(call('named', { a: 1 }));
    expect(seen).toEqual(['me']);
  });
});

describe('RpcCaller', () => {
  const caller = new RpcCaller({ url: 'http://agent/rpc', fetch: (r) => app.fetch(r) });
  it('call > resolves with the result', async () => {
    expect(await caller.call('sum', { a: 4, b: 5 })).toBe(9);
  });
  it('call > rejects with a JsonRpcError carrying code and data', async () => {
    await expect(caller.call('refuse', {})).rejects.toMatchObject({
      name: 'JsonRpcError',
      code: -32001,
      data: [{ '@type': 'x' }],
    });
  });
  it('stream > yields each result, then throws the error event', async () => {
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const n of caller.stream('count', { to: 4, breakAt: 3 }, 'sse')) seen.push(n);
      })(),
    ).rejects.toMatchObject({ code: -32099 });
    expect(seen).toEqual([1, 2]);
  });
  it('stream > an error before the stream is thrown as a JsonRpcError', async () => {
    const run = async () => {
      for await (const _ of caller.stream('count', { to: -1 }, 'sse')) break;
    };
    await expect(run()).rejects.toMatchObject({ code: -32004 });
  });
  it('notify > sends no id, reads no answer; a refusal is an error naming its status', async () => {
    const sent: unknown[] = [];
    const notifier = new RpcCaller({
      url: 'http://agent/rpc',
      fetch: async (r) => {
        sent.push(await r.clone().json());
        return app.fetch(r);
      },
    });
    await expect(notifier.notify('sum', { a: 1, b: 2 })).resolves.toBeUndefined();
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'sum', params: { a: 1, b: 2 } }]);
    const refusing = new RpcCaller({
      url: 'http://agent/rpc',
      fetch: async () => new Response('no', { status: 403 }),
    });
    await expect(refusing.notify('sum', {})).rejects.toThrow(/sum was refused with HTTP 403/);
  });
  it('call > an answer sent as an event stream: messages before the response go to onMessage, priming events skipped', async () => {
    const events = (id: number, last: string) =>
      new Response(
        [
          'id: e1\ndata: \n\n',
          'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n',
          last.replace('ID', String(id)),
        ].join(''),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const seen: unknown[] = [];
    const sent: Array<{ accept: string | null; body: unknown; extra: string | null }> = [];
    let reply = 'data: {"jsonrpc":"2.0","id":ID,"result":7}\n\n';
    const caller = new RpcCaller({
      url: 'http://agent/rpc',
      accept: 'application/json, text/event-stream',
      onMessage: (m) => seen.push(m),
      prepare: (method, params) => ({
        params: { ...record(params), added: method },
        headers: { 'x-m': method },
      }),
      fetch: async (r) => {
        const body: unknown = await r.json();
        sent.push({ accept: r.headers.get('accept'), body, extra: r.headers.get('x-m') });
        return events(numberAt(body, 'id'), reply);
      },
    });
    expect(await caller.call('sum', { a: 1 })).toBe(7);
    expect(seen).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }]);
    expect(sent[0]).toEqual({
      accept: 'application/json, text/event-stream',
      body: { jsonrpc: '2.0', id: 1, method: 'sum', params: { a: 1, added: 'sum' } },
      extra: 'sum',
    });
    reply = 'data: {"jsonrpc":"2.0","id":999,"result":7}\n\n';
    await expect(caller.call('sum', {})).rejects.toThrow(/ended without the response to request 2/);
  });
});

describe('createJsonRpcApp over a socket', () => {
  it('stream > the node path writes the same events, and a client that leaves stops the producer', async () => {
    let stopped = false;
    const socketApp = createJsonRpcApp(
      [{ name: 'ticks', paramStructure: 'by-name', paramNames: [], params: anything, stream: 'sse' }],
      {
        ticks: async () =>
          (async function* () {
            try {
              for (let i = 1; ; i++) {
                yield i;
                await new Promise((r) => setTimeout(r, 5));
              }
            } finally {
              stopped = true;
            }
          })(),
      },
    );
    const { server, url } = await serveLocal(socketApp.fetch, 0);
    try {
      const abort = new AbortController();
      const res = await fetch(`${url}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'n', method: 'ticks' }),
        signal: abort.signal,
      });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const seen: unknown[] = [];
      for await (const e of readItems(bodyOf(res), 'sse')) {
        seen.push(e);
        if (seen.length === 3) break;
      }
      abort.abort();
      expect(seen).toEqual([1, 2, 3].map((result) => ({ jsonrpc: '2.0', id: 'n', result })));
      for (let i = 0; i < 100 && !stopped; i++) await new Promise((r) => setTimeout(r, 10));
      expect(stopped).toBe(true);
    } finally {
      server.close();
    }
  });
});
