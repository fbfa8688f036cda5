// The draft's "example event flows", each over real HTTP on 127.0.0.1 (port 0), driven by the generated typed
// client; plus resuming a dropped SSE connection, `since` polling and concurrent subscribers.

import {
  type AgentEvent,
  type AgentProtocol2025Client,
  createAgentProtocol2025Client,
  createStreamCheck,
  type Request,
  validators,
} from '@agentproto/agent-protocol-2025';
import { startReferenceServer } from '@agentproto/agent-protocol-2025/reference-agent/serve';
import { parseFrames, readFrames } from '@agentproto/runtime';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checked, chunksOf, prop, stringAt } from '../support/typed.js';

let server: ServerType;
let url: string;
let client: AgentProtocol2025Client;
const agent = { path: { agent: 'assistant' } };

beforeAll(async () => {
  ({ server, url } = await startReferenceServer(0));
  client = createAgentProtocol2025Client({ baseUrl: url });
});
afterAll(() => {
  server.close();
});

/** Sends a request with `wait` and returns its first event. */
async function start(body: Request): Promise<AgentEvent> {
  const r = await client.processRequest({ params: { ...agent, query: { wait: true } }, body });
  if (!r.data) throw new Error(`process answered ${r.response.status}: ${JSON.stringify(r.error)}`);
  return r.data;
}

/** Streams a request's events until RequestCompleted, checking each against AgentEvent. */
async function follow(requestId: string, stop?: (e: AgentEvent) => boolean): Promise<AgentEvent[]> {
  const r = await client.getEvents({ params: { ...agent, query: { request_id: requestId, stream: true } } });
  if (!r.items) throw new Error(`getevents answered ${r.response.status}`);
  const events: AgentEvent[] = [];
  for await (const e of r.items) {
    expect(validators.AgentEvent(e), JSON.stringify(e)).toBe(true);
    events.push(e);
    if (stop?.(e)) break;
  }
  return events;
}

const types = (events: AgentEvent[]) => events.map((e) => e.type);

/** Every request's events: RequestStarted first, exactly one RequestCompleted last, ids increasing. */
function wellFormed(events: AgentEvent[]) {
  const check = createStreamCheck();
  expect([...events.flatMap((e, i) => check.push(e, { index: i + 1 })), ...check.end()]).toEqual([]);
  expect(events[0]?.type).toBe('RequestStarted');
  expect(events.filter((e) => e.type === 'RequestCompleted')).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('RequestCompleted');
  for (let i = 1; i < events.length; i++) expect((events[i]?.id ?? 0) > (events[i - 1]?.id ?? 0)).toBe(true);
}

