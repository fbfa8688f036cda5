import { EventEmitter } from 'node:events';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { describe, expect, it } from 'vitest';
import { createOperationApp, type OperationSpec } from '../operation-app.js';
import { serveLocal } from '../serve-local.js';
import { type NodeResponse, nodeResponseOf, writeNodeStream } from './write-node.js';

/** A Node response in memory: records every write, and reports a full buffer on write number `fullAt`. */
class FakeResponse extends EventEmitter implements NodeResponse {
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  writes: string[] = [];
  head: { status: number; headers: Record<string, string | string[]> } | undefined;
  flushedHead = false;
  constructor(private fullAt = 0) {
    super();
  }
  writeHead(status: number, headers: Record<string, string | string[]>) {
    this.head = { status, headers };
    return this;
  }
  write(chunk: string) {
    this.headersSent = true;
    this.writes.push(chunk);
    return this.writes.length !== this.fullAt;
  }
  end(chunk?: string) {
    if (chunk !== undefined) this.writes.push(chunk);
    this.writableEnded = true;
    this.emit('close');
  }
  flushHeaders() {
    this.headersSent = true;
    this.flushedHead = true;
  }
  /** The client goes away. */
  hangUp() {
    this.destroyed = true;
    this.emit('close');
  }
}

async function* items<T>(values: T[], onClose?: () => void): AsyncGenerator<T> {
  try {
    for (const v of values) yield v;
  } finally {
    onClose?.();
  }
}

const tick = () => new Promise((r) => setImmediate(r));

describe('writeNodeStream', () => {
  it('back-pressure > a buffer that fills and drains while the producer is still working loses no item', async () => {
    const res = new FakeResponse(1);
    async function* slow(): AsyncGenerator<number> {
      yield 1;
      // The scheduled flush writes item 1 and finds the buffer full; the socket drains before the next item is ready.
      await tick();
      res.emit('drain');
      await new Promise((r) => setTimeout(r, 5));
      yield 2;
      yield 3;
    }
    const done = writeNodeStream(res, 200, {}, slow(), 'ndjson');
    const ended = await Promise.race([
      done.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 2000)),
    ]);
    expect(ended).toBe(true);
    expect(res.writes.join('')).toBe('1\n2\n3\n');
  });

  it('batching > items ready at once leave in one write, with the head; the end carries what is left', async () => {
    const res = new FakeResponse();
    await writeNodeStream(res, 200, { 'content-type': 'text/event-stream' }, items([1, 2, 3]), 'sse');
    expect(res.head).toEqual({ status: 200, headers: { 'content-type': 'text/event-stream' } });
    expect(res.writes).toEqual(['data: 1\n\ndata: 2\n\ndata: 3\n\n']);
    expect(res.flushedHead).toBe(false);
  });

  it('batching > an item the producer is still working on does not hold up the ones before it', async () => {
    const res = new FakeResponse();
    let release: () => void = () => undefined;
    async function* slowSecond() {
      yield 'first';
      await new Promise<void>((r) => {
        release = r;
      });
      yield 'second';
    }
    const done = writeNodeStream(res, 200, {}, slowSecond(), 'ndjson');
    await tick();
    await tick();
    expect(res.writes).toEqual(['"first"\n']);
    release();
    await done;
    expect(res.writes).toEqual(['"first"\n', '"second"\n']);
  });

  it('head > with no item ready, the head is flushed on its own', async () => {
    const res = new FakeResponse();
    let release: () => void = () => undefined;
    async function* late() {
      await new Promise<void>((r) => {
        release = r;
      });
      yield 1;
    }
    const done = writeNodeStream(res, 200, {}, late(), 'ndjson');
    await tick();
    expect(res.flushedHead).toBe(true);
    release();
    await done;
    expect(res.writes).toEqual(['1\n']);
  });

  it('back-pressure > a full socket buffer pauses the producer until it drains', async () => {
    const res = new FakeResponse(1);
    let produced = 0;
    async function* counting() {
      for (let i = 0; i < 3; i++) {
        produced++;
        yield i;
        // Each item in its own turn, so each is its own write.
        await tick();
      }
    }
    const done = writeNodeStream(res, 200, {}, counting(), 'ndjson');
    for (let i = 0; i < 6; i++) await tick();
    expect(res.writes).toEqual(['0\n']);
    expect(produced).toBe(2);
    res.emit('drain');
    await done;
    expect(res.writes.join('')).toBe('0\n1\n2\n');
  });

  it('client gone > aborts the producer at once and closes it, and writes nothing more', async () => {
    const res = new FakeResponse();
    const abort = new AbortController();
    let closed = false;
    let release: () => void = () => undefined;
    async function* waiting() {
      try {
        yield 1;
        await new Promise<void>((r) => {
          release = r;
          abort.signal.addEventListener('abort', () => r());
        });
        yield 2;
      } finally {
        closed = true;
      }
    }
    const done = writeNodeStream(res, 200, {}, waiting(), 'ndjson', { abort });
    await tick();
    await tick();
    res.hangUp();
    expect(abort.signal.aborted).toBe(true);
    release();
    await done;
    expect(closed).toBe(true);
    expect(res.writes).toEqual(['1\n']);
    expect(res.writableEnded).toBe(false);
  });

  it('broken item > a check failure or a value JSON cannot hold ends the stream there, with the end item', async () => {
    for (const bad of ['three', 3n]) {
      const res = new FakeResponse();
      const errors: unknown[] = [];
      let closed = false;
      await writeNodeStream(
        res,
        200,
        {},
        items([1, 2, bad, 4], () => {
          closed = true;
        }),
        'ndjson',
        {
          check: (item) => (typeof item === 'string' ? 'must not be a string' : undefined),
          onError: (e) => errors.push(e),
          endWith: (reason) => ({ error: reason }),
        },
      );
      const reason =
        typeof bad === 'string' ? 'must not be a string' : 'stream item 3 cannot be written as JSON';
      expect(res.writes.join('')).toBe(`1\n2\n${JSON.stringify({ error: reason })}\n`);
      expect(res.writableEnded).toBe(true);
      expect(closed).toBe(true);
      // The check reports its own faults; only what it did not see reaches onError.
      expect(errors.map(String)).toEqual(typeof bad === 'string' ? [] : [expect.stringMatching(/BigInt/)]);
    }
  });

  it('a producer that throws ends the stream and is reported', async () => {
    const res = new FakeResponse();
    const errors: unknown[] = [];
    async function* failing() {
      yield 1;
      throw new Error('boom');
    }
    await writeNodeStream(res, 200, {}, failing(), 'ndjson', { onError: (e) => errors.push(e) });
    expect(res.writes.join('')).toBe('1\n');
    expect(String(errors[0])).toMatch(/boom/);
  });

  it('nodeResponseOf > only a writable Node response, not one whose head is out or an unknown env', () => {
    expect(nodeResponseOf(undefined)).toBeUndefined();
    expect(nodeResponseOf({ outgoing: {} })).toBeUndefined();
    const res = new FakeResponse();
    expect(nodeResponseOf({ outgoing: res })).toBe(res);
    res.headersSent = true;
    expect(nodeResponseOf({ outgoing: res })).toBeUndefined();
  });
});

