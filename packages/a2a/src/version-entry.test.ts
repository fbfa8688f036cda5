import { describe, expect, it } from 'vitest';
import * as v03 from './generated/0.3/entry.js';
import * as v10 from './generated/1.0/entry.js';

/** A fetch that answers every request with an empty JSON object and keeps the requests' A2A-Version headers. */
function recorder() {
  const seen: Array<string | null> = [];
  const fetch = async (request: Request) => {
    seen.push(request.headers.get('A2A-Version'));
    return Response.json({ jsonrpc: '2.0', id: 1, result: {} });
  };
  return { seen, fetch };
}

describe('version entry > clients send their version', () => {
  it.each([
    ['1.0 JSON-RPC sends A2A-Version: 1.0', () => v10.createA2aRpcClient, {}, '1.0'],
    [
      '1.0 JSON-RPC, a header of the caller wins',
      () => v10.createA2aRpcClient,
      { 'A2A-Version': '0.3' },
      '0.3',
    ],
    ['0.3 JSON-RPC sends none (0.3 predates the header)', () => v03.createA2aRpcClient, {}, null],
  ] as const)('%s', async (_, make, headers, want) => {
    const { seen, fetch } = recorder();
    await make()({ url: 'http://agent.test/jsonrpc', fetch, headers }).rpc.call('GetTask', { id: 't' });
    expect(seen).toEqual([want]);
  });

  it.each([
    ['1.0 HTTP+JSON sends A2A-Version: 1.0', {}, '1.0'],
    ['1.0 HTTP+JSON, a header of the caller wins', { headers: { 'A2A-Version': '0.3' } }, '0.3'],
    ['1.0 HTTP+JSON, a header of the request wins', { request: { 'A2A-Version': '2.0' } }, '2.0'],
  ] as const)('%s', async (_, given, want) => {
    const { seen, fetch } = recorder();
    const client = v10.createA2aClient({
      baseUrl: 'http://agent.test',
      fetch,
      ...('headers' in given ? { headers: given.headers } : {}),
    });
    await client.getTask({
      params: { path: { id: 't' } },
      ...('request' in given ? { headers: given.request } : {}),
    });
    expect(seen).toEqual([want]);
  });

  it('0.3 HTTP+JSON sends none', async () => {
    const { seen, fetch } = recorder();
    await v03
      .createA2aClient({ baseUrl: 'http://agent.test', fetch })
      .getTask({ params: { path: { id: 't' } } });
    expect(seen).toEqual([null]);
  });
});
