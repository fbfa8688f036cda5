// A ProtoJSON binding's operation (the generated spec carries `protoNames` on its JSON body and `queryProtoNames`):
// the body step and the parameters step read proto names as JSON names before validating, leave free-form members
// alone, and refuse a field given under both names with a 400 naming it.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { ProtoNameNode } from '../body/proto-names.js';
import { createOperationApp, type OperationSpec } from '../operation-app.js';

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true });
// A message with a required id, an optional context, parts (a union) and free-form metadata.
const nodes: readonly ProtoNameNode[] = [
  { fields: { message: 1, metadata: -1 } },
  {
    fields: { messageId: -1, contextId: -1, parts: 2, metadata: -1 },
    protoNames: { message_id: 'messageId', context_id: 'contextId' },
    emptyUnset: ['contextId'],
  },
  { items: 3 },
  { fields: { text: -1, mediaType: -1 }, protoNames: { media_type: 'mediaType' } },
];
const body = ajv.compile({
  type: 'object',
  required: ['message'],
  properties: {
    message: {
      type: 'object',
      required: ['messageId'],
      properties: {
        messageId: { type: 'string', minLength: 1 },
        contextId: { type: 'string', minLength: 1 },
        parts: { type: 'array', items: { type: 'object' } },
        metadata: { type: 'object' },
      },
    },
    metadata: { type: 'object' },
  },
});
const specs: OperationSpec[] = [
  {
    operationId: 'send',
    method: 'POST',
    path: '/send',
    pathParams: ajv.compile({ type: 'object' }),
    query: ajv.compile({ type: 'object' }),
    body: {
      required: true,
      contents: [
        { mediaType: 'application/json', kind: 'json', validate: body, protoNames: { nodes, root: 0 } },
      ],
    },
    responses: {},
  },
  {
    operationId: 'get',
    method: 'GET',
    path: '/get',
    pathParams: ajv.compile({ type: 'object' }),
    query: ajv.compile({
      type: 'object',
      properties: { historyLength: { type: 'integer' } },
      additionalProperties: false,
    }),
    queryProtoNames: { history_length: 'historyLength' },
    responses: {},
  },
];
const app = createOperationApp(
  specs,
  {
    send: ({ body }) => ({ status: 200, body }),
    get: ({ query }) => ({ status: 200, body: query }),
  },
  { validateResponses: false },
);
const send = async (given: unknown) => {
  const res = await app.request('/send', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(given),
  });
  return { status: res.status, body: await res.json() };
};

describe('ProtoJSON names > body', () => {
  it('proto names are read as JSON names at every depth; free-form members keep their keys', async () => {
    const { status, body } = await send({
      message: {
        message_id: 'm1',
        context_id: 'c1',
        parts: [{ text: 'hi', media_type: 'text/plain' }],
        metadata: { my_key: 1, nested: { inner_key: 2 } },
      },
      metadata: { my_key: 3 },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      message: {
        messageId: 'm1',
        contextId: 'c1',
        parts: [{ text: 'hi', mediaType: 'text/plain' }],
        metadata: { my_key: 1, nested: { inner_key: 2 } },
      },
      metadata: { my_key: 3 },
    });
  });

  it('a body in JSON names is taken as it is', async () => {
    const given = { message: { messageId: 'm1', parts: [{ text: 'hi' }], metadata: { messageId: 'x' } } };
    expect(await send(given)).toEqual({ status: 200, body: given });
  });

  it('both names of one field > 400 with the field pointer, before the schema is checked', async () => {
    const { status, body } = await send({
      message: { messageId: 'a', parts: [{ text: 'x', mediaType: 'a', media_type: 'b' }] },
    });
    expect(status).toBe(400);
    expect(body.type).toBe('https://agentproto.dev/problems/duplicate-field');
    expect(body.detail).toContain('"mediaType"');
    expect(body.errors).toEqual([
      {
        location: 'body',
        pointer: '/message/parts/0/mediaType',
        message: expect.stringContaining('media_type'),
      },
    ]);
  });

  it('an empty optional plain string is proto3 "not set": left out (its schema would refuse "")', async () => {
    const { status, body } = await send({ message: { message_id: 'm1', contextId: '' } });
    expect(status).toBe(200);
    expect(body).toEqual({ message: { messageId: 'm1' } });
  });
});

describe('ProtoJSON names > query', () => {
  it('history_length is read as historyLength', async () => {
    const res = await app.request('/get?history_length=3');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ historyLength: 3 });
  });

  it('both names > 400 invalid-query naming the parameter', async () => {
    const res = await app.request('/get?history_length=3&historyLength=4');
    expect(res.status).toBe(400);
    const answer = await res.json();
    expect(answer.errors[0]).toMatchObject({ location: 'query', pointer: '/historyLength' });
  });
});
