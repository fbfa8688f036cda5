import { Ajv } from 'ajv';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { RpcMethodSpec } from '../jsonrpc/rpc-app.js';
import { resolveLimits } from '../limits.js';
import { readBodyStep } from './read-body.js';
import { defaultErrorData, RpcErrors } from './rpc-answer.js';
import { checkRpcRequest, prepareRequest, type RpcState } from './rpc-check-request.js';
import { pipeline } from './step.js';

const add: RpcMethodSpec = {
  name: 'add',
  paramStructure: 'either',
  paramNames: ['a', 'b'],
  params: new Ajv().compile({
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  }),
};
const byName: RpcMethodSpec = { ...add, name: 'byName', paramStructure: 'by-name' };
const prepare = prepareRequest(
  new Map([
    ['add', add],
    ['byName', byName],
  ]),
  new RpcErrors(defaultErrorData, () => {}),
);

const JSON_BODY = { required: true, contents: [{ mediaType: 'application/json', kind: 'json' as const }] };
const JSON_TYPE = { 'content-type': 'application/json' };

const app = new Hono();
app.post(
  '/',
  pipeline(
    (): RpcState => ({ body: undefined, call: undefined }),
    [
      readBodyStep(JSON_BODY, resolveLimits()),
      checkRpcRequest(prepare),
      (c, s) => c.json({ called: s.call?.spec.name, params: s.call?.params, id: s.call?.id }),
    ],
  ),
);

describe('checkRpcRequest', () => {
  it.each<[string, { given: unknown; want: { status: number; body?: unknown } }]>([
    [
      'by name > params as an object',
      {
        given: { jsonrpc: '2.0', id: 1, method: 'add', params: { a: 1, b: 2 } },
        want: { status: 200, body: { called: 'add', params: { a: 1, b: 2 }, id: 1 } },
      },
    ],
    [
      'by position > params as an array, named in order',
      {
        given: { jsonrpc: '2.0', id: 'x', method: 'add', params: [1, 2] },
        want: { status: 200, body: { called: 'add', params: { a: 1, b: 2 }, id: 'x' } },
      },
    ],
    [
      'envelope > not 2.0 is -32600, answered with a null id',
      {
        given: { jsonrpc: '1.0', method: 'add' },
        want: {
          status: 200,
          body: {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) },
          },
        },
      },
    ],
    [
      'envelope > not an object is -32600',
      {
        given: 7,
        want: {
          status: 200,
          body: {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: 'Invalid Request: not a request object' },
          },
        },
      },
    ],
    [
      'method > unknown is -32601',
      {
        given: { jsonrpc: '2.0', id: 2, method: 'nope' },
        want: {
          status: 200,
          body: { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: nope' } },
        },
      },
    ],
    [
      'params > by position to a by-name method is -32602',
      {
        given: { jsonrpc: '2.0', id: 3, method: 'byName', params: [1, 2] },
        want: {
          status: 200,
          body: {
            jsonrpc: '2.0',
            id: 3,
            error: { code: -32602, message: 'Invalid params: byName takes its params by name, as an object' },
          },
        },
      },
    ],
    [
      'params > too many by position is -32602',
      {
        given: { jsonrpc: '2.0', id: 3, method: 'add', params: [1, 2, 3] },
        want: {
          status: 200,
          body: {
            jsonrpc: '2.0',
            id: 3,
            error: { code: -32602, message: 'Invalid params: add takes at most 2 params' },
          },
        },
      },
    ],
    [
      'params > breaking the schema is -32602 with each issue',
      {
        given: { jsonrpc: '2.0', id: 4, method: 'add', params: { a: 1 } },
        want: {
          status: 200,
          body: {
            jsonrpc: '2.0',
            id: 4,
            error: {
              code: -32602,
              message: 'Invalid params',
              data: { errors: [{ pointer: '/b', message: 'is required but missing' }] },
            },
          },
        },
      },
    ],
    [
      'notification > a refused notification gets no answer',
      { given: { jsonrpc: '2.0', method: 'nope' }, want: { status: 204 } },
    ],
  ])('%s', async (_name, { given, want }) => {
    const res = await app.request('/', { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(given) });
    expect(res.status).toBe(want.status);
    if (want.body) expect(await res.json()).toEqual(want.body);
  });
});
