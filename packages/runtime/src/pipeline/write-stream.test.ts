import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { sendStream } from './write-stream.js';

async function* items() {
  yield { n: 1 };
  yield { n: 2 };
}

function app(nodeStreams: boolean) {
  const hono = new Hono();
  hono.use(async (c, next) => {
    c.header('x-from-middleware', 'kept');
    await next();
  });
  hono.get('/', (c) =>
    sendStream(
      c,
      {
        status: 201,
        headers: { 'content-type': 'application/x-ndjson' },
        items: items(),
        framing: 'ndjson',
        options: {},
      },
      nodeStreams,
    ),
  );
  return hono;
}

/** A Node response that records what is written to it. */
function fakeOutgoing() {
  const written: { status?: number; headers?: Record<string, unknown>; chunks: string[] } = { chunks: [] };
  let ended: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const outgoing = {
    headersSent: false,
    writableEnded: false,
    destroyed: false,
    writeHead(status: number, headers: Record<string, unknown>) {
      written.status = status;
      written.headers = headers;
    },
    write(chunk: string) {
      written.chunks.push(chunk);
      return true;
    },
    end(chunk?: string) {
      if (chunk) written.chunks.push(chunk);
      outgoing.writableEnded = true;
      ended();
    },
    once() {},
    off() {},
  };
  return { outgoing, written, done };
}

describe('sendStream', () => {
  it("web > without a Node response, a web stream with the answer's headers", async () => {
    const res = await app(true).request('/');
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([
      201,
      'application/x-ndjson',
      '{"n":1}\n{"n":2}\n',
    ]);
  });

  it.each([
    ["node > on @hono/node-server, straight to the Node response with the middleware's headers", true, true],
    ['node > with nodeStreams off, the web stream even there', false, false],
  ])('%s', async (_name, nodeStreams, direct) => {
    const { outgoing, written, done } = fakeOutgoing();
    const res = await app(nodeStreams).request('/', {}, { outgoing });
    if (!direct) {
      expect(await res.text()).toBe('{"n":1}\n{"n":2}\n');
      expect(written.status).toBeUndefined();
      return;
    }
    await done;
    expect(written.status).toBe(201);
    expect(written.headers).toEqual({ 'content-type': 'application/x-ndjson', 'x-from-middleware': 'kept' });
    expect(written.chunks.join('')).toBe('{"n":1}\n{"n":2}\n');
  });
});
