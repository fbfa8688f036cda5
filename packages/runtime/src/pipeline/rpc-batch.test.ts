import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { RpcHandler, RpcMethodSpec } from '../jsonrpc/rpc-app.js';
import { resolveLimits } from '../limits.js';
import type { Validator } from '../validation.js';
import { readBodyStep } from './read-body.js';
import { defaultErrorData, RpcErrors } from './rpc-answer.js';
import { answerBatch } from './rpc-batch.js';
import { prepareRequest, type RpcState } from './rpc-check-request.js';
import { callUnary } from './rpc-dispatch.js';
import { pipeline } from './step.js';

const anything: Validator = (_value: unknown): _value is unknown => true;
const echo: RpcMethodSpec = { name: 'echo', paramStructure: 'either', paramNames: ['v'], params: anything };
const count: RpcMethodSpec = { ...echo, name: 'count', stream: 'sse' };
const errors = new RpcErrors(defaultErrorData, () => {});
const handlers: Record<string, RpcHandler> = {
  echo: (p: { v: unknown }) => p.v,
  count: async function* () {},
};
const prepare = prepareRequest(
  new Map([
    ['echo', echo],
    ['count', count],
  ]),
  errors,
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
      answerBatch(
        2,
        prepare,
        callUnary(handlers, () => undefined, errors),
        errors,
      ),
      (c) => c.text('not a batch'),
    ],
  ),
);

const req = (id: number | undefined, method: string, v?: unknown) => ({
  jsonrpc: '2.0',
  ...(id === undefined ? {} : { id }),
  method,
  params: [v],
});

describe('answerBatch', () => {
  it.each<[string, { given: unknown; want: { status: number; body?: unknown } }]>([
    [
      'batch > each request answered in order',
      {
        given: [req(1, 'echo', 'a'), req(2, 'echo', 'b')],
        want: {
          status: 200,
          body: [
            { jsonrpc: '2.0', id: 1, result: 'a' },
            { jsonrpc: '2.0', id: 2, result: 'b' },
          ],
        },
      },
    ],
    [
      'notifications > only those with an id answered; none at all is 204',
      { given: [req(undefined, 'echo', 'a')], want: { status: 204 } },
    ],
    [
      'stream > a streaming method cannot be in a batch',
      {
        given: [req(1, 'count')],
        want: {
          status: 200,
          body: [
            {
              jsonrpc: '2.0',
              id: 1,
              error: {
                code: -32600,
                message: 'Invalid Request: count streams its answer, so it cannot be part of a batch',
              },
            },
          ],
        },
      },
    ],
    [
      'size > an empty batch is refused whole',
      {
        given: [],
        want: {
          status: 200,
          body: {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: 'Invalid Request: an empty batch' },
          },
        },
      },
    ],
    [
      'size > a batch over the limit is refused whole',
      {
        given: [req(1, 'echo'), req(2, 'echo'), req(3, 'echo')],
        want: {
          status: 200,
          body: {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: 'Invalid Request: a batch holds at most 2 requests' },
          },
        },
      },
    ],
  ])('%s', async (_name, { given, want }) => {
    const res = await app.request('/', { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(given) });
    expect(res.status).toBe(want.status);
    if (want.body) expect(await res.json()).toEqual(want.body);
  });

  it('one request > a body that is no batch goes on to the next step', async () => {
    const res = await app.request('/', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify(req(1, 'echo')),
    });
    expect(await res.text()).toBe('not a batch');
  });
});
