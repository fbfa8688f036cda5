import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { prop } from '../../../../test/support/typed.js';
import type { ContentSpec, HandlerResult } from '../operation-app.js';
import { OperationState } from './operation-state.js';
import { pipeline } from './step.js';
import { writeResponse } from './write-response.js';

async function* items() {
  yield { id: 'a', n: 1 };
  yield { id: 'b', n: 2 };
}

function app(result: HandlerResult, content?: ContentSpec, headers?: Record<string, string>) {
  const hono = new Hono();
  hono.get(
    '/',
    pipeline(
      () => Object.assign(new OperationState(), { result, content, headers }),
      [writeResponse('op', () => {}, true)],
    ),
  );
  return hono;
}

const json = { 'content-type': 'application/json' };

describe('writeResponse', () => {
  it.each<
    [string, { given: Parameters<typeof app>; want: { status: number; type: string | null; text: string } }]
  >([
    [
      'json > a value as JSON',
      {
        given: [{ status: 200, body: { a: 1 } }, { mediaType: 'application/json', kind: 'json' }, json],
        want: { status: 200, type: 'application/json', text: '{"a":1}' },
      },
    ],
    [
      'yaml > a value as YAML',
      {
        given: [
          { status: 200, body: { a: 1 } },
          { mediaType: 'application/yaml', kind: 'yaml' },
          { 'content-type': 'application/yaml' },
        ],
        want: { status: 200, type: 'application/yaml', text: 'a: 1\n' },
      },
    ],
    [
      'binary > bytes as they are',
      {
        given: [
          { status: 200, body: new Uint8Array([104, 105]) },
          { mediaType: 'application/octet-stream', kind: 'binary' },
          { 'content-type': 'application/octet-stream' },
        ],
        want: { status: 200, type: 'application/octet-stream', text: 'hi' },
      },
    ],
    [
      'empty > no body, the declared media type kept',
      {
        given: [{ status: 200 }, { mediaType: 'application/json', kind: 'json' }, json],
        want: { status: 200, type: 'application/json', text: '' },
      },
    ],
    [
      "no content > a status declared without content: the handler's headers only",
      { given: [{ status: 202, headers: { 'x-a': '1' } }], want: { status: 202, type: null, text: '' } },
    ],
    [
      'sse > items as events, with their ids',
      {
        given: [
          { status: 200, body: items() },
          { mediaType: 'text/event-stream', kind: 'stream', framing: 'sse', sseIdField: 'id' },
          { 'content-type': 'text/event-stream' },
        ],
        want: {
          status: 200,
          type: 'text/event-stream',
          text: 'id: a\ndata: {"id":"a","n":1}\n\nid: b\ndata: {"id":"b","n":2}\n\n',
        },
      },
    ],
    [
      'ndjson > items as lines',
      {
        given: [
          { status: 200, body: items() },
          { mediaType: 'application/x-ndjson', kind: 'stream', framing: 'ndjson' },
          { 'content-type': 'application/x-ndjson' },
        ],
        want: { status: 200, type: 'application/x-ndjson', text: '{"id":"a","n":1}\n{"id":"b","n":2}\n' },
      },
    ],
  ])('%s', async (_name, { given, want }) => {
    const res = await app(...given).request('/');
    expect({ status: res.status, type: res.headers.get('content-type'), text: await res.text() }).toEqual(
      want,
    );
  });

  it('sse > an event stream is not cached by proxies', async () => {
    const res = await app(
      { status: 200, body: items() },
      { mediaType: 'text/event-stream', kind: 'stream', framing: 'sse' },
      { 'content-type': 'text/event-stream' },
    ).request('/');
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('failure > a value JSON cannot hold is 500 response-failed', async () => {
    const res = await app(
      { status: 200, body: { n: 1n } },
      { mediaType: 'application/json', kind: 'json' },
      json,
    ).request('/');
    expect([res.status, prop(await res.json(), 'type')]).toEqual([
      500,
      'https://agentproto.dev/problems/response-failed',
    ]);
  });
});
