import { describe, expect, it } from 'vitest';
import { emitRoutes } from '../emit/routes/emit-routes.js';
import { ProtoNameTable, protoFieldName, protoNamesOf } from './proto-names.js';
import type { OperationModel, ProtocolModel, TypeModel } from './protocol-model.js';

const BASE = 'https://agentproto.dev/schemas/t/1/';
const type = (name: string, schema: Record<string, unknown>): TypeModel => ({
  name,
  id: `${BASE}${name}.schema.json`,
  file: `${name}.schema.json`,
  description: '',
  schema: { $id: `${BASE}${name}.schema.json`, ...schema },
});
const ref = (name: string) => ({ $ref: `${name}.schema.json` });

const types = [
  type('Request', {
    type: 'object',
    required: ['message'],
    properties: {
      message: { description: 'The message.', ...ref('Message') },
      metadata: { type: 'object' },
      labels: { type: 'object', additionalProperties: ref('Label') },
      tags: { type: 'array', items: { type: 'string' } },
    },
  }),
  type('Message', {
    type: 'object',
    required: ['messageId'],
    properties: {
      messageId: { type: 'string' },
      contextId: { type: 'string' },
      kindName: { type: 'string', minLength: 1 },
      role: ref('Role'),
      parts: { type: 'array', items: ref('Part') },
      replyTo: ref('Message'),
    },
  }),
  type('Role', { type: 'string', enum: ['ROLE_USER', 'ROLE_AGENT'] }),
  type('Part', {
    type: 'object',
    properties: { metadata: { type: 'object' } },
    oneOf: [
      { properties: { text: { type: 'string' } }, required: ['text'] },
      { properties: { data: { type: 'object' }, mediaType: { type: 'string' } }, required: ['data'] },
    ],
  }),
  type('Label', { allOf: [{ properties: { labelText: { type: 'string' } } }] }),
];

describe('proto names > the table', () => {
  it('protoFieldName > the lower_snake_case a JSON name comes from', () => {
    expect(protoFieldName('messageId')).toBe('message_id');
    expect(protoFieldName('oauth2SecurityScheme')).toBe('oauth2_security_scheme');
    expect(protoFieldName('text')).toBe('text');
  });

  it('follows $ref, unions, items and map values; free-form objects and scalars are not nodes', () => {
    const table = new ProtoNameTable(types);
    const root = table.add({ $ref: `${BASE}Request.schema.json` });
    expect(root).toBe(0);
    expect(table.nodes).toEqual([
      { fields: { message: 1, metadata: -1, labels: 5, tags: -1 } },
      {
        fields: { messageId: -1, contextId: -1, kindName: -1, role: -1, parts: 3, replyTo: 1 },
        protoNames: {
          message_id: 'messageId',
          context_id: 'contextId',
          kind_name: 'kindName',
          reply_to: 'replyTo',
        },
        // Optional plain strings only: not the required id, the string with a length, or the enum.
        emptyUnset: ['contextId'],
      },
      // The union of Part's branches: `text` is required in one, so it is not "unset" when empty.
      {
        fields: { metadata: -1, text: -1, data: -1, mediaType: -1 },
        protoNames: { media_type: 'mediaType' },
        emptyUnset: ['mediaType'],
      },
      { items: 2 },
      // A map is pushed after its values' node: it is a node only when they are.
      { fields: { labelText: -1 }, protoNames: { label_text: 'labelText' }, emptyUnset: ['labelText'] },
      { values: 4 },
    ]);
  });

  it('a schema met again (another media type, or a bare reference to it) is the same node', () => {
    const table = new ProtoNameTable(types);
    const a = table.add({ $ref: `${BASE}Message.schema.json` });
    const b = table.add({ $ref: `${BASE}Message.schema.json` });
    const c = table.add({ type: 'object', properties: { messageId: { type: 'string' } } });
    const d = table.add({ type: 'object', properties: { messageId: { type: 'string' } } });
    expect(b).toBe(a);
    expect(d).toBe(c);
    expect(table.add({ type: 'object' })).toBe(-1);
    expect(table.add({ type: 'array', items: { type: 'string' } })).toBe(-1);
  });

  it('protoNamesOf > each JSON body gets its root; query parameters their proto names', () => {
    const content = (mediaType: string, kind: 'json' | 'binary') => ({
      mediaType,
      kind,
      schema: { $ref: `${BASE}Request.schema.json` },
      fileFields: [],
    });
    const param = (name: string) => ({
      name,
      required: false,
      hasDefault: false,
      schema: { type: 'string' },
    });
    const op: OperationModel = {
      operationId: 'send',
      method: 'post',
      path: '/send',
      summary: '',
      pathParams: [],
      queryParams: [param('historyLength'), param('tenant')],
      requestBody: {
        required: true,
        contents: [content('application/json', 'json'), content('application/octet-stream', 'binary')],
      },
      responses: [],
    };
    const nodes = protoNamesOf([op], types);
    expect(nodes.length).toBeGreaterThan(0);
    expect(op.requestBody?.contents.map((c) => c.protoNames)).toEqual([0, undefined]);
    expect(op.queryProtoNames).toEqual({ history_length: 'historyLength' });

    // sound: emitRoutes reads the model's title, version, stem, operations and protoNames; the rest is not read
    const model = {
      title: 'T',
      version: '1',
      stem: 'T',
      operations: [op],
      protoNames: nodes,
    } as ProtocolModel;
    const routes = String(emitRoutes(model));
    expect(routes).toContain('type ProtoNameNode');
    expect(routes).toContain('const protoNames: readonly ProtoNameNode[] = [\n  {"fields":{"message":1,');
    expect(routes).toContain('protoNames: { nodes: protoNames, root: 0 }');
    expect(routes).toContain('queryProtoNames: {"history_length":"historyLength"},');
  });
});
