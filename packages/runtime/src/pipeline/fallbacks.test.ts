import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import { messageOf, prop } from '../../../../test/support/typed.js';
import { thrownAsProblem, unknownRoutes } from './fallbacks.js';

function app(errors: unknown[] = []) {
  const hono = new Hono();
  hono.get('/items/:id', (c) => c.text('ok'));
  hono.get('/refused', () => {
    throw new HTTPException(403, { message: 'no entry' });
  });
  hono.get('/broken', () => {
    throw new Error('boom');
  });
  hono.notFound(unknownRoutes(new Map([['/items/:id', ['GET', 'DELETE', 'GET']]])));
  hono.onError(thrownAsProblem((error, where) => errors.push([where, messageOf(error)])));
  return hono;
}

describe('fallbacks', () => {
  it.each<[string, { given: [string, string]; want: { status: number; type: string; allow?: string } }]>([
    [
      'method > a known path with another method is 405 with Allow',
      {
        given: ['POST', '/items/1'],
        want: { status: 405, type: 'method-not-allowed', allow: 'DELETE, GET' },
      },
    ],
    [
      'route > an unknown path is 404',
      { given: ['GET', '/nope'], want: { status: 404, type: 'no-such-route' } },
    ],
    [
      'refusal > an HTTPException keeps its status',
      { given: ['GET', '/refused'], want: { status: 403, type: 'refused' } },
    ],
    [
      'error > anything else thrown is 500',
      { given: ['GET', '/broken'], want: { status: 500, type: 'internal-error' } },
    ],
  ])('%s', async (_name, { given: [method, path], want }) => {
    const res = await app().request(path, { method });
    expect(res.status).toBe(want.status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(prop(await res.json(), 'type')).toBe(`https://agentproto.dev/problems/${want.type}`);
    if (want.allow) expect(res.headers.get('allow')).toBe(want.allow);
  });

  it('error > what is thrown is told to onError with the request it broke', async () => {
    const errors: unknown[] = [];
    await app(errors).request('/broken');
    expect(errors).toEqual([['GET /broken', 'boom']]);
  });
});
