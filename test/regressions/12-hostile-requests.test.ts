// Issue 12: requests that froze, broke or bloated a server built on our stubs. Each case failed before the fix:
// deep bodies were stored and then could not be sent back, bodies had no size limit, steps copied their task's input,
// a subscription past the newest event never ended, non-Latin-1 file names broke downloads, and odd numbers,
// lone surrogates and charsets were taken as they came.

import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createAgent as createScopeAgent } from '@agentproto/agentscope/1.1';
import { referenceRun } from '@agentproto/agentscope/reference-agent';
import { DEFAULT_LIMITS, serveLocal } from '@agentproto/runtime';
import type { ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentProtocolApp } from '../../packages/agent-protocol/src/generated/v1/index.js';
import {
  createReferenceAgent as createApV1Agent,
  createReferenceHandlers,
  TaskStore,
} from '../../packages/agent-protocol/src/reference-agent/index.js';
import { createReferenceServer } from '../../packages/agent-protocol-2025/src/reference-agent/index.js';
import { RunRecords } from '../../packages/agent-protocol-2025/src/runs/run-store.js';
import { MemoryStore as AgentMemoryStore } from '../../packages/runtime/src/index.js';
import { at, list, prop, record, stringAt } from '../support/typed.js';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

async function problemOf(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return record(await response.json(), 'the problem');
}

describe('12 > a stored message that could never be sent back', () => {
  it('deep additional_input > refused with 400 before it is stored; the task list still answers', async () => {
    const app = createApV1Agent({ onError: () => {} });
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const created = await app.request('/ap/v1/agent/tasks', json(`{"input":"x","additional_input":${deep}}`));
    expect(created.status).toBe(400);
    expect((await problemOf(created)).type).toMatch(/too-deep$/);
    const list = await app.request('/ap/v1/agent/tasks');
    expect(list.status).toBe(200);
    expect(prop(await list.json(), 'tasks')).toEqual([]);
  });
});