describe('e2e > agent protocol draft 2025: the example flows', () => {
  it('discovery and describe > / lists the agents; describe names chat and the TypeBox operation', async () => {
    const list = await client.listAgents();
    expect(list.data).toEqual([
      { name: 'assistant', path: '/assistant' },
      { name: 'echo', path: '/echo' },
      { name: 'relay', path: '/relay' },
    ]);
    const d = await client.describeAgent({ params: agent });
    expect(d.data?.operations.map((o) => o.name)).toEqual(['chat', 'summarize']);
    expect(d.data?.operations[1]?.input_schema).toMatchObject({
      type: 'object',
      required: ['text', 'max_words'],
      properties: { max_words: { type: 'integer', minimum: 1 } },
    });
  });

  it('configure > POST /process (ConfigureRequest, wait) → RequestCompleted', async () => {
    const done = await start({ type: 'ConfigureRequest', args: { model: 'small' } });
    expect(done).toMatchObject({ type: 'RequestCompleted', finish_reason: 'success' });
  });

  it("the draft's own URLs > wait=True and stream=True, as Python's requests spells a bool, are taken", async () => {
    const waited = await fetch(`${url}/assistant/process?wait=True`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'ConfigureRequest', args: { model: 'small' } }),
    });
    const done: unknown = await waited.json();
    expect({ status: waited.status, type: prop(done, 'type') }).toEqual({
      status: 200,
      type: 'RequestCompleted',
    });
    const streamed = await fetch(
      `${url}/assistant/getevents?request_id=${stringAt(done, 'request_id')}&stream=True`,
    );
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await streamed.text()).toMatch(/"type":"RequestCompleted"/);
    const refused = await fetch(`${url}/assistant/process?wait=yes`, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(400);
  });

  it('start and stream > RequestStarted carries request_id and run_id; the stream runs to RequestCompleted', async () => {
    const started = await start({ type: 'ChatRequest', input: 'What is the weather in Paris?' });
    expect(started).toMatchObject({
      type: 'RequestStarted',
      run_id: expect.any(Number),
      request_id: expect.any(String),
    });
    const events = await follow(started.request_id ?? '');
    wellFormed(events);
    expect(types(events)).toEqual([
      'RequestStarted',
      'ToolCall',
      'ToolResult',
      'CompletionCall',
      'CompletionResult',
      'TextOutput',
      'RequestCompleted',
    ]);
    expect(events.at(-1)).toMatchObject({
      finish_reason: 'success',
      result: 'The weather in Paris: 18 °C, clear.',
    });
  });

  it('continue a run > the second turn remembers the first; event ids keep increasing in the run', async () => {
    const first = await start({ type: 'ChatRequest', input: 'My name is Ada' });
    const one = await follow(first.request_id ?? '');
    const second = await start({
      type: 'ChatRequest',
      input: 'What did I say before?',
      run_id: first.run_id,
    });
    expect(second.run_id).toBe(first.run_id);
    const two = await follow(second.request_id ?? '');
    expect(two.at(-1)).toMatchObject({ result: 'You said: My name is Ada' });
    expect(two[0]?.id).toBeGreaterThan(one.at(-1)?.id ?? 0);
  });

  it('human in the loop > WaitForInput pauses the request until ResumeWithInput', async () => {
    const started = await start({ type: 'ChatRequest', input: 'Please buy me a set of cutting boards' });
    const requestId = started.request_id ?? '';
    const before = await follow(requestId, (e) => e.type === 'WaitForInput');
    expect(before.at(-1)).toMatchObject({
      type: 'WaitForInput',
      request_keys: { material: 'Wooden or plastic?' },
    });
    const status = await client.getRequestStatus({
      params: { path: { agent: 'assistant', request_id: requestId } },
    });
    expect(status.data?.status).toBe('waiting_for_input');
    const early = await client.processRequest({
      params: { ...agent, query: { wait: false } },
      body: { type: 'ResumeWithInput', request_id: 'no-such-request', request_keys: {} },
    });
    expect(early.response.status).toBe(404);
    const resumed = await client.processRequest({
      params: { ...agent, query: { wait: false } },
      body: { type: 'ResumeWithInput', request_id: requestId, request_keys: { material: 'wooden' } },
    });
    expect(resumed.response.status).toBe(202);
    expect(resumed.response.headers.get('location')).toBe(`/assistant/request/${requestId}`);
    const all = await follow(requestId);
    wellFormed(all);
    expect(all.at(-1)).toMatchObject({ result: 'Ordered a set of cutting boards (wooden).' });
    const again = await client.processRequest({
      params: { ...agent, query: { wait: false } },
      body: { type: 'ResumeWithInput', request_id: requestId, request_keys: { material: 'plastic' } },
    });
    expect(again.response.status).toBe(409);
  });

  it('cancel > CancelRequest ends the request canceled, exactly once, and stops the handler', async () => {
    const started = await start({ type: 'ChatRequest', input: 'count slowly' });
    const requestId = started.request_id ?? '';
    const early = await follow(requestId, (e) => e.type === 'TextOutput' && e.content === '3');
    expect(types(early)).toContain('TextOutput');
    const canceled = await start({ type: 'CancelRequest', request_id: requestId });
    expect(canceled).toMatchObject({
      type: 'RequestCompleted',
      finish_reason: 'canceled',
      request_id: requestId,
    });
    const all = await follow(requestId);
    wellFormed(all);
    const count = all.length;
    await new Promise((r) => setTimeout(r, 60));
    const later = await client.getEvents({
      params: { ...agent, query: { request_id: requestId, since: 0 } },
    });
    expect(later.data).toHaveLength(count);
    const twice = await client.processRequest({
      params: { ...agent, query: { wait: true } },
      body: { type: 'CancelRequest', request_id: requestId },
    });
    expect(twice.response.status).toBe(409);
  });

  it('artifact > ArtifactGenerated reaches the caller', async () => {
    const started = await start({ type: 'ChatRequest', input: 'Write the report' });
    const events = await follow(started.request_id ?? '');
    expect(events.find((e) => e.type === 'ArtifactGenerated')).toMatchObject({
      name: 'report.pdf',
      mime_type: 'application/pdf',
    });
  });

  it('persisted runs > GET /runs lists them; GET /getevents/{run_id} and /events/{run_id} return a run in order', async () => {
    const runs = await client.listRuns({ params: agent });
    expect(runs.data?.length).toBeGreaterThan(0);
    const run = runs.data?.find((r) => r.requests >= 2);
    const events = await client.getRunEvents({
      params: { path: { agent: 'assistant', run_id: String(run?.run_id) }, query: {} },
    });
    const ids = (events.data ?? []).map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.length).toBe(run?.last_event_id);
    // The draft's "Persisted Runs" example reads the same history at /events/{run_id}.
    const persisted = await client.getPersistedRunEvents({
      params: { path: { agent: 'assistant', run_id: String(run?.run_id) }, query: {} },
    });
    expect(persisted.data).toEqual(events.data);
    expect((await fetch(`${url}/assistant/events/999999`)).status).toBe(404);
  });

  it('custom operation > a TypeBox operation validates its input and answers its typed output', async () => {
    const started = await start({ type: 'summarize', input: { text: 'one two three four', max_words: 2 } });
    const events = await follow(started.request_id ?? '');
    expect(events.at(-1)).toMatchObject({
      finish_reason: 'success',
      result: { summary: 'one two', truncated: true },
    });
    const bad = await client.processRequest({
      params: { ...agent, query: { wait: true } },
      body: { type: 'summarize', input: { text: 'x', max_words: 'two' } },
    });
    expect(bad.response.status).toBe(422);
    expect(bad.error).toMatchObject({
      errors: [{ pointer: '/input/max_words', message: 'must be integer' }],
    });
  });

  it('stream_request > one call starts the request and streams it, with id: lines', async () => {
    const res = await fetch(`${url}/echo/stream_request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'ChatRequest', input: 'ping' }),
    });
    const frames = [];
    for await (const f of parseFrames(readFrames(chunksOf(res.body), 'sse'))) frames.push(f);
    expect(frames.map((f) => (f.ok ? prop(f.value, 'type') : f.error))).toEqual([
      'RequestStarted',
      'TextOutput',
      'RequestCompleted',
    ]);
    expect(frames.map((f) => f.id)).toEqual(['1', '2', '3']);
  });

  it('unknown agent > 404 problem', async () => {
    const r = await client.describeAgent({ params: { path: { agent: 'nobody' } } });
    expect(r.response.status).toBe(404);
  });
});

describe('e2e > agent protocol draft 2025: delivery', () => {
  it('resume > after a dropped SSE connection, Last-Event-ID resumes with no gap and no duplicate', async () => {
    const started = await start({ type: 'ChatRequest', input: 'count slowly' });
    const requestId = started.request_id ?? '';
    const drop = new AbortController();
    const res = await fetch(`${url}/assistant/getevents?request_id=${requestId}&stream=true`, {
      signal: drop.signal,
    });
    const seen: AgentEvent[] = [];
    let lastId = '';
    try {
      for await (const f of parseFrames(readFrames(chunksOf(res.body), 'sse'))) {
        if (!f.ok) throw new Error(f.error);
        seen.push(checked(f.value, validators.AgentEvent));
        lastId = f.id ?? '';
        if (seen.length === 5) drop.abort();
      }
    } catch {
      // The connection was dropped on purpose.
    }
    expect(seen).toHaveLength(5);
    await new Promise((r) => setTimeout(r, 50));
    const resumed = await fetch(`${url}/assistant/getevents?request_id=${requestId}&stream=true`, {
      headers: { 'last-event-id': lastId },
    });
    await start({ type: 'CancelRequest', request_id: requestId });
    for await (const f of parseFrames(readFrames(chunksOf(resumed.body), 'sse'))) {
      if (f.ok) seen.push(checked(f.value, validators.AgentEvent));
    }
    wellFormed(seen);
    const ids = seen.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBe((ids[i - 1] ?? 0) + 1);
  });

  it('since > polling returns what is new since the last poll, or since the given id', async () => {
    const started = await start({ type: 'ChatRequest', input: 'count slowly' });
    const requestId = started.request_id ?? '';
    const poll = async (since?: number) =>
      (
        await client.getEvents({
          params: { ...agent, query: { request_id: requestId, ...(since === undefined ? {} : { since }) } },
        })
      ).data ?? [];
    // Polls until something new arrived, a bounded number of times: timing varies with the machine's load.
    const next = async () => {
      for (let i = 0; i < 100; i++) {
        const events = await poll();
        if (events.length > 0) return events;
        await new Promise((r) => setTimeout(r, 20));
      }
      return [];
    };
    const first = await next();
    const second = await next();
    expect(first[0]?.id).toBe(1);
    expect(second[0]?.id).toBe((first.at(-1)?.id ?? 0) + 1);
    const fromTwo = await poll(2);
    expect(fromTwo[0]?.id).toBe(3);
    await start({ type: 'CancelRequest', request_id: requestId });
  });

  it('subscribers > three concurrent streams of one request see the same events', async () => {
    const started = await start({ type: 'ChatRequest', input: 'count slowly' });
    const requestId = started.request_id ?? '';
    const subscribers = [0, 1, 2].map(() => follow(requestId));
    await new Promise((r) => setTimeout(r, 80));
    await start({ type: 'CancelRequest', request_id: requestId });
    const [a, b, c] = await Promise.all(subscribers);
    expect(a?.length).toBeGreaterThanOrEqual(2);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    wellFormed(a ?? []);
  });
});
