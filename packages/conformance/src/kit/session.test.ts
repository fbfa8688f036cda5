import { resolveBinding } from '@agentproto/registry';
import { describe, expect, it } from 'vitest';
import { Session } from './session.js';

/** A target whose every answer is this SSE text. */
const sse = (text: string) => ({
  baseUrl: 'http://app',
  label: 'app',
  fetch: async () => new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
});

describe('kit > session', () => {
  it('a JSON-RPC answer sent as an event stream: read up to the response with the id, priming events skipped', async () => {
    const binding = await resolveBinding('mcp@2025-11-25');
    const text = [
      'id: 1\ndata: \n\n',
      'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}\n\n',
      'data: {"jsonrpc":"2.0","id":7,"result":{}}\n\n',
      'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"after"}}\n\n',
    ].join('');
    const session = new Session(sse(text), binding, 5_000);
    const x = await session.call('POST', '/mcp', {
      json: {},
      answerId: 7,
      expect: { 200: 'JSONRPCResponse' },
    });
    expect(x.body).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    expect(x.problems).toEqual([]);
    expect(x.text).not.toContain('after');
  });

  it('a stream that ends without the response is a problem, and so is a response that breaks its schema', async () => {
    const binding = await resolveBinding('mcp@2025-11-25');
    const ended = new Session(sse('data: {"jsonrpc":"2.0","id":8,"result":{}}\n\n'), binding, 5_000);
    const x = await ended.call('POST', '/mcp', { json: {}, answerId: 7, expect: { 200: 'JSONRPCResponse' } });
    expect(x.problems.join()).toContain('ended without the response to request 7');
    const broken = new Session(sse('data: {"jsonrpc":"1.0","id":7,"result":{}}\n\n'), binding, 5_000);
    const y = await broken.call('POST', '/mcp', {
      json: {},
      answerId: 7,
      expect: { 200: 'JSONRPCResponse' },
    });
    expect(y.problems.length).toBeGreaterThan(0);
    expect(broken.wireFailures.length).toBeGreaterThan(0);
  });
});

describe('kit > session > counting', () => {
  it('a message with several schema problems counts once among the messages that break their schemas', async () => {
    const binding = await resolveBinding('mcp@2025-11-25');
    const json = {
      baseUrl: 'http://app',
      label: 'app',
      fetch: async () =>
        new Response('{"jsonrpc":"1.0","id":null,"error":{"code":"x"}}', {
          status: 400,
          headers: { 'content-type': 'application/json' },
        }),
    };
    const session = new Session(json, binding, 5_000);
    await session.call('POST', '/mcp', { json: {}, expect: { 400: 'JSONRPCErrorResponse' } });
    expect(session.wireFailures.length).toBeGreaterThan(1);
    expect(session.messagesFailed).toBe(1);
    expect(session.messagesValidated).toBe(1);
  });
});
