import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { messageOf, prop } from '../../../../test/support/typed.js';
import { dispatch, type OperationHandler } from './dispatch.js';
import { OperationState } from './operation-state.js';
import { pipeline } from './step.js';

function app(handler: OperationHandler, errors: unknown[] = []) {
  const hono = new Hono();
  hono.post(
    '/',
    pipeline(
      () =>
        Object.assign(new OperationState(), { params: { id: 'p' }, query: { q: '1' }, body: { b: true } }),
      [
        dispatch('op', handler, (error, where) => errors.push([where, messageOf(error)])),
        (c, state) => c.json(state.result),
      ],
    ),
  );
  return hono;
}

describe('dispatch', () => {
  it.each<[string, OperationHandler]>([
    [
      'sync > a handler that answers at once',
      ({ params, query, body }) => ({ status: 200, body: { params, query, body } }),
    ],
    [
      'async > a handler that answers later',
      async ({ params, query, body }) => ({ status: 200, body: { params, query, body } }),
    ],
  ])('%s gets the checked input, and its answer is left in the state', async (_name, handler) => {
    const res = await app(handler).request('/', { method: 'POST' });
    expect(await res.json()).toEqual({
      status: 200,
      body: { params: { id: 'p' }, query: { q: '1' }, body: { b: true } },
    });
  });

  it.each<[string, OperationHandler]>([
    [
      'sync > a handler that throws',
      () => {
        throw new Error('boom');
      },
    ],
    [
      'async > a handler that rejects',
      async () => {
        throw new Error('boom');
      },
    ],
  ])('%s is a 500 handler-failed problem, told to onError', async (_name, handler) => {
    const errors: unknown[] = [];
    const res = await app(handler, errors).request('/', { method: 'POST' });
    expect(res.status).toBe(500);
    expect(prop(await res.json(), 'type')).toBe('https://agentproto.dev/problems/handler-failed');
    expect(errors).toEqual([['op', 'boom']]);
  });

  it('signal > aborts when the request does', async () => {
    const request = new AbortController();
    let signal: AbortSignal | undefined;
    await app(({ signal: s }) => {
      signal = s;
      return { status: 200 };
    }).request('/', { method: 'POST', signal: request.signal });
    expect(signal?.aborted).toBe(false);
    request.abort();
    expect(signal?.aborted).toBe(true);
  });
});