describe('streamed answers on @hono/node-server', () => {
  const spec: OperationSpec = {
    operationId: 'events',
    method: 'GET',
    path: '/events',
    pathParams: Object.assign((_value: unknown): _value is unknown => true, { errors: null }),
    query: Object.assign((_value: unknown): _value is unknown => true, { errors: null }),
    responses: {
      '200': [{ mediaType: 'text/event-stream', kind: 'stream', framing: 'sse', sseIdField: 'id' }],
    },
  };
  // The second event comes a moment later: the adapter has the handler's answer by then, mid-stream.
  async function* twoEvents() {
    yield { id: 1, text: 'a' };
    await new Promise((r) => setTimeout(r, 20));
    yield { id: 2, text: 'b' };
  }
  const handlers = { events: () => ({ status: 200, headers: { 'x-run': 'r1' }, body: twoEvents() }) };

  it('go straight to the socket with the same bytes and headers as the web-stream path, middleware headers kept', async () => {
    const answers: Array<{ text: string; headers: Headers }> = [];
    for (const nodeStreams of [true, false]) {
      const wrapped = createOperationApp([spec], handlers, {
        nodeStreams,
        app: new Hono().use(cors({ origin: 'https://example.test' }), async (c, next) => {
          c.header('set-cookie', 'a=1', { append: true });
          c.res.headers.append('set-cookie', 'b=2');
          await next();
        }),
      });
      const { server, url } = await serveLocal(wrapped.fetch, 0);
      try {
        const res = await fetch(`${url}/events`, { headers: { origin: 'https://example.test' } });
        answers.push({ text: await res.text(), headers: res.headers });
      } finally {
        server.close();
      }
    }
    const [direct, web] = answers;
    expect(direct?.text).toBe('id: 1\ndata: {"id":1,"text":"a"}\n\nid: 2\ndata: {"id":2,"text":"b"}\n\n');
    expect(direct?.text).toBe(web?.text);
    for (const a of answers) {
      expect(a.headers.get('content-type')).toBe('text/event-stream');
      expect(a.headers.get('x-run')).toBe('r1');
      expect(a.headers.get('access-control-allow-origin')).toBe('https://example.test');
    }
    // The direct path also keeps the cookies middleware set before the handler.
    expect(direct?.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('a middleware that replaces the answer after the handler does not reach into a stream already on the wire', async () => {
    const app = createOperationApp([spec], handlers, {
      app: new Hono().use(async (c, next) => {
        await next();
        // As compressing or caching middleware do: the adapter gets a response it would write, mid-stream.
        c.res = new Response('replaced', { headers: { 'x-after': 'late' } });
      }),
    });
    const { server, url } = await serveLocal(app.fetch, 0);
    try {
      const res = await fetch(`${url}/events`);
      expect(await res.text()).toBe(
        'id: 1\ndata: {"id":1,"text":"a"}\n\nid: 2\ndata: {"id":2,"text":"b"}\n\n',
      );
    } finally {
      server.close();
    }
  });

  it('HEAD > a stream endpoint answers its head and no body', async () => {
    const app = createOperationApp([spec], handlers);
    const { server, url } = await serveLocal(app.fetch, 0);
    try {
      const res = await fetch(`${url}/events`, { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(await res.text()).toBe('');
      // The connection is still good for the next request.
      expect(await (await fetch(`${url}/events`)).text()).toContain('data: {"id":2');
    } finally {
      server.close();
    }
  });
});
