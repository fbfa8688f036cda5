import { closeLocal, serveLocal } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import type { StreamResponse } from '../generated/1.0/index.js';
import { type A2aOperations, serveA2a } from './serve-a2a.js';

// What a 0.3 client reads when the 1.0 handlers stream fixed events, byte for byte, on both 0.3 bindings: the
// translation's shapes and key order are the wire format, and a faster translator or writer must not change them.
// The expected text is written out here (not computed with the translator), so a change anywhere on the path shows.

const ids = { taskId: 't-1', contextId: 'c-1' };
const EVENTS: StreamResponse[] = [
  {
    task: {
      id: 't-1',
      contextId: 'c-1',
      status: { state: 'TASK_STATE_SUBMITTED' },
      history: [{ messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
    },
  },
  {
    artifactUpdate: {
      ...ids,
      artifact: {
        artifactId: 'a-1',
        name: 'notes',
        parts: [
          { text: 'one', metadata: { k: 1 } },
          { mediaType: 'text/plain', text: 'two' },
          { raw: 'aGk=', mediaType: 'text/plain', filename: 'f.txt' },
          { url: 'https://example.com/y.png', mediaType: 'image/png' },
          { data: { a: 1 } },
          { data: [1, 2] },
        ],
      },
    },
  },
  // Keys in another order than the schema's.
  {
    artifactUpdate: {
      append: true,
      lastChunk: true,
      artifact: { parts: [{ text: 'three' }], artifactId: 'a-1' },
      contextId: 'c-1',
      taskId: 't-1',
    },
  },
  {
    statusUpdate: {
      ...ids,
      status: {
        state: 'TASK_STATE_WORKING',
        message: { messageId: 'm-2', role: 'ROLE_AGENT', parts: [{ text: 'working' }] },
      },
    },
  },
  {
    statusUpdate: {
      ...ids,
      status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z' },
    },
  },
];

/** The 0.3 JSON-RPC stream's events (each the `result` of a response with id 5). */
const RPC_RESULTS = [
  '{"kind":"task","id":"t-1","contextId":"c-1","status":{"state":"submitted"},"history":[{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hi"}]}]}',
  '{"kind":"artifact-update","taskId":"t-1","contextId":"c-1","artifact":{"artifactId":"a-1","name":"notes","parts":[{"kind":"text","metadata":{"k":1},"text":"one"},{"kind":"text","mediaType":"text/plain","text":"two"},{"kind":"file","file":{"bytes":"aGk=","mimeType":"text/plain","name":"f.txt"}},{"kind":"file","file":{"uri":"https://example.com/y.png","mimeType":"image/png"}},{"kind":"data","data":{"a":1}},{"kind":"data","data":{"value":[1,2]},"metadata":{"data_part_compat":true}}]}}',
  '{"kind":"artifact-update","taskId":"t-1","contextId":"c-1","append":true,"lastChunk":true,"artifact":{"artifactId":"a-1","parts":[{"kind":"text","text":"three"}]}}',
  '{"kind":"status-update","taskId":"t-1","contextId":"c-1","status":{"state":"working","message":{"kind":"message","messageId":"m-2","role":"agent","parts":[{"kind":"text","text":"working"}]}},"final":false}',
  '{"kind":"status-update","taskId":"t-1","contextId":"c-1","status":{"timestamp":"2026-01-01T00:00:00.000Z","state":"completed"},"final":true}',
];
const RPC_TEXT = RPC_RESULTS.map((r) => `data: {"jsonrpc":"2.0","id":5,"result":${r}}\n\n`).join('');

/** The 0.3 HTTP+JSON stream's events (ProtoStreamResponse, ProtoJSON). */
const REST_TEXT = [
  '{"task":{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_SUBMITTED"},"history":[{"messageId":"m-1","role":"ROLE_USER","content":[{"text":"hi"}]}]}}',
  '{"artifactUpdate":{"taskId":"t-1","contextId":"c-1","artifact":{"artifactId":"a-1","name":"notes","parts":[{"text":"one","metadata":{"k":1}},{"mediaType":"text/plain","text":"two"},{"file":{"fileWithBytes":"aGk=","mimeType":"text/plain","name":"f.txt"}},{"file":{"fileWithUri":"https://example.com/y.png","mimeType":"image/png"}},{"data":{"data":{"a":1}}},{"data":{"data":{"value":[1,2]}},"metadata":{"data_part_compat":true}}]}}}',
  '{"artifactUpdate":{"taskId":"t-1","contextId":"c-1","append":true,"lastChunk":true,"artifact":{"artifactId":"a-1","parts":[{"text":"three"}]}}}',
  '{"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING","message":{"messageId":"m-2","role":"ROLE_AGENT","content":[{"text":"working"}]}},"final":false}}',
  '{"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"timestamp":"2026-01-01T00:00:00.000Z","state":"TASK_STATE_COMPLETED"},"final":true}}',
]
  .map((e) => `data: ${e}\n\n`)
  .join('');

const streaming: Partial<A2aOperations> = {
  async *sendStreamingMessage() {
    yield* structuredClone(EVENTS);
  },
};
// sound: only the streaming operation is called here; every other one is a stub that throws.
const operations = new Proxy(streaming, {
  get: (o, k) =>
    Reflect.get(o, k) ??
    (() => {
      throw new Error('not called in this test');
    }),
}) as A2aOperations;
const app = serveA2a(operations, { validateResponses: true });

const JSON_BODY = { 'content-type': 'application/json' };
const rpcBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 5,
  method: 'message/stream',
  params: {
    message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'go' }] },
  },
});
const restBody = JSON.stringify({
  message: { messageId: 'm', role: 'ROLE_USER', content: [{ text: 'go' }] },
});

describe('0.3 streams served by 1.0 handlers, byte for byte', () => {
  it('json-rpc > message/stream (web stream writer)', async () => {
    const res = await app.request('/jsonrpc', { method: 'POST', headers: JSON_BODY, body: rpcBody });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(RPC_TEXT);
  });

  it('http+json > /v1/message:stream (web stream writer)', async () => {
    const res = await app.request('/v1/message:stream', {
      method: 'POST',
      headers: JSON_BODY,
      body: restBody,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(REST_TEXT);
  });

  it('both bindings over node:http (the writer that takes the Node response over)', async () => {
    const served = await serveLocal(app.fetch, 0);
    try {
      const post = async (path: string, body: string) =>
        (await fetch(`${served.url}${path}`, { method: 'POST', headers: JSON_BODY, body })).text();
      expect(await post('/jsonrpc', rpcBody)).toBe(RPC_TEXT);
      expect(await post('/v1/message:stream', restBody)).toBe(REST_TEXT);
    } finally {
      await closeLocal(served);
    }
  });
});