describe('12 > body limits over real HTTP', () => {
  let server: ServerType;
  let url: string;
  beforeAll(async () => {
    ({ server, url } = await serveLocal(createApV1Agent({ onError: () => {} }).fetch, 0));
  });
  afterAll(() => server.close());

  /** Sends a body in chunks without a Content-Length; resolves with the status once the server answers. */
  function sendChunked(path: string, contentType: string, chunk: Buffer, chunks: number) {
    return new Promise<{ status: number; sent: number; body: string }>((resolve, reject) => {
      const request = http.request(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': contentType, 'transfer-encoding': 'chunked' },
      });
      let sent = 0;
      let answered = false;
      request.on('response', (response) => {
        answered = true;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (d: string) => {
          body += d;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, sent, body }));
      });
      request.on('error', (error) => (answered ? undefined : reject(error)));
      const pump = () => {
        while (!answered && sent < chunks) {
          sent++;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        if (!answered) request.end();
      };
      pump();
    });
  }

  it('json > a 50 MB body is refused with 413 long before it is all sent', async () => {
    const got = await sendChunked(
      '/ap/v1/agent/tasks',
      'application/json',
      Buffer.alloc(64 * 1024, 0x20),
      800,
    );
    expect(got.status).toBe(413);
    expect(JSON.parse(got.body).type).toMatch(/body-too-large$/);
    expect(got.sent).toBeLessThan(800);
  });

  it('json > a declared Content-Length over the limit is refused at once', async () => {
    const response = await fetch(`${url}/ap/v1/agent/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `"${'x'.repeat(DEFAULT_LIMITS.jsonBytes)}"`,
    });
    expect(response.status).toBe(413);
  });

  it('415 > an unsupported media type is refused without reading 300 MB', async () => {
    const got = await sendChunked('/ap/v1/agent/tasks', 'text/plain', Buffer.alloc(64 * 1024, 0x41), 4800);
    expect(got.status).toBe(415);
    expect(got.sent).toBeLessThan(4800);
  });

  it('multipart > 100,000 parts are refused with 413', async () => {
    const task = {
      task_id: stringAt(
        await (await fetch(`${url}/ap/v1/agent/tasks`, json({ input: 'x' }))).json(),
        'task_id',
      ),
    };
    const part = '--b\r\ncontent-disposition: form-data; name="x"\r\n\r\n1\r\n';
    const response = await fetch(`${url}/ap/v1/agent/tasks/${task.task_id}/artifacts`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: `${part.repeat(100_000)}--b--\r\n`,
    });
    expect(response.status).toBe(413);
    expect((await problemOf(response)).type).toMatch(/too-many-parts$/);
  });
});

describe('12 > memory amplification in the Agent Protocol v1 reference agent', () => {
  it('steps > 60 steps after a large input keep a preview, and every output.txt shares one copy', async () => {
    const store = new TaskStore();
    const app = createAgentProtocolApp(createReferenceHandlers(store));
    const input = 'y'.repeat(900_000);
    const task = {
      task_id: stringAt(await (await app.request('/ap/v1/agent/tasks', json({ input }))).json(), 'task_id'),
    };
    for (let i = 0; i < 60; i++) {
      const step = await app.request(`/ap/v1/agent/tasks/${task.task_id}/steps`, json({}));
      expect(step.status).toBe(200);
      expect(stringAt(await step.json(), 'output').length).toBeLessThan(300);
    }
    const stored = await store.get(task.task_id);
    const outputs = new Set(Object.values(stored?.blobs ?? {}));
    expect(stored?.artifacts.length).toBe(58);
    expect(outputs.size).toBe(1);
    if (!stored) throw new Error('the task is not in the store');
    expect((await store.bytes(stored, stored.artifacts[0]?.artifact_id ?? ''))?.byteLength).toBe(900_000);
  });

  it('retention > past maxRecords the oldest tasks go, and a task past maxStepsPerTask is refused', async () => {
    const store = new TaskStore(new AgentMemoryStore({ maxRecords: 3 }), { maxStepsPerTask: 2 });
    const app = createAgentProtocolApp(createReferenceHandlers(store));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        stringAt(await (await app.request('/ap/v1/agent/tasks', json({ input: `${i}` }))).json(), 'task_id'),
      );
    const statuses = await Promise.all(
      ids.map(async (id) => (await app.request(`/ap/v1/agent/tasks/${id}`)).status),
    );
    expect(statuses).toEqual([404, 404, 200, 200, 200]);
    const last = at(ids, 4);
    for (const want of [200, 200, 400]) {
      const step = await app.request(`/ap/v1/agent/tasks/${last}/steps`, json({}));
      expect(step.status).toBe(want);
    }
  });

  it('retention > past maxRecordBytes the oldest tasks go', async () => {
    const store = new TaskStore(new AgentMemoryStore({ maxRecordBytes: 250_000 }));
    const app = createAgentProtocolApp(createReferenceHandlers(store));
    for (let i = 0; i < 10; i++)
      await app.request('/ap/v1/agent/tasks', json({ input: 'z'.repeat(100_000) }));
    expect((await store.page(1, 100)).items.length).toBe(2);
  });
});

describe('12 > the draft-2025 agent', () => {
  let server: ServerType;
  let url: string;
  beforeAll(async () => {
    ({ server, url } = await serveLocal(createReferenceServer().fetch, 0));
  });
  afterAll(() => server.close());

  it('sse > a Last-Event-ID past the newest event still ends with RequestCompleted', async () => {
    const started = await fetch(
      `${url}/assistant/process?wait=true`,
      json({ type: 'ChatRequest', input: 'buy me a chair' }),
    );
    const request_id = stringAt(await started.json(), 'request_id');
    const stream = await fetch(`${url}/assistant/getevents?request_id=${request_id}&stream=true`, {
      headers: { 'last-event-id': '999999' },
    });
    expect(stream.status).toBe(200);
    const resumed = await fetch(
      `${url}/assistant/process?wait=true`,
      json({ type: 'ResumeWithInput', request_id, request_keys: { material: 'wood' } }),
    );
    expect(resumed.status).toBe(200);
    const text = await stream.text(); // ends only once the stream does
    expect(text).toContain('"RequestCompleted"');
  });

  it.each([['2abc'], ['-1'], ['0x10'], ['5.0']])('sse > Last-Event-ID %j is refused with 400', async (id) => {
    const started = await fetch(`${url}/echo/process?wait=true`, json({ type: 'ChatRequest', input: 'hi' }));
    const request_id = stringAt(await started.json(), 'request_id');
    const response = await fetch(`${url}/echo/getevents?request_id=${request_id}&stream=true`, {
      headers: { 'last-event-id': id },
    });
    expect(response.status).toBe(400);
    expect((await problemOf(response)).type).toMatch(/invalid-last-event-id$/);
  });

  it('buy > a long run of dots after the item is trimmed in one pass', async () => {
    const app = createReferenceServer();
    const first = await app.request(
      '/assistant/process?wait=true',
      json({ type: 'ChatRequest', input: `buy ${'.'.repeat(80_000)}x${'!'.repeat(80_000)}` }),
    );
    const request_id = stringAt(await first.json(), 'request_id');
    const done = await app.request(
      '/assistant/process?wait=true',
      json({ type: 'ResumeWithInput', request_id, request_keys: { material: 'wood' } }),
    );
    expect(done.status).toBe(200);
    const events = list(
      await (await app.request(`/assistant/getevents?request_id=${request_id}&since=0`)).json(),
    );
    const answer = prop(
      events.find((e) => prop(e, 'type') === 'TextOutput'),
      'content',
    );
    expect(String(answer ?? '').endsWith('x (wood).')).toBe(true);
  });

  it('request_id > a lone surrogate is refused before the request runs', async () => {
    const store = new AgentMemoryStore();
    const app = createReferenceServer({ store });
    const response = await app.request(
      '/echo/process',
      json('{"type":"ChatRequest","input":"hi","request_id":"\\ud800"}'),
    );
    expect(response.status).toBe(400);
    expect(await new RunRecords(store, 'echo').listRuns()).toEqual([]);
  });

  it('retention > the memory store keeps at most maxRecords runs and maxEventsPerLog events a run', async () => {
    const store = new AgentMemoryStore({ maxRecords: 3, maxEventsPerLog: 50 });
    const app = createReferenceServer({ store });
    for (let i = 0; i < 6; i++)
      await app.request('/echo/process?wait=true', json({ type: 'ChatRequest', input: `turn ${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const records = new RunRecords(store, 'echo');
    const runs = await records.listRuns();
    expect(runs.map((r) => r.run_id)).toEqual([4, 5, 6]);
    const run = await records.createRun();
    for (let i = 0; i < 200; i++)
      await store.append(records.runLog(run.run_id), { type: 'TextOutput', role: 'assistant' });
    const kept = await records.runEvents(run.run_id, 0);
    expect(kept.length).toBeLessThanOrEqual(55);
    expect(kept.at(-1)?.id).toBe(200);
  });
});

