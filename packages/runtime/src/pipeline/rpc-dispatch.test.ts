import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { RpcHandler, RpcMethodSpec } from '../jsonrpc/rpc-app.js';
import { JsonRpcError } from '../jsonrpc/rpc-error.js';
import type { Validator } from '../validation.js';
import { defaultErrorData, RpcErrors } from './rpc-answer.js';
import type { RpcState } from './rpc-check-request.js';
import { callUnary, dispatchRpc } from './rpc-dispatch.js';
import { pipeline } from './step.js';

const anything: Validator = (_value: unknown): _value is unknown => true;
const unary: RpcMethodSpec = { name: 'echo', paramStructure: 'either', paramNames: [], params: anything };
const streamed: RpcMethodSpec = { ...unary, name: 'count', stream: 'ndjson' };
const noCheck = () => undefined;

function app(
  handler: RpcHandler,
  spec: RpcMethodSpec,
  notification: boolean,
  streamErrors: 'json' | 'event' = 'json',
) {
  const id = notification ? undefined : 1;
  const errors = new RpcErrors(defaultErrorData, () => {});
  const handlers = { [spec.name]: handler };
  const hono = new Hono();
  hono.post(
    '/',
    pipeline(
      (): RpcState => ({ body: undefined, call: { spec, params: { n: 2 }, id } }),
      [
        dispatchRpc(handlers, callUnary(handlers, noCheck, errors), noCheck, errors, () => {}, {
          nodeStreams: true,
          streamErrors,
        }),
      ],
    ),
  );
  return hono;
}

describe('dispatchRpc', () => {
  it.each<
    [
      string,
      {
        handler: RpcHandler;
        spec?: RpcMethodSpec;
        notification?: true;
        streamErrors?: 'json' | 'event';
        want: { status: number; text: string; type?: string };
      },
    ]
  >([
    [
      'unary > the result as one response',
      {
        handler: (p: { n: number }) => p.n * 2,
        want: { status: 200, text: '{"jsonrpc":"2.0","id":1,"result":4}' },
      },
    ],
    [
      'unary > no result is null',
      {
        handler: () => undefined,
        want: { status: 200, text: '{"jsonrpc":"2.0","id":1,"result":null}' },
      },
    ],
    [
      'unary > a JsonRpcError thrown is its own error',
      {
        handler: () => {
          throw new JsonRpcError(-32001, 'no such task');
        },
        want: {
          status: 200,
          text: '{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no such task"}}',
        },
      },
    ],
    [
      'unary > anything else thrown is -32603',
      {
        handler: () => {
          throw new Error('boom');
        },
        want: {
          status: 200,
          text: '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error"}}',
        },
      },
    ],
    ['notification > no answer', { handler: () => 1, notification: true, want: { status: 204, text: '' } }],
    [
      'stream > each item one response, an error after the first the last',
      {
        handler: async function* () {
          yield 1;
          throw new JsonRpcError(-32002, 'cut');
        },
        spec: streamed,
        want: {
          status: 200,
          text: '{"jsonrpc":"2.0","id":1,"result":1}\n{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"cut"}}\n',
        },
      },
    ],
    [
      'stream > an error before the first item is a plain JSON answer',
      {
        handler: () => ({
          [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new JsonRpcError(-32002, 'unknown')) }),
        }),
        spec: streamed,
        want: { status: 200, text: '{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"unknown"}}' },
      },
    ],
    [
      "stream > with streamErrors: 'event', an error before the first item is a stream of that one answer",
      {
        handler: () => ({
          [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new JsonRpcError(-32002, 'unknown')) }),
        }),
        spec: streamed,
        streamErrors: 'event',
        want: {
          status: 200,
          text: '{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"unknown"}}\n',
          type: 'application/x-ndjson',
        },
      },
    ],
  ])('%s', async (_name, { handler, spec, notification, streamErrors, want }) => {
    const res = await app(handler, spec ?? unary, notification === true, streamErrors).request('/', {
      method: 'POST',
    });
    const got = { status: res.status, text: await res.text() };
    expect(want.type ? { ...got, type: res.headers.get('content-type') } : got).toEqual(want);
  });
});
