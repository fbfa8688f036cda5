import { describe, expect, it } from 'vitest';
import type { ProtocolBinding } from '../kit/types.js';
import type { JudgeContext } from './judge.js';
import { judgeRpc } from './judge-rpc.js';
import type { Probe, RpcCall } from './probe.js';

const rpc: RpcCall = { method: 'tools/list', resultType: 'Result', errors: [-32020] };
// sound: judgeRpc reads a probe's operation (its rpc call), `valid` and body; the fields left out go unread.
const probe = {
  operation: {
    rpc,
    method: 'POST',
    path: '/',
    operationId: 'rpc:tools/list',
    pathParams: [],
    queryParams: [],
  },
  valid: true,
  path: {},
  query: {},
  body: { kind: 'json', mediaType: 'application/json', value: {} },
} as unknown as Probe;
const validate = Object.assign((v: unknown) => typeof v === 'object' && v !== null, { errors: null });
const context = (rpcErrorStatuses?: number[]): JudgeContext => ({
  // sound: judgeRpc reads only the binding's validators, by the result type the call names ('Result').
  binding: { validators: { Result: validate } } as unknown as ProtocolBinding,
  timeoutMs: 1_000,
  ...(rpcErrorStatuses ? { rpcErrorStatuses } : {}),
});
const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const categories = async (status: number, body: unknown, statuses?: number[]) =>
  (await judgeRpc(probe, rpc, answer(status, body), context(statuses))).map((f) => f.category);

describe('judge > JSON-RPC answers', () => {
  const error = { jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'Header mismatch' } };

  it('an error with a status the suite declares for errors is no finding; another status, or a result, is', async () => {
    expect(await categories(400, error, [400, 404])).toEqual([]);
    expect(await categories(400, error)).toContain('undeclared-status');
    expect(await categories(409, error, [400, 404])).toContain('undeclared-status');
    expect(await categories(400, { jsonrpc: '2.0', id: 1, result: {} }, [400])).toContain(
      'undeclared-status',
    );
  });

  it('an error without id is taken only where the id could not be read (-32700, -32600)', async () => {
    expect(
      await categories(200, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }),
    ).toEqual([]);
    expect(
      await categories(200, { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid params' } }),
    ).toContain('body-mismatch');
  });
});
