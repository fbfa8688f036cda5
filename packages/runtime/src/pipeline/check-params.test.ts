import { Ajv } from 'ajv';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { honoPath } from '../http/path-template.js';
import type { OperationSpec } from '../operation-app.js';
import { checkParams } from './check-params.js';
import { pipeline } from './step.js';

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true });
const spec: OperationSpec = {
  operationId: 'get',
  method: 'GET',
  path: '/items/{id}:peek',
  pathParams: ajv.compile({
    type: 'object',
    properties: { id: { type: 'integer' } },
    required: ['id'],
  }),
  query: ajv.compile({
    type: 'object',
    properties: { full: { type: 'boolean' }, limit: { type: 'integer', default: 10 } },
    additionalProperties: false,
  }),
  decimals: { path: { id: 'integer' }, query: { limit: 'integer' } },
  booleans: { query: ['full'] },
  responses: {},
};

function app() {
  const hono = new Hono();
  hono.get(
    honoPath(spec.path),
    pipeline(
      (): { params: unknown; query: unknown } => ({ params: undefined, query: undefined }),
      [checkParams(spec), (c, state) => c.json({ params: state.params, query: state.query })],
    ),
  );
  return hono;
}

describe('checkParams', () => {
  it.each<[string, { given: string; want: { status: number; body: unknown } }]>([
    [
      'path > the literal text around a parameter is stripped, its value coerced; query defaults filled in',
      { given: '/items/7:peek', want: { status: 200, body: { params: { id: 7 }, query: { limit: 10 } } } },
    ],
    [
      'query > a boolean in Python spelling is taken',
      {
        given: '/items/7:peek?full=True',
        want: { status: 200, body: { params: { id: 7 }, query: { full: true, limit: 10 } } },
      },
    ],
    [
      'path > a number not written as a decimal is 400 invalid-path',
      {
        given: '/items/0x7:peek',
        want: {
          status: 400,
          body: expect.objectContaining({
            type: 'https://agentproto.dev/problems/invalid-path',
            errors: [{ location: 'path', pointer: '/id', message: 'must be a decimal integer' }],
          }),
        },
      },
    ],
    [
      'query > an unknown parameter is 400 invalid-query',
      {
        given: '/items/7:peek?nope=1',
        want: {
          status: 400,
          body: expect.objectContaining({ type: 'https://agentproto.dev/problems/invalid-query' }),
        },
      },
    ],
  ])('%s', async (_name, { given, want }) => {
    const res = await app().request(given);
    expect({ status: res.status, body: await res.json() }).toEqual(want);
  });
});