describe('12 > artifact downloads with any file name', () => {
  it.each([
    ['日本語.txt', '日本語.txt'],
    ['a\r\nb.txt', 'a\r\nb.txt'],
    ['nul\u0000.txt', 'nul\u0000.txt'],
    ['\u0001"quoted".txt', '\u0001"quoted".txt'],
  ])('download > %j answers 200 with an RFC 6266 name', async (name, want) => {
    const app = createApV1Agent({ onError: () => {} });
    const task = {
      task_id: stringAt(
        await (await app.request('/ap/v1/agent/tasks', json({ input: 'x' }))).json(),
        'task_id',
      ),
    };
    const form = new FormData();
    form.append('file', new File(['data'], name));
    const uploaded = await app.request(`/ap/v1/agent/tasks/${task.task_id}/artifacts`, {
      method: 'POST',
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const artifact_id = stringAt(await uploaded.json(), 'artifact_id');
    const download = await app.request(`/ap/v1/agent/tasks/${task.task_id}/artifacts/${artifact_id}`);
    expect(download.status).toBe(200);
    const disposition = download.headers.get('content-disposition') ?? '';
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? '';
    expect(decodeURIComponent(encoded)).toBe(want);
    expect(await download.text()).toBe('data');
  });
});

describe('12 > parameters, charsets and UTF-8', () => {
  const app = createApV1Agent({ onError: () => {} });
  it.each([['0x10'], [' 5'], ['1e3'], ['05'], ['2abc']])(
    'query > page_size=%j is refused with 400',
    async (value) => {
      const response = await app.request(`/ap/v1/agent/tasks?page_size=${encodeURIComponent(value)}`);
      expect(response.status).toBe(400);
      expect(prop(list((await problemOf(response)).errors)[0], 'pointer')).toBe('/page_size');
    },
  );

  it('query > page_size=10 is taken', async () => {
    expect((await app.request('/ap/v1/agent/tasks?page_size=10')).status).toBe(200);
  });

  it('charset > a latin-1 body is refused with 415', async () => {
    const response = await app.request(
      '/ap/v1/agent/tasks',
      json('{}', { 'content-type': 'application/json; charset=latin1' }),
    );
    expect(response.status).toBe(415);
  });

  it('utf-8 > invalid bytes are refused with 400, not replaced', async () => {
    const response = await app.request('/ap/v1/agent/tasks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([
        0x7b, 0x22, 0x69, 0x6e, 0x70, 0x75, 0x74, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d,
      ]),
    });
    expect(response.status).toBe(400);
    expect((await problemOf(response)).type).toMatch(/invalid-utf8$/);
  });
});

describe('12 > memory after streamed requests', () => {
  it('sse > 200 streamed requests, chunked and not, leave no request context behind', async () => {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    if (typeof gc !== 'function') throw new Error('--expose-gc gave no gc function');
    const contexts: Array<WeakRef<object>> = [];
    const base = new Hono();
    base.use('*', async (c, next) => {
      contexts.push(new WeakRef(c));
      await next();
    });
    const app = createScopeAgent({ run: referenceRun, app: { app: base } });
    const { server, url } = await serveLocal(app.fetch, 0);
    const body = JSON.stringify({
      input: [{ role: 'user', type: 'message', content: [{ type: 'text', text: 'a b c' }] }],
    });
    const one = (chunked: boolean) =>
      new Promise<void>((resolve, reject) => {
        const request = http.request(`${url}/process`, {
          method: 'POST',
          agent: false,
          headers: {
            'content-type': 'application/json',
            ...(chunked ? { 'transfer-encoding': 'chunked' } : {}),
          },
        });
        request.on('error', reject);
        request.on('response', (response) => {
          response.resume();
          response.on('close', () => resolve());
        });
        request.end(body);
      });
    try {
      await Promise.all(Array.from({ length: 200 }, (_, i) => one(i % 2 === 0)));
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      server.close();
    }
    gc();
    gc();
    expect(contexts.length).toBe(200);
    // Before the fix each context stayed reachable through the platform Request's FinalizationRegistry.
    expect(contexts.filter((r) => r.deref() !== undefined).length).toBeLessThan(10);
  });
});
