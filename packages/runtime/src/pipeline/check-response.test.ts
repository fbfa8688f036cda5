import { Ajv } from 'ajv';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { prop } from '../../../../test/support/typed.js';
import type { HandlerResult, OperationSpec } from '../operation-app.js';
import type { Validator } from '../validation.js';
import { checkResponse } from './check-response.js';
import { OperationState } from './operation-state.js';
import { pipeline } from './step.js';

const positive: Validator = new Ajv().compile({ type: 'number', exclusiveMinimum: 0 });
const spec: OperationSpec = {
  operationId: 'op',
  method: 'GET',
  path: '/',
  pathParams: positive,
  query: positive,
  responses: {
    '200': [
      { mediaType: 'application/json', kind: 'json', validate: positive },
      { mediaType: 'application/yaml', kind: 'yaml', validate: positive },
      { mediaType: 'text/event-stream', kind: 'stream', framing: 'sse', validate: positive },
    ],
    '204': [],
  },
};

async function* items() {
  yield 1;
}

function app(result: unknown, validate = true) {
  const hono = new Hono();
  hono.get(
    '/',
    pipeline(
      // sound: deliberately ill-typed: some cases give no result or a broken one, which the step must answer with a
      // problem instead of sending it.
      () => Object.assign(new OperationState(), { result: result as HandlerResult }),
      [
        checkResponse(spec, validate, () => {}),
        (c, s) =>
          c.json({
            type: s.content?.mediaType ?? null,
            headers: s.headers ?? null,
            itemCheck: s.itemCheck?.(-1, 0) ?? null,
          }),
      ],
    ),
  );
  return hono;
}

const problemType = (kind: string) => `https://agentproto.dev/problems/${kind}`;

describe('checkResponse', () => {
  it.each<[string, { given: unknown; accept?: string; validate?: boolean; want: unknown }]>([
    [
      'choice > a value goes as the first declared media type',
      {
        given: { status: 200, body: 1 },
        want: { type: 'application/json', headers: { 'content-type': 'application/json' }, itemCheck: null },
      },
    ],
    [
      'choice > Accept picks among those that fit a value',
      {
        given: { status: 200, body: 1 },
        accept: 'application/yaml',
        want: { type: 'application/yaml', headers: { 'content-type': 'application/yaml' }, itemCheck: null },
      },
    ],
    [
      'choice > an async iterable goes as the stream, its items checked',
      {
        given: { status: 200, body: items() },
        want: {
          type: 'text/event-stream',
          headers: { 'content-type': 'text/event-stream' },
          itemCheck: 'op stream item 1 → item: /: must be > 0 (got -1)',
        },
      },
    ],
    [
      "headers > the handler's headers join, lower-cased",
      {
        given: { status: 200, body: 1, headers: { 'X-Id': '7' } },
        want: {
          type: 'application/json',
          headers: { 'content-type': 'application/json', 'x-id': '7' },
          itemCheck: null,
        },
      },
    ],
    [
      'no content > a status declared without content leaves no headers',
      { given: { status: 204 }, want: { type: null, headers: null, itemCheck: null } },
    ],
    [
      'validate off > an undeclared status passes as JSON',
      {
        given: { status: 418, body: 1 },
        validate: false,
        want: { type: null, headers: { 'content-type': 'application/json' }, itemCheck: null },
      },
    ],
    [
      'status > an undeclared status is 500 invalid-response',
      { given: { status: 418, body: 1 }, want: problemType('invalid-response') },
    ],
    [
      'schema > a body that breaks its schema is 500 invalid-response',
      { given: { status: 200, body: -1 }, want: problemType('invalid-response') },
    ],
    [
      'stream > a stream media type without an iterable is 500 invalid-response',
      {
        given: { status: 200, body: 1, contentType: 'text/event-stream' },
        want: problemType('invalid-response'),
      },
    ],
    [
      'headers > a header the server could not send is 500 invalid-response',
      { given: { status: 204, headers: { 'x-a': 'a\r\nb' } }, want: problemType('invalid-response') },
    ],
    [
      'nothing > no answer at all is 500 response-failed',
      { given: undefined, want: problemType('response-failed') },
    ],
  ])('%s', async (_name, { given, accept, validate, want }) => {
    const res = await app(given, validate).request('/', accept ? { headers: { accept } } : {});
    const body: unknown = await res.json();
    expect(typeof want === 'string' ? [res.status, prop(body, 'type')] : [res.status, body]).toEqual(
      typeof want === 'string' ? [500, want] : [200, want],
    );
  });
});
