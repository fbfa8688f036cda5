import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { prop } from '../../../../test/support/typed.js';
import { resolveLimits } from '../limits.js';
import { readBodyStep } from './read-body.js';
import { defaultErrorData, RpcErrors, rpcAnswerBody, rpcResponse } from './rpc-answer.js';
import { pipeline } from './step.js';

const errors = new RpcErrors(defaultErrorData, () => {});
const app = new Hono();
app.post(
  '/',
  pipeline(
    (): { body: unknown } => ({ body: undefined }),
    [
      readBodyStep(
        { required: true, contents: [{ mediaType: 'application/json', kind: 'json' }] },
        resolveLimits({ jsonBytes: 8 }),
        errors.unreadable,
      ),
      (c) => c.text('read'),
    ],
  ),
);

describe('RpcErrors.unreadable', () => {
  it.each<[string, { given: RequestInit; want: { status: number; code: number } }]>([
    [
      'syntax > not JSON is a parse error, answered 200',
      {
        given: { body: '{', headers: { 'content-type': 'application/json' } },
        want: { status: 200, code: -32700 },
      },
    ],
    [
      'size > too large keeps 413, as Invalid Request',
      {
        given: { body: '[1,2,3,4,5]', headers: { 'content-type': 'application/json' } },
        want: { status: 413, code: -32600 },
      },
    ],
    [
      'media type > not JSON keeps 415, as Invalid Request',
      {
        given: { body: '{}', headers: { 'content-type': 'text/plain' } },
        want: { status: 415, code: -32600 },
      },
    ],
  ])('%s', async (_name, { given, want }) => {
    const res = await app.request('/', { method: 'POST', ...given });
    const body: unknown = await res.json();
    expect([res.status, prop(body, 'id'), prop(prop(body, 'error'), 'code')]).toEqual([
      want.status,
      null,
      want.code,
    ]);
  });
});

describe('rpcAnswerBody', () => {
  it('an answer rpcResponse made > the response object its body is the JSON of; any other Response > undefined', async () => {
    const answer = rpcResponse({ id: 3, error: { code: -32601, message: 'Method not found' } });
    const body = rpcAnswerBody(answer);
    expect(body).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } });
    expect(await answer.json()).toEqual(body);
    expect(rpcAnswerBody(rpcResponse([{ id: 1, result: 'a' }]))).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'a' },
    ]);
    expect(rpcAnswerBody(new Response('{}'))).toBeUndefined();
  });
});
