import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { problem, problemResponse } from '../problem.js';
import { restateProblems } from './restate-problems.js';

function app() {
  const hono = new Hono();
  hono.use(
    restateProblems((p) => ({
      status: p.status === 422 ? 400 : p.status,
      body: { error: p.detail },
      contentType: 'application/vnd.err+json',
    })),
  );
  hono.get('/problem', () => problemResponse(problem(422, 'invalid-body', 'bad'), { 'x-kept': '1' }));
  hono.get('/fine', (c) => c.json({ ok: true }));
  return hono;
}

describe('restateProblems', () => {
  it('problem > restated by the hook, other headers kept', async () => {
    const res = await app().request('/problem');
    expect([
      res.status,
      res.headers.get('content-type'),
      res.headers.get('x-kept'),
      await res.json(),
    ]).toEqual([400, 'application/vnd.err+json', '1', { error: 'bad' }]);
  });

  it('answer > an answer that is not a problem is left alone', async () => {
    const res = await app().request('/fine');
    expect([res.status, await res.json()]).toEqual([200, { ok: true }]);
  });
});
