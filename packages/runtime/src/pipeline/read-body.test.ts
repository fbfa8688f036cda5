import { Ajv } from 'ajv';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { prop } from '../../../../test/support/typed.js';
import { resolveLimits } from '../limits.js';
import { readBodyStep } from './read-body.js';
import { pipeline } from './step.js';

const small = new Ajv().compile({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
const spec = {
  required: true,
  contents: [{ mediaType: 'application/json', kind: 'json' as const, validate: small }],
};

function app(refuse?: (refusal: Response) => Response) {
  const hono = new Hono();
  hono.post(
    '/',
    pipeline(
      (): { body: unknown } => ({ body: undefined }),
      [
        readBodyStep(spec, resolveLimits({ jsonBytes: 16 }), refuse),
        (c, state) => c.json({ got: state.body }),
      ],
    ),
  );
  return hono;
}

const post = (body: string, type = 'application/json'): RequestInit => ({
  method: 'POST',
  body,
  headers: { 'content-type': type },
});

describe('readBodyStep', () => {
  it.each<[string, { given: RequestInit; want: { status: number; type?: string } }]>([
    ['read > a body that fits is left in the state', { given: post('{"n":1}'), want: { status: 200 } }],
    [
      'media type > undeclared is 415',
      { given: post('{"n":1}', 'text/plain'), want: { status: 415, type: 'unsupported-media-type' } },
    ],
    [
      'size > over the limit is 413',
      { given: post(`{"n":1,"pad":"${'x'.repeat(32)}"}`), want: { status: 413, type: 'body-too-large' } },
    ],
    ['syntax > not JSON is 400', { given: post('{'), want: { status: 400, type: 'malformed-json' } }],
    [
      'schema > a body that breaks it is 422',
      { given: post('{"n":"1"}'), want: { status: 422, type: 'invalid-body' } },
    ],
  ])('%s', async (_name, { given, want }) => {
    const res = await app().request('/', given);
    expect(res.status).toBe(want.status);
    const body: unknown = await res.json();
    if (want.type) expect(prop(body, 'type')).toBe(`https://agentproto.dev/problems/${want.type}`);
    else expect(prop(body, 'got')).toEqual({ n: 1 });
  });

  it('refuse > a binding restates the refusal in its own form', async () => {
    const res = await app((refusal) => new Response(`refused ${refusal.status}`, { status: 418 })).request(
      '/',
      post('{'),
    );
    expect([res.status, await res.text()]).toEqual([418, 'refused 400']);
  });
});
